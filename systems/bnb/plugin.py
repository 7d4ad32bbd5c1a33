"""Blood & Bullets (Simon Washbourne, 2012): d20 vs Defence Class, exploding d6 damage, Gun-play, death saves.

Its rules table is ``rules/table.py`` (``system.rules()``; ``docs/rules/bnb.md`` is made from it), and each
event explains itself by those rules (``rules/why.py``, ``system.explain``).  The rulings behind the table are
kept with their tests in the docstrings of ``rules/`` (one per family), ``sheet.py``, ``presets.py`` and
``checks.py``.

Rulings on GM adjustments and on what the GM and the players see (the book is silent):
- HP set by the GM come off temporary damage first, then lethal damage; lethal
  damage never goes below 0. Setting HP (or temporary damage) to 0 or below
  runs the same fall as a blow: dying and a death save (a minor NPC dies),
  or knocked out when temporary damage rose; setting HP does not count as HP
  lost in this fight (binding wounds). Setting the status by hand raises no
  prompt: it is the GM's word. (test_gm_adjust_hp_to_zero_or_below_*,
  test_gm_adjust_within_the_living_or_of_the_status_raises_nothing)
- Ruling: setting HP does not raise the dead; the GM sets Status for that.
  The HP field's help says so, and HP set above 0 on a dead combatant logs
  "Lou is still dead: set Status to bring them back" (rules/harm.py react).
  (test_round4_fixes.py: test_an_adjust_of_hp_above_0_on_the_dead_says_they_are_still_dead,
  test_the_hp_adjust_field_says_it_does_not_raise_the_dead)
- "acted" clears (no) or marks (yes) the round's action: the attacks, Gun-play
  or reload already made this round, so the GM can allow a second weapon.
- Lucky Streaks used are adjustable for Gamblers only, up to the day's
  allowance; "minor" for NPCs only. (test_gm_adjust_fields_fit_the_combatant_and_log_the_old_shots)
- Standing: dead; dying (at or below 0 HP, the death save still to roll);
  unconscious (survived the death save, needs medical help); knocked out
  (temporary damage); all four are out of the fight, except one dropped by a
  simultaneous actor whose turn this round is still ahead (its blow still
  lands). (test_standing_*)
- The players see an NPC as unhurt, hurt, badly hurt (at or below half its
  HP), down (at or below 0 HP, or dying, unconscious or knocked out) or dead;
  never a number. (test_public_*)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from systems.bnb import rules, xp
from systems.bnb.about import ABOUT
from systems.bnb.commands import SPECS
from systems.bnb.events import EVENT_TYPES, AttackRolled, Dropped, HpLost
from systems.bnb.evolve import evolve
from systems.bnb.presets import PRESETS
from systems.bnb.rules import rest as resting
from systems.bnb.rules.common import ACTED, COVER, DEFAULT_COVER, simultaneous_drop
from systems.bnb.rules.harm import LUCKY
from systems.bnb.rules.table import RULES, R
from systems.bnb.sheet import (
    DEAD,
    DYING,
    KNOCKED_OUT,
    OK,
    STATUSES,
    UNCONSCIOUS,
    BnbData,
    check_sheet,
    data,
    make_data,
    sheet_fields,
)
from systems.bnb.tables import ATTRIBUTES, GAMBLER, SHOOTIST, TRAILBLAZER, find_weapon, lucky_streaks
from tracker.commands import BOOL, CHOICE, INT, CommandSpec, Delay, Param
from tracker.dice import Roll, Roller, roll
from tracker.errors import Refused
from tracker.events import Adjusted, Event
from tracker.kit import open_prompt
from tracker.model import NPC, Combatant, FightState, changed
from tracker.plugin import FIT, BaseSystem, BookCondition, Preset, Standing, Tally, initiative_events
from tracker.reasons import Reason, Rule

HELP = """\
Blood & Bullets: d20 + to-hit + STR (melee) or DEX (missile) + Sure Shot/Close Fighter (+1)
+ range (+2 short, +1 medium, +0 long; 3× range at most) − cover (1–4) ≥ the target's DC.
A target with the Cover condition gives its value (2 if none) to attacks that set no cover.
NPCs and critters without a class attack at their HD (at most +15), never their DEX.
Natural 20 hits for maximum damage (first die counts as 6, and explodes); natural 1 misses.
Damage: weapon dice + its ± (+ STR in melee, +1 favoured weapon); each 6 rolls another d6,
at most level ÷ 2 extra dice (critters: HD ÷ 2). * weapons roll 2d6, keep the highest.
Initiative: d20 + modifier, PCs and important NPCs alone, an NPC group once; ties by DEX,
then level/HD, else simultaneous (their blows land even if one drops). A PC may hold its action
and act any time later in the round, never before its turn; NPCs may not hold.
A surprise round is only for the side granted it. One weapon a round, at its rate of fire
(RoF ½: every other round); a reload takes the round (GM adjust "acted" to clear the round's action).
At 0 HP or below: death save d20 + CON − 1 per HP below 0 (+2 Shootist) ≥ ST, else dead
(minor NPCs die at once; fists' temporary damage only knocks out). Quick damage and GM adjusts
of HP cross 0 the same way. Gamblers may re-roll any failed save with Lucky Streak.
Actions: a Attack · g Gun-play (Shootist, one attack per level at ≤1 HD foes) · m Critter attacks
· b Scattergun blast · r Reload (the round's action) · d Death save · s Saving throw
· l Lucky Streak (Gambler) · y Loyalty check · w Bind wounds (after the fight)
· h Rest (temporary damage heals per hour).
At the end the summary totals the XP of the NPCs overcome, and each PC's share.
Each rule cites the book's line (Why): rules/table.py, docs/rules/bnb.md."""

APPLIES = (  # the rules the plug-in applies itself (rules/table.py): sheets (sheet.py) and initiative
    R.attribute_modifier,  # sheet.py: make_data, check_sheet
    R.class_tables,
    R.hit_points,
    R.defence_class,
    R.npc_hit_dice,
    R.half_hd,
    R.npc_to_hit,
    R.critter_save,
    R.critter_level,
    R.initiative,  # roll_initiative
    R.group_initiative,
    R.initiative_ties,  # initiative_tiebreak
    R.simultaneous,  # takes_turns, standing
    R.keep_order,
    R.hold,  # check_core
)

CONDITIONS: tuple[BookCondition, ...] = (
    BookCondition(
        name=COVER,
        source=R.cover.source,
        effect=f"attacks at it take −1 to −4 to hit: the condition's value, {DEFAULT_COVER} if none is set",
        automated=True,
    ),
    BookCondition(name="Surprised", source="bnb l.134", effect="the other side acts first, in a free round"),
    BookCondition(
        name="In melee", source="bnb l.138", effect="within 5 ft of a foe: a missile fired in strikes one at random"
    ),
    BookCondition(name="Grappled", source="bnb l.26", effect="held fast (a bear's Grapple): a STR save to break free"),
    BookCondition(name="Poisoned", source="bnb l.26", effect="venom or poison: a CON save (Trailblazers +2)"),
    BookCondition(name="Drunk", source="bnb l.26", effect="alcohol: a CON save (Trailblazers +2)"),
    BookCondition(
        name="Holding", source="bnb l.134", effect="a PC waits to act at any later moment of the round (not NPCs)"
    ),
    BookCondition(
        name="Unconscious",
        source="bnb l.138",
        effect="survived the death save, needs medical help (the tracker sets it as the status)",
    ),
    BookCondition(
        name="Knocked out",
        source="bnb l.88",
        effect="temporary damage to 0 HP: comes to when HP rise above 0 (the tracker sets it as the status)",
    ),
)

_STANDING = {
    DEAD: "dead",
    DYING: "dying",
    UNCONSCIOUS: "unconscious",
    KNOCKED_OUT: "knocked out",
}

_STANDING_DETAIL = {
    DEAD: "Dead.",
    DYING: "Dying: at or below 0 HP, the death save still to roll.",
    UNCONSCIOUS: "Unconscious: survived the death save, needs medical help.",
    KNOCKED_OUT: "Knocked out by temporary damage: comes to when HP rise above 0.",
}


def _death_re_roll_open(state: FightState, c: Combatant) -> bool:
    """Dead by a failed death save whose Lucky Streak re-roll is still offered: the GM's ruling is that he stands
    "dying" until the offer is taken or dismissed (the roll recorded "dead"; the re-roll may bring him back)."""
    d = data(c)
    return (
        d.status == DEAD
        and d.last_save is not None
        and d.last_save.against == "death"
        and open_prompt(state, LUCKY, c.id) is not None
    )


class BnbSystem(BaseSystem):
    about = ABOUT
    event_types = EVENT_TYPES + resting.REST_EVENTS
    rest_qualities = resting.QUALITIES
    fight_only = ("acted",)  # not carried by a party kept as it is now

    # -- sheets --------------------------------------------------------------
    def sheet_fields(self, kind: str) -> tuple[Param, ...]:
        return sheet_fields(kind)

    def presets(self) -> tuple[Preset, ...]:
        """The book's presets."""

        return PRESETS

    def new_combatant(
        self, state: FightState, kind: str, sheet: Mapping[str, Any], dice: Roller
    ) -> tuple[dict[str, Any], tuple[Roll, ...]]:
        return check_sheet(kind, sheet, dice)

    def make_data(self, kind: str, sheet: Mapping[str, Any]) -> BnbData:
        return make_data(kind, sheet)

    # -- initiative ----------------------------------------------------------
    def roll_initiative(self, state: FightState, ids: tuple[str, ...], dice: Roller) -> list[Event]:
        """One d20 (+ modifier) per PC and important NPC, one per NPC group, shared by its members."""
        batches: dict[tuple[str, str], list[Combatant]] = {}
        for cid in ids:
            c = state.get(cid)
            shared = c.kind == NPC and c.group and not data(c).important
            key = ("group", c.group or "") if shared else ("one", c.id)
            batches.setdefault(key, []).append(c)
        rolled: dict[str, tuple[int, Roll | None, str]] = {}
        for (how, name), members in batches.items():
            first = members[0]
            kin = [c for c in state.present if how == "group" and c.id not in ids and c.initiative is not None]
            shared_with = next((c for c in kin if c.kind == NPC and c.group == name and not data(c).important), None)
            if shared_with is not None and shared_with.initiative is not None:  # (a reinforcement joins its group)
                for m in members:
                    rolled[m.id] = (shared_with.initiative, None, f"shares the {name} group's roll")
                continue
            mod = data(first).init_mod
            label = f"{name} initiative" if how == "group" else f"{first.name} initiative"
            r = roll(f"1d20{mod:+d}" if mod else "1d20", dice, label)
            note = f"group roll for {name}" if how == "group" and len(members) > 1 else ""
            for m in members:
                rolled[m.id] = (r.total, r, note)
        return initiative_events(state, rolled, key=self.initiative_tiebreak)

    def initiative_tiebreak(self, combatant: Combatant) -> tuple[Any, ...]:
        d = data(combatant)
        level = d.level * 100 if d.cls else d.hd.rank
        return (d.score("DEX"), level)

    def check_core(self, state: FightState, command: Any) -> None:
        if isinstance(command, Delay):
            cid = command.id or state.current
            c = state.find(cid) if cid else None
            if c is not None and c.kind == NPC:
                raise Refused(
                    f"NPCs may not withhold their action: only PCs wait to act later in the round ({c.name} is an NPC)",
                    rule=R.hold,
                )
            if c is not None and isinstance(c.data, BnbData) and c.data.acted:
                # Ruling: the round's action taken (an attack, Gun-play, a reload), there is none left to hold; it
                # logged "holds the action" and, at the end, "held action lapses" (as zludge and twod6 refuse it;
                # GM adjust "Has acted this round" frees it: tests/systems/bnb/test_hold_after_acting.py)
                raise Refused(
                    f"{c.name} has taken this round's action: there is none left to hold (GM adjust 'acted' frees it)",
                    rule=R.hold,
                )

    def takes_turns(self, state: FightState, combatant: Combatant) -> bool:
        d = combatant.data
        if not isinstance(d, BnbData):
            return True
        if d.active:
            return True
        # dropped by a simultaneous actor: its turn this round still comes, if it is still ahead
        order = state.order
        return simultaneous_drop(state, combatant) and combatant.id in order and order.index(combatant.id) > state.turn

    # -- commands ------------------------------------------------------------
    def commands(self) -> tuple[CommandSpec, ...]:
        return SPECS

    def decide(self, state: FightState, command: Any, dice: Roller) -> list[Event]:
        return rules.decide(self, state, command, dice)

    def rest(self, state: FightState, command: Any, dice: Roller) -> list[Event]:
        return resting.rest(state, command, dice)

    def evolve(self, state: FightState, event: Event) -> FightState:
        return evolve(state, event)

    def react(self, before: FightState, events: Sequence[Event], after: FightState) -> list[Event]:
        return rules.react(before, events, after)

    def harm_params(self, heal: bool) -> tuple[Param, ...]:
        if heal:
            return (
                Param(
                    name="amount",
                    label="HP regained",
                    help="7, 3+4 or 2d6+1: temporary damage heals first, never above maximum",
                ),
            )
        return (
            Param(name="amount", label="HP lost", help="7, 3+4 or 2d6+1; at 0 HP or below: a death save"),
            Param(
                name="temporary",
                kind=BOOL,
                label="Temporary (fists: knocks out, no death save)",
                default=False,
                required=False,
            ),
        )

    # -- showing -------------------------------------------------------------
    def standing(self, state: FightState, combatant: Combatant) -> Standing:
        if combatant.removed or not isinstance(combatant.data, BnbData):
            return super().standing(state, combatant)
        status = data(combatant).status
        if status == OK:
            return FIT
        if _death_re_roll_open(state, combatant):
            return Standing(word=_STANDING[DYING], out=True)
        # out of the fight, unless a simultaneous actor dropped it and its turn this round is still ahead
        return Standing(
            word=_STANDING.get(status, status), out=status == DEAD or not self.takes_turns(state, combatant)
        )

    def status(self, state: FightState, c: Combatant) -> str:
        """HP and DC first, then the short flags, the guns' loads last (the part cut first at 80 columns).

        Ruling: one who has taken the round's action (an attack, Gun-play, a reload, or the GM's "Has acted this
        round") reads "acted" among the flags, before the guns (it has no action left this round to fire them),
        so the GM of a fight of eight sees at a glance who has acted; only in the running fight (a new round
        frees the action and the mark goes with it; after the fight, where the record is not cleared, nothing is
        shown)
        (tests/systems/bnb/test_acted_mark.py::test_acted_shows_in_the_status_only_in_the_round_it_is_true,
        tests/ui/test_acted_mark_rows.py).
        """
        d = data(c)
        parts = [f"HP {d.hp}/{d.max_hp}" + (f" (temp {d.temp})" if d.temp else ""), f"DC {d.dc}"]
        if d.cls == GAMBLER:
            parts.append(f"luck {lucky_streaks(d.level) - d.lucky_used}")
        if d.minor:
            parts.append("minor")
        if d.acted and state.started and not state.ended:
            parts.append("acted")
        guns = [f"{g.name} {g.shots}/{g.spec.shots}" for g in d.firearms]
        if guns:
            parts.append(", ".join(guns))
        return " · ".join(parts)

    def detail(self, state: FightState, c: Combatant) -> str:
        d = data(c)
        lines: list[str] = []
        if _death_re_roll_open(state, c):
            lines.append("Dying: failed the death save, dead unless a Lucky Streak re-roll saves it (p re-rolls).")
        elif d.status in _STANDING_DETAIL:
            lines.append(_STANDING_DETAIL[d.status])
        who = (
            f"{d.cls} level {d.level} (HD {d.hd})"
            if d.cls
            else f"HD {d.hd}" + (" · minor (dies at 0 HP)" if d.minor else "")
        )
        lines += [
            who,
            f"HP {d.hp}/{d.max_hp} (lethal {d.damage}, temporary {d.temp}) · DC {d.dc} · to-hit +{d.to_hit}"
            f" · ST {d.st} · initiative {d.init_mod:+d}",
        ]
        if d.cls:
            lines.append(" ".join(f"{a} {v}" for a, v in zip(ATTRIBUTES, d.scores, strict=True)))
        else:
            lines.append(f"DEX {d.score('DEX')} (initiative ties, DEX saves; attacks at HD)")
        for g in d.weapons:
            shots = f" · {g.shots}/{g.spec.shots} loaded" if g.spec.firearm else ""
            fav = " · +1 (favoured)" if g.weapon == d.favoured else ""
            what = g.spec.describe()
            if d.rowdy and g.spec.id == "fists":  # (a Trailblazer's, bnb l.72)
                what = what.replace(g.spec.damage, "1d6", 1) + " (Rowdy)"
            lines.append(f"{g.name}: {what}{shots}{fav}")
        if d.favoured and d.favoured not in {g.weapon for g in d.weapons}:
            ability = {SHOOTIST: "Sure Shot", TRAILBLAZER: "Close Fighter"}.get(d.cls, "+1 weapon")
            fav_w = find_weapon(d.favoured)
            lines.append(f"{ability}: {fav_w.name if fav_w else d.favoured} (+1, not carried)")
        for n in d.natural:
            lines.append(f"{n.name}: 1d{n.sides}")
        if d.cls == GAMBLER:
            per_day = lucky_streaks(d.level)
            lines.append(f"Lucky Streak: {per_day - d.lucky_used} of {per_day} left today")
        if d.acted:
            used = ", ".join(dict.fromkeys(u for u in d.used if u != ACTED))
            what = "Gun-play" if d.gunplay else "a reload" if d.reloaded else used or "the round's action (GM)"
            lines.append(f"This round: {what}")
        if d.loyalty_next:
            lines.append(f"next loyalty check {d.loyalty_next:+d}")
        if d.lost:
            lines.append(f"HP lost in this fight: {d.lost}" + (" (bound)" if d.bound else ""))
        return "\n".join(lines)

    def public(self, state: FightState, combatant: Combatant) -> str:
        """unhurt / hurt / badly hurt (at or below half HP) / down / dead: never a number.

        Ruling: the players' descriptor of an NPC stays the one word of how hurt it is, without the "acted" of the
        GM's status: no system's public word carries a round's marks (zludge's "flat-footed" is the GM's too), and
        the players see who has acted at the table; a PC's row on the players' view is its status, "acted" and
        all (tests/systems/bnb/test_acted_mark.py::test_the_players_descriptor_stays_one_word).
        """
        if combatant.removed or not isinstance(combatant.data, BnbData):
            return super().public(state, combatant)
        d = data(combatant)
        if d.status == DEAD:
            return "dead"
        if d.status != OK or d.hp <= 0:
            return "down"
        if d.hp >= d.max_hp:
            return "unhurt"
        return "badly hurt" if 2 * d.hp <= d.max_hp else "hurt"

    def help(self) -> str:
        return HELP

    # -- GM adjust -----------------------------------------------------------
    def adjustable(self, state: FightState, c: Combatant) -> tuple[Param, ...]:
        d = data(c)
        out = [
            Param(
                name="hp",
                kind=INT,
                label="HP (0 or below: dying, death save)",
                min=-99,
                max=d.max_hp,
                help="setting HP does not raise the dead: set Status to bring them back",
            ),
            Param(name="max_hp", kind=INT, label="HP maximum (the damage taken stays)", min=1, max=999),
            Param(name="temp", kind=INT, label="Temporary damage", min=0, max=999),
            Param(name="status", kind=CHOICE, choices=STATUSES, label="Status"),
            Param(name="dc", kind=INT, label="Defence Class", min=0, max=30),
            Param(name="acted", kind=BOOL, label="Has acted this round (no: may attack or reload again)"),
        ]
        if c.kind == NPC:
            out.append(Param(name="minor", kind=BOOL, label="Minor (dies at 0 HP)"))
        if d.cls == GAMBLER:
            per_day = lucky_streaks(d.level)
            out.append(Param(name="lucky_used", kind=INT, label="Lucky Streaks used today", min=0, max=per_day))
        out += [
            Param(name=f"shots:{g.name}", kind=INT, label=f"{g.name} shots", min=0, max=g.spec.shots)
            for g in d.firearms
        ]
        return tuple(out)

    def adjust(self, state: FightState, c: Combatant, field: str, value: Any) -> Combatant:
        d = data(c)
        if field == "hp":
            # the HP the GM sets come off temporary damage first, then lethal damage
            total = d.max_hp - value
            temp = max(0, min(d.temp, total))
            return changed(c, data=changed(d, damage=total - temp, temp=temp))
        if field == "acted":
            if value:
                return changed(c, data=changed(d, used=(*d.used, ACTED)))
            return changed(c, data=changed(d, used=(), gunplay=False, reloaded=False))
        if field.startswith("shots:"):
            name = field.split(":", 1)[1]
            weapons = tuple(changed(g, shots=value) if g.name == name else g for g in d.weapons)
            return changed(c, data=changed(d, weapons=weapons))
        return super().adjust(state, c, field, value)

    # -- why ---------------------------------------------------------------
    def rules(self) -> tuple[Rule, ...]:
        return RULES

    def explain(self, before: FightState, event: Event, after: FightState) -> tuple[Reason, ...]:
        from systems.bnb.rules import why  # imported on first use: a launch explains nothing (see screens/launch.py)

        return why.explain(before, event, after)

    def conditions(self) -> tuple[BookCondition, ...]:
        return CONDITIONS

    def awards(self, state: FightState) -> tuple[str, ...]:
        return xp.awards(state)

    def tally(self, state: FightState, event: Event) -> Tally | None:
        if isinstance(event, AttackRolled):
            return Tally(actor=event.actor, target=event.target, hit=event.hit, harm=event.amount)
        if isinstance(event, HpLost):
            return Tally(target=event.id, harm=event.amount)
        if isinstance(event, Dropped):
            return Tally(actor=event.by, target=event.id, fell=True)
        if isinstance(event, Adjusted) and event.field in ("hp", "temp") and type(event.value) is int:
            # the GM lowering HP (or adding temporary damage) harmed them as much
            c = state.find(event.id)
            if c is None or not isinstance(c.data, BnbData):
                return None
            d = data(c)
            lost = d.hp - event.value if event.field == "hp" else event.value - d.temp
            return Tally(target=c.id, harm=lost) if lost > 0 else None
        return None


system = BnbSystem()

__all__ = ["BnbSystem", "system"]
