"""Realistic fights for any installed system, played through its public commands (no hand-written events).

    from bench.fights import make_fight
    fight = make_fight("bnb", events=2500, path=Path("big.jsonl"))   # saved (and closed), or in memory without path

A seeded random GM: combatants from the presets (or custom sheets built from
the declared fields), initiative, then turns of attacks with the system's
first attack command, quick damage and healing, prompts answered with the
command they name (or dismissed), notes, undo and redo, until the log holds
``events`` entries.  Fresh NPC groups join when one side runs thin.
"""

from __future__ import annotations

import contextlib
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import saves
from tracker import Fight, registry
from tracker import commands as C
from tracker.dice import SeededRoller
from tracker.errors import Refused, TrackerError
from tracker.model import NPC, PC
from tracker.plugin import System

SYSTEMS = ("bnb", "blackjack", "zludge", "twod6")
CAST_MAX = 40  # combatants a long fight may have had; then the fallen stay down and the rest fight on


def _sample(p: C.Param) -> Any:
    if p.kind == C.INT:
        return p.min if p.min is not None else 1
    if p.kind == C.CHOICE:
        return p.choices[0]
    if p.kind == C.BOOL:
        return False
    return "x"


def _custom_sheet(system: System, kind: str) -> dict[str, Any]:
    return {p.name: _sample(p) for p in system.sheet_fields(kind) if p.default is None and p.required}


def _attack_spec(system: System) -> C.CommandSpec | None:
    for spec in system.commands():
        names = {p.name for p in spec.params}
        if spec.actor and ("target" in names or "targets" in names):
            return spec
    return None


class GM:
    """Plays a fight: every choice from a seeded random source, every roll from a seeded roller."""

    def __init__(self, fight: Fight, seed: int) -> None:
        self.fight = fight
        self.system = fight.system
        self.rng = random.Random(seed)
        self.attack = _attack_spec(self.system)
        self.specs = {s.name: s for s in self.system.commands()}
        self.npcs = [p for p in self.system.presets() if p.kind == NPC]
        self.pcs = [p for p in self.system.presets() if p.kind == PC]
        self.waves = 0

    def do(self, command: Any) -> bool:
        try:
            self.fight.do(command)
            return True
        except Refused:
            return False

    def add_npcs(self, count: int = 3) -> None:
        self.waves += 1
        if self.npcs:
            preset = self.npcs[self.waves % len(self.npcs)]
            if self.do(C.AddCombatant(name=f"{preset.name} w{self.waves}", preset=preset.id, count=count)):
                return
        sheet = _custom_sheet(self.system, NPC)
        self.do(C.AddCombatant(name=f"Outlaw w{self.waves}", kind=NPC, sheet=sheet, count=count))

    def setup(self) -> None:
        for n in range(2):
            done = False
            if self.pcs:
                preset = self.pcs[n % len(self.pcs)]
                done = self.do(C.AddCombatant(name=f"Hero {n + 1}", preset=preset.id, kind=PC))
            if not done:
                self.do(C.AddCombatant(name=f"Hero {n + 1}", kind=PC, sheet=_custom_sheet(self.system, PC)))
        self.add_npcs()
        self.add_npcs()
        self.do(C.RollInitiative())
        self.do(C.StartFight())

    def able(self) -> list[str]:
        s = self.fight.state
        return [c.id for c in s.present if self.system.takes_turns(s, c) and not self.system.standing(s, c).out]

    def resolve_prompts(self) -> None:
        for _ in range(6):
            state = self.fight.state
            if not state.prompts:
                return
            p = state.prompts[0]
            spec = self.specs.get(p.command or "")
            answered = False
            if spec is not None:
                values = {**p.params}
                if spec.actor and p.combatant:
                    values.setdefault(spec.actor, p.combatant)
                with contextlib.suppress(TrackerError):
                    answered = self.do(spec.make(values))
            if not answered and self.fight.state.prompts and self.fight.state.prompts[0].id == p.id:
                self.do(C.DismissPrompt(prompt_id=p.id, note="GM ruling"))

    def turn(self) -> None:
        f, rng = self.fight, self.rng
        self.resolve_prompts()
        state = f.state
        if state.ended:
            return
        able = self.able()
        pcs = [i for i in able if state.get(i).kind == PC]
        npcs = [i for i in able if state.get(i).kind != PC]
        if len(npcs) < 2 or not pcs:
            if self.revive(PC if not pcs else NPC):
                return
            if len(state.combatants) < CAST_MAX:  # beyond it, whoever still stands fights on
                if pcs:
                    self.add_npcs()
                else:
                    self.do(C.AddCombatant(name=f"Hero {len(state.combatants) + 1}", kind=PC, sheet=self._pc_sheet()))
                return
        if not able:
            if not self.do(C.NextTurn()) and not self.revive(NPC):  # no one can act and no PC is left
                self.do(C.AddCombatant(name=f"Hero {len(state.combatants) + 1}", kind=PC, sheet=self._pc_sheet()))
            return
        r = rng.random()
        actor = state.current
        if r < 0.05 and f.can_undo:
            f.undo()
        elif r < 0.08 and f.can_redo:
            f.redo()
        elif r < 0.11:
            self.do(C.Note(text=f"round {state.round}: dust and smoke"))
        elif r < 0.16:
            target = rng.choice(able)
            self.do(C.Damage(targets=(target,), amount="1"))
        elif r < 0.30:  # the GM keeps a long fight going: first aid, potions, a lucky break
            target = rng.choice(able)
            self.do(C.Heal(targets=(target,), amount=rng.choice(["1", "3", "8"])))
        elif r < 0.62 and actor and self.attack is not None:
            foes = npcs if state.get(actor).kind == PC else pcs
            target = rng.choice(foes or [i for i in able if i != actor] or able)
            names = {p.name for p in self.attack.params}
            values = self.attack.defaults_for(state, actor)
            values[self.attack.actor or "actor"] = actor
            values["targets" if "targets" in names else "target"] = (target,) if "targets" in names else target
            try:
                cmd = self.attack.make(values)
            except TrackerError:
                cmd = None
            if cmd is None or not self.do(cmd):
                self.do(C.NextTurn())
        else:
            if not self.do(C.NextTurn()):
                self.resolve_prompts()
                if not self.do(C.NextTurn()):
                    self.add_npcs()

    def revive(self, kind: str) -> bool:
        """Heal (or, failing that, GM-adjust back) a fallen combatant of ``kind``: long fights keep their cast."""
        state = self.fight.state
        out = [
            c.id
            for c in state.present
            if c.kind == kind and (not self.system.takes_turns(state, c) or self.system.standing(state, c).out)
        ]
        for cid in out:
            if self.do(C.Heal(targets=(cid,), amount="30")):
                return True
        for cid in out:  # the GM's fiat: back on its feet (as a table does to keep a long test fight going)
            if self.fiat(cid):
                return True
        for cid in out:
            if self.do(C.RemoveCombatant(id=cid, reason="carried off")):
                return False
        return False

    def fiat(self, cid: str) -> bool:
        state = self.fight.state
        c = state.get(cid)
        for p in self.system.adjustable(state, c):
            value: Any = None
            if p.name in ("dead", "unconscious") and p.kind == C.BOOL:
                value = False
            elif p.name in ("out", "status") and p.kind == C.CHOICE and p.choices:
                value = p.default or p.choices[0]
            elif p.kind == C.INT and hasattr(c.data, f"max_{p.name}"):
                value = getattr(c.data, f"max_{p.name}")
            if value is not None:
                self.do(C.Adjust(id=cid, field=p.name, value=value, note="back on its feet"))
        # a system whose wounds stay all fight (Zludge) has a GM command that clears a box: every checked one
        mend = self.specs.get("clear_box")
        if mend is not None:
            for box in sorted(getattr(c.data, "wounds", ()), key=lambda b: -b.level):
                with contextlib.suppress(TrackerError):
                    self.do(
                        mend.make({"target": cid, "track": "wounds", "level": box.level, "note": "back on its feet"})
                    )
        state = self.fight.state
        c = state.get(cid)
        return self.system.takes_turns(state, c) and not self.system.standing(state, c).out

    def _pc_sheet(self) -> dict[str, Any]:
        return _custom_sheet(self.system, PC)


def make_fight(
    system_id: str, events: int = 2500, path: str | Path | None = None, *, seed: int = 1, close: bool = True
) -> Fight:
    """A fight of about ``events`` log entries in ``system_id`` (saved to ``path`` if given)."""
    system = registry.load(system_id)
    if path is not None:
        fight: Fight = saves.new_fight(system, path, seed=seed, roller=SeededRoller(seed))
    else:
        fight = Fight(system, roller=SeededRoller(seed))
    gm = GM(fight, seed)
    gm.setup()
    stuck = 0
    while len(fight.entries) < events:
        before = len(fight.entries)
        gm.turn()
        stuck = stuck + 1 if len(fight.entries) == before else 0
        if stuck > 50:
            raise RuntimeError(f"{system_id}: the fight is stuck at {before} events")
    if path is not None and close:
        fight.close()  # type: ignore[attr-defined]
    return fight


if __name__ == "__main__":
    import argparse
    import time

    ap = argparse.ArgumentParser(description="make a realistic fight file")
    ap.add_argument("system", choices=SYSTEMS)
    ap.add_argument("path", type=Path)
    ap.add_argument("--events", type=int, default=2500)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    t0 = time.perf_counter()
    f = make_fight(a.system, a.events, a.path, seed=a.seed)
    print(f"{a.path}: {len(f.entries):,} events in {time.perf_counter() - t0:.1f} s")
