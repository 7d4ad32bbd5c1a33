"""What the GM and the players see of a Zludge combatant.

- ``standing``: dead; comatose (a Comatose wound, unconscious); unconscious
  (the fatigue track's last box); incapacitated (knocked prone, most actions
  not possible; still takes its turns, so not out of the fight).  A treated
  wound counts one level lower, as its game effect does.
- ``status`` (a narrow column): the worst wound with its penalty and the
  compact wound track first, then fatigue, then flags (clipped, prone,
  flat-footed, plot points), the weapon and armor last.  It never repeats the
  standing word.
- ``public``: the worst wound's name only (unhurt, scratched, hurt, very hurt,
  incapacitated, comatose, dead; unconscious when fatigue knocked out someone
  less hurt than comatose), never a number.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from tracker.model import Combatant
from tracker.plugin import FIT, Standing

from .model import (
    COMATOSE,
    EXHAUSTED,
    FATIGUE_STATES,
    INCAPACITATED,
    UNCONSCIOUS,
    WOUND_STATES,
    ZludgeData,
    compact_track,
    data,
    ladder,
    track_text,
)


def standing(c: Combatant) -> Standing:
    d = data(c)
    if d.dead:
        return Standing(word="dead", out=True)
    if d.wound_effect >= COMATOSE:
        return Standing(word="comatose", out=True)
    if d.fatigue_state >= UNCONSCIOUS:
        return Standing(word="unconscious", out=True)
    if d.wound_effect >= INCAPACITATED:
        return Standing(word="incapacitated")
    if d.fatigue_state >= EXHAUSTED:
        return Standing(word="exhausted")  # prone, most actions not possible, still in the fight
    return FIT


def public(c: Combatant) -> str:
    d = data(c)
    if d.dead:
        return "dead"
    worst = d.worst_wound
    if d.fatigue_state >= UNCONSCIOUS and worst < COMATOSE:
        return "unconscious"
    return "unhurt" if worst < 0 else WOUND_STATES[worst].lower()


def _wound_words(d: ZludgeData, word: str) -> str:
    """``Very Hurt -2``, ``Hurt treated -0``; only the penalty when the standing word names the wound."""
    if d.wound_state <= 0:
        return ""
    name = WOUND_STATES[d.wound_state]
    treated = d.wound_effect < d.wound_state
    if not treated and name.lower() == word:
        return "" if d.wound_state >= COMATOSE else f"{d.wound_penalty:+d}"
    return f"{name}{' treated' if treated else ''} {d.wound_penalty:+d}"


def _fatigue_words(d: ZludgeData, word: str) -> str:
    s = d.fatigue_state
    if s < 0 or (s >= UNCONSCIOUS and word == "unconscious"):
        return ""
    if s >= UNCONSCIOUS:
        return "fatigue Unconscious"
    return f"{FATIGUE_STATES[s]} {d.fatigue_penalty:+d}" if d.fatigue_penalty else FATIGUE_STATES[s]


def _flags(d: ZludgeData, word: str, running: bool) -> list[str]:
    """Clipped, prone, flat-footed, plot points.

    Ruling: flat-footed (no action yet, l.103) is said only while a fight runs: a PC who never reached his turn
    read "flat-footed" after the fight's end and a week's rest
    (tests/systems/zludge/test_flat_footed_outside.py).

    Ruling (l.120, "Clipped and wound penalties do not stack with each other; only the highest applies"): a
    clipped combatant whose wound penalty is already -1 or worse shows "clipped (no extra -1)", so "Hurt -1 ·
    clipped" does not read as -2; with no wound penalty the clip's own -1 shows ("clipped -1").
    (tests/systems/zludge/test_views.py::test_a_clip_under_a_wound_penalty_does_not_read_as_adding)
    """
    out = []
    if d.clipped:
        out.append("clipped (no extra -1)" if d.wound_penalty < 0 else "clipped -1")
    if d.prone and word not in ("incapacitated", "comatose", "unconscious", "dead"):
        out.append("prone")
    if running and not d.acted and not word:
        out.append("flat-footed")
    if d.plot_points:
        out.append(f"PP {d.plot_points}")
    return out


def _levelled(name: str, level: int) -> str:
    """``sword 2``; a custom item already ends with its level (``laser cutter 3``)."""
    return name if name.endswith(f" {level}") else f"{name} {level}"


def gear(d: ZludgeData) -> str:
    parts = [_levelled(d.weapon, d.weapon_level)]
    if d.armor != "none":
        parts.append(_levelled(d.armor, d.armor_level))
    return ", ".join(parts)


KEPT = 4096  # the most combatants whose status is kept (see by_combatant)


def by_combatant(describe: Callable[[Combatant, bool], str]) -> Callable[[Combatant, bool], str]:
    """``describe(c, running)`` kept for the very combatant object it was worked out for (and whether a fight
    runs: flat-footed is said only then).

    A combatant is immutable and these texts are made from it alone (not from the rest of the fight), so
    the same object always reads the same; a changed combatant is a new object and is described anew.  The
    initiative list asks for every row's status after every action: a hundred combatants' texts were about
    1.4 ms of each key (a next turn changes one or two of them).  The object is kept with its text, so its
    id is not reused while its text is kept.
    """
    kept: dict[tuple[int, bool], tuple[Combatant, str]] = {}

    @functools.wraps(describe)
    def described(c: Combatant, running: bool) -> str:
        found = kept.get((id(c), running))
        if found is not None and found[0] is c:
            return found[1]
        if len(kept) >= KEPT:
            kept.clear()
        text = describe(c, running)
        kept[(id(c), running)] = (c, text)
        return text

    return described


@by_combatant
def status(c: Combatant, running: bool) -> str:
    d = data(c)
    word = standing(c).word
    track = compact_track(d.wounds, d.wound_capacity)
    if word == "dead":
        return f"{track} · {gear(d)}"
    wounds = " ".join(x for x in (_wound_words(d, word), track) if x)
    groups = [wounds, _fatigue_words(d, word), ", ".join(_flags(d, word, running)), gear(d)]
    return " · ".join(g for g in groups if g)


def condition_words(d: ZludgeData, running: bool = True) -> list[str]:
    """The long form of how the combatant is, for the detail pane."""
    if d.dead:
        return ["dead"]
    words: list[str] = []
    if d.wound_state > 0:
        treated = " treated" if d.wound_effect < d.wound_state else ""
        words.append(f"{WOUND_STATES[d.wound_state]}{treated} {d.wound_penalty:+d}")
    if d.wound_effect >= COMATOSE:
        words.append("unconscious")
    elif d.wound_effect >= INCAPACITATED:
        words.append("prone")
    if d.clipped:  # (as in the status: the clip does not add to a wound's penalty, l.120)
        words.append("clipped (no extra -1)" if d.wound_penalty < 0 else "clipped -1")
    if d.fatigue_state >= 0:
        pen = "no actions" if d.fatigue_state >= UNCONSCIOUS else f"{d.fatigue_penalty:+d}"
        words.append(f"{FATIGUE_STATES[d.fatigue_state]} {pen}")
    if running and not d.acted:  # (only while a fight runs, as in the status)
        words.append("flat-footed")
    return words or ["unhurt"]


def _unused(d: ZludgeData, name: str, value: int) -> str:
    """The note after an attribute no skill is based on ("@Agility"), for the detail pane.

    Ruling (l.49 "each skill is associated with an attribute"; a skill's modifier adds the attribute it is based
    on, l.67): an attribute other than +0 that no skill names with "@" is kept as written (a sheet may list it
    before its skills are written, the GM's adjust edits the two apart, and fights and parties saved with one
    load as they were), and the detail pane says it counts in no roll and how to use it: "Agility +1 Decent (on no
    skill, so in no roll: 'Melee 2 @Agility' uses it)". It stood beside the skills as if it counted, silently.
    A misspelt "@Agilty" is refused where the sheet is written (sheet._check_based_on): that one is a typo of a
    listed name, this one an "@" left out, which only the GM can place.
    Test: test_round4_table.py::test_an_attribute_no_skill_is_based_on_says_so_in_the_detail."""
    if not value or any(s.attribute.lower() == name.lower() for s in d.skills):
        return ""
    first = d.skills[0] if d.skills else None
    example = f"{first.name} {first.ranks} @{name}" if first is not None else f"Athletics 1 @{name}"
    return f" (on no skill, so in no roll: '{example}' uses it)"


def detail(c: Combatant, running: bool = True) -> str:
    d = data(c)
    lines = [f"{c.name}: " + ", ".join(condition_words(d, running))]
    physical, other = sum(m.value for m in d.penalties(True)), sum(m.value for m in d.penalties(False))
    if d.dead:
        pass  # (no penalty for the dead: "Rook: dead / Penalty to physical actions: -4 Abysmal")
    elif physical == other:  # fatigue alone: it is on every action (it said "to physical actions")
        lines.append(f"Penalty to every action: {ladder(physical)}" if physical else "No penalty")
    else:
        lines.append(
            f"Penalty to physical actions: {ladder(physical)}" + (f", others: {ladder(other)}" if other else "")
        )
    if d.attributes or d.fortitude:
        attrs_ = [f"Fortitude {ladder(d.fortitude)}", *(f"{n} {ladder(v)}" + _unused(d, n, v) for n, v in d.attributes)]
        lines.append("Attributes: " + ", ".join(attrs_))
    skills = [
        f"{s.name} {ladder(d.skill_mod(s.name))}"
        + "".join(f" ({sp} {ladder(d.skill_mod(s.name, sp))})" for sp in s.specs)
        for s in d.skills
    ]
    lines.append("Skills: " + (", ".join(skills) if skills else "none (all -1 Poor)"))
    skill = d.weapon_skill
    lines.append(f"Weapon: {d.weapon} (level {d.weapon_level}, {skill} {ladder(d.skill_mod(skill))})")
    covers = f", covers {', '.join(d.armor_covers)}" if d.armor_covers else ""
    bulky = f", -{d.armor_penalty} Athletics and Acrobatics" if d.armor_penalty else ""
    lines.append(f"Armor: {d.armor} (level {d.armor_level}{bulky}{covers})")
    aspects = [f"[{'x' if a in d.aspects_used else ' '}] {a}" for a in d.aspects]
    lines.append("Aspects: " + (", ".join(aspects) if aspects else "none"))
    lines.append(f"Plot points: {d.plot_points}")
    lines.append(f"Wounds (Durability {d.durability}): " + track_text(d.wounds, d.wound_capacity, WOUND_STATES))
    lines.append(f"Fatigue (Endurance {d.endurance}): " + track_text(d.fatigue, d.fatigue_capacity, FATIGUE_STATES))
    return "\n".join(lines)
