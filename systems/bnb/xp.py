"""Experience at the end of a fight: the XP of the NPCs the PCs overcame, and each PC's share.

The book (l.126): an NPC's listed XP is gained by the PCs for *overcoming* it, "not killing necessarily";
l.146: some Referees pool the XP earned and divide it evenly; l.18–19: each PC's XP bonus (prime attribute,
WIS and CHA, +5% each with a bonus, −5% with a penalty, at most +15%).

Rulings (tests/systems/bnb/test_xp.py):
- Overcome: an NPC that is dead, dying, unconscious or knocked out at the end, or that left the running
  fight (removed after the start and before the end: fled, driven off, captured). An NPC removed before the
  fight started or after it ended, or still standing, is not overcome.
- The XP is an NPC's listed XP (the presets carry the book's; the GM can type it on a sheet). Critters the
  book lists without XP (donkey, horse, mule, pony) give none, and the summary names them.
- The share: the total divided evenly (rounded down) among the PCs still in the fight and not dead, each
  raised by that PC's XP bonus (rounded down). A Gambler's CHA counts twice (it is his prime attribute:
  "an additional 5%"). Money, which the book also counts as XP, is the GM's to add.
"""

from __future__ import annotations

import attrs

from systems.bnb.rules.table import R
from systems.bnb.sheet import DEAD, DYING, KNOCKED_OUT, UNCONSCIOUS, BnbData
from systems.bnb.tables import GAMBLER, SHOOTIST, TRAILBLAZER, modifier
from tracker.model import Combatant, FightState
from tracker.reasons import Reason
from tracker.text import counted

APPLIES = (R.experience, R.experience_share, R.experience_bonus)  # award (rules/table.py)

PRIME = {SHOOTIST: "DEX", GAMBLER: "CHA", TRAILBLAZER: "CON"}  # l.19, l.43, l.59
MAX_BONUS = 15  # per cent (l.19)


@attrs.frozen
class Overcome:
    name: str
    how: str  # dead, unconscious, knocked out, dying, left the fight
    xp: int


@attrs.frozen
class Share:
    name: str
    base: int
    bonus: int  # per cent
    xp: int


@attrs.frozen
class Award:
    overcome: tuple[Overcome, ...]
    shares: tuple[Share, ...]
    reasons: tuple[Reason, ...]

    @property
    def total(self) -> int:
        return sum(o.xp for o in self.overcome)


def _how(c: Combatant) -> str | None:
    d = c.data
    if d.status in (DEAD, UNCONSCIOUS, KNOCKED_OUT, DYING):
        return d.status
    if c.removed and d.dropped_round is not None:  # removed from the running fight (see evolve._removed)
        return "left the fight"
    return None


def bonus(d: BnbData) -> int:
    """A PC's XP bonus in per cent: +5 for each of prime, WIS and CHA with a bonus, −5 with a penalty; ≤ 15."""
    attributes = [a for a in (PRIME.get(d.cls), "WIS", "CHA") if a]
    steps = 0
    for a in attributes:
        m = modifier(d.score(a))
        steps += (m > 0) - (m < 0)
    return min(MAX_BONUS, 5 * steps)


def _pct(n: int) -> str:
    return f"+{n}%" if n >= 0 else f"−{-n}%"


def award(state: FightState) -> Award:
    """The XP of the NPCs overcome in this fight and each PC's even share (with its bonus)."""
    overcome: list[Overcome] = []
    for c in state.combatants:
        if c.is_pc or not isinstance(c.data, BnbData):
            continue
        how = _how(c)  # a removed NPC counts if it was down, or left the running fight
        if how is not None:
            overcome.append(Overcome(name=c.name, how=how, xp=c.data.xp))
    total = sum(o.xp for o in overcome)
    pcs: list[Combatant] = [
        c
        for c in state.combatants
        if c.is_pc and not c.removed and isinstance(c.data, BnbData) and c.data.status != DEAD
    ]
    shares: list[Share] = []
    base = total // len(pcs) if pcs else 0
    for c in pcs:
        b = bonus(c.data)
        shares.append(Share(name=c.name, base=base, bonus=b, xp=base * (100 + b) // 100))
    reasons: list[Reason] = []
    if overcome:
        reasons.append(Reason.of(R.experience, *(f"{o.name} ({o.how}): {o.xp} XP" for o in overcome), f"total {total}"))
    if shares:
        reasons.append(Reason.of(R.experience_share, f"{total} ÷ {counted(len(shares), 'PC')} = {base} each"))
        reasons.append(Reason.of(R.experience_bonus, *(f"{s.name} {_pct(s.bonus)}: {s.xp}" for s in shares)))
    return Award(overcome=tuple(overcome), shares=tuple(shares), reasons=tuple(reasons))


def awards(state: FightState) -> tuple[str, ...]:
    """The summary's and recap's lines: the XP total with the foes overcome, and each PC's share."""
    a = award(state)
    if not a.overcome:
        return ()
    foes = ", ".join(f"{o.name} ({o.how}) {o.xp}" for o in a.overcome)
    lines = [f"XP for the foes overcome ({R.experience.source}): {a.total} — {foes}"]
    unlisted = [o.name for o in a.overcome if not o.xp]
    if unlisted:
        lines.append(f"No XP listed for {', '.join(unlisted)} (the GM may award some)")
    if a.shares:
        each = ", ".join(f"{s.name} {s.xp}" + (f" ({s.base} {_pct(s.bonus)})" if s.bonus else "") for s in a.shares)
        lines.append(
            f"Even share among {counted(len(a.shares), 'PC')} ({R.experience_share.source}; bonus {R.experience_bonus.source}):"
            f" {each}"
        )
    return tuple(lines)


__all__ = ["APPLIES", "Award", "award", "awards", "bonus"]
