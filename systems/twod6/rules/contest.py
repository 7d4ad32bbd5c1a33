"""Opposed checks between two combatants outside an attack (the ``contest`` command, key o).

The book opposes some skills with another character's check (``commands.OPPOSED_BY``): "Intimidate is opposed by
resolve" (@35535), Bluff "is opposed by another character's Notice or Bluff" (@32816), "Diplomacy is opposed by
diplomacy" (@34212), Stealth "is opposed by notice" (@40586), Notice by "stealth, … forgery, lie" (@38202), Forgery
by Notice, Hacking by Craft (Programming), Lockpicking by Craft (Lock), Perform by perform, and casting by "a
defensive combat check, a resolve check, or even an athletics check …, but can always be opposed by another casting
roll" (@33411).  Both sides roll 2d6 + ranks + stat + item, with criticals and snake eyes as any check.

Rulings of our own, each with its test (tests/systems/twod6/test_contest.py):
- Ruling (rule ``contest_tie``): the book gives a tie only for combat ("In the event of a tie, the defender always
  wins", @51089) and RULINGS only "higher total wins"; an opposed check outside combat goes the same way: the higher
  total wins and a tie goes to the one opposing (the actor has not beaten it), snake eyes lose and both sides'
  snake eyes go to the one opposing (test_a_tie_goes_to_the_one_opposing).
- Ruling: "Opposed by" auto takes the target's best of the skills the book names for it (the first named on a tie),
  as a defense's auto does; the GM may pick any other the book names, and one it does not name is refused
  (test_bluff_is_opposed_by_notice_or_bluff_the_gm_may_choose).
- Ruling: a stat left on auto is the best of the stats the book lists for the skill ("Intimidate [WIL] [STR]",
  "Bluff [CHA] [WIL]", "Diplomacy [CHA]", Forgery, Hacking, Lockpicking, Trade), as ``common.stat_part`` does for
  the skills it knows (test_intimidate_is_opposed_by_resolve).
- Ruling: the book's Craft (Programming) and Craft (Lock) are the Trade skill of that field ("Any field where a
  product is created … is considered a craft", @33542): the target's "Trade (Lock)" ranks count when its sheet has
  no "Craft (Lock)" (test_lockpicking_and_hacking_are_opposed_by_the_craft).
- Stealth (@40586, RULINGS second pass "Stealth's armor-only defense covers melee, archery, shooting, throwing,
  intimidate and diplomacy, not spells"): after a successful Stealth against the target's Notice, the actor's next
  Intimidate or Diplomacy against it meets 2d6 + armor only, takes Sneak Attack's +1 for each taking of the talent
  that names the skill (or none), and spends the Stealth on that target
  (test_stealth_then_intimidate_meets_armor_only_and_sneak_attack_adds_1).  An unconscious target rolls with the
  −3 and nothing else, as a defense does.  Other contests neither use nor spend it.
- Ruling: Sneak Attack works "either in or out of combat" (@22500), so a Stealth contest is also Stealth against
  Notice: on success the actor is hidden from the target as after the Stealth action (``sneak``), before the fight
  too (test_stealth_contest_before_the_fight_hides_and_notice_spots).  Ruling: an active Notice that beats a
  hider's Stealth spots it: the hider's Stealth on that watcher is gone (same test).
- The cost is a check's (``actions.check_cost``): on the actor's own turn a half-round action, at any other moment
  or outside a fight none; the opposing roll costs the target nothing.  Ruling: the actor chooses to make it, so a
  Notice is an active check (@37861), a half-round action, not the passive check's quick one
  (test_round2_rules.py::test_a_deliberate_notice_on_ones_own_turn_is_a_half_round_action); a casting (Cast) is a
  full round, half with Fast Caster (test_round2_rules.py::test_casting_by_a_check_or_an_opposed_check_takes_the_full_round).
- Ruling (rule ``favored_culture``): Favored Culture gives "a +1 on all diplomacy, bluff, and intimidate checks"
  (@20193) against the culture it names; the tracker knows a combatant's culture as it knows Favored Enemy's race:
  the talent's name in parentheses matches the other's Race (sheet) or its group's name.  "All" checks: the one
  opposing with Diplomacy or Bluff takes it too against an actor of its favored culture; a roll of armor alone
  (caught by stealth) or an unconscious one takes nothing
  (test_round2_rules.py::test_favored_culture_adds_1_on_diplomacy_bluff_and_intimidate_against_that_culture).
"""

from __future__ import annotations

from systems.twod6.checks import beats, roll_check
from systems.twod6.commands import OPPOSED_BY, Contest
from systems.twod6.events import NO_COST, ContestRolled
from systems.twod6.record import data
from systems.twod6.rules.actions import check_cost
from systems.twod6.rules.common import (
    STAT_DEFAULTS,
    UNCONSCIOUS_PENALTY,
    afford,
    base_skill,
    in_grapple,
    skill_parts,
    spend_cinematic,
)
from systems.twod6.sheet import CAST, FAVORED_CULTURE, SNEAK_ATTACK, skill_name
from systems.twod6.table import R, applies
from tracker.commands import Modifier
from tracker.dice import Roller
from tracker.errors import Refused
from tracker.kit import Draft, need
from tracker.model import Combatant

# the stats the book lists for the skills ``common.STAT_DEFAULTS`` leaves to the GM ("Intimidate [WIL] [STR]" …)
BOOK_STATS: dict[str, tuple[str, ...]] = {
    "Intimidate": ("wil", "str"),
    "Bluff": ("cha", "wil"),
    "Diplomacy": ("cha",),
    "Forgery": ("int", "dex", "per"),
    "Hacking": ("int",),
    "Lockpicking": ("dex", "int"),
    "Craft": ("int", "dex"),
    "Trade": ("int", "dex"),
}
STEALTH_SOCIAL = ("Intimidate", "Diplomacy")  # the contests the book lets Stealth leave armor only (@40586)
CAUGHT = "armor only (caught by stealth)"
CULTURE_SKILLS = ("Diplomacy", "Bluff", "Intimidate")  # Favored Culture's "+1 on all diplomacy, bluff, and intimidate"


def contest_skill(typed: str) -> str:
    """The book's spelling of a contest skill typed any case ("intimidate"), else refused naming them."""
    name = skill_name(typed) if typed.strip() else ""
    for skill in OPPOSED_BY:
        if skill.lower() == name.lower():
            return skill
    raise Refused(
        f"'{typed}' is not a skill the book opposes with another's check ({', '.join(OPPOSED_BY)}); "
        "use a skill check (k) against a DC",
        rule=R.CONTEST,
    )


def sheet_skill(c: Combatant, skill: str) -> str:
    """The skill as ``c`` rolls it: the book's Craft (X) is the sheet's Trade (X) when it has no Craft (X)."""
    if skill.startswith("Craft (") and not data(c).ranks(skill):
        trade = "Trade (" + skill.removeprefix("Craft (")
        if data(c).ranks(trade):
            return trade
    return skill


def _parts(c: Combatant, skill: str, stat: str) -> list[Modifier]:
    """2d6's bonuses for ``c`` rolling ``skill``: ``skill_parts`` with the book's stats for the social skills."""
    head = skill.split(" (")[0]
    if stat == "auto" and base_skill(skill) not in STAT_DEFAULTS and head in BOOK_STATS:
        d = data(c)
        stat = max(BOOK_STATS[head], key=d.stat)
    return skill_parts(c, skill, stat)


def opposing_choice(t: Combatant, skill: str, asked: str, stat: str, actor: Combatant | None = None) -> str:
    """The skill the target opposes ``skill`` with: the one asked (if the book names it), or its best (against
    ``actor``: Favored Culture's +1 counts)."""
    options = OPPOSED_BY[skill]
    if asked != "auto":
        for o in options:
            if o.lower() == asked.strip().lower():
                return o
        raise Refused(f"the book opposes {skill} with {' or '.join(options)}, not {asked}", rule=R.CONTEST)
    if data(t).unconscious:
        return options[0]
    scored = []
    for n, o in enumerate(options):
        if o == CAST and data(t).negated:
            continue
        parts = _parts(t, sheet_skill(t, o), stat) + (_culture(t, actor, o) if actor is not None else [])
        scored.append((sum(p.value for p in parts), -n, o))
    return max(scored)[2]


@applies(
    R.CONTEST,
    R.CONTEST_TIE,
    R.FAVORED_CULTURE,
    R.FAST_CASTER,
    R.CHECK_COST,
    R.CHECKS_ANYTIME,
    R.STAT_CHOICE,
    R.STEALTH,
    R.SNEAK_ATTACK,
    R.UNCONSCIOUS,
    R.NEGATE,
    R.CRITICAL,
    R.SNAKE_EYES,
    R.AUTO_CRITICAL,
)
def decide_contest(d: Draft, cmd: Contest, dice: Roller) -> None:
    c = need(d.state, cmd.actor)
    t = need(d.state, cmd.target, "target")
    if t.id == c.id:
        raise Refused(f"{c.name} cannot oppose itself: choose whom the check is against", rule=R.CONTEST)
    skill = contest_skill(cmd.skill)
    if data(t).dead:
        raise Refused(f"{t.name} is dead")
    if skill == CAST and data(c).negated:
        raise Refused(f"{c.name}'s powers are negated until the end of its next turn", rule=R.NEGATE)
    opposing = opposing_choice(t, skill, cmd.opposing, cmd.target_stat, c)
    if opposing == CAST and data(t).negated and not data(t).unconscious:
        raise Refused(f"{t.name}'s powers are negated until the end of its next turn", rule=R.NEGATE)
    cost = check_cost(d.state, c, cmd.cost, skill, active=True)
    if cost != NO_COST:
        in_grapple(d.state, c, f"a {skill} check")
        afford(c, cost)
    parts = _parts(c, skill, cmd.stat) + _culture(c, t, skill)
    stealth = skill in STEALTH_SOCIAL and t.id in data(c).hidden_from
    if stealth:
        sneak = sum(1 for arg in data(c).talent_args(SNEAK_ATTACK) if not arg or arg.lower() == skill.lower())
        if sneak:
            parts.append(Modifier(label="sneak attack", value=sneak))
    opposing_parts_ = _target_parts(t, opposing, cmd.target_stat, stealth, c)
    if cmd.auto_critical:
        spend_cinematic(d, c, "automatic critical", (t.id,))
    check = roll_check(dice, f"{c.name} {skill}", tuple(parts + list(cmd.modifiers)), automatic=cmd.auto_critical)
    rolled_as = CAUGHT if stealth and not data(t).unconscious else sheet_skill(t, opposing)
    against = roll_check(dice, f"{t.name} {rolled_as}", tuple(opposing_parts_ + list(cmd.target_modifiers)))
    d.add(
        ContestRolled(
            actor=c.id,
            target=t.id,
            skill=skill,
            opposing_skill=rolled_as,
            check=check,
            opposing=against,
            success=beats(check, against),
            cost=cost,
            stealth=stealth,
        )
    )


def _target_parts(t: Combatant, opposing: str, stat: str, stealth: bool, actor: Combatant) -> list[Modifier]:
    """The target's bonuses: its skill's, or armor alone when caught by stealth, or the unconscious −3 alone."""
    x = data(t)
    if x.unconscious:
        return [UNCONSCIOUS_PENALTY]
    if stealth:
        return [Modifier(label=f"{x.armor} armor", value=x.armor_defense)]
    return _parts(t, sheet_skill(t, opposing), stat) + _culture(t, actor, opposing)


def _culture(c: Combatant, other: Combatant, skill: str) -> list[Modifier]:
    """Favored Culture's +1 for ``c`` rolling ``skill`` against ``other`` (rule ``favored_culture``)."""
    if skill in CULTURE_SKILLS and data(c).favors_against(other, FAVORED_CULTURE):
        return [Modifier(label="favored culture", value=1)]
    return []
