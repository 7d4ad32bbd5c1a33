"""The fight's forms: each builds a dialog whose result is the command (or commands) to do.

Every form starts on the combatant the GM means: the current one acts, the
selected one (or the marked ones) is the subject, and the title names them.
``check`` probes the rules before the dialog closes, so a refusal shows under
the form with nothing logged.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

import attrs

from saves import library
from screens import keys, logic
from screens.dialogs.form import FormDialog
from screens.guard import call
from screens.widgets.fields import Choice
from screens.widgets.initiative import standing
from tracker import commands as C
from tracker.engine import CORE_FIELDS, decide_full
from tracker.errors import Refused
from tracker.events import InitiativeSet
from tracker.model import KINDS, FightState
from tracker.plugin import System
from tracker.text import NAME_MAX, visible

Probe = Callable[[Any], Any]


class Context(NamedTuple):
    """What a form needs from the fight screen at the moment it opens."""

    system: System
    state: FightState
    selected: str | None
    marked: tuple[str, ...]
    probe: Probe
    choices: tuple[Choice, ...] = ()  # every combatant in the fight, with its standing word (and hidden or not)
    last_targets: Mapping[str, tuple[str, ...]] = {}  # each actor's latest targets (attacks still in effect)

    @classmethod
    def of(
        cls,
        system: System,
        state: FightState,
        selected: str | None,
        marked: tuple[str, ...],
        probe: Probe,
        last_targets: Mapping[str, tuple[str, ...]] | None = None,
    ) -> Context:
        choices = []
        for c in state.present:
            s = standing(system, state, c)
            choices.append(Choice(c.id, c.name, s.word, s.out, c.hidden))
        return cls(system, state, selected, marked, probe, tuple(choices), dict(last_targets or {}))

    @property
    def out(self) -> set[str]:
        return {c.id for c in self.choices if c.out}

    @property
    def chosen(self) -> tuple[str, ...]:
        """The marked combatants, or the selected one."""
        return self.marked or ((self.selected,) if self.selected else ())

    def names(self, ids: Sequence[str]) -> str:
        return ", ".join(visible(self.state.name(i)) for i in ids)


def turn_commands(system: System) -> tuple[type, ...]:
    return tuple(getattr(system, "turn_commands", ()) or ())


def spec_form(ctx: Context, spec: C.CommandSpec, values: dict[str, Any] | None = None, key: str = "") -> FormDialog:
    """The form of one of the system's (or the core's) declared commands."""
    state = ctx.state
    actor, subject = logic.roles(spec, turn_commands(ctx.system))
    fresh = values is None
    if values is None:
        values = logic.prefill(
            spec, state, ctx.selected, marked=ctx.marked, out=ctx.out, turn_commands=turn_commands(ctx.system)
        )
        _aim_at_last_target(ctx, spec, values, actor, subject)
    who = values.get(actor or "") or values.get(subject or "")
    params = spec.params_for(state, who if isinstance(who, str) else None)
    if fresh:  # a field whose choices depend on the fight starts on the first of them
        for p, declared in zip(params, spec.params, strict=True):
            if p.choices != declared.choices and p.choices:
                values[p.name] = p.choices[0]

    def for_who(who: str | None) -> tuple[C.Param, ...]:
        return spec.params_for(state, who)

    def check(raw: dict[str, Any]) -> Any:
        named = raw.get(actor or "") or raw.get(subject or "")  # the choices as they are for whom the form names
        now = for_who(named if isinstance(named, str) else None)
        return ctx.probe(spec.make(logic.form_values(state, now, raw), now))

    help = spec.help + (f"  [key {key}]" if key else "")
    return FormDialog(
        spec.title,
        params,
        check,
        values=values,
        state=state,
        help=help,
        choices=ctx.choices,
        who=(actor, subject),
        choices_for=for_who if spec.choices is not None else None,
        focus=spec.focus if spec.focus in {p.name for p in params} else None,
    )


def _aim_at_last_target(
    ctx: Context, spec: C.CommandSpec, values: dict[str, Any], actor: str | None, subject: str | None
) -> None:
    """An attack form whose GM picked no one else (the selection sits on the actor whose turn it is) starts on the
    actor's last target still standing, else on the first foe: each NPC is not retargeted by hand.  A combatant
    the GM selected stays the subject, as every form starts on the selected."""
    acting = values.get(actor) if actor else None
    me = ctx.state.find(acting) if isinstance(acting, str) else None
    if me is None or not subject or subject == actor or ctx.marked:
        return
    picked = ctx.state.find(ctx.selected) if ctx.selected else None
    if picked is not None and picked.id != me.id:
        return  # the GM chose someone: that one
    if next(p for p in spec.params if p.name == subject).side:
        return  # a field of a side (first aid's patient, an ally): as prefill starts it (it was set on a foe)
    if not next(p for p in spec.params if p.name == subject).required:
        return  # one that may stay empty (a blackjack working's target: none is the caster): not put on a foe
    last = [i for i in ctx.last_targets.get(me.id, ()) if i not in ctx.out and ctx.state.find(i) is not None]
    foes = [c.id for c in logic.seen_first([c for c in ctx.state.present if c.kind != me.kind and c.id not in ctx.out])]
    chosen = last or foes[:1]
    if not chosen:
        return
    param = next(p for p in spec.params if p.name == subject)
    if param.kind == C.COMBATANTS:
        values[subject] = tuple(dict.fromkeys(chosen))
    elif param.kind == C.COMBATANT:
        values[subject] = chosen[0]


TARGETS = "targets"


def harm_form(ctx: Context, heal: bool) -> FormDialog:
    """Quick damage or healing on the marked (or selected) combatants, in the system's own measure."""
    own = tuple(call(ctx.system.harm_params, heal, default=(), what="its quick harm fields"))
    if not own:
        own = (C.Param(name="amount", label="Heal" if heal else "Damage", help="7, 3+4 or 2d6+1"),)
    targets = C.Param(name=TARGETS, kind=C.COMBATANTS, label="Targets")
    # dice dealt to several targets are rolled once by default: marking several and typing dice is how a GM
    # deals an area's damage (dynamite, a breath); each attacker's own damage goes through its attack form
    once = C.Param(name="one_roll", kind=C.BOOL, label="One roll for all", default=True, required=False)
    # (a level, not dice: nothing is rolled, and the tick did nothing)
    params = (*own, targets) if heal or own[0].kind == C.CHOICE else (*own, once, targets)
    values: dict[str, Any] = {p.name: p.default for p in own if p.default is not None}
    values[TARGETS] = ctx.chosen
    if not heal:
        values["one_roll"] = True

    def check(raw: dict[str, Any]) -> Any:
        parsed = logic.form_values(ctx.state, params, raw)
        ids = tuple(parsed.get(TARGETS) or ())
        if not ids:
            raise Refused("choose at least one combatant (space in the list)")
        amount = str(parsed.get("amount") or "").strip()
        if not amount:
            raise Refused(f"{own[0].title}: a value is needed")
        if heal:
            return ctx.probe(C.Heal(targets=ids, amount=amount))
        temporary = bool(own_value(own, parsed, "temporary", False))
        one_roll = bool(parsed.get("one_roll", True))
        return ctx.probe(C.Damage(targets=ids, amount=amount, temporary=temporary, one_roll=one_roll))

    title = "Heal" if heal else "Damage"
    if own[0].kind == C.CHOICE:  # a level (blackjack's injuries, zludge's damage levels), not a number
        help = f"{own[0].title}: the system's rules do the rest (escalation, thresholds, prompts)."
    else:
        help = "An amount (7), a sum (3+4) or dice (2d6+1): the system's rules do the rest."
    return FormDialog(
        title, params, check, values=values, state=ctx.state, help=help, choices=ctx.choices, who=(None, TARGETS)
    )


def own_value(params: Sequence[C.Param], parsed: dict[str, Any], name: str, default: Any) -> Any:
    for p in params:
        if p.name == name:
            return p.parse(parsed.get(name))
    return default


def condition_form(ctx: Context) -> FormDialog:
    """A condition on the marked (or selected) combatants: one GM action, one undo step."""
    spec = logic.find_spec(ctx.system, "add_condition")
    assert spec is not None
    offered = condition_names(ctx)
    base = tuple(attrs.evolve(p, suggestions=offered) if p.name == "name" else p for p in spec.params if p.name != "id")
    on = C.Param(name="ids", kind=C.COMBATANTS, label="On")
    params = (*base, on)
    values = {p.name: p.default for p in base if p.default is not None}
    values["ids"] = ctx.chosen
    now = ctx.state.current if ctx.state.started and not ctx.state.ended else None
    if now is not None:  # what an empty field means, shown: it showed "—" and recorded "to the end of Hattie's turn"
        values["ends_on"] = now

    def check(raw: dict[str, Any]) -> Any:
        parsed = logic.form_values(ctx.state, params, raw)
        if parsed.get("rounds") is None and parsed.get("ends_on") == now:
            parsed["ends_on"] = None  # (no rounds: until removed; the turn shown is only what rounds would count to)
        ids = tuple(dict.fromkeys(parsed.get("ids") or ()))
        if not ids:
            raise Refused("On: choose at least one combatant")
        done = ctx.probe([spec.make({**parsed, "id": cid}) for cid in ids])
        library.remember_condition(ctx.system.id, str(parsed.get("name") or ""))
        return done

    return FormDialog(
        "Add condition",
        params,
        check,
        values=values,
        state=ctx.state,
        help=spec.help + " Rounds empty: until removed. → takes the suggestion.",
        choices=ctx.choices,
        who=(None, "ids"),
    )


def condition_names(ctx: Context) -> tuple[str, ...]:
    """What the condition form suggests as the GM types: the book's conditions, then the ones the GM typed
    before in this system (this fight's, and earlier fights' kept in the GM's library)."""
    book = [b.name for b in call(ctx.system.conditions, default=(), what="its conditions")]
    typed = [cond.name for c in ctx.state.combatants for cond in c.conditions]
    typed += library.typed_conditions(ctx.system.id)
    return tuple(dict.fromkeys(n for n in (*book, *typed) if n))


def remove_condition_form(ctx: Context) -> FormDialog | str:
    """Which condition to clear from the marked (or selected): a list of the ones they have."""
    ids = ctx.chosen
    names: list[str] = []
    for cid in ids:
        c = ctx.state.find(cid)
        for cond in c.conditions if c else ():
            if cond.name not in names:
                names.append(cond.name)
    if not names:
        return f"{ctx.names(ids) or 'no one'} has no conditions"
    param = C.Param(name="name", kind=C.CHOICE, choices=tuple(names), label="Condition", default=names[0])

    def check(raw: dict[str, Any]) -> Any:
        name = param.parse(raw.get("name"))
        todo = [C.RemoveCondition(id=cid, name=name) for cid in ids if ctx.state.get(cid).condition(name)]
        return ctx.probe(todo)

    return FormDialog(f"Remove condition: {ctx.names(ids)}", (param,), check, values={"name": names[0]})


def adjust_fields(ctx: Context, cid: str) -> list[tuple[str, C.Param]]:
    """(label with the value now, field) for every value of the combatant the GM may set."""
    s = ctx.state
    c = s.get(cid)
    own = tuple(call(ctx.system.adjustable, s, c, default=(), what="its adjustable values"))
    core = (
        C.Param(name="name", label="Name", help=f"at most {NAME_MAX} characters"),
        C.Param(name="kind", kind=C.CHOICE, choices=KINDS, label="Kind (pc: a player character)"),
        C.Param(name="group", label="Group", required=False),
        C.Param(name="initiative", kind=C.INT, label="Initiative"),
    )
    fields = [p for p in own if p.name not in CORE_FIELDS] + list(core)
    return [(f"{p.title} (now {logic.shown(adjust_value(c, p), s) or '-'})", p) for p in fields]


def adjust_value(c: Any, p: C.Param) -> Any:
    return getattr(c, p.name) if p.name in CORE_FIELDS else getattr(c.data, p.name, None)


CLEAR = ("none", "-")  # typed in an optional text field of the adjust form: clear the value


def adjust_form(ctx: Context, cid: str, field: C.Param) -> FormDialog:
    """Set one value of a combatant.  An optional text value (zludge's wound boxes, blackjack's injuries, the
    group) is cleared by typing ``none``, not by leaving it empty: a GM who cleared the field to type it again and
    pressed Enter too soon wiped a whole track.

    Ruling: a number typed with a plus sign ("+3") is refused, saying the value now and that the form sets, not
    adds: it was taken as "set to 3" (HP 18 became 3), where a GM means 3 more.  A minus sign is a value (bnb's
    HP goes below 0).  Test: tests/ui/test_at_the_table.py::test_a_plus_sign_in_a_gm_adjust_is_refused_not_set."""
    c = ctx.state.get(cid)
    note = C.Param(name="gm_note", label="Why", required=False, help="optional note for the log")
    clears = field.kind == C.STR and not field.required and field.default is None
    if clears:
        field = attrs.evolve(field, help="; ".join(x for x in ("none: clear it", field.help) if x))
    params = (field, note)
    value = adjust_value(c, field)

    def check(raw: dict[str, Any]) -> Any:
        typed = raw.get(field.name)
        if clears and isinstance(typed, str):
            if typed.strip().lower() in CLEAR:
                raw = {**raw, field.name: ""}
            elif not typed.strip() and logic.shown(value, ctx.state):
                raise Refused(f"{field.title}: empty would clear it all; type none to clear it")
        if field.kind == C.INT and isinstance(typed, str) and typed.strip().startswith("+"):
            # a GM's "+3" means 3 more, not 3 (HP 18 became 3): the form sets a value, it does not add
            now = "" if value is None else f" (now {value})"
            raise Refused(
                f"{field.title}: '{typed.strip()}' — type the value it should be{now}; this sets it, it does not add"
            )
        parsed = logic.parse_params(ctx.state, params, raw)
        return ctx.probe(C.Adjust(id=cid, field=field.name, value=parsed[field.name], note=parsed["gm_note"] or ""))

    return FormDialog(
        f"GM adjust: {visible(c.name)}",
        params,
        check,
        values={field.name: value},
        state=ctx.state,
        choices=ctx.choices,
        focus=field.name,
    )


def initiative_form(ctx: Context) -> FormDialog:
    """Enter initiative (E): every combatant's value, shown as it is; the GM changes the ones to change.

    Ruling: only the values the GM changed are sent (and logged "set by GM"); one shown as it was is no GM's
    setting.  The form shows each current value, and sending them all back logged a "(set by GM)" line for
    everyone (a hidden foe too), so a rolled value read as the GM's in the log, the replay and the recap.
    Nothing changed: refused, nothing logged, as a GM adjust to the same value is
    (tests/ui/test_gm_meant_round3.py::test_enter_initiative_logs_only_the_value_changed).
    """
    present = ctx.state.present
    params = tuple(C.Param(name=c.id, kind=C.INT, label=visible(c.name), required=False) for c in present)
    values = {c.id: c.initiative for c in present}
    rolls = keys.rolls_initiative(ctx.system)
    what = "initiative" if rolls else "number"

    def check(raw: dict[str, Any]) -> Any:
        parsed = logic.parse_params(ctx.state, params, raw)
        changed = {k: v for k, v in parsed.items() if v is not None and v != values.get(k)}
        if not changed:
            raise Refused(f"no {what} changed: type a new value over the one to change")
        return ctx.probe(C.SetInitiative(values=changed))

    first = ctx.selected if ctx.selected in values else None
    return FormDialog(
        "Enter initiative" if rolls else "Set the order by numbers",
        params,
        check,
        values=values,
        # Ruling: a book with no initiative (the system's ``rolls_initiative``) rolls no totals: E gives each a
        # number for its place, higher first (tests/ui/test_no_initiative_words.py)
        help="Totals rolled on real dice; empty: unchanged."
        if rolls
        else "A number for each, higher goes first; [ and ] move one; empty: unchanged.",
        focus=first,
    )


WHO = "ids"  # the rest form's combatants field


def rest_form(ctx: Context) -> FormDialog:
    """Let time pass (L, on a fight not started or ended: during one, time passes only by turns): how long (hours,
    days), how well (the system's rest qualities), for whom (the marked combatants; none marked: everyone).  It
    builds the core :class:`~tracker.commands.Rest`; each system decides what its combatants recover."""
    qualities = tuple(call(lambda: getattr(ctx.system, "rest_qualities", ()), default=(), what="its rest qualities"))
    params: list[C.Param] = [
        C.Param(name="days", kind=C.INT, label="Days", default=0, min=0, max=3650, help="a week is 7"),
        C.Param(name="hours", kind=C.INT, label="Hours", default=0, min=0, max=24 * 3650),
    ]
    if qualities:
        params.append(C.Param(name="quality", kind=C.CHOICE, choices=qualities, default=qualities[0], label="How well"))
    params.append(C.Param(name=WHO, kind=C.COMBATANTS, label="Who", required=False, help="empty: everyone"))
    values: dict[str, Any] = {"days": 1, "hours": 0, WHO: ctx.marked}
    if qualities:
        values["quality"] = qualities[0]

    def check(raw: dict[str, Any]) -> Any:
        # each field parsed as its kind says ("abc" in Days showed Python's own ValueError)
        parsed = logic.parse_params(ctx.state, tuple(params), raw)
        days, hours = int(parsed.get("days") or 0), int(parsed.get("hours") or 0)
        if days + hours == 0:
            raise Refused("let at least 1 hour or 1 day pass")
        ids = tuple(parsed.get(WHO) or ())
        return ctx.probe(C.Rest(ids=ids, days=days, hours=hours, quality=str(parsed.get("quality") or "")))

    return FormDialog(
        "Let time pass",
        tuple(params),
        check,
        values=values,
        state=ctx.state,
        help="Each system's recovery by its book; the log says what each recovered.",
        choices=ctx.choices,
        who=(None, WHO),
        no_one="everyone",  # (none marked: everyone rests)
    )


def start_form(ctx: Context) -> FormDialog:
    name = C.Param(name="title", label="Fight name", required=False, help="shown in the header and the saves list")
    surprise = C.Param(name="surprise", kind=C.COMBATANTS, label="Surprise round for", required=False)
    # no one (or not everyone) has an initiative yet: S started the fight in the order PCs, then NPCs as added (a
    # late joiner last, its initiative blank), without a word
    missing = tuple(c.id for c in ctx.state.present if c.initiative is None)
    some = len(missing) < len(ctx.state.present)
    unrolled = bool(missing) and rolls_initiative(ctx, missing if some else ())
    without = ", ".join(ctx.state.name(i) for i in missing)
    roll = C.Param(
        name="roll",
        kind=C.BOOL,
        label="Roll initiative first",
        default=True,
        help=f"{without} {'has' if len(missing) == 1 else 'have'} none yet" if some else "no one has an initiative yet",
    )
    params = (name, surprise, roll) if unrolled else (name, surprise)

    def check(raw: dict[str, Any]) -> Any:
        parsed = logic.parse_params(ctx.state, params, raw)
        todo: list[Any] = []
        title = str(parsed["title"] or "").strip()
        if title and title != ctx.state.title:
            todo.append(C.NameFight(name=title))
        if parsed.get("roll"):
            todo.append(C.RollInitiative(ids=missing if some else ()))
        todo.append(C.StartFight(surprise=tuple(dict.fromkeys(parsed["surprise"] or ()))))
        return ctx.probe(todo)

    marked = surprise_marked(ctx)
    said = (
        " Marked by the system's rules: " + ", ".join(ctx.state.name(i) for i in marked) + "; unmark any who was seen."
        if marked
        else ""
    )
    return FormDialog(
        "Start the fight",
        params,
        check,
        values={"title": ctx.state.title, "surprise": marked, "roll": True},
        state=ctx.state,
        help="Enter starts. Mark who acts in a surprise round with space (none: no surprise)."
        + said
        + (
            (
                f" {without} {'has' if len(missing) == 1 else 'have'} no initiative yet: it is rolled first (untick "
                "it: after the rest)."
                if some
                else " No one has an initiative yet: it is rolled first (untick it: PCs first, then NPCs, as added)."
            )
            if unrolled
            else ""
        ),
        choices=ctx.choices,
        focus="title",
    )


def rolls_initiative(ctx: Context, ids: tuple[str, ...] = ()) -> bool:
    """Whether the system's rules roll an initiative for the fight (for ``ids``; none: everyone) — blackjack's order
    is its own, no roll."""
    try:
        events, _after = decide_full(ctx.system, ctx.state, C.RollInitiative(ids=ids), logic.ProbeRoller())
    except Exception:  # refused, or the plug-in's trouble: nothing to offer
        return False
    return any(isinstance(ev, InitiativeSet) for ev in events)


def surprise_marked(ctx: Context) -> tuple[str, ...]:
    """Who the start form marks for the surprise round as it opens: whom the system names (zludge: the ambushers
    declared), of those still present; the GM unmarks any seen."""
    present = {c.id for c in ctx.state.present}
    named = call(ctx.system.surprise, ctx.state, default=(), what="who surprises")
    return tuple(i for i in named if i in present)


def name_form(ctx: Context) -> FormDialog:
    param = C.Param(name="title", label="Fight name", help=f"at most {NAME_MAX * 2} characters")

    def check(raw: dict[str, Any]) -> Any:
        return ctx.probe(C.NameFight(name=str(param.parse(raw.get("title")))))

    return FormDialog("Name the fight", (param,), check, values={"title": ctx.state.title})


def view_form(ctx: Context) -> FormDialog:
    v = ctx.state.view
    params = (
        C.Param(name="npc_numbers", kind=C.BOOL, label="NPC numbers (HP, Threat…)"),
        C.Param(name="npc_names", kind=C.BOOL, label="NPC names (else what they are)"),
        C.Param(name="dice", kind=C.BOOL, label="Dice results"),
    )

    def check(raw: dict[str, Any]) -> Any:
        return ctx.probe(
            C.SetView(npc_numbers=bool(raw["npc_numbers"]), npc_names=bool(raw["npc_names"]), dice=bool(raw["dice"]))
        )

    values = {"npc_numbers": v.npc_numbers, "npc_names": v.npc_names, "dice": v.dice}
    return FormDialog("What the players' view shows", params, check, values=values, help="Space ticks a box.")


def note_form(ctx: Context) -> FormDialog:
    spec = logic.find_spec(ctx.system, "note")
    assert spec is not None
    return spec_form(ctx, spec, {"id": ctx.selected})


def ruling_form(ctx: Context) -> FormDialog:
    """Settle the first prompt by ruling: a note for the log, and the outcome the GM rules (one of the prompt's
    own, picked, never assumed: Enter without one names it and goes to it).  It starts on the note, so a ruling
    typed at once is text, never letters that step a picker.  A prompt from an older file names no outcomes:
    it just closes."""
    prompt = ctx.state.prompts[0]
    note = C.Param(name="ruling", label="Ruling", required=False, help="what the GM rules instead of the roll")
    outcome = C.Param(name="outcome", kind=C.CHOICE, choices=prompt.outcomes, label="Outcome")
    params = (note, outcome) if prompt.outcomes else (note,)

    def check(raw: dict[str, Any]) -> Any:
        ruled = str(outcome.parse(raw.get("outcome"))) if prompt.outcomes else ""
        text = str(raw.get("ruling") or "").strip()
        return ctx.probe(C.DismissPrompt(prompt_id=prompt.id, note=text, outcome=ruled))

    help = f"Outcomes: {', '.join(prompt.outcomes)} (← → or first letters)." if prompt.outcomes else ""
    return FormDialog(f"Settle by ruling: {visible(prompt.text)}", params, check, help=help, focus="ruling")
