"""What the GM's keys do on the fight screen: each action opens a form or does a command.

Actions that ask something open a dialog with :func:`screens.dialogs.base.ask`
and do what it returns; every command goes through ``perform`` (see
:mod:`screens.doing`).  The subject of an action is the selected combatant, or
the marked ones for actions that take several.

The forms and dialogs are imported when an action first needs them (the
fight's first frame needs none).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from screens import library_actions, logic
from screens.guard import call
from screens.widgets.detail import visible_lines
from tracker import commands as C
from tracker.errors import Refused, TrackerError
from tracker.text import visible

if TYPE_CHECKING:
    from textual.app import App

    from screens import forms
    from screens.dialogs.base import Dialog
    from screens.fight import FightScreen
    from tracker.engine import Fight
    from tracker.plugin import System


class FightActions:
    """Mixed into :class:`screens.fight.FightScreen` (its layout, selection and ``perform``)."""

    if TYPE_CHECKING:
        fight: Fight
        system: System
        system_keys: dict[str, str]
        marked: tuple[str, ...]
        ready: bool
        undo_note: str
        app: App[Any]
        Closed: type[FightScreen.Closed]

        @property
        def selected(self) -> str | None: ...
        @property
        def save_path(self) -> Path | None: ...
        def set_marks(self, marked: tuple[str, ...]) -> None: ...
        def perform(self, command: Any, after: Callable[[], None] | None = None) -> None: ...
        def probe(self, command: Any) -> Any: ...
        def refuse(self, message: str) -> None: ...
        def refresh_view(self) -> None: ...
        def clear_undo_note(self) -> None: ...
        def add_log(self, lines: list[str], style: str = "") -> None: ...
        def _title(self, name: str) -> str: ...
        def notify(self, *args: Any, **kwargs: Any) -> Any: ...
        def post_message(self, message: Any) -> bool: ...

    # -- helpers -----------------------------------------------------------
    def context(self) -> forms.Context:
        from screens import forms

        return forms.Context.of(
            self.system, self.fight.state, self.selected, self.marked, self.probe, self._last_targets()
        )

    def _last_targets(self, back: int = 400) -> dict[str, tuple[str, ...]]:
        """Each actor's targets in its latest attack still in effect (the last ``back`` entries are read)."""
        log = self.fight.log
        out: dict[str, tuple[str, ...]] = {}
        for index in range(len(log) - 1, max(len(log) - back, 0) - 1, -1):
            ev = log.entry(index).event
            actor = getattr(ev, "actor", None)
            targets = getattr(ev, "targets", None) or (getattr(ev, "target", None),)
            if not isinstance(actor, str) or actor in out or not all(isinstance(t, str) for t in targets):
                continue
            if targets != (actor,) and not log.is_undone(index):
                out[actor] = tuple(str(t) for t in targets if t != actor)
        return out

    def ask_command(self, dialog: Dialog[Any], after: Callable[[], None] | None = None) -> None:
        """Open a form; do the command (or commands) it returns."""

        from screens.dialogs.base import ask

        def done(command: Any) -> None:
            if command is not None:
                self.perform(command, after)

        self.clear_undo_note()
        ask(self.app, dialog, done)

    def _need_selected(self) -> str | None:
        cid = self.selected
        if cid is None:
            self.refuse("choose a combatant in the list first (add one with A)")
        return cid

    def _need_chosen(self) -> tuple[str, ...]:
        chosen = self.context().chosen
        if not chosen:
            self.refuse("choose a combatant in the list first (add one with A)")
        return chosen

    def _used_marks(self) -> None:
        if self.marked:
            self.set_marks(())

    # -- the system's actions ------------------------------------------------
    def run_spec(self, spec: C.CommandSpec, values: dict[str, Any] | None = None) -> None:
        if not spec.params:
            self.perform(spec.make({}))
            return
        self.ask_command(self.spec_dialog(spec, values), self._used_marks)

    def spec_dialog(self, spec: C.CommandSpec, values: dict[str, Any] | None = None) -> Dialog[Any]:
        from screens import forms

        key = next((k for k, n in self.system_keys.items() if n == spec.name), "")
        return forms.spec_form(self.context(), spec, values, key)

    def action_run_command(self, name: str) -> None:
        spec = logic.find_spec(self.system, name)
        if spec is None:
            self.refuse(f"{self.system.name} has no action '{name}'")
            return
        self.run_spec(spec)

    def action_actions(self) -> None:
        from screens.dialogs.base import ask

        def chosen(name: str | None) -> None:
            if name:
                self.action_run_command(name)

        ask(self.app, self.actions_dialog(), chosen)

    def actions_dialog(self) -> Dialog[str]:
        """Every action of the system, with its key, to pick from (x)."""
        from screens.dialogs.pick import PickDialog

        options = []
        for spec in call(logic.specs, self.system, default=C.CORE_SPECS, what="its actions"):
            key = next((k for k, n in self.system_keys.items() if n == spec.name), None)
            label = spec.title + (f" [{key}]" if key else "") + (f" — {spec.help}" if spec.help else "")
            options.append((label, spec.name))
        who = self.selected
        title = f"Actions ({self.system.name})" + (f" · selected: {visible(self.fight.state.name(who))}" if who else "")
        return PickDialog(title, options)

    # -- turns and order -------------------------------------------------------
    def action_next_turn(self) -> None:
        self.perform(C.NextTurn())

    def action_roll_initiative(self) -> None:
        self.perform(C.RollInitiative())

    def action_initiative_running(self) -> None:
        """`I` in a running fight: roll for those without an initiative (reinforcements) and slot them in; with
        none, offer to roll the whole order again from the next round (asked first), or say why not."""
        from screens.dialogs.base import ask
        from screens.dialogs.confirm import ConfirmDialog

        s = self.fight.state
        if any(c.initiative is None for c in s.present):
            self.perform(C.RollInitiative())
            return
        reroll = C.RollInitiative(reroll=True)
        try:
            self.probe(reroll)
        except TrackerError as e:
            self.refuse(str(e))
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self.perform(reroll)

        question = (
            f"Everyone has an initiative. Roll the whole order again? The new order starts with round "
            f"{s.round + 1}; this round goes on as it is."
        )
        ask(self.app, ConfirmDialog(question), answer)

    def action_set_initiative(self) -> None:
        from screens import forms

        if not self.fight.state.present:
            self.refuse("add combatants before entering initiative")
            return
        self.ask_command(forms.initiative_form(self.context()))

    def action_start(self) -> None:
        from screens import forms

        if self.fight.state.started:
            self.refuse("the fight has already started")
            return
        self.ask_command(forms.start_form(self.context()))

    def action_delay(self) -> None:
        self.perform(C.Delay())

    def action_act_now(self) -> None:
        cid = self._need_selected()
        if cid:
            self.perform(C.ActNow(id=cid))

    def action_move(self, step: int) -> None:
        cid = self._need_selected()
        if cid is None:
            return
        s = self.fight.state
        order = list(s.order or tuple(c.id for c in s.present))
        if cid not in order:
            self.refuse(f"{s.name(cid)} is not in the order yet")
            return
        place = order.index(cid) + step
        if not 0 <= place < len(order):
            self.refuse(f"{s.name(cid)} is already {'first' if step < 0 else 'last'}")
            return
        self.perform(C.MoveInOrder(id=cid, position=place))

    # -- combatants ------------------------------------------------------------
    def action_add(self) -> None:
        self.ask_command(self.add_dialog())

    def add_dialog(self) -> Dialog[Any]:
        from screens.dialogs.add import AddDialog

        return AddDialog(self.system, self.probe, folder=getattr(self.app, "fights_dir", None))

    def action_remove(self) -> None:
        from screens.dialogs.base import ask
        from screens.dialogs.confirm import ConfirmDialog

        ids = self._need_chosen()
        if not ids:
            return
        names = self.context().names(ids)

        def answer(yes: bool | None) -> None:
            if yes:
                self.perform([C.RemoveCombatant(id=cid, reason="removed by the GM") for cid in ids], self._used_marks)

        ask(self.app, ConfirmDialog(f"Remove {names} from the fight?"), answer)

    def action_toggle_mark(self) -> None:
        cid = self.selected
        if cid is None:
            return
        marked = tuple(m for m in self.marked if m != cid) if cid in self.marked else (*self.marked, cid)
        self.set_marks(marked)

    def action_clear_marks(self) -> None:
        if self.marked:
            self.set_marks(())
            self.notify("Marks cleared.")

    def action_damage(self) -> None:
        if self._need_chosen():
            self.ask_command(self.harm_dialog(heal=False), self._used_marks)

    def action_heal(self) -> None:
        if self._need_chosen():
            self.ask_command(self.harm_dialog(heal=True), self._used_marks)

    def harm_dialog(self, heal: bool) -> Dialog[Any]:
        from screens import forms

        return forms.harm_form(self.context(), heal=heal)

    def action_add_condition(self) -> None:
        if self._need_chosen():
            self.ask_command(self.condition_dialog(), self._used_marks)

    def condition_dialog(self) -> Dialog[Any]:
        from screens import forms

        return forms.condition_form(self.context())

    def action_remove_condition(self) -> None:
        from screens import forms

        if not self._need_chosen():
            return
        made = forms.remove_condition_form(self.context())
        if isinstance(made, str):
            self.refuse(made)
            return
        self.ask_command(made, self._used_marks)

    def action_note(self) -> None:
        from screens import forms

        self.ask_command(forms.note_form(self.context()))

    def action_adjust(self) -> None:
        from screens import forms
        from screens.dialogs.base import ask
        from screens.dialogs.pick import PickDialog

        cid = self._need_selected()
        if cid is None:
            return
        ctx = self.context()
        name = visible(self.fight.state.name(cid))

        def chosen(field: C.Param | None) -> None:
            if field is not None:
                self.ask_command(forms.adjust_form(self.context(), cid, field))

        ask(self.app, PickDialog(f"Adjust which value of {name}?", forms.adjust_fields(ctx, cid)), chosen)

    def action_toggle_hidden(self) -> None:
        ids = self._need_chosen()
        if not ids:
            return
        s = self.fight.state
        hidden = all(s.get(i).hidden for i in ids)
        self.perform(C.Reveal(ids=ids) if hidden else C.Hide(ids=ids), self._used_marks)

    def action_view_options(self) -> None:
        from screens import forms

        self.ask_command(forms.view_form(self.context()))

    def action_name_fight(self) -> None:
        from screens import forms

        self.ask_command(forms.name_form(self.context()))

    # -- the players' view, served to browsers -------------------------------------------
    serving: Any = None  # screens.serve.Serving while the players' view of this fight is served

    def action_serve(self) -> None:
        """Serve the players' view of this fight to browsers (textual-serve); again: show the address, or stop."""
        from screens.dialogs.base import ask
        from screens.dialogs.confirm import ConfirmDialog
        from screens.dialogs.form import FormDialog

        if self.serving is not None and self.serving.running:
            url = self.serving.url

            def answer(stop: bool | None) -> None:
                if stop:
                    self.stop_serving()
                    self.notify("The players' view is no longer served.", title="Players' view")

            ask(self.app, ConfirmDialog(f"The players' view is at {url}. Stop serving it?"), answer)
            return
        if self.save_path is None:
            self.refuse("this fight is not saved to a file, so it cannot be shown to the players")
            return
        params = (
            C.Param(
                name="where",
                kind=C.CHOICE,
                label="Show it on",
                choices=("this computer", "the table's network"),
                default="this computer",
                help="the network: phones and a TV on the same Wi-Fi can watch",
            ),
            C.Param(name="port", kind=C.INT, label="Port", default=8000, min=1, max=65535),
        )

        def check(raw: dict[str, Any]) -> tuple[str, int]:
            parsed = logic.parse_params(self.fight.state, params, raw)
            host = "0.0.0.0" if parsed["where"] == "the table's network" else "127.0.0.1"
            return host, int(parsed["port"])

        def chosen(picked: tuple[str, int] | None) -> None:
            if picked is not None:
                self._start_serving(*picked)

        ask(self.app, FormDialog("Show the fight to the players", params, check), chosen)

    def _start_serving(self, host: str, port: int) -> None:
        path = self.save_path
        assert path is not None
        self.notify("Starting the players' view…", title="Players' view")

        def start() -> None:
            from screens import serve

            try:
                serving = serve.start_serving(path, host=host, port=port)
            except TrackerError as e:
                self.app.call_from_thread(self.refuse, f"the players' view could not start: {e}")
                return
            self.app.call_from_thread(self._served, serving)

        self.app.run_worker(start, thread=True, exclusive=True, group="serve", name="serve")

    def _served(self, serving: Any) -> None:
        self.serving = serving
        warning = f"\n{serving.warning}" if serving.warning else ""
        self.notify(f"Players' view: {serving.url}{warning}", title="Players' view", timeout=20, markup=False)
        self.add_log([f"Players' view served at {serving.url}"], style="italic")

    def stop_serving(self) -> None:
        if self.serving is not None:
            self.serving.stop()
            self.serving = None

    # -- prompts -----------------------------------------------------------------
    def action_resolve_prompt(self) -> None:
        s = self.fight.state
        if not s.prompts:
            self.refuse("there is no open prompt")
            return
        prompt = s.prompts[0]
        spec = logic.find_spec(self.system, prompt.command)
        if spec is None:
            self.refuse(f"no action resolves '{prompt.text}' here: settle it by ruling with P")
            return
        self.run_spec(spec, logic.prompt_prefill(spec, s, prompt))

    def action_dismiss_prompt(self) -> None:
        from screens import forms

        if not self.fight.state.prompts:
            self.refuse("there is no open prompt")
            return
        self.ask_command(forms.ruling_form(self.context()))

    # -- dice, undo, redo ----------------------------------------------------------
    def action_toggle_dice(self) -> None:
        typed = not self.fight.state.typed_dice

        def said() -> None:
            self.notify("Typed-in dice: every roll asks for its faces." if typed else "Dice rolled by the tracker.")

        self.perform(C.SetDiceMode(typed=typed), said)

    def action_undo(self) -> None:
        try:
            step = self.fight.undo()
        except TrackerError as e:
            self.refuse(str(e))
            return
        text = visible(step.describe())
        self.undo_note = f"Undone: {text}"  # above the list in the same frame (a toast came later, over the log)
        self.add_log([f"{self.fight.entries[-1].seq:>4} undone: {text}"], style="italic")
        self.refresh_view()

    def action_redo(self) -> None:
        try:
            step = self.fight.redo()
        except TrackerError as e:
            self.refuse(str(e))
            return
        text = visible(step.describe())
        self.undo_note = f"Redone: {text}"  # above the list in the same frame (a toast came later, over the log)
        self.add_log([f"{self.fight.entries[-1].seq:>4} redone: {text}"], style="italic")
        self.refresh_view()

    # -- the GM's presets (the library) ----------------------------------------------
    def action_save_preset(self) -> None:
        library_actions.save_selected(self)

    def action_manage_presets(self) -> None:
        library_actions.manage(self)

    # -- parties, the end, leaving ----------------------------------------------------
    @property
    def parties_folder(self) -> Path:
        from saves import parties

        return parties.parties_dir(getattr(self.app, "fights_dir", None))

    def action_save_party(self) -> None:
        from saves import parties
        from screens.dialogs.base import ask
        from screens.dialogs.form import FormDialog

        if not parties.party_members(self.fight):
            self.refuse("there are no PCs in this fight to save as a party")
            return
        params = (
            C.Param(name="party", label="Party name"),
            C.Param(
                name="now",
                kind=C.BOOL,
                label="As they are now",
                default=True,
                help="yes: keep injuries, spent ammunition and wounds; no: fresh",
            ),
        )

        def check(raw: dict[str, Any]) -> tuple[Path, int]:
            name = str(raw.get("party") or "").strip()
            if not name:
                raise Refused("Party name: a value is needed")
            now = C.Param(name="now", kind=C.BOOL, default=True).parse(raw.get("now"))
            members = parties.party_members(self.fight, now=bool(now))
            return parties.save_party(name, self.system.id, members, self.parties_folder), len(members)

        def done(saved: tuple[Path, int] | None) -> None:
            if saved is not None:
                path, n = saved
                self.notify(f"{n} PC(s) saved as the party '{path.stem}'", title="Party", markup=False)

        ask(self.app, FormDialog("Save the PCs as a party", params, check, values={"now": True}), done)

    def action_load_party(self) -> None:
        from saves import parties
        from screens.dialogs.base import ask
        from screens.dialogs.pick import PickDialog

        found = parties.list_parties(self.system.id, self.parties_folder)
        if not found:
            self.refuse(f"no saved parties for {self.system.name} (save one with F5)")
            return

        def chosen(picked: tuple[Path, bool] | None) -> None:
            if picked is None:
                return
            path, fresh = picked
            try:
                todo = parties.party_commands(path, fresh=fresh)
            except TrackerError as e:
                self.refuse(str(e))
                return
            self.perform(todo)

        options: list[tuple[str, tuple[Path, bool]]] = []
        for name, path, n in found:
            if parties.keeps_now(path):
                options.append((f"{visible(name)} ({n} PC, as they were saved)", (path, False)))
                options.append((f"{visible(name)} ({n} PC, fresh)", (path, True)))
            else:
                options.append((f"{visible(name)} ({n} PC)", (path, True)))
        ask(self.app, PickDialog("Load a party", options), chosen)

    def action_end_fight(self) -> None:
        from screens.dialogs.base import ask
        from screens.dialogs.confirm import ConfirmDialog

        def answer(yes: bool | None) -> None:
            if yes:
                self.perform(C.EndFight())

        ask(self.app, ConfirmDialog("End the fight? (it stays saved; undo brings it back)"), answer)

    def action_close_fight(self) -> None:
        self.ready = False  # keys typed after this one do nothing here
        self.post_message(self.Closed())

    # -- help and the palette ----------------------------------------------------------
    def help_text(self) -> str:
        from screens import keys

        lines = []
        for b in keys.CORE:
            shown = b.key_display or b.key.split(",")[0]
            lines.append(f"  {shown:<6} {b.description}" + (f" — {b.tooltip}" if b.tooltip else ""))
        for key, name in self.system_keys.items():
            lines.append(f"  {key:<6} {self._title(name)}")
        lines += [
            "  ↑ ↓    Select a combatant (PgUp/PgDn a page, Home/End the first or the last; a click selects,",
            "         a click on the selected one: its actions)",
            "  tab    Log (then PgUp/PgDn, Home/End scroll it; tab again: the list)",
            "  ctrl+p Command palette",
            "  ctrl+t Light/dark theme",
            "  q      Quit (the fight is already saved)",
        ]
        actions = []
        for spec in call(logic.specs, self.system, default=C.CORE_SPECS, what="its actions"):
            actions.append(f"  {spec.title}: {spec.help}" if spec.help else f"  {spec.title}")
        rules = call(self.system.help, default=self.system.summary, what="its help")
        saved = f"Every action is saved as it happens to {self.save_path}" if self.save_path else ""
        return "\n".join(
            [saved, "", "Keys", *lines, "", f"Actions in {self.system.name}", *actions, "", visible_lines(rules)]
        )

    def action_help(self) -> None:
        from screens.dialogs.base import ask
        from screens.dialogs.help import HelpDialog

        ask(self.app, HelpDialog(f"Help: {self.system.name}", self.help_text()))

    def palette_entries(self) -> list[tuple[str, str, Callable[[], Any]]]:
        """Every action once: the screen's keys, then the system's actions that have no key of their own."""
        from screens import keys

        out: list[tuple[str, str, Callable[[], Any]]] = []
        seen: set[str] = set()
        for b in keys.CORE:
            if b.action in seen:
                continue
            seen.add(b.action)
            name, _, arg = b.action.partition("(")
            method = getattr(self, f"action_{name}")
            call_it = partial(method, int(arg.rstrip(")"))) if arg else method
            out.append((keys.TITLES.get(name, b.description), _key(b), call_it))
        core = {s.name for s in C.CORE_SPECS}
        for spec in call(logic.specs, self.system, default=(), what="its actions"):
            if spec.name in core:
                continue
            key = next((k for k, n in self.system_keys.items() if n == spec.name), "")
            out.append(
                (spec.title, f"key {key}" if key else (spec.help or self.system.name), partial(self.run_spec, spec))
            )
        return out


def _key(binding: Any) -> str:
    return f"key {binding.key_display or binding.key.split(',')[0]}"
