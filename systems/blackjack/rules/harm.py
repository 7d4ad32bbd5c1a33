"""Harm and healing: the injury path (immunity, resistance, weakness, escalation, Fatal), quick damage and
healing, treatment, a night's rest, papers.

Every injury, whatever its source (an attack, a save, a working, powderburn, the
GM's Inflict injury or quick Damage), goes through :func:`injury`, so a quick
damage crosses the same levels an attack does; morale prompts follow in
``react``.

Rulings made here (beyond the rules table: ``impact``, ``quick_damage``, ``treatment``, ``paper``), each
named in a test:
- Impact never lowers an injury below lesser (a landed blow always marks);
  only resistance ignores a lesser injury
  (``test_impact_on_a_defending_pc_and_never_below_lesser``).
- Resistance and weakness to the same attack cancel out
  (``test_resistance_and_weakness_to_the_same_attack_cancel_out``).
- A fatal injury needs no slot: a combatant at Fatal is dead and takes no turns
  (``test_almost_full_track_escalates_to_fatal_in_one_hit``).
- Quick damage (the core Damage command) is an injury of the level the GM names
  (lesser … fatal, grievous where the track has it), marked through the same
  path: escalation, death at Fatal, morale in ``react``. It carries no damage
  tags, so resistance, weakness and immunity, which name what they apply to,
  do not touch it; the GM who wants them uses Inflict injury with tags. There
  is no temporary harm in blackjack: Damage marked temporary is refused
  (``test_quick_damage_is_an_untagged_injury_resistance_does_not_apply``).
- Quick healing (the core Heal command) is a treatment ("Proper treatment or
  healing will clear any single injury"): it clears one injury of the level
  named (or the worst) from each target, never one bound to a paper, never a
  Fatal one; with nothing to clear it is refused
  (``test_quick_heal_clears_one_injury_as_treatment_does``).
- Naming's agony is bound to the paper: treatment, healing, Healing hands and
  a night's rest leave it; "The paper is destroyed" clears it, and a Hex's
  condition with it (``test_treatment_cannot_clear_namings_agony_destroying_the_paper_does``).
- A night's rest is refused while a fight is running: it comes after the fight
  (``test_nights_rest_clears_lesser_and_moderate_after_the_fight``).
"""

from __future__ import annotations

from tracker.commands import Damage, Heal
from tracker.dice import Roller
from tracker.errors import Refused
from tracker.events import ConditionRemoved, Event
from tracker.kit import Draft, need
from tracker.model import Combatant, FightState

from ..checks import encumbered
from ..commands import BY_CAUSE, DestroyPaper, Injure, Treat
from ..events import InjuryCleared, InjuryMarked, PaperDestroyed
from ..records import LEVELS, data
from ..sheet import level_index, matches, words
from ..table import R, applies
from .common import rules

# ---------------------------------------------------------------------------
# the injury path


@applies(R.INJURY_SLOTS, R.ESCALATION, R.RESISTANT, R.WEAK, R.IMMUNE, R.FATAL, R.MONSTER_SLOTS)
def injury(
    state: FightState, cid: str, index: int, name: str, tags: tuple[str, ...] = (), steps: tuple[str, ...] = ()
) -> InjuryMarked | None:
    """Mark an injury: immunity, resistance (lesser ignored), weakness, then up the track while full (a lesser
    slot is taken by Encumbered)."""
    d = data(state.get(cid))
    if d.dead:
        return None
    n = d.fatal_index
    idx = max(0, min(index, n))
    path = list(steps) if steps else [d.level_name(idx)]
    immune = matches(d.immunities, tags)
    if immune:
        return InjuryMarked(target=cid, name=name, steps=(*path, f"immune to {immune}", "none"), index=-1)
    res, weak = matches(d.resistances, tags), matches(d.weaknesses, tags)
    if res and not weak:
        if idx == 0:
            return InjuryMarked(target=cid, name=name, steps=(*path, f"resists {res}", "ignored"), index=-1)
        idx = idx - 1 if idx < n else n - 1
        path += [f"resists {res}", d.level_name(idx)]
    elif weak and not res:
        idx = min(idx + 1, n)
        path += [f"weak to {weak}", d.level_name(idx)]
    burden = 1 if encumbered(state.get(cid)) else 0  # Encumbered takes a lesser slot (l.36)
    while idx < n and len(d.injuries[idx]) + (burden if idx == 0 else 0) >= d.slots[idx]:
        idx += 1
        path += ["slots full", d.level_name(idx)]
    return InjuryMarked(target=cid, name=name, steps=tuple(path), index=idx, fatal=idx >= n)


@applies(R.IMPACT)
def impact_shift(level: int, fatal: int, impact: str, sign: int) -> tuple[int, tuple[str, ...]]:
    """Impact moves the level one step (never below lesser, never past fatal)."""
    if impact == "none" or level < 0:
        return level, ()
    delta = sign if impact == "advantage" else -sign
    return max(0, min(fatal, level + delta)), (impact,)


# ---------------------------------------------------------------------------
# clearing one injury (treatment, healing, Healing hands)


def clear_one(c: Combatant, level: str, reason: str) -> InjuryCleared:
    """The event clearing one injury of ``level`` ("worst": the worst one) not bound to a paper, or Refused."""
    d = data(c)
    if d.dead:
        raise Refused(f"{c.name} is dead: no treatment clears a Fatal injury", rule=R.FATAL)
    if level == "worst":
        for idx in range(len(d.injuries) - 1, -1, -1):
            free = d.free_injuries(idx)
            if free:
                return InjuryCleared(target=c.id, index=idx, name=free[-1], level=LEVELS[idx], reason=reason)
        if d.injury_count:
            raise Refused(
                f"{c.name}'s injuries are bound to a paper: {_bonds(c)}; only destroying the paper removes them",
                rule=R.PAPER,
            )
        raise Refused(f"{c.name} has no injury to treat", rule=R.TREATMENT)
    idx = level_index(level, len(d.slots))
    if idx >= d.fatal_index:
        raise Refused("a Fatal injury kills: there is nothing left to treat", rule=R.FATAL)
    if not d.injuries[idx]:
        raise Refused(f"{c.name} has no {level} injury to treat", rule=R.TREATMENT)
    free = d.free_injuries(idx)
    if not free:
        raise Refused(
            f"{c.name}'s {level} injury is bound to a paper: {_bonds(c)}; only destroying the paper removes it",
            rule=R.PAPER,
        )
    return InjuryCleared(target=c.id, index=idx, name=free[-1], level=LEVELS[idx], reason=reason)


def clear_worst(c: Combatant, reason: str) -> InjuryCleared | None:
    """The worst injury a healing working may clear, or None when there is none."""
    try:
        return clear_one(c, "worst", reason)
    except Refused:
        return None


def _bonds(c: Combatant) -> str:
    return ", ".join(b.describe() for b in data(c).bound if b.level >= 0)


# ---------------------------------------------------------------------------
# deciders


@rules.on(Injure)
@applies(R.AFFLICTIONS)
def _injure(d: Draft, cmd: Injure, dice: Roller) -> None:
    t = need(d.state, cmd.target, "target")
    if data(t).dead:
        raise Refused(f"{t.name} is already dead", rule=R.FATAL)
    idx = level_index(starting_level(cmd), len(data(t).slots))
    d.add(injury(d.state, t.id, idx, injury_name(cmd), cause_tags(cmd)))


@rules.on(Damage)
@applies(R.QUICK_DAMAGE)
def _damage(d: Draft, cmd: Damage, dice: Roller) -> None:
    if cmd.temporary:
        raise Refused(
            "blackjack has no temporary harm: every injury is marked (a bruise is a lesser injury)", rule=R.QUICK_DAMAGE
        )
    name = cmd.note.strip() or "damage"
    level = cmd.amount.strip().lower()
    for tid in cmd.targets:
        t = need(d.state, tid, "target")
        if data(t).dead:
            raise Refused(f"{t.name} is already dead", rule=R.FATAL)
        try:
            idx = level_index(level, len(data(t).slots))
        except Refused as e:
            raise Refused(f"{t.name}: {e}") from None
        d.add(injury(d.state, t.id, idx, name))


@rules.on(Heal)
@applies(R.TREATMENT)
def _heal(d: Draft, cmd: Heal, dice: Roller) -> None:
    level = cmd.amount.strip().lower()
    for tid in cmd.targets:
        t = need(d.state, tid, "patient")
        d.add(clear_one(d.get(t.id), level, cmd.note.strip() or "healing"))


@rules.on(Treat)
@applies(R.TREATMENT)
def _treat(d: Draft, cmd: Treat, dice: Roller) -> None:
    t = need(d.state, cmd.target, "patient")
    d.add(clear_one(t, cmd.level, "treatment"))


@rules.on(DestroyPaper)
@applies(R.PAPER)
def _paper(d: Draft, cmd: DestroyPaper, dice: Roller) -> None:
    t = need(d.state, cmd.target)
    key = cmd.working.strip().lower()
    bonds = [b for b in data(t).bound if not key or b.working.lower().startswith(key)]
    if not bonds:
        what = f" with {cmd.working.strip()}" if key else ""
        raise Refused(
            f"no paper binds {t.name}{what}: only a Hex or a Naming that took effect leaves one", rule=R.PAPER
        )
    papers: dict[tuple[str, str], list[Event]] = {}
    for b in bonds:
        out = papers.setdefault((b.working, b.caster), [])
        if b.level >= 0:
            out.append(
                InjuryCleared(
                    target=t.id, index=b.level, name=b.name, level=LEVELS[b.level], reason="the paper is destroyed"
                )
            )
        elif t.condition(b.name) is not None:
            out.append(ConditionRemoved(id=t.id, name=b.name, reason="the paper is destroyed"))
    for (working, caster), cleared in papers.items():
        d.add(PaperDestroyed(target=t.id, working=working, caster=caster, note=cmd.note.strip()), *cleared)


AFFLICTIONS = ("hunger", "thirst", "poison", "snake venom", "venom", "disease")


@applies(R.AFFLICTIONS, R.METAPHYSICAL)
def injury_name(cmd: Injure) -> str:
    """The injury's name as kept: an affliction known by its tags only keeps the tag ("snakebite (snake venom)"):
    the injury track keeps names, and time passing asks of an affliction by its name (a night's rest cleared a
    snakebite tagged snake venom without a word)."""
    name = cmd.name.strip() or "injury"
    low = name.lower()
    if any(a in low for a in AFFLICTIONS):
        return name
    tag = next((a for a in AFFLICTIONS if a in cmd.tags.lower()), None)
    return f"{name} ({tag})" if tag else name


def cause_tags(cmd: Injure) -> tuple[str, ...]:
    """What the injury is of, for immunity, resistance and weakness: its tags, and an affliction its name names
    (a "snake venom" with no tags was moderate by its name, but the Preacher's immunity read only the tags)."""
    named = tuple(w for a in AFFLICTIONS if a in cmd.name.lower() for w in words(a))
    return (*words(cmd.tags), *named)


def starting_level(cmd: Injure) -> str:
    """The level an injury starts at: the GM's pick, else by its cause.

    Rule ``afflictions`` (ruling on blackjack l.182): hunger, thirst, poison, snake venom and disease
    begin as moderate injuries unless the GM picks otherwise; any other cause begins lesser.
    """
    if cmd.level.strip().lower() != BY_CAUSE:
        return cmd.level
    text = f"{cmd.name} {cmd.tags}".lower()
    return "moderate" if any(a in text for a in AFFLICTIONS) else "lesser"
