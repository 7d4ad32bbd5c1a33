"""What the players see: who is hidden from them, the view's options, the fight's name, and the players'
view served to browsers (B)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from screens import forms, logic
from screens.actions.base import ask_command, context, need_chosen, used_marks
from screens.dialogs.base import ask
from screens.dialogs.confirm import ConfirmDialog
from screens.dialogs.form import FormDialog
from screens.host import FightHost
from screens.widgets.initiative import InitiativeList
from tracker import commands as C
from tracker.errors import TrackerError

if TYPE_CHECKING:
    from screens.serve import Serving

SERVE_PARAMS = (
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


def fold_fallen(screen: FightHost) -> None:
    """Fold the fallen (out of the fight: dead, fled…; not the PCs, not whoever is up) to one line over the list,
    or show them again (F): what the GM's table shows, nothing logged."""
    table = screen.query_one(InitiativeList)
    table.fold_fallen = not table.fold_fallen
    screen.refresh_view()


def toggle_hidden(screen: FightHost) -> None:
    """Hide the chosen combatants from the players, or show them again when all of them are hidden."""
    ids = need_chosen(screen)
    if not ids:
        return
    s = screen.fight.state
    hidden = all(s.get(i).hidden for i in ids)
    screen.perform(C.Reveal(ids=ids) if hidden else C.Hide(ids=ids), lambda: used_marks(screen))


def view_options(screen: FightHost) -> None:
    ask_command(screen, forms.view_form(context(screen)))


def name_fight(screen: FightHost) -> None:
    ask_command(screen, forms.name_form(context(screen)))


def serve(screen: FightHost) -> None:
    """Serve the players' view of this fight to browsers (textual-serve); again: show the address, or stop."""
    serving = screen.serving
    if serving is not None and serving.running:

        def answer(stop: bool | None) -> None:
            if stop:
                stop_serving(screen)
                screen.notify("The players' view is no longer served.", title="Players' view")

        ask(screen.app, ConfirmDialog(f"The players' view is at {serving.url}. Stop serving it?"), answer)
        return
    if screen.save_path is None:
        screen.refuse("this fight is not saved to a file, so it cannot be shown to the players")
        return

    def check(raw: dict[str, Any]) -> tuple[str, int]:
        parsed = logic.parse_params(screen.fight.state, SERVE_PARAMS, raw)
        host = "0.0.0.0" if parsed["where"] == "the table's network" else "127.0.0.1"
        return host, int(parsed["port"])

    def chosen(picked: tuple[str, int] | None) -> None:
        if picked is not None:
            _start_serving(screen, *picked)

    ask(screen.app, FormDialog("Show the fight to the players", SERVE_PARAMS, check), chosen)


def _start_serving(screen: FightHost, host: str, port: int) -> None:
    path = screen.save_path
    assert path is not None
    screen.notify("Starting the players' view…", title="Players' view")
    app = screen.app

    def start() -> None:
        # imported here, off the UI thread, for launch figures 1 and 2 of bench/bench_speed.py (launch to the
        # first frame of a fight): screens.serve brings in aiohttp and textual-serve, about a third of a bare
        # Textual app's launch, which the fight screen needs only once the GM serves the players' view
        from screens.serve import start_serving

        try:
            serving = start_serving(path, host=host, port=port)
        except TrackerError as e:
            app.call_from_thread(screen.refuse, f"the players' view could not start: {e}")
            return
        app.call_from_thread(_served, screen, serving)

    app.run_worker(start, thread=True, exclusive=True, group="serve", name="serve")


def _served(screen: FightHost, serving: Serving) -> None:
    screen.serving = serving
    warning = f"\n{serving.warning}" if serving.warning else ""
    screen.notify(f"Players' view: {serving.url}{warning}", title="Players' view", timeout=20, markup=False)
    screen.add_log([f"Players' view served at {serving.url}"], style="italic")


def stop_serving(screen: FightHost) -> None:
    """The players' view this screen started ends (when the GM says so, or with the screen)."""
    if screen.serving is not None:
        screen.serving.stop()
        screen.serving = None
