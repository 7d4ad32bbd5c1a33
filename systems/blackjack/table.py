"""Blackjack's rules table: every rule the plug-in applies, by id, with its place in the book.

Sources are lines of the weird-west Core Rules (``blackjack l.N``; the seed file
``001_*.txt``, 1-based) or, where the book is unclear or silent, the project's
reading of that place (``ruling on blackjack l.N``).  Each ``text`` is the
project's own one-line statement, never the book's words.  The deciders name the
rules they apply (``Refused(..., rule=R.X)``, :func:`applies`), and
:mod:`systems.blackjack.why` explains every event by these rules.
``docs/rules/blackjack.md`` is made from :func:`rules`.

A leaf module (``tracker.reasons`` only), so any part of the plug-in may import it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from tracker.plugin import BookCondition
from tracker.reasons import Rule

F = TypeVar("F", bound=Callable[..., object])

HEXED = "Hexed"  # the Hex's condition, read by name (rule ``hex``)
HEX_DV = 2  # a Hex's DV (l.266)
ENCUMBERED = "Encumbered"  # burden over 12 slots: counts as a lesser injury (l.36; RULINGS, other DV sources)


def _r(id: str, name: str, source: str, text: str) -> Rule:
    return Rule(id=id, name=name, source=f"blackjack {source}" if source[0] == "l" else source, text=text)


class R:
    """The rules, by constant: ``R.SAVE`` is the rule with id ``save``."""

    # -- saves -------------------------------------------------------------
    SAVE = _r(
        "save", "Blackjack save", "l.4", "d20: success when above the DV and at or under the stat; DV never below 0"
    )
    RISK = _r(
        "risk",
        "Who saves",
        "l.6",
        "the one taking the most risk rolls: an attacker its own save; a target saves against an NPC's special",
    )
    STATS = _r(
        "stats", "Which save", "l.26–28", "ACC for shooting and throwing, BODY for melee and danger, CTRL for nerve"
    )
    MARKS = _r(
        "marks",
        "Improvement marks",
        "l.30",
        "a PC rolling over its stat marks it; the third mark clears them and raises the stat by 1; "
        "rolling at or under the DV marks nothing",
    )
    STAT_MAX = _r(
        "stat_max", "Saves max out at 19", "l.31", "a stat of 19 rises no further, so rolling over it marks nothing"
    )
    INJURY_DV = _r("injury_dv", "Injuries add to the DV", "l.174", "every injury the roller carries adds +1 DV")
    NPC_SAVE = _r(
        "npc_save",
        "NPC save",
        "l.239",
        "an NPC saves at or under Threat + 8; ⌈Threat ÷ 2⌉ + 8 where it is deficient in what the save tests "
        "(its sheet's Deficient in names it as a GM says it: the stat, shooting, throwing or fighting, the weapon or "
        "its kind, magic or the working, the purpose; or the GM ticks it)",
    )
    AGAINST_NPC = _r(
        "against_npc", "Save against an NPC", "l.238", "a PC saving against an NPC's effect has the NPC's Threat as DV"
    )
    IMPACT = _r(
        "impact",
        "Impact",
        "ruling on blackjack l.11–12",
        "advantage moves the injury one level in the advantaged side's favour, disadvantage one level against; "
        "never below lesser",
    )
    SOCIAL = _r(
        "social", "Social save", "l.102–105", "CTRL against the NPC's Threat: −4 DV with leverage, +4 disgraced"
    )
    SOCIAL_PASS = _r(
        "social_pass",
        "A negative DV passes",
        "ruling on blackjack l.103",
        "a social save whose DV, before the floor at 0, is negative passes with no roll",
    )
    ARGUIN = _r(
        "arguin",
        "Arguin'",
        "l.110–118",
        "defend beats attack, attack beats flourish, flourish beats defend; the loser (both on a tie) saves CTRL "
        "or takes a lesser lose-face injury",
    )
    ARGUIN_LOST = _r(
        "arguin_lost",
        "Publicly shamed",
        "l.119–120",
        "the first side whose lose-face injury lands at moderate loses; both at once: the side with less to lose wins",
    )
    # -- attacks -----------------------------------------------------------
    PC_ATTACK = _r(
        "pc_attack",
        "A PC attacks",
        "ruling on blackjack l.238",
        "a PC attacking saves ACC (BODY in melee) with DV = the target's Threat + weapon and range notes "
        "+ the target's DV modifiers + its own injuries",
    )
    NPC_ATTACK = _r(
        "npc_attack",
        "An NPC attacks",
        "ruling on blackjack l.239",
        "an NPC attacking makes its own save, at or under Threat + 8 and over its DV; a hit injures the target",
    )
    DEFAULT_LEVEL = _r(
        "default_level",
        "Injury by weapon",
        "ruling on blackjack l.191",
        "a hit's level is the GM's pick; by default firearms and bows moderate, melee, thrown, fists and darts "
        "lesser, a special its stated level",
    )
    FISTS = _r(
        "fists",
        "Fists",
        "ruling on blackjack l.191",
        "anyone can fight with fists (lesser) even with none on the sheet",
    )
    MELEE = _r("melee", "Melee", "l.20", "a melee attack reaches only a target close by (in melee)")
    SHOTS = _r(
        "shots", "Shots", "l.189", "each firearm holds its shots; each shot spends one; an empty gun cannot fire"
    )
    VOLLEY = _r(
        "volley",
        "Multiple shots",
        "ruling on blackjack l.195–196",
        "a revolver or repeater fires several shots in one action, each its own save and target; others fire one",
    )
    ALIKE = _r(
        "alike",
        "Two alike weapons",
        "ruling on blackjack l.256",
        'a weapon carried twice (2 Revolvers: "Revolver", "Revolver 2") is one kind: naming either takes '
        "the one named if it can make the attack, else the other alike that can",
    )
    WEAPON_DV = _r(
        "weapon_dv",
        "Firearm notes",
        "l.194–199",
        "pistol −1 DV nearby; shotgun +2 DV, +4 on several targets; rifle −2 and scoped rifle −4 DV far",
    )
    AMMO = _r("ammo", "Ammunition stack", "l.190", "bow and blowgun ammunition is a stack, one spent per shot")
    BOW = _r("bow", "Bows", "l.202", "a bow cannot shoot at melee range")
    THROWN = _r("thrown", "Thrown weapons", "l.204–205", "throwing axes and knives cannot reach far range")
    THROW_MELEE = _r(
        "throw_melee",
        "Throwing an axe or knife",
        "ruling on blackjack l.191",
        "a hand axe, hatchet, hunting knife or knife can be thrown at nearby range with an ACC save; "
        "it then lies on the floor",
    )
    RELOAD = _r("reload", "Reload", "l.217", "1 lead and an action fill a firearm to its shots; a reload clears a jam")
    JAM = _r("jam", "Jams", "l.258", "a gun that jams on a face jams on that d20: a miss, and a reload clears it")
    DV_MODS = _r(
        "dv_mods",
        "The target's DV modifiers",
        "l.262",
        "a target's own DV modifier (Ironscales +1) adds to attacks it names",
    )
    RECHARGE = _r(
        "recharge", "Recharge", "l.264", "a special with N-in-6 recharge is ready again on a d6 of 7 − N or more"
    )
    SPECIAL = _r(
        "special",
        "A special's condition",
        "l.261–263",
        "a special may lay a condition on a failed save (a bear hug grapples, buffeting wings knock prone)",
    )
    # -- injuries ----------------------------------------------------------
    INJURY_SLOTS = _r("injury_slots", "Injury slots", "l.162–166", "lesser 2, moderate 2, severe 1; fatal has no slot")
    ESCALATION = _r(
        "escalation",
        "Injury escalation",
        "l.167–168",
        "an injury whose level is full moves up one level, again while full",
    )
    SEVERE = _r("severe", "Severe", "l.171", "a severe injury leaves the character needing help, or it will die")
    FATAL = _r(
        "fatal", "Fatal", "l.166", "a fatal injury kills: the dead take no turns, act no more and are not treated"
    )
    MONSTER_SLOTS = _r(
        "monster_slots",
        "Monster tracks",
        "ruling on blackjack l.262",
        "a stat line's box groups read lesser, moderate, severe; a fourth group is Grievous, before Fatal",
    )
    RESISTANT = _r(
        "resistant", "Resistant", "l.249", "an injury the creature resists drops one level; a lesser one is ignored"
    )
    WEAK = _r("weak", "Weak", "l.250", "an injury the creature is weak to rises one level")
    IMMUNE = _r("immune", "Immunity", "l.258", "a creature immune to a cause takes no injury from it")
    METAPHYSICAL = _r(
        "metaphysical", "Metaphysical wounds", "l.176–177", "emotional, psychic and social injuries start as lesser"
    )
    QUICK_DAMAGE = _r(
        "quick_damage",
        "Quick damage is an injury",
        "ruling on blackjack l.162",
        "quick damage marks an injury of the level named through the same path; blackjack has no temporary harm",
    )
    AFFLICTIONS = _r(
        "afflictions",
        "Afflictions",
        "ruling on blackjack l.182",
        "hunger, thirst, poison, snake venom and disease start moderate, rest leaves them, and when time passes "
        "the GM says whether each worsens one level",
    )
    TREATMENT = _r("treatment", "Treatment", "l.185", "proper treatment or healing clears any one injury below fatal")
    REST = _r("rest", "A good night's rest", "l.184", "a good night's rest clears every lesser and moderate injury")
    TIME = _r(
        "time",
        "Letting time pass",
        "ruling on blackjack l.184",
        "one logged action after the fight: a good night's rest or longer clears lesser and moderate injuries, "
        "poor rest or a nap none; the dead stay dead",
    )
    # -- lead-working ------------------------------------------------------
    INGEST = _r("ingest", "Ingesting lead", "l.221", "one action ingests lead from the caster's own; another casts")
    LEARNED = _r("learned", "Workings are learned", "l.229", "a caster casts only the workings it has learned")
    WORKING_LEVEL = _r("working_level", "A working's level", "l.231", "a working needs its level in lead ingested")
    WORKING_ROLL = _r(
        "working_roll", "Casting", "l.223", "roll 1d6 per lead ingested; each 6 is powderburn, a lesser injury"
    )
    CATASTROPHE = _r(
        "catastrophe", "Catastrophe", "l.224", "for each 6 the caster may take a catastrophe instead; it may injure"
    )
    WORKING_SAVE = _r(
        "working_save",
        "An unwilling target",
        "ruling on blackjack l.225",
        "the target saves (a PC CTRL, an NPC at or under Threat + 8) with DV = lead ingested + its own injuries "
        "(no Threat); failing, it suffers the working",
    )
    NO_TARGET = _r("no_target", "No target", "l.225", "a working with no target (or a willing one) just happens")
    ONCE_A_DAY = _r(
        "once_a_day", "Once a day", "l.228", "a working is safe once a day; casting it again costs a lesser powderburn"
    )
    BURN_FIRST = _r(
        "burn_first",
        "Powderburn first",
        "ruling on blackjack l.228",
        "a second casting's powderburn is marked before the dice; a caster it drops or kills casts nothing",
    )
    HEX = _r("hex", "Hex", "l.266", "a hexed target has +2 DV until the paper is destroyed")
    NAMING = _r(
        "naming", "Naming", "l.267", "a named target suffers a severe injury (agony) until the paper is destroyed"
    )
    PAPER = _r(
        "paper",
        "Bound to the paper",
        "ruling on blackjack l.266–267",
        "what a Hex or a Naming lays stays until its paper is destroyed: treatment and rest leave it",
    )
    HEALING_HANDS = _r("healing_hands", "Healing hands", "l.259", "a healing working clears the target's worst injury")
    # -- morale and order --------------------------------------------------
    MORALE_TRIGGERS = _r(
        "morale_triggers",
        "Morale triggers",
        "l.244–247",
        "a side's first casualty, half its number out, or a lone NPC with 2 moderate injuries calls for a check",
    )
    CASUALTY = _r(
        "casualty",
        "Casualties and sides",
        "ruling on blackjack l.245",
        "a side is the NPCs of one group; a casualty is one dropped, killed, broken or removed after the start",
    )
    MORALE = _r(
        "morale",
        "Morale check",
        "ruling on blackjack l.244",
        "2d6 against each standing member's Morale: over it breaks (flees or surrenders, as the GM says)",
    )
    MORALE_EXTREMES = _r(
        "morale_extremes", "Morale 2 and 12", "l.242–243", "Morale 2 never fights; Morale 12 never checks morale"
    )
    ORDER = _r(
        "order",
        "No initiative",
        "ruling on blackjack l.14",
        "the book has no initiative: the GM's order, PCs then NPCs as added, reorderable at any time",
    )
    ONE_ACTION = _r(
        "one_action",
        "One action a turn",
        "ruling on blackjack l.221",
        "an attack (a revolver's or repeater's volley is one), a reload, ingesting lead or casting takes the turn's "
        'action; a second waits for the next turn (the GM\'s "Has acted this turn: no" frees it)',
    )


def rules() -> tuple[Rule, ...]:
    """Every rule of the table, in the order above."""
    return tuple(v for v in vars(R).values() if isinstance(v, Rule))


def applies(*rules: Rule) -> Callable[[F], F]:
    """Name the rules a decider (or a helper deciding for it) applies: kept on the function as ``applies``."""

    def mark(fn: F) -> F:
        fn.applies = rules  # type: ignore[attr-defined]
        return fn

    return mark


# The book's named conditions (offered in the condition form).  ``automated``: the rules read it by this name.
CONDITIONS: tuple[BookCondition, ...] = (
    BookCondition(
        name=HEXED,
        source=R.HEX.source,
        effect="+2 DV to every save until the Hex's paper is destroyed",
        automated=True,
    ),
    BookCondition(
        name="Grappled", source="blackjack l.261", effect="held in a bear hug: free of it only as the fiction allows"
    ),
    BookCondition(name="Prone", source="blackjack l.263", effect="knocked down by buffeting wings: must get up"),
    BookCondition(
        name=ENCUMBERED,
        source="blackjack l.36",
        effect="over 12 burden slots: counts as a lesser injury (+1 DV, a lesser slot taken)",
        automated=True,
    ),
    BookCondition(name="Asleep", source="blackjack l.253", effect="a monster's sleep: out of the action until woken"),
    BookCondition(name="Blinded", source="blackjack l.253", effect="cannot see: the fiction limits what it can do"),
    BookCondition(name="Deafened", source="blackjack l.253", effect="cannot hear"),
    BookCondition(name="Muted", source="blackjack l.253", effect="cannot speak (no Arguin', no bargaining)"),
    BookCondition(
        name="Body-swapped", source="blackjack l.253", effect="in another's body, as the monster's power says"
    ),
    BookCondition(name="Gravity inverted", source="blackjack l.253", effect="falls upward: the fiction says where"),
    BookCondition(name="Polymorphed", source="blackjack l.253", effect="turned into another shape"),
)
