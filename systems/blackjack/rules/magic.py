"""Lead-working: ingesting lead, casting a working (Nd6, each 6 powderburn or a catastrophe), papers.

Rulings made here (beyond the rules table: ``burn_first``, ``catastrophe``, ``no_target``, ``paper``), each
named in a test:
- A working cast a second time the same day marks its lesser powderburn first,
  before the working's dice ("A caster may choose to cast the working again at
  the cost of a lesser injury (powderburn)"). If that powderburn kills the
  caster, or lands at Severe or worse (it drops the caster: "need help or will
  die"), the working is not cast: no dice, no save, no effect, no sixes prompt;
  the lead ingested stays ingested
  (``test_a_second_casting_that_kills_the_caster_casts_nothing``).
- The sixes of a casting wait for the GM's choice (powderburn or catastrophe
  per die) in a prompt. Catastrophe injuries land on the caster; injure others
  with the Inflict injury command (``test_catastrophe_instead_of_powderburn_for_one_six``).
- A working that lays a condition or an injury (Hex, Naming) needs a target:
  cast without one it is refused rather than landing on the caster. A healing
  working with no target heals the caster; a note working just happens
  (``test_a_hex_without_a_target_is_refused_not_cast_on_the_caster``).
- Ruling: a healing working (Healing hands) whose recipient (its target; the
  caster, with none) has no injury it may clear (none at all, or only ones
  bound to a paper) is refused in words before anything is spent: no
  second-casting powderburn, no dice, no save, the lead stays ingested. It
  logged "takes effect: restore 1 injury slot" and healed no one
  (``test_a_heal_with_nothing_to_heal_is_refused_before_anything_is_spent``).
- Ruling: a healing working on one of the caster's own side (PC on PC, NPC on
  NPC) is taken as willing: no CTRL save against it. Aimed at the other side,
  the target saves unless the GM ticks "Target is willing"
  (``test_healing_hands_on_the_selected_wounded_ally_heals_it``). The event that it took
  effect records which it was (own side, the GM's tick, or a save made), so Why? says "willing: no save"
  or "failed its save" rather than "failed its save, or was willing"; an event written before
  it was kept still reads the hedge (``test_healing_an_ally_is_explained_as_willing_not_a_failed_save``).
- What a paper working (Hex, Naming) lays on its target is bound to the paper:
  the log says so, and only "The paper is destroyed" removes it
  (``test_treatment_cannot_clear_namings_agony_destroying_the_paper_does``).
"""

from __future__ import annotations

from tracker.dice import Roller, roll
from tracker.errors import Refused
from tracker.events import ConditionAdded
from tracker.kit import Draft, need, prompt, resolve
from tracker.model import Combatant, Condition
from tracker.text import counted

from ..checks import blackjack_save
from ..commands import CastWorking, IngestLead, ResolveSixes
from ..events import (
    SAVED,
    WILLING_GM,
    WILLING_SIDE,
    DvPart,
    LeadIngested,
    PaperBound,
    SaveRolled,
    SixesResolved,
    WorkingCast,
    WorkingStopped,
    WorkingTookEffect,
)
from ..records import SEVERE, PaperBond, data
from ..sheet import level_index, split_list
from ..table import R, applies
from .common import able, find_working, one_action, rules
from .harm import clear_one, clear_worst, injury


@rules.on(IngestLead)
@applies(R.INGEST)
def _ingest(d: Draft, cmd: IngestLead, dice: Roller) -> None:
    a = able(d.state, cmd.actor)
    one_action(d.state, a, "ingest lead next turn", R.INGEST)
    if cmd.amount < 1:
        raise Refused("ingest at least 1 lead", rule=R.INGEST)
    if data(a).lead < cmd.amount:
        raise Refused(
            f"lead-working: {a.name} carries {data(a).lead} lead, too little to ingest {cmd.amount}", rule=R.INGEST
        )
    d.add(LeadIngested(actor=a.id, amount=cmd.amount))


@rules.on(CastWorking)
@applies(R.WORKING_LEVEL, R.WORKING_ROLL, R.WORKING_SAVE, R.NO_TARGET, R.ONCE_A_DAY, R.BURN_FIRST, R.SEVERE)
def _cast(d: Draft, cmd: CastWorking, dice: Roller) -> None:
    a = able(d.state, cmd.actor, "caster")
    one_action(d.state, a, "cast the working next turn", R.INGEST)
    wi, wk = find_working(a, cmd.working)
    if data(a).pending_sixes:
        raise Refused(f"first choose powderburn or catastrophe for {a.name}'s last sixes", rule=R.CATASTROPHE)
    n = data(a).ingested
    if n < wk.level:
        raise Refused(
            f"lead-working: {wk.name} needs {wk.level} lead ingested (an action before casting); "
            f"{a.name} has ingested {n} and carries {data(a).lead}",
            rule=R.WORKING_LEVEL,
        )
    target = able(d.state, cmd.target, "target") if cmd.target else None
    if target is None and wk.effect in ("condition", "injury"):
        raise Refused(
            f"{wk.name} works on a target (who saves CTRL against it): choose one; "
            "only a working with no target just happens",
            rule=R.NO_TARGET,
        )
    if wk.effect == "heal":
        _can_heal(wk.name, target or a)
    if wk.cast_today:
        burn = injury(d.state, a.id, 0, "powderburn (second casting today)")
        d.add(burn)
        if burn is not None and (burn.fatal or burn.index >= SEVERE):
            why = "the powderburn kills the caster" if burn.fatal else "the powderburn drops the caster (severe)"
            d.add(WorkingStopped(actor=a.id, working=wk.name, reason=why))
            return
    r = roll(f"{n}d6", dice, f"{a.name} casts {wk.name}")
    sixes = sum(1 for f in r.faces if f == 6)
    tid = target.id if target else None
    d.add(
        WorkingCast(
            actor=a.id, working=wk.name, working_index=wi, lead=n, roll=r, sixes=sixes, again=wk.cast_today, target=tid
        )
    )
    took = True
    own_side = wk.effect == "heal" and target is not None and target.kind == a.kind
    willing = cmd.willing or own_side
    how = ""
    if target is not None and target.id != a.id:
        how = WILLING_SIDE if own_side else WILLING_GM if willing else SAVED
    if target is not None and not willing and target.id != a.id:
        t = d.get(target.id)
        parts = [DvPart(label="lead ingested", value=n)] + [DvPart(label=m.label, value=m.value) for m in cmd.modifiers]
        save = blackjack_save(dice, t, "CTRL", parts, f"resists {wk.name}", tested=("working", wk.name))
        d.add(SaveRolled(actor=t.id, save=save, purpose=f"resist {wk.name}"))
        took = not save.success
    d.add(
        WorkingTookEffect(
            actor=a.id, working=wk.name, target=tid, took=took, note=wk.notes if took else "", willing=how
        )
    )
    if took:
        _effect(d, a, d.get(tid or a.id), wi)
    if sixes:
        d.add(
            prompt(
                "powderburn",
                f"{a.name} rolled {counted(sixes, 'six', 'sixes')} casting {wk.name}: powderburn or catastrophe for each",
                a.id,
                command="burn",
                params={"actor": a.id, "choices": ", ".join(["powderburn"] * sixes)},
                outcomes=SIXES_OUTCOMES,
            )
        )


@applies(R.HEALING_HANDS, R.PAPER)
def _can_heal(working: str, on: Combatant) -> None:
    """Refused unless ``on`` has an injury a healing working may clear (one not bound to a paper)."""
    if not data(on).injury_count and not data(on).dead:
        raise Refused(f"{working} would heal no one, so it is not cast: {on.name} has no injury", rule=R.HEALING_HANDS)
    try:
        clear_one(on, "worst", working)
    except Refused as e:
        raise Refused(f"{working} would heal no one, so it is not cast: {e}") from None


@applies(R.HEX, R.NAMING, R.PAPER, R.HEALING_HANDS)
def _effect(d: Draft, caster: Combatant, on: Combatant, wi: int) -> None:
    """What a working that took effect does to its target (the caster, with none)."""
    wk = data(caster).workings[wi]
    if wk.effect == "condition" and wk.condition and not on.condition(wk.condition):
        cond = Condition(name=wk.condition, value=wk.value, note=f"{wk.name} by {caster.name}")
        d.add(ConditionAdded(id=on.id, condition=cond))
        if wk.paper:
            d.add(PaperBound(target=on.id, bond=PaperBond(working=wk.name, caster=caster.id, level=-1, name=cond.name)))
    elif wk.effect == "injury":
        inj = injury(d.state, on.id, wk.injury_level, wk.injury or wk.name.lower(), ("working",))
        d.add(inj)
        if wk.paper and inj is not None and inj.index >= 0 and not inj.fatal:
            bond = PaperBond(working=wk.name, caster=caster.id, level=inj.index, name=inj.name)
            d.add(PaperBound(target=on.id, bond=bond))
    elif wk.effect == "heal":
        d.add(clear_worst(on, f"{wk.name} by {caster.name}"))


_CHOICE_WORDS = {"p": "powderburn", "powderburn": "powderburn", "c": "catastrophe", "catastrophe": "catastrophe"}


def _injury_list(text: str, c: Combatant) -> list[tuple[int, str]]:
    out = []
    for item in split_list(text):
        level, _, name = item.partition(" ")
        out.append((level_index(level, len(data(c).slots)), name.strip() or "catastrophe"))
    return out


POWDERBURN_EACH, CATASTROPHE_EACH = "powderburn for each six", "catastrophe for each six"
SIXES_OUTCOMES = (POWDERBURN_EACH, CATASTROPHE_EACH)  # the sixes prompt settled by ruling


@applies(R.WORKING_ROLL, R.CATASTROPHE)
def ruled_sixes(d: Draft, actor: str, outcome: str, note: str) -> None:
    """The sixes prompt settled by ruling: every six a powderburn (a lesser injury each), or every six a
    catastrophe (the GM narrates it, and inflicts any injury it brings with the Inflict injury command)."""
    a = d.state.find(actor)
    n = data(a).pending_sixes if a is not None else 0
    if a is None or n == 0:
        return
    word = "powderburn" if outcome == POWDERBURN_EACH else "catastrophe"
    d.add(SixesResolved(actor=a.id, choices=(word,) * n, note=note))
    if word == "powderburn":
        for _ in range(n):
            d.add(injury(d.state, a.id, 0, "powderburn"))


@rules.on(ResolveSixes)
@applies(R.WORKING_ROLL, R.CATASTROPHE)
def _burn(d: Draft, cmd: ResolveSixes, dice: Roller) -> None:
    a = need(d.state, cmd.actor, "caster")
    n = data(a).pending_sixes
    if n == 0:
        raise Refused(
            f"{a.name} has no sixes waiting: powderburn comes from the 6s of a working's roll", rule=R.WORKING_ROLL
        )
    raw = split_list(cmd.choices) or ["powderburn"] * n
    choices = []
    for x in raw:
        word = _CHOICE_WORDS.get(x.lower())
        if word is None:
            raise Refused(f"'{x}' is neither powderburn nor catastrophe", rule=R.CATASTROPHE)
        choices.append(word)
    if len(choices) != n:
        raise Refused(
            f"{n} six(es) were rolled: give one choice per six (powderburn or catastrophe)", rule=R.CATASTROPHE
        )
    extra = _injury_list(cmd.injuries, a)
    if extra and "catastrophe" not in choices:
        raise Refused(
            "only a catastrophe inflicts other injuries; choose catastrophe for a six first", rule=R.CATASTROPHE
        )
    d.add(SixesResolved(actor=a.id, choices=tuple(choices), note=cmd.note))
    for ch in choices:
        if ch == "powderburn":
            d.add(injury(d.state, a.id, 0, "powderburn"))
    for idx, name in extra:
        d.add(injury(d.state, a.id, idx, name))
    d.add(resolve(d.state, "powderburn", a.id, ", ".join(choices)))
