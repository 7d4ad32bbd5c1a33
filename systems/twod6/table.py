"""2d6 Gamma's rules table: every rule the plug-in applies, by id, with its place in the book.

Sources are character offsets into the 2d6 Core Rules Gamma text (``twod6 @N``: the seed file
``003_*.txt`` read as text, 0-based) or, where the book is unclear or silent, the project's reading of that
place (``ruling on twod6 @N``).  Each ``text`` is the project's own one-line statement, never the book's
words.  The deciders name the rules they apply (``Refused(..., rule=R.X)``, :func:`applies`), and
:mod:`systems.twod6.why` explains every event by these rules.  ``docs/rules/twod6.md`` is made from
:func:`rules`.

A leaf module (``tracker`` only), so any part of the plug-in may import it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from tracker.plugin import BookCondition
from tracker.reasons import Rule

F = TypeVar("F", bound=Callable[..., object])

PRONE = "prone"  # the condition the rules read by name (rule ``trip``)


def _r(id: str, name: str, source: str, text: str) -> Rule:
    return Rule(id=id, name=name, source=f"twod6 {source}" if source[0] == "@" else source, text=text)


class R:
    """The rules, by constant: ``R.CHECK`` is the rule with id ``check``."""

    # -- checks --------------------------------------------------------------------
    CHECK = _r("check", "Checks", "@5912", "2d6 + skill ranks + stat + item: at or above the DC succeeds")
    CRITICAL = _r(
        "critical",
        "Criticals roll again",
        "ruling on twod6 @41510",
        "dice showing 11 or 12 count as 11 and roll 2d6 more with no bonuses, again on 11 or 12 (not on initiative)",
    )
    SNAKE_EYES = _r("snake_eyes", "Snake eyes", "@41836", "dice showing 2 fail, whatever the bonuses")
    STAT_CHOICE = _r(
        "stat_choice", "The stat fits the use", "@10709", "the stat added is the one the situation calls for (the GM's)"
    )
    # -- initiative and actions ----------------------------------------------------------
    INITIATIVE = _r("initiative", "Initiative", "@49749", "2d6 + PER + AGI, highest acts first; no criticals")
    INITIATIVE_TIE = _r(
        "initiative_tie", "Initiative ties", "@50182", "tied combatants roll again against each other to order them"
    )
    SURPRISE = _r(
        "surprise",
        "Surprise round",
        "@50318",
        "the aware act first; an unaware defender adds nothing but armor to its defense",
    )
    ACTIONS = _r(
        "actions",
        "Actions per turn",
        "@48822",
        "two quick actions, and two half-round actions or one full-round action, each turn",
    )
    HOLD = _r(
        "hold",
        "Holding the turn",
        "ruling on twod6 @48608",
        "the book gives a round's actions (two quick, two half-round or one full-round); a held turn comes back "
        "whole, so only a turn with all its actions left may be held",
    )
    FULL_ROUND = _r(
        "full_round", "Full-round actions", "@49540", "an attack, moving 50 ft or aiming takes the turn's two halves"
    )
    CHECK_COST = _r(
        "check_cost",
        "What a check costs",
        "@49086",
        "a passive check (Notice, Knowledge) is a quick action; an active one a half-round action, a Notice the "
        "character chooses to make too; casting is not one: a full round (half with Fast Caster)",
    )
    CHECKS_ANYTIME = _r(
        "checks_anytime",
        "Checks outside the turn",
        "ruling on twod6 @49086",
        "a check that costs no action is rolled for anyone at any moment, and any check outside a fight; "
        "only a check that costs an action waits for the combatant's turn",
    )
    TURN_FLAGS_END = _r(
        "turn_flags_end",
        "What counts in turns ends with the fight",
        "ruling on twod6 @48822",
        "when the fight ends, or time passes, a distraction, Negate, an unused extra turn and an unused aim end; "
        "hiding ends when time passes",
    )
    GRACEFUL = _r("graceful", "Graceful", "@20498", "the first 20-ft move of a turn costs no action")
    MULTIATTACK = _r("multiattack", "Multiattack", "@21201", "an attack takes a half-round action, so two a turn")
    # -- attack and defense -------------------------------------------------------------
    OPPOSED = _r(
        "opposed",
        "Attack against defense",
        "@51089",
        "the attack's check against the defender's; the higher total wins and a tie goes to the defender",
    )
    UNDEFENDABLE = _r(
        "undefendable",
        "Shooting and archery",
        "@40094",
        "shooting and archery are defended by 2d6 + armor alone, unless by magic; −1 or −2 at a moving or "
        "covered target (the GM's)",
    )
    ARMOR = _r(
        "armor",
        "Armor",
        "@46272",
        "light/medium/heavy: +1/+2/+3 on defense and −1/−2/−3 on melee, throwing, casting and athletics; "
        "medium or heavy without Armor Proficiency defends at +1 only",
    )
    PARRY_PENALTY = _r(
        "parry_penalty",
        "Armor hinders a parry",
        "ruling on twod6 @51089",
        "armor's melee penalty falls on a melee parry too (so the book's worked example adds up)",
    )
    IMPROVISED = _r(
        "improvised", "Improvised weapons", "@20719", "−2 with an improvised weapon, unless with Improvisation"
    )
    FAVORED_ENEMY = _r(
        "favored_enemy",
        "Favored Enemy",
        "ruling on twod6 @19979",
        "+1 on attack and on defense against the favored race (not on a roll of armor alone)",
    )
    FAVORED_CULTURE = _r(
        "favored_culture",
        "Favored Culture",
        "ruling on twod6 @20193",
        "+1 on Diplomacy, Bluff and Intimidate checks against one of the favored culture (its Race or group), "
        "opposing ones too",
    )
    STEALTH = _r(
        "stealth",
        "Stealth before an attack",
        "@40535",
        "Stealth against Notice; on success the next weapon attack, Intimidate or Diplomacy on that target meets "
        "armor only (not a spell)",
    )
    SNEAK_ATTACK = _r(
        "sneak_attack",
        "Sneak Attack",
        "@22636",
        "+1 on the attack, Intimidate or Diplomacy check that follows a successful Stealth (the skill it names)",
    )
    CONTEST = _r(
        "contest",
        "Opposed checks",
        "@35535",
        "a skill the book opposes with another's is rolled against the other's check (Intimidate: Resolve; Bluff: "
        "Notice or Bluff; Diplomacy: Diplomacy; Stealth: Notice; Perform: Perform; Cast: Cast, Resolve…)",
    )
    CONTEST_TIE = _r(
        "contest_tie",
        "Ties in an opposed check",
        "ruling on twod6 @51089",
        "the higher total wins; a tie goes to the one opposing, as in combat; snake eyes lose (both: the one opposing)",
    )
    AIM = _r(
        "aim",
        "Aiming",
        "@55306",
        "a full round aiming: +PER (at least +1) on the next ranged, casting, athletics, perform or ride check; "
        "the check that takes it spends it (a melee attack in between leaves it)",
    )
    SNIPER = _r(
        "sniper",
        "Sniper",
        "ruling on twod6 @23150",
        "Sniper doubles the aim on a shooting, archery or throwing check only; such a check spends the aim, "
        "used or not",
    )
    DECLARED = _r(
        "declared",
        "The result is chosen first",
        "@51676",
        "the attacker declares the result before rolling: a wound, disarm, distract; in melee also knock out, trip, "
        "shove, or grapple (unarmed)",
    )
    DISTRACT = _r("distract", "Distracted", "@51823", "the defender loses a half-round action on its next turn")
    KNOCKOUT = _r(
        "knockout",
        "Knock-out blow",
        "@51974",
        "the defender makes a resolve check at the attack's total or falls unconscious",
    )
    TRIP = _r(
        "trip",
        "Prone",
        "@52111",
        "a tripped defender is prone: −2 on melee checks except tripping, +2 to trip",
    )
    GRAPPLE = _r(
        "grapple",
        "Grapple",
        "@52256",
        "a grapple is made unarmed; the grappled can only speak, attack unarmed or try to break free",
    )
    DOUBLE = _r(
        "double",
        "Doubled attack",
        "@52573",
        "an attack of twice the defense or more: the declared result and a second one, or two wounds, or a limb",
    )
    DOUBLE_LANDS = _r(
        "double_lands",
        "The declared result lands at once",
        "ruling on twod6 @52573",
        "on a doubled or tripled hit the declared result lands at once (a knock-out: its resolve check is raised "
        "at once, and the defender falls only if it fails); only the extra choice waits for the GM; "
        "a defense below 1 counts as 1; the ratio is to the defense as rolled, snake eyes too",
    )
    LIMB = _r("limb", "Useless limb", "@52846", "a disabled limb: −2 or −3 on rolls using it, and one wound")
    TRIPLE = _r(
        "triple",
        "Tripled attack",
        "ruling on twod6 @53102",
        "three times the defense: as doubled, and a DC 7 resolve check or die (rolled first), unconscious either way",
    )
    VICIOUS_PARRY = _r(
        "vicious_parry",
        "Vicious Parry",
        "@23697",
        "a defender who doubles a melee attack may disarm, trip, shove or grapple the attacker",
    )
    # -- magic ----------------------------------------------------------------------------
    BLAST = _r("blast", "Blast", "@25286", "a ranged attack made with Cast")
    ENTANGLE = _r(
        "entangle",
        "Entangle",
        "@26497",
        "a grapple at range, made with Cast; it holds one foe, who breaks free against the caster's Cast; "
        "the caster is in no grapple (ruling)",
    )
    REPEL = _r(
        "repel", "Repel Attack", "@28095", "defends with Cast, against shooting and archery too; any caster counters"
    )
    NEGATE = _r(
        "negate",
        "Negate",
        "@27954",
        "a full round, opposed Cast: the target casts nothing until its next turn ends",
    )
    SPELL_TURNING = _r(
        "spell_turning",
        "Spell Turning",
        "@23476",
        "a defender whose Cast doubles the caster's may reflect the spell onto the caster",
    )
    FAST_CASTER = _r("fast_caster", "Fast Caster", "@19837", "casting takes a half-round action")
    MASS_SPELL = _r("mass_spell", "Mass Spell", "@21110", "one Cast against each target's defense")
    # -- wounds -------------------------------------------------------------------------------
    WOUNDS = _r("wounds", "Wounds", "@53436", "3 + TOU wounds (+1 with Extra Wound); each hit won takes one")
    AT_TWO = _r("at_two", "Two wounds left", "@53798", "falling to 2 wounds left: DC 7 resolve or unconscious")
    AT_ONE = _r("at_one", "One wound left", "@53977", "falling to 1 wound left: DC 9 resolve or unconscious")
    AT_ZERO = _r(
        "at_zero",
        "No wounds left",
        "ruling on twod6 @54043",
        "at 0 wounds: unconscious first, then a DC 7 resolve check (with the −3) or die",
    )
    DEAD_AT_ZERO = _r("dead_at_zero", "A wound at 0 kills", "@54260", "any wound taken at 0 wounds kills")
    LOWEST = _r(
        "lowest",
        "One check a blow",
        "ruling on twod6 @53798",
        "a blow past several thresholds rolls only the lowest one's check",
    )
    UNCONSCIOUS = _r(
        "unconscious",
        "Unconscious",
        "@53333",
        "−3 on every check and no bonus at all on defense (armor included)",
    )
    RESOLVE = _r(
        "resolve",
        "Resolve checks",
        "@39294",
        "2d6 + Resolve ranks + WIL (fear, unconsciousness, death) or TOU (disease, poison) against the DC",
    )
    # -- cinematics -------------------------------------------------------------------------
    CINEMATIC = _r("cinematic", "Cinematics", "@56152", "a cinematic is spent from the pool, gained with experience")
    EXTRA_TURN = _r("extra_turn", "Extra turn", "@56321", "a cinematic buys a turn now; the order does not change")
    REROLL = _r("reroll", "Reroll a failed check", "@56400", "a cinematic rerolls one failed check")
    REROLL_PICK = _r(
        "reroll_pick",
        "Which check is rerolled",
        "ruling on twod6 @56400",
        "the GM picks one of the combatant's failed checks since its own last turn began; a lost defense is rerolled "
        "right after its attack: the attack stands and the outcome is worked out again",
    )
    AUTO_CRITICAL = _r(
        "auto_critical",
        "Automatic critical",
        "@56422",
        "a cinematic declared before the roll: the dice count as 11 and roll again",
    )
    IGNORE_DEATH = _r(
        "ignore_death",
        "Ignore a failed save against death",
        "ruling on twod6 @56597",
        "a cinematic undoes a failed check against death: the character lives, unconscious",
    )
    # -- healing -----------------------------------------------------------------------------
    HEALING = _r(
        "healing",
        "Healing by the day",
        "@54536",
        "fed and with eight hours' rest: 1 wound a day; underfed or short of sleep: 1 per 2 days",
    )
    HEALER = _r("healer", "A healer doubles it", "@54815", "a successful Trade (Healing) check doubles the rate")
    WAKES = _r("wakes", "Waking at 0", "@54116", "a character at 0 wounds stays unconscious until it regains a wound")
    SLEPT_OFF = _r(
        "slept_off",
        "Waking after a day's rest",
        "ruling on twod6 @54116",
        "knocked out with a wound left: a full day's rest wakes the character (the book says only how one at 0 wakes)",
    )
    QUICK_HARM = _r(
        "quick_harm",
        "Wounds by the GM's hand",
        "ruling on twod6 @54878",
        "the GM's quick damage and healing count wounds and go the way an attack's do (magic or technology heals)",
    )


def applies(*rules: Rule) -> Callable[[F], F]:
    """Name the rules a decider (or a helper deciding for it) applies: kept on the function as ``applies``."""

    def mark(fn: F) -> F:
        fn.applies = rules  # type: ignore[attr-defined]
        return fn

    return mark


RULES: tuple[Rule, ...] = tuple(v for v in vars(R).values() if isinstance(v, Rule))


def rules() -> tuple[Rule, ...]:
    return RULES


# The book's named conditions (offered in the condition form).  ``automated``: the rules read it by this name.
CONDITIONS: tuple[BookCondition, ...] = (
    BookCondition(
        name=PRONE,
        source=R.TRIP.source,
        effect="−2 on melee checks, except +2 to trip; standing up takes a half-round action",
        automated=True,
    ),
    BookCondition(
        name="unconscious",
        source=R.UNCONSCIOUS.source,
        effect="−3 on every check and no bonus on defense; acts no more (the Unconscious box of Adjust)",
    ),
    BookCondition(
        name="grappled",
        source=R.GRAPPLE.source,
        effect="can only speak, attack unarmed or try to break free (the Grappled by field of Adjust)",
    ),
    BookCondition(
        name="disarmed", source="twod6 @51801", effect="no weapon in hand until it is drawn or picked up again"
    ),
    BookCondition(
        name="distracted", source=R.DISTRACT.source, effect="one half-round action fewer next turn", rounds=1
    ),
    BookCondition(name="useless limb", source=R.LIMB.source, effect="−2 or −3 on rolls that use the limb"),
    BookCondition(
        name="negated", source=R.NEGATE.source, effect="casts nothing until the end of its next turn", rounds=1
    ),
    BookCondition(
        name="surprised",
        source=R.SURPRISE.source,
        effect="acts not in the surprise round and adds only armor to its defense",
        rounds=1,
    ),
    BookCondition(name="aiming", source=R.AIM.source, effect="+PER (at least +1) on the next ranged check"),
)
