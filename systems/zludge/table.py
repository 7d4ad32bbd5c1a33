"""The Zludge rules table: every rule the plug-in applies, by id, with its book place (Zludge 1.0 Alpha).

Sources are lines of the seed book (``zludge l.N``); a reading the project made where the book is
unclear or silent is ``ruling on zludge l.N`` (the line it reads).  Each rule's ``text`` is the
project's own one-line statement.  The deciders name the rules they apply (``Refused(..., rule=R.turn)``,
or the rule beside the code that decides), and :mod:`systems.zludge.why` explains each event with them.
``docs/rules/zludge.md`` is generated from :func:`rules`.

This module is a leaf (it imports only the core's records), so any part of the plug-in may name a rule.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from tracker.reasons import Rule

F = TypeVar("F", bound=Callable[..., Any])


class R:
    """The rules, as attributes: ``R.clipped`` (the id is the attribute's name)."""

    # -- the roll ------------------------------------------------------------
    ladder = Rule(
        "ladder",
        "4dF on the ladder",
        "zludge l.4–16",
        "A roll is 4dF (each die −1, 0 or +1) plus modifiers, read on the ladder from −4 Abysmal to +4 Superb.",
    )
    skill = Rule(
        "skill",
        "Skill modifier",
        "zludge l.63–67",
        "A skill is −1 Poor untrained, +1 per rank, +2 for a specialization (rank modifier at most +4), "
        "plus its attribute.",
    )
    ranks = Rule(
        "ranks",
        "Rank cap",
        "ruling on zludge l.63",
        "Every skill, Durability and Endurance included, holds at most 3 ranks.",
    )
    test = Rule(
        "test",
        "Test",
        "zludge l.17",
        "A skill roll of 0 or more succeeds; +4 or more is a critical success, −4 or less a critical failure.",
    )
    difficulty = Rule(
        "difficulty",
        "Difficulty",
        "zludge l.22–31",
        "A task's difficulty adds −4 (Improbable) to +2 (Negligible) to the roll.",
    )
    take_0 = Rule(
        "take_0",
        "Take 0",
        "zludge l.18",
        "A character under no pressure may skip the dice of a check and count them as 0; the modifiers still apply.",
    )
    combat_rolls = Rule(
        "combat_rolls",
        "Combat skills roll",
        "zludge l.21",
        "Melee, Ranged and Unarmed are always rolled, never taken as 0.",
    )
    situational = Rule(
        "situational",
        "Situational modifiers",
        "ruling on zludge l.107–109",
        "The GM adds any number of ±1 situational modifiers to a roll, each shown with its label.",
    )
    # -- aspects and plot points ---------------------------------------------
    invoke = Rule(
        "invoke",
        "Invoking an aspect",
        "ruling on zludge l.37",
        "An aspect that fits the roll is checked off for +1 or a reroll of the dice, before or after the roll; "
        "one per roll.",
    )
    refresh = Rule(
        "refresh",
        "Aspects refresh",
        "zludge l.38",
        "Checked-off aspects come back once per game day.",
    )
    plot_point = Rule(
        "plot_point",
        "Plot point",
        "zludge l.80",
        "A plot point adds +1 to a check, before or after the roll; at most one per check.",
    )
    revised = Rule(
        "revised",
        "Reading a revised roll",
        "ruling on zludge l.37",
        "A roll changed after the fact is read again: the harm of its earlier reading is taken back and the "
        "new reading's dealt.",
    )
    # -- turns and initiative ----------------------------------------------------
    initiative = Rule(
        "initiative",
        "Initiative",
        "zludge l.100",
        "Everyone rolls Reflexes; the highest acts first and the order is kept for later turns.",
    )
    initiative_tie = Rule(
        "initiative_tie",
        "Initiative ties",
        "ruling on zludge l.100",
        "Combatants tied on initiative roll again among themselves, with the same modifiers as their first roll.",
    )
    ambush = Rule(
        "ambush",
        "Ambush",
        "zludge l.101",
        "Ambushers roll Stealth; their victims roll the average of Reflexes and Alertness, rounded up.",
    )
    surprise = Rule(
        "surprise",
        "Surprise action",
        "zludge l.102",
        "An unseen ambusher may take one action before initiative is rolled.",
    )
    turn = Rule(
        "turn",
        "One action a turn",
        "zludge l.104",
        "Each active combatant takes one action on its own turn.",
    )
    hold = Rule(
        "hold",
        "Holding the turn's action",
        "ruling on zludge l.104",
        "A held action is the turn's one action, taken later in the round: one who has taken its turn's action "
        "has none left to hold.",
    )
    flat_footed = Rule(
        "flat_footed",
        "Flat-footed",
        "ruling on zludge l.103",
        "Before its first action a combatant makes no defense roll: the attack meets a fixed defense of −1 "
        "(stationary) or 0 (moving).",
    )
    helpless = Rule(
        "helpless",
        "Helpless defender",
        "ruling on zludge l.118–119",
        "A prone (Incapacitated, Exhausted) or unconscious target makes no defense roll: fixed defense −1, less "
        "its wound and fatigue penalties.",
    )
    # -- attacks ---------------------------------------------------------------
    attack = Rule(
        "attack",
        "Attack against defense",
        "zludge l.105",
        "The attacker rolls Melee, Ranged or Unarmed; the defender rolls Acrobatics, or Melee or Unarmed "
        "against a close attack.",
    )
    outcome = Rule(
        "outcome",
        "Miss, clip or hit",
        "zludge l.106",
        "An attack below the defense misses, equal to it clips (0-level damage), above it hits for the "
        "weapon's level less the armor's.",
    )
    critical = Rule(
        "critical",
        "Critical hit",
        "zludge l.106",
        "An attack 4 or more over the defense deals one damage level more.",
    )
    weapons = Rule(
        "weapons",
        "Weapon damage levels",
        "zludge l.86–91",
        "Weapons deal a damage level from 0 (unarmed) to 4 (explosives).",
    )
    armor = Rule(
        "armor",
        "Armor",
        "zludge l.92–97",
        "Armor from 0 to 4 absorbs that many damage levels of a hit.",
    )
    no_damage = Rule(
        "no_damage",
        "Armor stops the hit",
        "ruling on zludge l.106",
        "A hit whose damage level falls below 0 after armor does no damage, a critical's +1 counted before that "
        "test (weapon 1 + 1 critical − armor 2 = 0: a 0-level wound); a clip deals 0-level damage whatever the armor.",
    )
    unarmed = Rule(
        "unarmed",
        "Unarmed is 0-level",
        "ruling on zludge l.87",
        "An Unarmed attack deals 0-level damage whatever the attacker carries.",
    )
    bulky = Rule(
        "bulky",
        "Bulky armor",
        "ruling on zludge l.98",
        "Bulky armor's penalty falls on every Athletics and Acrobatics roll, the Acrobatics defense included.",
    )
    partial_armor = Rule(
        "partial_armor",
        "Partial armor",
        "ruling on zludge l.99",
        "Armor that does not cover every location makes every attack roll a hit location; it counts only "
        "where it covers.",
    )
    location = Rule(
        "location",
        "Hit location",
        "ruling on zludge l.110",
        "A hit location is 1d6: 1 head, 2–3 torso, 4 right arm, 5 left arm, 6 legs.",
    )
    called_shot = Rule(
        "called_shot",
        "Called shot",
        "zludge l.111",
        "A called shot takes −2 on the attack and picks where it lands.",
    )
    # -- wounds, fatigue, penalties -------------------------------------------------
    wound_track = Rule(
        "wound_track",
        "Wound boxes",
        "zludge l.112",
        "Damage checks a box at its level, or the next higher level with a free box; each box keeps the "
        "wound's own level.",
    )
    boxes = Rule(
        "boxes",
        "Boxes per level",
        "zludge l.113–121",
        "Scratched 3, Hurt 2, Very Hurt 1, Incapacitated 1, Comatose 1; each Durability rank adds a box to the "
        "next level up; Fortitude ±1 adds or removes a Scratched box.",
    )
    death = Rule(
        "death",
        "Death",
        "ruling on zludge l.112",
        "A wound that needs a box above Comatose kills.",
    )
    clipped = Rule(
        "clipped",
        "Clipped",
        "zludge l.115",
        "0-level damage clips: −1 to physical actions until the victim's next action.",
    )
    wound_penalty = Rule(
        "wound_penalty",
        "Wound penalties",
        "zludge l.116–120",
        "Hurt −1, Very Hurt −2, Incapacitated −3 and prone, Comatose −4 and unconscious, on physical actions; "
        "clipped and wound penalties do not stack: the worst applies.",
    )
    physical = Rule(
        "physical",
        "Physical skills",
        "ruling on zludge l.115–119",
        "A skill roll, and each side of a contest, is physical (wound and clip penalties weigh on it) when its "
        "skill is the body's: "
        "Acrobatics, Athletics, Reflexes, Stealth, Endurance, Durability, Melee, Ranged, Unarmed; any other "
        "(Alertness, Medical, Survival, knowledge, social) is not, unless the GM says so.",
    )
    fatigue_track = Rule(
        "fatigue_track",
        "Fatigue boxes",
        "zludge l.122–131",
        "Fatigue checks boxes as wounds do (Winded 3, Tired 2, Very Tired 1, Exhausted 1, Unconscious 1, "
        "Endurance adds boxes); physical fatigue is marked P.",
    )
    fatigue_penalty = Rule(
        "fatigue_penalty",
        "Fatigue penalties",
        "ruling on zludge l.125–129",
        "Tired −1 and Very Tired −2 to every action, Exhausted −3 and prone, Unconscious no actions; fatigue "
        "adds to the wound or clip penalty.",
    )
    exhausted = Rule(
        "exhausted",
        "Exhausted",
        "ruling on zludge l.128",
        "Exhausted is −3 to every roll the GM still allows.",
    )
    fatigue_full = Rule(
        "fatigue_full",
        "Fatigue beyond Unconscious",
        "ruling on zludge l.129",
        "With no fatigue box left the combatant stays Unconscious; the extra fatigue is lost.",
    )
    # -- first aid and healing ------------------------------------------------------
    first_aid = Rule(
        "first_aid",
        "First aid",
        "zludge l.133",
        "A successful Medical (First Aid) roll makes each wound impair one level less; the boxes stay.",
    )
    reopen = Rule(
        "reopen",
        "Reopened wounds",
        "zludge l.133",
        "A failed physical check by someone with treated wounds can reopen them: full penalties again.",
    )
    clear_box = Rule(
        "clear_box",
        "Clearing a box",
        "zludge l.134–135",
        "A box is cleared when its wound has healed (or the GM corrects the track); it frees a box of its level.",
    )
    healing = Rule(
        "healing",
        "Healing",
        "zludge l.135",
        "Each wound heals one level a week (a Scratch heals away); each point of the caregiver's Medical "
        "shortens the week by a day.",
    )
    healed_box = Rule(
        "healed_box",
        "Where a healed wound sits",
        "ruling on zludge l.135",
        "A healed wound moves to a free box of its new level; if that level is full it stays, counting as "
        "the lower level.",
    )
    fatigue_rest = Rule(
        "fatigue_rest",
        "Fatigue recovery",
        "zludge l.136",
        "Physical fatigue heals a level per 10 minutes of rest, other fatigue two levels per night's sleep "
        "or day of rest.",
    )
    # -- contests -----------------------------------------------------------------
    contest_simple = Rule(
        "contest_simple",
        "Simple contest",
        "zludge l.19",
        "Two scores are compared with no roll; the higher wins; equal scores become a regular contest.",
    )
    contest_regular = Rule(
        "contest_regular",
        "Regular contest",
        "zludge l.20",
        "Both sides roll their skill with their own penalties; a tie rolls again.",
    )


RULES: tuple[Rule, ...] = tuple(v for v in vars(R).values() if isinstance(v, Rule))


def rules() -> tuple[Rule, ...]:
    """Every rule of the table, in the table's order."""
    return RULES


def by_id(rule_id: str) -> Rule:
    rule: Rule = getattr(R, rule_id)
    return rule


def applies(*rules: Rule) -> Callable[[F], F]:
    """Name the rules a decider applies (kept on it as ``rules``): ``@applies(R.outcome, R.critical)``."""

    def mark(fn: F) -> F:
        setattr(fn, "rules", rules)  # noqa: B010 (a function's attribute)
        return fn

    return mark
