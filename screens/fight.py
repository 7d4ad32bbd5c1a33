"""The fight screen: setup and play of one live fight.

Before the fight starts it is the setup (add combatants from presets, a custom
sheet or a party file, roll or enter initiative, start); afterwards the same
screen runs the fight.  Every action goes through :meth:`FightScreen.perform`:
the core decides, the save writer appends and fsyncs, then the screen shows it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingsMap
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from saves import parties as party_files
from screens import logic
from screens.dialogs.add import AddDialog
from screens.dialogs.confirm import ConfirmDialog
from screens.dialogs.faces import FacesDialog
from screens.dialogs.form import FormDialog
from screens.dialogs.help import HelpDialog
from screens.dialogs.pick import PickDialog
from screens.palette import FightCommands
from screens.widgets.detail import DetailPane
from screens.widgets.initiative import InitiativeList
from screens.widgets.log import LogView
from tracker import commands as C
from tracker.dice import FacesNeeded, TypedRoller
from tracker.engine import CORE_FIELDS, Fight
from tracker.errors import Refused, TrackerError


def shorten(path: Path) -> str:
    home, text = str(Path.home()), str(path)
    return "~" + text[len(home) :] if text.startswith(home + "/") else text


def _b(key: str, action: str, description: str, show: bool = False, display: str | None = None) -> Binding:
    return Binding(key, action, description, show=show, key_display=display, id=f"fight.{action}")


class FightScreen(Screen[None]):
    CSS_PATH = Path(__file__).with_name("fight.tcss")
    COMMANDS = {FightCommands}
    BINDINGS = [
        _b("n", "next_turn", "Next", True),
        _b("plus,insert", "add", "Add", True, "+"),
        _b("x", "actions", "Act", True),
        _b("I", "roll_initiative", "Roll init", True),
        _b("E", "set_initiative", "Enter init"),
        _b("S", "start", "Start", True),
        _b("D", "delay", "Delay"),
        _b("W", "act_now", "Act now (held)"),
        _b("left_square_bracket", "move(-1)", "Move up", display="["),
        _b("right_square_bracket", "move(1)", "Move down", display="]"),
        _b("delete,minus", "remove", "Remove", display="del"),
        _b("C", "add_condition", "Condition"),
        _b("R", "remove_condition", "Clear condition"),
        _b("O", "note", "Note"),
        _b("equals_sign", "adjust", "GM adjust", display="="),
        _b("p", "resolve_prompt", "Resolve prompt"),
        _b("P", "dismiss_prompt", "Settle prompt by ruling"),
        _b("T", "toggle_dice", "Dice", True),
        _b("u,ctrl+z", "undo", "Undo", True, "u"),
        _b("U,ctrl+y", "redo", "Redo", True, "U"),
        _b("f5", "save_party", "Save party"),
        _b("f6", "load_party", "Load party"),
        _b("ctrl+e", "end_fight", "End fight"),
        _b("f1,question_mark", "help", "Help", True, "?"),
    ]
    SETUP_ONLY = {"roll_initiative", "start"}
    RESERVED = {"q", "ctrl+q", "ctrl+p", "ctrl+t", "up", "down", "enter", "tab", "escape", "home", "end"}

    def __init__(self, fight: Fight) -> None:
        super().__init__()
        self.fight = fight
        self.system = fight.system
        self.typed: TypedRoller | None = None
        self.system_keys: dict[str, str] = {}
        self._last_current: str | None = None
        self._setup_shown = True
        self._bind_system_keys()

    # -- layout ------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static("", id="bar", markup=False)
        yield Static("", id="prompts", markup=False)
        with Horizontal(id="main"):
            yield InitiativeList(self.system, id="order")
            with Vertical(id="side"):
                yield DetailPane(self.system, id="detail")
                yield Static("", id="keys", markup=False)
        yield LogView(id="log")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        keys = [f"{k} {self._title(n)}" for k, n in self.system_keys.items()]
        self.query_one("#keys", Static).update(" · ".join(keys) + ("; " if keys else "") + "x: all actions")
        if self.save_path is not None:
            self.query_one(LogView).border_subtitle = f"autosaved to {shorten(self.save_path)}"
        self.query_one(LogView).add(logic.entry_lines(self.fight, limit=logic.LOG_OPEN))
        self.refresh_view()
        self.query_one(InitiativeList).select(self.fight.state.current)
        self.query_one(InitiativeList).focus()
        for warning in getattr(self.fight, "warnings", ()):
            self.notify(warning, title="Recovered", severity="warning", timeout=10)

    def _bind_system_keys(self) -> None:
        taken = set(self.RESERVED)
        for b in self.BINDINGS:
            if isinstance(b, Binding):
                taken.update(k.strip() for k in b.key.split(","))
        for spec in self._system_specs():
            key = (spec.key or "").strip()
            if key and key not in taken and len(key) == 1 and key.isalnum():
                taken.add(key)
                self.system_keys[key] = spec.name
        self._arrange_bindings(refresh=False)

    def _arrange_bindings(self, refresh: bool = True) -> None:
        """Footer order: next turn, the system's own keys, then the rest; setup keys only in setup."""
        setup = not self.fight.state.started
        own = [
            Binding(key, f"run_command({name!r})", self._title(name), id=f"system.{name}")
            for key, name in self.system_keys.items()
        ]
        core = [
            replace(b, show=b.show and (setup or b.action not in self.SETUP_ONLY))
            for b in self.BINDINGS
            if isinstance(b, Binding)
        ]
        self._bindings = BindingsMap([core[0], *own, *core[1:]])
        self._setup_shown = setup
        if refresh:
            self.refresh_bindings()

    def _title(self, name: str) -> str:
        spec = logic.find_spec(self.system, name)
        return spec.title if spec else name

    def _system_specs(self) -> tuple[C.CommandSpec, ...]:
        try:
            return tuple(self.system.commands())
        except Exception:  # a plug-in bug: no system commands, the core still works
            return ()

    @property
    def parties_folder(self) -> Path:
        return party_files.parties_dir(getattr(self.app, "fights_dir", None))

    @property
    def save_path(self) -> Path | None:
        return getattr(self.fight, "path", None)

    def bar_text(self) -> str:
        s = self.fight.state
        if s.ended:
            phase = "the fight is over"
        elif not s.started:
            phase = "setup: + add, I roll initiative, S start"
        else:
            phase = ("surprise round" if s.round == 0 else f"round {s.round}") + f" · turn: {s.name(s.current)}"
        dice = "typed in" if self.typed else "rolled"
        return f"{self.system.name} · {phase} · dice {dice}"

    def refresh_view(self) -> None:
        s = self.fight.state
        table = self.query_one(InitiativeList)
        table.show(s)
        if s.current != self._last_current:
            table.select(s.current)
            self._last_current = s.current
        self.query_one(DetailPane).show(s, table.selected)
        self.query_one("#bar", Static).update(self.bar_text())
        prompts = self.query_one("#prompts", Static)
        if s.prompts:
            lines = [f"⚠ {p.text}" for p in s.prompts]
            lines[-1] += "   (p: resolve · P: settle by ruling)"
            prompts.update("\n".join(lines))
        prompts.display = bool(s.prompts)
        if self._setup_shown == s.started:
            self._arrange_bindings()

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        cid = event.row_key.value if event.row_key is not None else None
        self.query_one(DetailPane).show(self.fight.state, cid)

    @on(DataTable.RowSelected)
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_actions()

    # -- doing -------------------------------------------------------------
    def perform(self, command: Any, after: Callable[[], None] | None = None) -> None:
        """Do one GM action; in typed-in mode ask for faces until the decision is complete."""
        typed = self.typed
        try:
            events = self.fight.do(command, dice=typed)
        except FacesNeeded as need:
            assert typed is not None

            def faces_given(ok: bool | None) -> None:
                typed.rewind()
                if ok:
                    self.perform(command, after)
                else:
                    typed.supplied.clear()
                    self.notify("Cancelled: nothing was logged.", title="Dice")

            self.app.push_screen(FacesDialog(need.request, typed), faces_given)
            return
        except TrackerError as e:
            self._reset_typed()
            self.refuse(str(e))
            return
        except Exception as e:  # a plug-in bug: say so, keep the fight
            self._reset_typed()
            self.refuse(f"the rules failed on this action ({type(e).__name__}: {e}); nothing was logged")
            return
        self._reset_typed()
        self.show_done(events)
        if after is not None:
            after()

    def _reset_typed(self) -> None:
        if self.typed is not None:
            self.typed.supplied.clear()
            self.typed.rewind()

    def refuse(self, message: str) -> None:
        self.notify(message, title="Not done", severity="error", timeout=6)
        self.app.bell()

    def show_done(self, events: list[Any]) -> None:
        step = self.fight.last_step()
        before = step.before if step is not None else self.fight.state
        first_seq = self.fight.entries[-len(events)].seq if events else None
        lines = [
            logic.line_for(self.fight, ev, before, None if first_seq is None else first_seq + n)
            for n, ev in enumerate(events)
        ]
        self.query_one(LogView).add(lines)
        self.refresh_view()

    def probe(self, command: Any) -> Any:
        """Ask the rules whether they would refuse ``command`` (Refused shows in the form)."""
        try:
            self.fight.decide(command, dice=logic.ProbeRoller())
        except TrackerError:
            raise
        except Exception:  # unexpected trouble shows when the action is really taken
            pass
        return command

    @property
    def selected(self) -> str | None:
        return self.query_one(InitiativeList).selected

    def _need_selected(self) -> str | None:
        cid = self.selected
        if cid is None:
            self.refuse("choose a combatant in the list first (add one with +)")
        return cid

    def form(
        self,
        title: str,
        params: tuple[C.Param, ...],
        make: Callable[[dict[str, Any]], Any],
        values: dict[str, Any] | None = None,
        help: str = "",
    ) -> None:
        """A form whose result (a command) is probed before the dialog closes, then done."""
        state = self.fight.state

        def check(raw: dict[str, Any]) -> Any:
            return self.probe(make(raw))

        def done(command: Any) -> None:
            if command is not None:
                self.perform(command)

        self.app.push_screen(FormDialog(title, params, check, values=values, state=state, help=help), done)

    def run_spec(self, spec: C.CommandSpec, values: dict[str, Any] | None = None) -> None:
        state = self.fight.state
        if not spec.params:
            self.perform(spec.make({}))
            return

        def make(raw: dict[str, Any]) -> Any:
            return spec.make(logic.form_values(state, spec.params, raw))

        key = next((k for k, n in self.system_keys.items() if n == spec.name), None)
        help = spec.help + (f"  [key {key}]" if key else "")
        self.form(spec.title, spec.params, make, values or logic.prefill(spec, state, self.selected), help)

    # -- actions -----------------------------------------------------------
    def action_run_command(self, name: str) -> None:
        spec = logic.find_spec(self.system, name)
        if spec is None:
            self.refuse(f"{self.system.name} has no action '{name}'")
            return
        self.run_spec(spec)

    def action_actions(self) -> None:
        options = []
        for spec in logic.specs(self.system):
            key = next((k for k, n in self.system_keys.items() if n == spec.name), None)
            label = spec.title + (f" [{key}]" if key else "") + (f" — {spec.help}" if spec.help else "")
            options.append((label, spec.name))

        def chosen(name: str | None) -> None:
            if name:
                self.action_run_command(name)

        self.app.push_screen(PickDialog(f"Actions ({self.system.name})", options), chosen)

    def action_next_turn(self) -> None:
        self.perform(C.NextTurn())

    def action_add(self) -> None:
        def done(command: C.AddCombatant | None) -> None:
            if command is not None:
                self.perform(command)

        self.app.push_screen(AddDialog(self.system, self.probe), done)

    def action_roll_initiative(self) -> None:
        self.perform(C.RollInitiative())

    def action_set_initiative(self) -> None:
        present = self.fight.state.present
        if not present:
            self.refuse("add combatants before entering initiative")
            return
        params = tuple(C.Param(name=c.id, kind=C.INT, label=c.name, required=False) for c in present)
        values = {c.id: c.initiative for c in present}

        def make(raw: dict[str, Any]) -> C.SetInitiative:
            parsed = logic.parse_params(self.fight.state, params, raw)
            return C.SetInitiative(values={k: v for k, v in parsed.items() if v is not None})

        self.form("Enter initiative", params, make, values, "Totals rolled on real dice; empty: unchanged.")

    def action_start(self) -> None:
        if self.fight.state.started:
            self.refuse("the fight has already started")
            return
        param = C.Param(
            name="surprise", kind=C.COMBATANTS, label="Surprise round for", required=False, help="empty: no surprise"
        )

        def make(raw: dict[str, Any]) -> C.StartFight:
            parsed = logic.parse_params(self.fight.state, (param,), raw)
            return C.StartFight(surprise=tuple(parsed["surprise"] or ()))

        self.form("Start the fight", (param,), make, help="Enter starts; name who acts in a surprise round first.")

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

    def action_remove(self) -> None:
        cid = self._need_selected()
        if cid is None:
            return
        name = self.fight.state.name(cid)

        def answer(yes: bool | None) -> None:
            if yes:
                self.perform(C.RemoveCombatant(id=cid, reason="removed by the GM"))

        self.app.push_screen(ConfirmDialog(f"Remove {name} from the fight?"), answer)

    def _core_spec(self, name: str) -> C.CommandSpec:
        spec = logic.find_spec(self.system, name)
        assert spec is not None
        return spec

    def action_add_condition(self) -> None:
        cid = self._need_selected()
        if cid:
            spec = self._core_spec("add_condition")
            self.run_spec(spec, logic.prefill(spec, self.fight.state, None, {"id": cid, "ends_on": None}))

    def action_remove_condition(self) -> None:
        cid = self._need_selected()
        if cid is None:
            return
        c = self.fight.state.get(cid)
        if not c.conditions:
            self.refuse(f"{c.name} has no conditions")
            return
        spec = self._core_spec("remove_condition")
        self.run_spec(spec, {"id": cid, "name": c.conditions[0].name})

    def action_note(self) -> None:
        spec = self._core_spec("note")
        self.run_spec(spec, {"id": self.selected})

    def action_adjust(self) -> None:
        cid = self._need_selected()
        if cid is None:
            return
        s = self.fight.state
        c = s.get(cid)
        try:
            own = tuple(self.system.adjustable(s, c))
        except Exception:
            own = ()
        core = (
            C.Param(name="name", label="Name"),
            C.Param(name="group", label="Group", required=False),
            C.Param(name="initiative", kind=C.INT, label="Initiative"),
        )
        fields = [p for p in own if p.name not in CORE_FIELDS] + list(core)

        def current(p: C.Param) -> Any:
            return getattr(c, p.name) if p.name in CORE_FIELDS else getattr(c.data, p.name, None)

        options = [(f"{p.title} (now {logic.shown(current(p), s) or '-'})", p) for p in fields]

        def chosen(p: C.Param | None) -> None:
            if p is None:
                return
            note = C.Param(name="gm_note", label="Why", required=False, help="optional note for the log")
            params = (p, note)

            def make(raw: dict[str, Any]) -> C.Adjust:
                parsed = logic.parse_params(self.fight.state, params, raw)
                return C.Adjust(id=cid, field=p.name, value=parsed[p.name], note=parsed["gm_note"] or "")

            self.form(f"GM adjust: {c.name}", params, make, {p.name: current(p)})

        self.app.push_screen(PickDialog(f"Adjust which value of {c.name}?", options), chosen)

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
        s = self.fight.state
        if not s.prompts:
            self.refuse("there is no open prompt")
            return
        prompt = s.prompts[0]
        param = C.Param(name="ruling", label="Ruling", required=False, help="what the GM rules instead of the roll")

        def make(raw: dict[str, Any]) -> C.DismissPrompt:
            return C.DismissPrompt(prompt_id=prompt.id, note=str(raw.get("ruling") or "").strip())

        self.form(f"Settle by ruling: {prompt.text}", (param,), make)

    def action_toggle_dice(self) -> None:
        self.typed = None if self.typed else TypedRoller()
        self.notify("Typed-in dice: every roll asks for its faces." if self.typed else "Dice rolled by the tracker.")
        self.refresh_view()

    def action_undo(self) -> None:
        try:
            step = self.fight.undo()
        except TrackerError as e:
            self.refuse(str(e))
            return
        text = step.describe()
        self.notify(f"Undone: {text}", title="Undo")
        self.query_one(LogView).add([f"{self.fight.entries[-1].seq:>4} undone: {text}"], style="italic")
        self.refresh_view()

    def action_redo(self) -> None:
        try:
            step = self.fight.redo()
        except TrackerError as e:
            self.refuse(str(e))
            return
        text = step.describe()
        self.notify(f"Redone: {text}", title="Redo")
        self.query_one(LogView).add([f"{self.fight.entries[-1].seq:>4} redone: {text}"], style="italic")
        self.refresh_view()

    def action_save_party(self) -> None:
        members = party_files.party_members(self.fight)
        if not members:
            self.refuse("there are no PCs in this fight to save as a party")
            return
        param = C.Param(name="party", label="Party name")

        def check(raw: dict[str, Any]) -> Path:
            name = str(raw.get("party") or "").strip()
            if not name:
                raise Refused("Party name: a value is needed")
            return party_files.save_party(name, self.system.id, members, self.parties_folder)

        def done(path: Path | None) -> None:
            if path is not None:
                self.notify(f"{len(members)} PC(s) saved as the party '{path.stem}'", title="Party")

        self.app.push_screen(FormDialog("Save the PCs as a party", (param,), check), done)

    def action_load_party(self) -> None:
        parties = party_files.list_parties(self.system.id, self.parties_folder)
        if not parties:
            self.refuse(f"no saved parties for {self.system.name} (save one with F5)")
            return

        def chosen(path: Path | None) -> None:
            if path is None:
                return
            try:
                todo = party_files.party_commands(path)
            except TrackerError as e:
                self.refuse(str(e))
                return
            self._add_all(todo)

        options = [(f"{name} ({n} PC)", path) for name, path, n in parties]
        self.app.push_screen(PickDialog("Load a party", options), chosen)

    def _add_all(self, todo: list[C.AddCombatant]) -> None:
        if todo:
            self.perform(todo[0], partial(self._add_all, todo[1:]))

    def action_end_fight(self) -> None:
        def answer(yes: bool | None) -> None:
            if yes:
                self.perform(C.EndFight())

        self.app.push_screen(ConfirmDialog("End the fight? (it stays saved; undo brings it back)"), answer)

    def help_text(self) -> str:
        keys = []
        for b in self.BINDINGS:
            if isinstance(b, Binding):
                shown = b.key_display or b.key.split(",")[0]
                keys.append(f"  {shown:<6} {b.description}")
        for key, name in self.system_keys.items():
            keys.append(f"  {key:<6} {self._title(name)}")
        keys += [
            "  enter  Actions (with the selected combatant as target)",
            "  ctrl+p Command palette",
            "  ctrl+t Light/dark theme",
        ]
        keys.append("  q      Quit (the fight is already saved)")
        actions = []
        for spec in logic.specs(self.system):
            actions.append(f"  {spec.title}: {spec.help}" if spec.help else f"  {spec.title}")
        try:
            rules = self.system.help()
        except Exception:
            rules = self.system.summary
        saved = f"Every action is saved as it happens to {self.save_path}" if self.save_path else ""
        return "\n".join([saved, "", "Keys", *keys, "", f"Actions in {self.system.name}", *actions, "", rules])

    def action_help(self) -> None:
        self.app.push_screen(HelpDialog(f"Help: {self.system.name}", self.help_text()))

    def palette_entries(self) -> list[tuple[str, str, Callable[[], Any]]]:
        out: list[tuple[str, str, Callable[[], Any]]] = []
        for spec in logic.specs(self.system):
            out.append((spec.title, spec.help or f"{self.system.name} action", partial(self.run_spec, spec)))
        for b in self.BINDINGS:
            if isinstance(b, Binding):
                action = b.action
                arg = None
                if "(" in action:
                    action, rest = action.split("(", 1)
                    arg = int(rest.rstrip(")"))
                method = getattr(self, f"action_{action}")
                call = partial(method, arg) if arg is not None else method
                out.append((b.description, f"key {b.key_display or b.key.split(',')[0]}", call))
        return out
