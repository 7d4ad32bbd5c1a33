"""The record the tracker keeps for each 2d6 combatant (``Combatant.data``), and its typed accessor."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from systems.twod6.checks import CheckRoll
from systems.twod6.sheet import (
    ARMOR_LEVEL,
    ARMOR_PROFICIENCY,
    DUAL_WIELD,
    FAVORED_ENEMY,
    STATS,
    Item,
    Limb,
    max_wounds,
    parse_items,
    parse_skills,
    parse_talents,
    split_talent,
)
from tracker.commands import Modifier
from tracker.model import Combatant
from tracker.shapes import sheet_value


@attrs.frozen(kw_only=True)
class Before:
    """What an attack's outcome may change on its defender, as it was before the attack: a lost defense
    rerolled with a cinematic takes the outcome back to this, then works it out again."""

    wounds: int
    unconscious: bool = False
    dead: bool = False
    death_save_failed: bool = False
    prone: bool = False
    disarmed: bool = False
    grappled_by: str | None = None
    limbs: tuple[Limb, ...] = ()
    distracted: int = 0


@attrs.frozen(kw_only=True)
class Failed:
    """A failed check of the combatant since its last turn, kept so a cinematic can reroll it."""

    kind: str  # "attack", "defense", "resolve", "check", "opposed" (stealth, breaking a grapple, Negate), "contest"
    label: str
    parts: tuple[Modifier, ...] = ()
    target: str | None = None
    skill: str = ""
    result: str = ""
    defense: CheckRoll | None = None  # the defense an attack lost to (opposed: the actor's own roll; contest: the
    # opposing roll it lost to, ``defense_skill`` that roll's skill)
    defense_skill: str = ""
    dc: int = 0
    stakes: str = ""
    ranged: bool = False
    against: tuple[tuple[str, CheckRoll], ...] = ()  # opposed: (target id, the roll it lost to), each
    # a lost defense: the attack it lost to (``target``: the attacker; ``defense``: the attack's roll, which
    # stands), the declared result, and the defender as it was before the outcome landed
    attack_roll: CheckRoll | None = None
    before: Before | None = None


@attrs.frozen(kw_only=True, slots=False)  # copied by its dictionary: see tracker.model.changed (bench figure 3)
class Data:
    """Everything the tracker keeps for one 2d6 combatant."""

    stats: tuple[int, ...]
    skills: tuple[tuple[str, int], ...] = ()
    talents: tuple[str, ...] = ()
    items: tuple[Item, ...] = ()
    armor: str = "none"
    fine_armor: bool = False
    race: str = ""
    max_wounds: int = 3
    wounds: int = 3
    cinematics: int = 0
    # the state of the fight
    unconscious: bool = False
    dead: bool = False
    death_save_failed: bool = False
    prone: bool = False
    disarmed: bool = False
    grappled_by: str | None = None
    grappling: str | None = None
    entangled: bool = False  # held by the Entangle spell (a grapple at range): its holder may act, casting
    limbs: tuple[Limb, ...] = ()
    negated: bool = False
    hidden_from: tuple[str, ...] = ()
    # the action economy of the turn
    quick: int = 2
    half: int = 2
    distracted: int = 0
    graceful_used: bool = False
    extra_turn: bool = False
    aim: int = 0  # the aim bonus as aimed (PER, at least +1)
    aim_sniper: bool = False  # Sniper: doubled on a shooting, archery or throwing check
    init_tiebreak: tuple[int, ...] = ()
    failed: tuple[Failed, ...] = ()  # the failed checks a cinematic may reroll, oldest first
    rest_half: bool = False  # a day underfed: half a wound's rest carried to the next (systems.twod6.rules.rest)

    @property
    def last_failed(self) -> Failed | None:
        """The latest failed check (the one a reroll that names none takes)."""
        return self.failed[-1] if self.failed else None

    def stat(self, key: str) -> int:
        return self.stats[STATS.index(key)]

    def ranks(self, skill: str) -> int:
        for name, r in self.skills:
            if name.lower() == skill.lower():
                return r
        return 0

    def has(self, talent: str) -> bool:
        return any(split_talent(t)[0] == talent for t in self.talents)

    def talent_args(self, talent: str) -> tuple[str, ...]:
        return tuple(arg for t in self.talents for name, arg in [split_talent(t)] if name == talent)

    def item_bonus(self, skill: str) -> tuple[Item, ...]:
        """The item(s) that modify ``skill``: the best one, or the best two with Dual Wield for it."""
        fits = sorted((i for i in self.items if i.skill.lower() == skill.lower()), key=lambda i: -i.bonus)
        dual = {arg.lower() for arg in self.talent_args(DUAL_WIELD)}
        n = 2 if skill.lower() in dual else 1
        return tuple(fits[:n])

    def favors_against(self, foe: Combatant, talent: str = FAVORED_ENEMY) -> bool:
        """Favored Enemy (or ``talent``: Favored Culture): is ``foe`` of a race or culture (its sheet's Race, or its
        group's name) this combatant has the talent for?"""
        races = {x.lower() for x in self.talent_args(talent)} - {""}
        theirs = {(data(foe).race or "").lower(), (foe.group or "").lower()} - {""}
        return bool(races & theirs)

    @property
    def armor_defense(self) -> int:
        level = ARMOR_LEVEL[self.armor]
        if level >= 2 and not self.has(ARMOR_PROFICIENCY):
            return 1
        return level

    @property
    def armor_penalty(self) -> int:
        level = ARMOR_LEVEL[self.armor]
        return -max(0, level - 1) if self.fine_armor else -level

    @property
    def useless_limbs(self) -> str:
        """The disabled limbs as the GM types them: ``"left leg -3, arm -2"``."""
        return ", ".join(f"{limb.name} {limb.penalty:+d}" for limb in self.limbs)

    @property
    def limb_penalty(self) -> int:
        return sum(limb.penalty for limb in self.limbs)

    @property
    def down(self) -> bool:
        return self.dead or self.unconscious


def _stat_property(key: str) -> property:
    return property(lambda self: self.stat(key))


# its fields' types read now, before the stat properties come: one is named ``int``, and read later
# (typing.get_type_hints, cattrs) ``int`` in the class would be that property, not the type
attrs.resolve_types(Data)
for _key in STATS:  # data.agi etc., so a GM adjust logs the old value
    setattr(Data, _key, _stat_property(_key))


def make_data(kind: str, sheet: Mapping[str, Any]) -> Data:
    """The record for a checked sheet (pure).

    Ruling: the sheet is read as JSON holds it, each value of the type its field declares, nothing coerced: a
    ``combatant_added`` line read from a file whose sheet gives 1.5 or "1" for a stat, true for Cinematics or 1
    for Fine armor was edited by hand (``check_sheet`` writes whole numbers, flags and texts), so its event does
    not apply (ValueError) and the loader names its line (a stat of 1.5 was read as 1).  The GM's own sheets (the
    add form, a preset, a party) are parsed by ``check_sheet`` before they reach here.  Tests:
    tests/reliability/test_sheet_strict.py::test_a_sheet_value_of_the_wrong_json_type_is_refused_at_its_line.
    """
    stats = tuple(sheet_value(sheet, k, int, 0) for k in STATS)
    # the sheet as checked when it was added (an older file's as it was then read): not checked again
    talents = parse_talents(sheet_value(sheet, "talents", str, "", null=True), strict=False)
    most = max_wounds(stats[STATS.index("tou")], talents)
    return Data(
        stats=stats,
        skills=parse_skills(sheet_value(sheet, "skills", str, "", null=True), strict=False),
        talents=talents,
        items=parse_items(sheet_value(sheet, "items", str, "", null=True), strict=False),
        armor=sheet_value(sheet, "armor", str, "", null=True) or "none",
        fine_armor=sheet_value(sheet, "fine_armor", bool, False, null=True),
        race=sheet_value(sheet, "race", str, "", null=True),
        max_wounds=most,
        wounds=most,
        cinematics=sheet_value(sheet, "cinematics", int, 0),
    )


def data(c: Combatant) -> Data:
    """The 2d6 record of a combatant (``Combatant.data`` is untyped in the core)."""
    d = c.data
    if not isinstance(d, Data):
        raise TypeError(f"{c.name} has no 2d6 Gamma record")
    return d
