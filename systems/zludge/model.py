"""Zludge records: the ladder, a combatant's data, the wound and fatigue tracks.

:func:`data` is the typed accessor of the core's ``Combatant.data`` (``Any``
in the core); the fight's own data is in :mod:`systems.zludge.fight`.
"""

from __future__ import annotations

import attrs

from tracker.commands import Modifier
from tracker.errors import Refused
from tracker.model import Combatant

from .table import R, applies

LADDER = {
    4: "Superb",
    3: "Great",
    2: "Good",
    1: "Decent",
    0: "Fair",
    -1: "Poor",
    -2: "Bad",
    -3: "Terrible",
    -4: "Abysmal",
}


def word(n: int) -> str:
    """The ladder's adjective for a value (beyond ±4 the end words hold)."""
    return LADDER[max(-4, min(4, n))]


def ladder(n: int) -> str:
    """A number with its ladder word: ``+2 Good``."""
    return f"{n:+d} {word(n)}"


WOUND_STATES = ("Scratched", "Hurt", "Very Hurt", "Incapacitated", "Comatose")
FATIGUE_STATES = ("Winded", "Tired", "Very Tired", "Exhausted", "Unconscious")
BASE_BOXES = (3, 2, 1, 1, 1)
SCRATCHED, HURT, VERY_HURT, INCAPACITATED, COMATOSE = range(5)
EXHAUSTED, UNCONSCIOUS = 3, 4
MAX_RANKS = 3  # skills, Durability and Endurance included (rule R.ranks)

ATTACK_SKILLS = ("Melee", "Ranged", "Unarmed")
LOCATIONS = ("head", "torso", "right arm", "left arm", "legs")
BULKY_SKILLS = ("Athletics", "Acrobatics")  # the skills bulky armor penalises
# the body's skills: a roll of one is physical by default (rule R.physical; ruling in ``is_physical``)
PHYSICAL_SKILLS = ("Acrobatics", "Athletics", "Reflexes", "Stealth", "Endurance", "Durability", *ATTACK_SKILLS)


def is_physical(skill: str) -> bool:
    """Whether a roll of ``skill`` ("Athletics (Climbing)" is Athletics) is physical unless the GM says otherwise.

    Ruling (rule ``physical``; the book puts wound and clip penalties on "physical actions", l.115–119, and never
    lists them): the body's skills of the book's list and the fight's are physical (Acrobatics, Athletics,
    Reflexes, Endurance, Durability, l.54–61; Stealth, moving unseen; Melee, Ranged, Unarmed); Alertness ("passive
    ability to notice", l.59), Medical (first aid is not physical, as the plug-in rules), Survival (know-how:
    navigation, tracking, foraging, l.62) and every other skill, knowledge or social or the GM's own, are not.
    The GM still says otherwise on the roll's form. A skill roll's Physical once stood ticked for every skill,
    so a Hurt PC's Alertness took -1. Test: test_round4_table.py::test_a_skill_roll_is_physical_by_its_skill."""
    base = skill.split("(")[0].strip().lower()
    return base in (s.lower() for s in PHYSICAL_SKILLS)


def physical_for(choice: bool | None, skill: str) -> bool:
    """A roll's Physical: the GM's yes or no (``choice``), or by its skill (None, ``is_physical``).

    The one reading of the form's "by the skill" (``commands.PHYSICAL_CHOICES``), for a skill roll and for each side
    of a contest (ruling in ``contest.Contest``)."""
    return is_physical(skill) if choice is None else choice


@attrs.frozen(kw_only=True)
class Skill:
    """A skill: ranks bought, specializations (sub-skills), the attribute it is based on."""

    name: str
    ranks: int = 0
    specs: tuple[str, ...] = ()
    attribute: str = ""

    def text(self) -> str:
        s = f"{self.name} {self.ranks}"
        for sp in self.specs:
            s += f" +{sp}"
        if self.attribute:
            s += f" @{self.attribute}"
        return s


@attrs.frozen(kw_only=True)
class Box:
    """One checked box: its level on the track and the level of the wound that made it."""

    level: int
    wound: int
    treated: bool = False
    physical: bool = False  # fatigue only: marked P
    # a wound healed a level and left in its box, the boxes of its new level full: it counts as its level
    # (the ruling on l.135-136), not its box's (a week's rest left a PC "comatose" with every wound a Hurt)
    healed: bool = False

    @property
    def counts_as(self) -> int:
        """The level whose state and penalty the box gives: its own, or a healed wound's."""
        return self.wound if self.healed else self.level


@attrs.frozen(kw_only=True, slots=False)  # copied by its dictionary: see tracker.model.changed (bench figure 3)
class ZludgeData:
    attributes: tuple[tuple[str, int], ...] = ()
    fortitude: int = 0
    skills: tuple[Skill, ...] = ()
    durability: int = 0
    endurance: int = 0
    aspects: tuple[str, ...] = ()
    aspects_used: tuple[str, ...] = ()
    plot_points: int = 0
    weapon: str = "unarmed"
    weapon_level: int = 0
    weapon_skill: str = "Unarmed"
    armor: str = "none"
    armor_level: int = 0
    armor_penalty: int = 0
    armor_covers: tuple[str, ...] = ()  # empty: the whole body
    wounds: tuple[Box, ...] = ()
    fatigue: tuple[Box, ...] = ()
    clipped: bool = False
    healing_days: int = 0  # days of rest so far toward the next week's healing (zludge.rules.rest)
    acted: bool = False  # no longer flat-footed
    spent: bool = False  # has taken its action this turn
    dead: bool = False
    init_tiebreak: tuple[int, ...] = ()
    init_modifier: int | None = None  # the modifiers of its initiative roll (None: set by the GM)

    # -- skills ------------------------------------------------------------
    def attribute(self, name: str) -> int:
        if name.lower() == "fortitude":
            return self.fortitude
        for n, v in self.attributes:
            if n.lower() == name.lower():
                return v
        return 0

    def skill(self, name: str) -> Skill | None:
        for s in self.skills:
            if s.name.lower() == name.lower():
                return s
        return None

    def skill_mod(self, name: str, specialty: str = "") -> int:
        """Skill modifier: -1 (Poor) + rank modifier (ranks, +2 for a specialization, at most +4) + attribute."""
        s = self.skill(name)
        if s is None:
            return -1
        rank = s.ranks
        if specialty:
            rank = min(4, rank + 2)
        return -1 + rank + self.attribute(s.attribute) if s.attribute else -1 + rank

    @applies(R.bulky)
    def bulky(self, skill: str) -> tuple[Modifier, ...]:
        """Bulky armor's penalty on an Athletics or Acrobatics roll (none on other skills)."""
        if self.armor_penalty and skill.split("(")[0].strip().lower() in (s.lower() for s in BULKY_SKILLS):
            return (Modifier(label=f"bulky {self.armor}", value=-self.armor_penalty),)
        return ()

    # -- the texts a GM edits (adjust) -------------------------------------
    @property
    def skills_text(self) -> str:
        return ", ".join(s.text() for s in self.skills)

    @property
    def attributes_text(self) -> str:
        return ", ".join(f"{n} {v:+d}" for n, v in self.attributes)

    @property
    def aspects_text(self) -> str:
        return ", ".join(self.aspects)

    @property
    def aspects_checked(self) -> str:
        return ", ".join(self.aspects_used)

    # -- tracks ------------------------------------------------------------
    @property
    def wound_capacity(self) -> tuple[int, ...]:
        return capacity(self.durability, self.fortitude)

    @property
    def fatigue_capacity(self) -> tuple[int, ...]:
        return capacity(self.endurance, 0)

    @property
    def wound_track(self) -> str:
        """The wound track as the GM edits it: ``00.|1.|.|.|.`` (see :func:`parse_track`)."""
        return compact_track(self.wounds, self.wound_capacity)

    @property
    def fatigue_track(self) -> str:
        return compact_track(self.fatigue, self.fatigue_capacity)

    @property
    def worst_wound(self) -> int:
        """The highest checked wound box, Scratched included (-1: none)."""
        return max((b.counts_as for b in self.wounds), default=-1)

    @property
    def wound_state(self) -> int:
        """The highest checked box above Scratched (-1: none)."""
        return max((b.counts_as for b in self.wounds if b.counts_as > SCRATCHED), default=-1)

    @property
    def wound_effect(self) -> int:
        """The level whose effect applies: first aid lowers each wound's by one."""
        return max((b.counts_as - b.treated for b in self.wounds if b.counts_as > SCRATCHED), default=-1)

    @property
    def wound_penalty(self) -> int:
        return -max(self.wound_effect, 0)

    @property
    def fatigue_state(self) -> int:
        return max((b.level for b in self.fatigue), default=-1)

    @property
    def fatigue_penalty(self) -> int:
        """Winded none, Tired -1, Very Tired -2, Exhausted -3 (Ruling: added to the wound or clip penalty)."""
        return -max(min(self.fatigue_state, EXHAUSTED), 0)

    @property
    def comatose(self) -> bool:
        return self.wound_effect >= COMATOSE

    @property
    def unconscious(self) -> bool:
        return self.dead or self.comatose or self.fatigue_state >= UNCONSCIOUS

    @property
    def prone(self) -> bool:
        """Incapacitated or Exhausted: knocked prone, most actions not possible."""
        return self.wound_effect >= INCAPACITATED or self.fatigue_state >= EXHAUSTED

    @applies(R.clipped, R.wound_penalty, R.fatigue_penalty, R.exhausted)
    def penalties(self, physical: bool = True) -> tuple[Modifier, ...]:
        """Labelled penalties on a roll: the worst of clipped and wound (physical), plus fatigue."""
        out: list[Modifier] = []
        if physical:
            wound = self.wound_penalty
            if self.clipped and wound == 0:
                out.append(Modifier(label="clipped", value=-1))
            elif wound:  # named as the track shows it: a treated Very Hurt's −1 read "Hurt −1"
                treated = " treated" if self.wound_effect < self.wound_state else ""
                out.append(Modifier(label=WOUND_STATES[self.wound_state] + treated, value=wound))
        if self.fatigue_penalty:
            out.append(Modifier(label=FATIGUE_STATES[self.fatigue_state], value=self.fatigue_penalty))
        return tuple(out)


@applies(R.boxes, R.fatigue_track)
def capacity(ranks: int, fortitude: int) -> tuple[int, ...]:
    """Boxes per level: 3/2/1/1/1, one more on levels 0, 1, 2, 3 per rank, Fortitude ±1 on Scratched."""
    boxes = list(BASE_BOXES)
    for lvl in range(min(max(ranks, 0), 4)):
        boxes[lvl] += 1
    if fortitude > 0:
        boxes[0] += 1
    elif fortitude < 0:
        boxes[0] -= 1
    return tuple(boxes)


@applies(R.wound_track, R.death, R.fatigue_track, R.fatigue_full)
def place(boxes: tuple[Box, ...], cap: tuple[int, ...], level: int) -> tuple[int | None, tuple[int, ...]]:
    """The box a wound of ``level`` checks (None: none left, above the top) and the full levels passed."""
    full: list[int] = []
    for lvl in range(max(level, 0), len(cap)):
        if sum(1 for b in boxes if b.level == lvl) < cap[lvl]:
            return lvl, tuple(full)
        full.append(lvl)
    return None, tuple(full)


def overfull(boxes: tuple[Box, ...], cap: tuple[int, ...]) -> int | None:
    """The first level holding more checked boxes than ``cap`` allows (None: the track fits)."""
    for lvl, n in enumerate(cap):
        if sum(1 for b in boxes if b.level == lvl) > n:
            return lvl
    return None


def track_text(boxes: tuple[Box, ...], cap: tuple[int, ...], names: tuple[str, ...]) -> str:
    """``S[00.] H[1.] V[.] I[.] C[.]``: each checked box shows its wound's level (P: physical fatigue, ' treated,
    ~ healed in place)."""
    return " ".join(f"{names[lvl][0]}[{marks}]" for lvl, marks in enumerate(_marks(boxes, cap)))


def compact_track(boxes: tuple[Box, ...], cap: tuple[int, ...]) -> str:
    """``00.|1.|.|.|.``: the track in a narrow column (levels Scratched to Comatose, left to right)."""
    return "|".join(_marks(boxes, cap))


def parse_track(text: str, cap: tuple[int, ...], names: tuple[str, ...], fatigue: bool) -> tuple[Box, ...]:
    """A track typed as :func:`compact_track` shows it: one group per level, Scratched first, split by ``|``.

    In a group each checked box is the level of the wound that made it (``0``
    to the group's own level), ``P`` a physical fatigue box (fatigue only), a
    ``'`` after it marks it treated (first aid); ``.`` or nothing is an
    empty box.  ``00.|1.|.|.|.``: two Scratched boxes from scratches, one Hurt
    box from a 1-level wound.  Refused (naming the level) when a group holds
    more boxes than the level has.
    """
    src = "".join(str(text).split())
    groups = src.split("|") if src else []
    if len(groups) > len(cap):
        raise Refused(f"the track has {len(cap)} levels ({', '.join(names)}), not {len(groups)}")
    boxes: list[Box] = []
    for level, group in enumerate(groups):
        marks: list[Box] = []
        for ch in group:
            if ch == ".":
                continue
            if ch == "'":
                if not marks:
                    raise Refused(f"{names[level]}: ' (treated) follows a checked box")
                marks[-1] = attrs.evolve(marks[-1], treated=True)
            elif ch == "~":
                if not marks or marks[-1].wound >= level:
                    raise Refused(f"{names[level]}: ~ (healed in place) follows a wound of a lower level")
                marks[-1] = attrs.evolve(marks[-1], healed=True)
            elif ch.upper() == "P" and fatigue:
                marks.append(Box(level=level, wound=level, physical=True))
            elif ch.isdecimal() and int(ch) <= level:
                marks.append(Box(level=level, wound=int(ch)))
            else:
                raise Refused(
                    f"{names[level]}: '{ch}' is not a box (a wound level 0 to {level}"
                    + (", P for physical" if fatigue else "")
                    + ", ' treated, ~ healed in place, . empty)"
                )
        if len(marks) > cap[level]:
            raise Refused(f"{names[level]} has {cap[level]} box(es), not {len(marks)}")
        boxes += marks
    return tuple(boxes)


def _marks(boxes: tuple[Box, ...], cap: tuple[int, ...]) -> list[str]:
    out = []
    for lvl, n in enumerate(cap):
        marks = [
            ("P" if b.physical else str(b.wound)) + ("~" if b.healed else "") + ("'" if b.treated else "")
            for b in boxes
            if b.level == lvl
        ]
        marks += ["."] * max(n - len(marks), 0)
        out.append("".join(marks))
    return out


def data(c: Combatant) -> ZludgeData:
    """The combatant's Zludge record."""
    d: ZludgeData = c.data
    return d


def taken_back(was: Combatant, now: Combatant, roll_actor: str) -> tuple[tuple[Box, ...], bool, bool]:
    """The wounds, death and clip a revised roll puts back: as they were before the roll.

    The harm a roll's earlier reading did (a wound, a death, a clip, a treatment)
    touched only these three; the roller's own clip, though, was cleared by the
    roll itself (it acted) and stays cleared.
    """
    b, n = data(was), data(now)
    return b.wounds, b.dead, (n.clipped if was.id == roll_actor else b.clipped)
