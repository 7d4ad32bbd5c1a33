"""Wounds and what follows them: resolve checks, unconsciousness, death; quick damage and healing.

Every source of harm runs one path.  Deciders add ``Wounded`` events (an attack's wound, the GM's
quick damage); ``react`` then looks at what changed in the whole action, whatever did it (an attack,
quick damage, a GM adjust of the wounds), and raises the resolve checks the thresholds call for.

Rulings (rules ``at_zero``, ``triple``, ``lowest``, ``dead_at_zero``, ``quick_harm``, ``wakes`` of ``table.R``)
and our own, each with its test:
- "When a character is reduced to 0 wounds, they automatically fall unconscious and must make a
  DC 7 resolve check or die": unconscious first, so the check takes the unconscious −3
  (test_at_0_wounds_unconscious_first_so_the_death_check_takes_the_minus_3).  After a tripled attack
  the DC 7 check comes first, without the −3, and the character is knocked unconscious once it is
  rolled (or settled by the GM), pass or fail
  (test_a_tripled_attack_rolls_the_death_check_first_then_knocks_out).  In short: the −3 counts on a
  check rolled while unconscious.
- When one blow passes several thresholds, only the check of the lowest one reached is rolled
  (test_one_hit_past_several_thresholds_rolls_only_the_lowest); two unconsciousness checks at once
  keep the higher DC (test_two_unconsciousness_checks_at_once_keep_the_higher_dc); no check against
  unconsciousness for someone already unconscious or about to be knocked out by a tripled attack;
  one open death check covers a tripled attack and falling to 0 in the same blow.  One blow, one check:
  while the extra result of a doubled or tripled blow is still to choose, the target's resolve check waits
  (rolling it, or settling or dismissing it by ruling, is refused in words): rolled first, the second
  wound raised a second check for the same blow
  (test_a_doubled_blows_check_waits_for_its_extra_result_one_check_a_blow).
- Wounds beyond 0 in one blow kill ("any wound at 0") (test_wounds_beyond_0_in_one_blow_kill); a
  combatant who dies or leaves the fight has its open prompts closed.
- Quick damage is counted in wounds (a number, a sum or dice) and goes through the same path as an
  attack's wound (test_quick_damage_crossing_each_threshold_raises_the_attacks_prompt); 2d6 Gamma has
  no temporary harm.  A GM adjust of the wounds left to a threshold raises the same checks
  (test_gm_adjust_of_wounds_to_a_threshold_raises_the_same_check).
- Quick healing gives back wounds, never above the maximum (the book heals in a fight only by "very
  powerful magic or technology": the GM's quick healing stands for it).  Ruling: the book keeps a character at
  0 unconscious "until they regain at least one wound", so healing from 0 wakes them; unconsciousness
  from a failed check or a knock-out at 1 or more wounds is not ended by healing (the GM clears it)
  (test_healing_from_0_wakes_but_healing_a_knocked_out_character_does_not).  No healing of the dead,
  nor of someone whose death check is still due (test_heal_is_refused_for_the_dead_and_a_death_check_due).
- A GM adjust the rules cannot hold is refused: a character at 0 wounds cannot be set conscious
  (test_gm_cannot_wake_a_character_at_0_wounds).
"""

from __future__ import annotations

from collections.abc import Sequence

from systems.twod6.checks import roll_check
from systems.twod6.commands import Resolve
from systems.twod6.events import EffectApplied, Healed, ResolveRolled, ResolveRuled, Reworked, Wounded
from systems.twod6.record import data
from systems.twod6.rules.common import UNCONSCIOUS_PENALTY, spend_cinematic
from systems.twod6.sheet import RESOLVE
from systems.twod6.table import R, applies
from tracker.commands import Damage, DismissPrompt, Heal, Modifier
from tracker.dice import Roller
from tracker.errors import Refused
from tracker.events import Event, PromptResolved
from tracker.kit import Draft, amount, need, prompt
from tracker.model import Combatant, FightState, Prompt
from tracker.plugin import System
from tracker.reasons import Rule

DEATH, UNCONSCIOUS = "death", "unconscious"
PASSES, FAILS = "passes", "fails"  # a resolve check settled by ruling


# ---------------------------------------------------------------------------
# resolve checks due


def due(state: FightState, cid: str, stakes: str) -> Prompt | None:
    """The open resolve check of ``cid`` against ``stakes`` (death or unconsciousness)."""
    for p in state.prompts:
        if p.combatant == cid and p.command == "resolve" and p.params.get("stakes") == stakes:
            return p
    return None


def knockout_pending(state: FightState, cid: str) -> bool:
    """A tripled attack's death check is due: the character is knocked out once it is rolled."""
    p = due(state, cid, DEATH)
    return p is not None and bool(p.params.get("knockout"))


def blow_open(state: FightState, cid: str) -> Prompt | None:
    """The open extra-result prompt of a doubled or tripled blow on ``cid``: its check waits for it."""
    for p in state.prompts:
        if p.kind == "double" and p.combatant == cid:
            return p
    return None


def wait_for_blow(state: FightState, cid: str) -> None:
    """Refuse settling ``cid``'s resolve check while its blow's extra result is still to choose (rule ``lowest``)."""
    p = blow_open(state, cid)
    if p is not None:
        by = state.name(str(p.params.get("actor", "")))
        raise Refused(
            f"choose the extra result of {by}'s blow on {state.name(cid)} first: one check a blow "
            "(the second wound may change which threshold's check is rolled)",
            rule=R.LOWEST,
        )


@applies(R.LOWEST)
def check_dismiss(state: FightState, cmd: DismissPrompt) -> None:
    """A resolve check settled or dismissed by the GM's ruling waits for its blow's extra result too."""
    p = next((q for q in state.prompts if q.id == cmd.prompt_id), None)
    if p is not None and p.command == "resolve" and p.combatant is not None:
        wait_for_blow(state, p.combatant)


PENALTY_SAID = f"{UNCONSCIOUS_PENALTY.label}: −{-UNCONSCIOUS_PENALTY.value}"  # a check's text of its −3


def ask_resolve(
    d: Draft,
    cid: str,
    dc: int,
    stakes: str,
    why: str,
    *,
    rule: Rule,
    knockout: bool = False,
    by: str | None = None,
) -> None:
    """Raise a resolve check (unless moot, or covered by one already due); ``rule`` calls for it (its id is kept
    in the prompt's ``rule`` parameter, for Why?: a knock-out blow's DC 7 is not a fall to 2 wounds left)."""
    c = d.get(cid)
    x = data(c)
    if x.dead:
        return
    if stakes == UNCONSCIOUS and (x.unconscious or knockout_pending(d.state, cid)):
        return
    open_ = due(d.state, cid, stakes)
    if open_ is not None:
        if stakes == DEATH and x.unconscious and PENALTY_SAID not in open_.text and open_.text.endswith(")"):
            # the same blow took the one facing it to 0 (a tripled blow's extra wound): the check it covers is
            # rolled unconscious, with −3, which its text did not say (the GM settling it by a ruling read no −3)
            d.add(PromptResolved(prompt_id=open_.id, note="restated: unconscious now, the check takes −3"))
            text = f"{open_.text[:-1]}; {PENALTY_SAID})"
            d.add(prompt(DEATH, text, cid, command="resolve", params=dict(open_.params), outcomes=(PASSES, FAILS)))
            return
        if stakes == DEATH or int(open_.params.get("dc", 0)) >= dc:
            return
        d.add(PromptResolved(prompt_id=open_.id, note=f"replaced by a DC {dc} check"))
    if knockout:
        moot = due(d.state, cid, UNCONSCIOUS)
        if moot is not None:
            d.add(PromptResolved(prompt_id=moot.id, note=f"moot: the tripled attack knocks {c.name} out either way"))
    outcome = "fall unconscious" if stakes == UNCONSCIOUS else "die"
    extra = "; knocked unconscious either way" if knockout else ""
    if x.unconscious:
        extra += f"; {PENALTY_SAID}"
    params: dict[str, object] = {"actor": cid, "stakes": stakes, "stat": "wil", "dc": dc, "rule": rule.id}
    if knockout:
        params.update(knockout=True, by=by)
    d.add(
        prompt(
            DEATH if stakes == DEATH else "resolve",
            f"{c.name} must make a DC {dc} resolve check or {outcome} ({why}{extra})",
            cid,
            command="resolve",
            params=params,
            outcomes=(PASSES, FAILS),
        )
    )


def wound(d: Draft, target: str, n: int, by: str | None, *, times: int = 1, source: str = "") -> None:
    """Wounds from an attack (``times``: the blow's ratio; ``source``: what chose them after the roll); ``react``
    raises what they call for."""
    x = data(d.get(target))
    if not x.dead:
        d.add(Wounded(target=target, wounds=n, by=by, was=x.wounds, times=times, source=source))


# ---------------------------------------------------------------------------
# the resolve check


def resolve_parts(c: Combatant, stat: str, penalty: int, mods: Sequence[Modifier]) -> list[Modifier]:
    d = data(c)
    parts = [Modifier(label="Resolve ranks", value=d.ranks(RESOLVE)), Modifier(label=stat.upper(), value=d.stat(stat))]
    parts += [Modifier(label=i.name, value=i.bonus) for i in d.item_bonus(RESOLVE)]
    if penalty:
        parts.append(Modifier(label=UNCONSCIOUS_PENALTY.label, value=penalty))
    return parts + list(mods)


@applies(R.RESOLVE, R.UNCONSCIOUS, R.CRITICAL, R.SNAKE_EYES, R.AUTO_CRITICAL, R.LOWEST)
def decide_resolve(d: Draft, cmd: Resolve, dice: Roller) -> None:
    c = need(d.state, cmd.actor)
    p = due(d.state, c.id, cmd.stakes)
    if p is None:
        raise Refused(f"no resolve check against {cmd.stakes} is due for {c.name}", rule=R.RESOLVE)
    wait_for_blow(d.state, c.id)
    if cmd.stat not in ("wil", "tou"):
        raise Refused("resolve uses WIL (fear, unconsciousness, death) or TOU (disease, poison)", rule=R.RESOLVE)
    dc = int(p.params["dc"])
    # the −3 counts on a check rolled while unconscious (a prompt from an older file says it itself)
    penalty = int(p.params["penalty"]) if "penalty" in p.params else UNCONSCIOUS_PENALTY.value * data(c).unconscious
    if cmd.auto_critical:
        spend_cinematic(d, c, "automatic critical")
    parts = resolve_parts(c, cmd.stat, penalty, cmd.modifiers)
    check = roll_check(dice, f"{c.name} resolve", tuple(parts), automatic=cmd.auto_critical)
    passed = not check.fumble and check.total >= dc
    d.add(ResolveRolled(actor=c.id, check=check, dc=dc, stakes=cmd.stakes, passed=passed))
    d.add(PromptResolved(prompt_id=p.id, note="passed" if passed else "failed"))


# ---------------------------------------------------------------------------
# quick damage and healing (the core's Damage and Heal, in wounds)


@applies(R.QUICK_HARM, R.WOUNDS)
def decide_damage(d: Draft, cmd: Damage, dice: Roller) -> None:
    if cmd.temporary:
        raise Refused("2d6 Gamma has no temporary harm: every wound is a wound", rule=R.WOUNDS)
    for cid in cmd.targets:
        c = need(d.state, cid, "target")
        if data(c).dead:
            raise Refused(f"{c.name} is already dead")
        r = amount(cmd.amount, dice, f"{c.name} wounds")
        if r.total < 1:
            raise Refused(f"quick damage is at least 1 wound, not {r.total} ({r.describe()})")
        d.add(Wounded(target=c.id, wounds=r.total, roll=r, note=cmd.note, was=data(c).wounds))


@applies(R.QUICK_HARM, R.WAKES)
def decide_heal(d: Draft, cmd: Heal, dice: Roller) -> None:
    targets = [need(d.state, cid, "target") for cid in cmd.targets]
    for c in targets:
        if data(c).dead:
            raise Refused(
                f"{c.name} is dead: no healing brings back the dead (a cinematic may ignore a failed save)",
                rule=R.DEAD_AT_ZERO,
            )
        if due(d.state, c.id, DEATH) is not None:
            raise Refused(f"resolve first: {c.name}'s DC 7 check against death is still due", rule=R.AT_ZERO)
    for c in targets:
        x = data(c)
        r = amount(cmd.amount, dice, f"{c.name} heal")
        if r.total < 1:
            raise Refused(f"healing is at least 1 wound, not {r.total} ({r.describe()})")
        gain = min(r.total, x.max_wounds - x.wounds)
        if gain > 0:
            d.add(Healed(target=c.id, wounds=gain, roll=r, wakes=x.wounds == 0 and x.unconscious, note=cmd.note))
    if not d.events:
        raise Refused("no one to heal: every target is at its full wounds")


# ---------------------------------------------------------------------------
# what harm calls for, whatever did it


@applies(R.AT_TWO, R.AT_ONE, R.AT_ZERO, R.LOWEST, R.DEAD_AT_ZERO)
def check_thresholds(d: Draft, c: Combatant) -> None:
    """The checks a combatant's fall to its wounds left calls for (only the lowest threshold's)."""
    x = data(c)
    if x.wounds == 0:
        if not x.unconscious:
            d.add(EffectApplied(target=c.id, effect="unconscious", note="0 wounds"))
        ask_resolve(d, c.id, 7, DEATH, "reduced to 0 wounds", rule=R.AT_ZERO)
    elif x.wounds == 1 and x.max_wounds > 1:
        ask_resolve(d, c.id, 9, UNCONSCIOUS, "1 wound left", rule=R.AT_ONE)
    elif x.wounds == 2 and x.max_wounds > 2:
        ask_resolve(d, c.id, 7, UNCONSCIOUS, "2 wounds left", rule=R.AT_TWO)


def close_prompts(d: Draft, cid: str, why: str, stakes: str | None = None) -> None:
    for p in list(d.state.prompts):
        if p.combatant == cid and (stakes is None or p.params.get("stakes") == stakes):
            d.add(PromptResolved(prompt_id=p.id, note=why))


@applies(R.TRIPLE, R.AT_ZERO)
def react(system: System, before: FightState, events: Sequence[Event], after: FightState) -> list[Event]:
    """The follow-ups of any action: threshold checks, the tripled knock-out, prompts made moot."""
    d = Draft(system, after)
    resolve_prompts = {p.id: p for p in before.prompts if p.command == "resolve" and p.combatant is not None}
    for ev in events:  # a resolve check settled by ruling: passed or failed, through the rules of a roll
        p = resolve_prompts.get(ev.prompt_id) if isinstance(ev, PromptResolved) else None
        if p is None or p.combatant is None or not isinstance(ev, PromptResolved) or ev.outcome not in (PASSES, FAILS):
            continue
        passed = ev.outcome == PASSES
        d.add(ResolveRuled(actor=p.combatant, dc=int(p.params["dc"]), stakes=p.params["stakes"], passed=passed))
    after = d.state  # (what follows sees the ruling's outcome: a ruled death closes the rest)
    now = {p.id for p in after.prompts}
    reworked = {ev.target for ev in events if isinstance(ev, Reworked)}  # a lost defense rerolled: moot
    for p in before.prompts:
        if p.id in now or not p.params.get("knockout") or p.combatant is None or p.combatant in reworked:
            continue
        c = after.find(p.combatant)
        if c is not None and not c.removed and not data(c).down:
            by = p.params.get("by")
            d.add(
                EffectApplied(target=c.id, effect="unconscious", by=by if isinstance(by, str) else None, note="tripled")
            )
    was_by_id = {c.id: c for c in before.combatants}  # one lookup each, not a search (100 combatants: 0.4 ms)
    for c in after.combatants:
        was = was_by_id.get(c.id)
        if was is None or was.removed:
            continue
        if c.removed:
            close_prompts(d, c.id, f"{c.name} left the fight")
            continue
        if data(c).dead:
            close_prompts(d, c.id, f"{c.name} is dead")
            continue
        if data(c).wounds < data(was).wounds:
            check_thresholds(d, _now(d, after, c))
        elif data(was).wounds == 0 < data(c).wounds:  # the GM gave wounds back (it kept "DC 7 … or die")
            close_prompts(d, c.id, f"moot: {c.name} has wounds left again", DEATH)
        if data(_now(d, after, c)).unconscious:
            close_prompts(d, c.id, f"moot: {c.name} is already unconscious", UNCONSCIOUS)
    return d.events


def _now(d: Draft, after: FightState, c: Combatant) -> Combatant:
    """``c`` of ``after`` as the follow-ups added so far leave it (itself while they added none)."""
    return c if d.state is after else d.get(c.id)
