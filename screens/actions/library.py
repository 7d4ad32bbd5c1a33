"""The GM's library from the fight screen: keep the selected combatant as a preset, rename or delete one.

The presets themselves are :mod:`saves.library`'s; the add dialog lists them first, marked "mine".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from saves import library
from screens.dialogs.base import ask
from screens.dialogs.form import FormDialog
from screens.dialogs.pick import PickDialog
from screens.host import FightHost
from tracker import commands as C
from tracker import registry
from tracker.errors import Refused, TrackerError
from tracker.text import visible


def folder(screen: FightHost) -> Path | None:
    """The fights folder the GM chose (``--save FOLDER``), beside which the library is kept."""
    return getattr(screen.app, "fights_dir", None)


def save_selected(screen: FightHost) -> None:
    """Ask a name and keep the selected combatant in the GM's library (as it is now, or fresh)."""
    cid = screen.selected
    if cid is None:
        screen.refuse("select a combatant to keep in your presets")
        return
    c = screen.fight.state.get(cid)
    params = (
        C.Param(name="name", label="Preset name", help="the name it is listed under when adding"),
        C.Param(
            name="now",
            kind=C.BOOL,
            label="As it is now",
            default=False,
            help="yes: keep its injuries, spent ammunition and wounds; no: fresh",
        ),
        C.Param(name="replace", kind=C.BOOL, label="Replace a preset of that name", default=False),
    )

    def check(raw: dict[str, Any]) -> str:
        name = str(raw.get("name") or "").strip()
        if not name:
            raise Refused("Preset name: a value is needed")
        now = bool(C.Param(name="now", kind=C.BOOL, default=False).parse(raw.get("now")))
        replace = bool(C.Param(name="replace", kind=C.BOOL, default=False).parse(raw.get("replace")))
        try:
            pid = library.save_preset(
                screen.system.id, screen.fight, cid, name, now=now, replace=replace, folder=folder(screen)
            )
        except library.PresetExists as e:  # the form names the field and the way on
            raise Refused(f"Preset name: {e} (tick 'Replace a preset of that name')") from None
        # the toast names it as the GM named it (it said the id: 'my-outlaw' for "My outlaw")
        return next((p.name for p in registry.gm_presets(screen.system.id) if p.id == pid), name)

    def done(kept: str | None) -> None:
        if kept is not None:
            screen.notify(
                visible(f"{c.name} kept in your presets as '{kept}' (A lists it first)"), title="Presets", markup=False
            )

    dialog = FormDialog(
        f"Keep {c.name} in your presets", params, check, values={"name": c.name, "now": False, "replace": False}
    )
    ask(screen.app, dialog, done)


def manage(screen: FightHost) -> None:
    """Pick one of the GM's presets, then rename or delete it."""
    sid = screen.system.id
    try:
        mine = library.presets(sid, folder(screen))
    except TrackerError as e:
        screen.refuse(str(e))
        return
    if not mine:
        screen.refuse(f"no presets of yours for {screen.system.name} yet (M keeps the selected one)")
        return
    options = [(visible(f"{p.name} ({p.kind.upper()})"), p.id) for p in mine]  # (a shared file's text: escaped)

    def picked(pid: str | None) -> None:
        if pid is None:
            return
        preset = next(p for p in mine if p.id == pid)
        params = (
            C.Param(name="name", label="New name", help="empty: keep the name", required=False),
            C.Param(
                name="delete", kind=C.BOOL, label="Delete it", default=False, help="yes: take it out of your presets"
            ),
        )

        def check(raw: dict[str, Any]) -> str:
            if C.Param(name="delete", kind=C.BOOL, default=False).parse(raw.get("delete")):
                library.delete_preset(sid, pid, folder(screen))
                return f"'{preset.name}' deleted from your presets"
            name = str(raw.get("name") or "").strip()
            if not name or name == preset.name:
                raise Refused("New name: type a new name, or say yes to delete it")
            library.rename_preset(sid, pid, name, folder(screen))
            return f"'{preset.name}' is now '{name}'"

        def done(said: str | None) -> None:
            if said is not None:
                screen.notify(visible(said), title="Presets", markup=False)

        ask(screen.app, FormDialog(f"Your preset {preset.name}", params, check, values={"name": preset.name}), done)

    ask(screen.app, PickDialog("Your presets: rename or delete", options), picked)
