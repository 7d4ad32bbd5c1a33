"""Zludge sheets: the ladder, the combatant record, the wound and fatigue tracks.

A sheet is checked and normalised by :func:`normalize` (pure, idempotent,
raises Refused naming the rule) and turned into a :class:`ZludgeData` by
:func:`build_data`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import attrs

from tracker.commands import BOOL, CHOICE, INT, Modifier, Param, parse_modifiers
from tracker.errors import Refused

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

ATTACK_SKILLS = ("Melee", "Ranged", "Unarmed")
LOCATIONS = ("head", "torso", "right arm", "left arm", "legs")

# name: (damage level, skill)
WEAPONS: dict[str, tuple[int, str]] = {
    "unarmed": (0, "Unarmed"),
    "small rock": (0, "Ranged"),
    "knife": (1, "Melee"),
    "short club": (1, "Melee"),
    "holdout pistol": (1, "Ranged"),
    "sword": (2, "Melee"),
    "axe": (2, "Melee"),
    "baseball bat": (2, "Melee"),
    "pistol": (2, "Ranged"),
    "small rifle": (2, "Ranged"),
    "chainsaw": (3, "Melee"),
    "machine gun": (3, "Ranged"),
    "shotgun (close)": (3, "Ranged"),
    "grenade": (4, "Ranged"),
}

ARMORS: dict[str, int] = {
    "none": 0,
    "leather jacket": 0,
    "winter coat": 0,
    "flak jacket": 1,
    "leather armor": 1,
    "studded leather": 1,
    "light kevlar": 2,
    "chainmail": 2,
    "heavy kevlar": 3,
    "platemail": 3,
    "bomb suit": 4,
}


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


@attrs.frozen(kw_only=True)
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
    acted: bool = False  # no longer flat-footed
    spent: bool = False  # has taken its action this turn
    dead: bool = False
    init_tiebreak: tuple[int, ...] = ()

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
    def wound_state(self) -> int:
        """The highest checked box above Scratched (-1: none)."""
        return max((b.level for b in self.wounds if b.level > SCRATCHED), default=-1)

    @property
    def wound_effect(self) -> int:
        """The level whose effect applies: first aid lowers each wound's by one."""
        return max((b.level - b.treated for b in self.wounds if b.level > SCRATCHED), default=-1)

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
    def unconscious(self) -> bool:
        return self.dead or self.wound_effect >= COMATOSE or self.fatigue_state >= UNCONSCIOUS

    @property
    def prone(self) -> bool:
        """Incapacitated or Exhausted: knocked prone, most actions not possible."""
        return self.wound_effect >= INCAPACITATED or self.fatigue_state >= EXHAUSTED

    def penalties(self, physical: bool = True) -> tuple[Modifier, ...]:
        """Labelled penalties on a roll: the worst of clipped and wound (physical), plus fatigue."""
        out: list[Modifier] = []
        if physical:
            wound = self.wound_penalty
            if self.clipped and wound == 0:
                out.append(Modifier(label="clipped", value=-1))
            elif wound:
                out.append(Modifier(label=WOUND_STATES[self.wound_effect], value=wound))
        if self.fatigue_penalty:
            out.append(Modifier(label=FATIGUE_STATES[self.fatigue_state], value=self.fatigue_penalty))
        return tuple(out)


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


def place(boxes: tuple[Box, ...], cap: tuple[int, ...], level: int) -> tuple[int | None, tuple[int, ...]]:
    """The box a wound of ``level`` checks (None: none left, above the top) and the full levels passed."""
    full: list[int] = []
    for lvl in range(max(level, 0), len(cap)):
        if sum(1 for b in boxes if b.level == lvl) < cap[lvl]:
            return lvl, tuple(full)
        full.append(lvl)
    return None, tuple(full)


def track_text(boxes: tuple[Box, ...], cap: tuple[int, ...], names: tuple[str, ...]) -> str:
    """``S[00.] H[1.] V[.] I[.] C[.]``: each checked box shows its wound's level (P: physical fatigue, ' treated)."""
    parts = []
    for lvl, n in enumerate(cap):
        marks = [("P" if b.physical else str(b.wound)) + ("'" if b.treated else "") for b in boxes if b.level == lvl]
        marks += ["."] * max(n - len(marks), 0)
        parts.append(f"{names[lvl][0]}[{''.join(marks)}]")
    return " ".join(parts)


# ---------------------------------------------------------------------------
# the sheet form


def sheet_fields(kind: str) -> tuple[Param, ...]:
    return (
        Param(
            name="attributes",
            label="Attributes",
            default="",
            required=False,
            help="e.g. 'Agility +1, Perception -1' (each -1..+1; Fair 0 if not named; Fortitude has its own field)",
        ),
        Param(
            name="fortitude", kind=INT, label="Fortitude", default=0, min=-3, max=3, help="+1: one more Scratched box"
        ),
        Param(
            name="high_powered",
            kind=BOOL,
            label="GM allows attributes beyond ±1",
            default=False,
            help="High-powered campaign: free bonuses beyond the usual -1..+1",
        ),
        Param(
            name="skills",
            label="Skills",
            default="",
            required=False,
            help="'Melee 2 @Agility, Ranged 3 +Pistols, Acrobatics 1, Reflexes 1' (ranks 0-3; unnamed skills are -1 Poor)",
        ),
        Param(
            name="durability",
            kind=INT,
            label="Durability ranks",
            default=0,
            min=0,
            max=4,
            help="one more wound box per rank",
        ),
        Param(
            name="endurance",
            kind=INT,
            label="Endurance ranks",
            default=0,
            min=0,
            max=4,
            help="one more fatigue box per rank",
        ),
        Param(
            name="aspects",
            label="Aspects",
            default="",
            required=False,
            help="comma-separated, e.g. 'Star Ranger, Brawler'",
        ),
        Param(name="plot_points", kind=INT, label="Plot points", default=0, min=0, max=99),
        Param(
            name="weapon",
            label="Weapon",
            default="unarmed",
            help="knife, pistol, sword, shotgun (close), grenade... or 'name level' like 'laser cutter 3' (levels 0-4)",
        ),
        Param(
            name="weapon_skill",
            kind=CHOICE,
            label="Weapon skill",
            choices=("auto", *ATTACK_SKILLS),
            default="auto",
            help="auto: from the weapon (a custom weapon is Melee)",
        ),
        Param(
            name="armor",
            label="Armor",
            default="none",
            help="leather jacket, flak jacket, light kevlar, heavy kevlar, bomb suit... or 'name level' (levels 0-4)",
        ),
        Param(name="armor_penalty", kind=INT, label="Bulky armor penalty to Acrobatics", default=0, min=0, max=4),
        Param(
            name="armor_covers",
            label="Armor covers",
            default="all",
            help="'all', or hit locations: head, torso, right arm, left arm, legs",
        ),
    )


_SKILL = re.compile(r"^(?P<name>[A-Za-z][A-Za-z ()'/-]*?)\s+(?P<ranks>-?\d+)(?P<rest>(?:\s*[+@][^+@]+)*)$")
_LEVELLED = re.compile(r"^(?P<name>.*?)\s*(?P<level>-?\d+)$")


def parse_attributes(text: str, high_powered: bool) -> tuple[tuple[str, int], ...]:
    out: list[tuple[str, int]] = []
    for m in parse_modifiers(text):
        name = m.label.strip().title()
        if name == "Modifier":
            raise Refused(f"attribute '{m.describe()}' needs a name, like 'Agility +1'")
        if name == "Fortitude":
            raise Refused("give Fortitude in its own field (it also changes the Scratched boxes)")
        _check_attribute(name, m.value, high_powered)
        out.append((name, m.value))
    return tuple(out)


def _check_attribute(name: str, value: int, high_powered: bool) -> None:
    if not high_powered and not -1 <= value <= 1:
        raise Refused(
            f"{name} {value:+d}: attributes run -1 (Poor) to +1 (Decent) at creation "
            "(tick 'GM allows attributes beyond ±1' for a high-powered campaign)"
        )
    if not -3 <= value <= 3:
        raise Refused(f"{name} {value:+d}: attributes run -3 to +3 even in a high-powered campaign")


def parse_skills(text: str) -> tuple[Skill, ...]:
    out: list[Skill] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        m = _SKILL.match(part)
        if not m:
            raise Refused(f"skill '{part}': write it like 'Melee 2', 'Ranged 3 +Pistols' or 'Athletics 1 @Fortitude'")
        ranks = int(m["ranks"])
        name = m["name"].strip()
        if not 0 <= ranks <= 3:
            raise Refused(f"{name} {ranks}: a skill has 0 to 3 ranks (specializations add to it)")
        specs: list[str] = []
        attribute = ""
        for piece in re.findall(r"([+@])\s*([^+@]+)", m["rest"] or ""):
            sign, value = piece[0], piece[1].strip()
            if sign == "+":
                specs.append(value)
            else:
                attribute = value.title()
        if any(s.name.lower() == name.lower() for s in out):
            raise Refused(f"the skill {name} is listed twice")
        out.append(Skill(name=name, ranks=ranks, specs=tuple(specs), attribute=attribute))
    return tuple(out)


def parse_levelled(text: str, table: Mapping[str, Any], what: str) -> tuple[str, int | None]:
    """A preset name, or 'name level'; returns the name and its level (None: a preset)."""
    key = text.strip().lower()
    if key in table:
        return key, None
    m = _LEVELLED.match(key)
    if not m:
        known = ", ".join(table)
        raise Refused(f"{what} '{text}' is not one of {known}, nor 'name level' like '{what} 2'")
    level = int(m["level"])
    if not 0 <= level <= 4:
        raise Refused(f"{what} '{text}': damage levels run 0 to 4, not {level}")
    return (m["name"].strip() or what), level


def normalize(kind: str, sheet: Mapping[str, Any]) -> dict[str, Any]:
    """Check a parsed sheet and return it with canonical texts and the weapon and armor levels."""
    out = dict(sheet)
    high = bool(sheet.get("high_powered", False))
    attrs_ = parse_attributes(str(sheet.get("attributes", "") or ""), high)
    fort = int(sheet.get("fortitude", 0) or 0)
    _check_attribute("Fortitude", fort, high)
    skills = parse_skills(str(sheet.get("skills", "") or ""))
    weapon, wlevel = parse_levelled(str(sheet.get("weapon", "unarmed") or "unarmed"), WEAPONS, "weapon")
    wskill = str(sheet.get("weapon_skill", "auto") or "auto")
    if wlevel is None:
        wlevel, auto_skill = WEAPONS[weapon]
    else:
        auto_skill = "Melee"
        weapon = f"{weapon} {wlevel}"
    if wskill.lower() == "auto":
        wskill = auto_skill
    if wskill.title() not in ATTACK_SKILLS:
        raise Refused(f"weapon skill '{wskill}' must be Melee, Ranged or Unarmed")
    armor, alevel = parse_levelled(str(sheet.get("armor", "none") or "none"), ARMORS, "armor")
    if alevel is None:
        alevel = ARMORS[armor]
    else:
        armor = f"{armor} {alevel}"
    covers = str(sheet.get("armor_covers", "all") or "all").strip().lower()
    if covers != "all":
        parts = tuple(p.strip() for p in covers.split(",") if p.strip())
        for p in parts:
            if p not in LOCATIONS:
                raise Refused(f"armor covers '{p}': hit locations are {', '.join(LOCATIONS)}")
        covers = ", ".join(parts) or "all"
    for name, lo, hi in (("durability", 0, 4), ("endurance", 0, 4), ("plot_points", 0, 99), ("armor_penalty", 0, 4)):
        value = int(sheet.get(name, 0) or 0)
        if not lo <= value <= hi:
            raise Refused(f"{name.replace('_', ' ')} runs {lo} to {hi}, not {value}")
        out[name] = value
    aspects = tuple(a.strip() for a in str(sheet.get("aspects", "") or "").split(",") if a.strip())
    out.update(
        attributes=", ".join(f"{n} {v:+d}" for n, v in attrs_),
        fortitude=fort,
        high_powered=high,
        skills=", ".join(s.text() for s in skills),
        aspects=", ".join(aspects),
        weapon=weapon,
        weapon_level=wlevel,
        weapon_skill=wskill.title(),
        armor=armor,
        armor_level=alevel,
        armor_covers=covers,
    )
    return out


def build_data(sheet: Mapping[str, Any]) -> ZludgeData:
    covers = str(sheet.get("armor_covers", "all"))
    return ZludgeData(
        attributes=parse_attributes(str(sheet.get("attributes", "")), True),
        fortitude=int(sheet.get("fortitude", 0)),
        skills=parse_skills(str(sheet.get("skills", ""))),
        durability=int(sheet.get("durability", 0)),
        endurance=int(sheet.get("endurance", 0)),
        aspects=tuple(a.strip() for a in str(sheet.get("aspects", "")).split(",") if a.strip()),
        plot_points=int(sheet.get("plot_points", 0)),
        weapon=str(sheet.get("weapon", "unarmed")),
        weapon_level=int(sheet.get("weapon_level", 0)),
        weapon_skill=str(sheet.get("weapon_skill", "Unarmed")),
        armor=str(sheet.get("armor", "none")),
        armor_level=int(sheet.get("armor_level", 0)),
        armor_penalty=int(sheet.get("armor_penalty", 0)),
        armor_covers=() if covers == "all" else tuple(p.strip() for p in covers.split(",")),
    )


TEXT_FIELDS = ("skills_text", "attributes_text", "aspects_text", "aspects_checked")


def check_text_adjust(d: ZludgeData, field: str, value: Any) -> str:
    """Parse a GM's edit of skills, attributes, aspects or checked aspects; return its canonical text."""
    text = str(value or "").strip()
    if field == "skills_text":
        return ", ".join(s.text() for s in parse_skills(text))
    if field == "attributes_text":
        return ", ".join(f"{n} {v:+d}" for n, v in parse_attributes(text, True))
    names = tuple(dict.fromkeys(a.strip() for a in text.split(",") if a.strip()))
    if field == "aspects_text":
        return ", ".join(names)
    checked = []
    for name in names:
        match = next((a for a in d.aspects if a.lower() == name.lower()), None)
        if match is None:
            raise Refused(f"'{name}' is not one of the aspects ({d.aspects_text or 'none'})")
        checked.append(match)
    return ", ".join(checked)


def apply_text_adjust(d: ZludgeData, field: str, text: str) -> ZludgeData:
    if field == "skills_text":
        return attrs.evolve(d, skills=parse_skills(text))
    if field == "attributes_text":
        return attrs.evolve(d, attributes=parse_attributes(text, True))
    names = tuple(a.strip() for a in text.split(",") if a.strip())
    if field == "aspects_text":
        return attrs.evolve(d, aspects=names, aspects_used=tuple(a for a in d.aspects_used if a in names))
    return attrs.evolve(d, aspects_used=names)


def adjustable() -> tuple[Param, ...]:
    return (
        Param(
            name="skills_text",
            label="Skills",
            required=False,
            help="'Melee 2 @Agility, Ranged 3 +Pistols' (unnamed skills are -1 Poor)",
        ),
        Param(name="attributes_text", label="Attributes", required=False, help="'Agility +1, Perception -1'"),
        Param(name="aspects_text", label="Aspects", required=False, help="comma-separated"),
        Param(
            name="aspects_checked",
            label="Aspects checked off today",
            required=False,
            help="comma-separated; empty: none checked",
        ),
        Param(name="plot_points", kind=INT, label="Plot points", min=0, max=99),
        Param(name="durability", kind=INT, label="Durability ranks", min=0, max=4),
        Param(name="endurance", kind=INT, label="Endurance ranks", min=0, max=4),
        Param(name="fortitude", kind=INT, label="Fortitude", min=-3, max=3),
        Param(name="weapon_level", kind=INT, label="Weapon damage level", min=0, max=4),
        Param(name="weapon_skill", kind=CHOICE, label="Weapon skill", choices=ATTACK_SKILLS),
        Param(name="armor_level", kind=INT, label="Armor level", min=0, max=4),
        Param(name="armor_penalty", kind=INT, label="Bulky armor penalty", min=0, max=4),
        Param(name="clipped", kind=BOOL, label="Clipped"),
        Param(name="acted", kind=BOOL, label="Has acted (not flat-footed)"),
        Param(name="dead", kind=BOOL, label="Dead"),
    )
