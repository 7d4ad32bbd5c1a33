"""Party files: the fight's PCs saved as a party (F5), a saved party loaded into the fight (F6)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from saves import parties
from screens.dialogs.base import ask
from screens.dialogs.form import FormDialog
from screens.dialogs.pick import PickDialog
from screens.host import FightHost
from tracker import commands as C
from tracker.errors import Refused, TrackerError
from tracker.text import counted, visible

SAVE_PARAMS = (
    C.Param(name="party", label="Party name"),
    C.Param(
        name="now",
        kind=C.BOOL,
        label="As they are now",
        default=True,
        help="yes: keep injuries, spent ammunition and wounds; no: fresh",
    ),
    C.Param(name="replace", kind=C.BOOL, label="Replace a party of that name", default=False),
)


def parties_folder(screen: FightHost) -> Path:
    """Where party files are kept (beside the fights the app keeps)."""
    return parties.parties_dir(getattr(screen.app, "fights_dir", None))


def save_party(screen: FightHost) -> None:
    if not parties.party_members(screen.fight):
        screen.refuse("there are no PCs in this fight to save as a party")
        return

    def check(raw: dict[str, Any]) -> tuple[Path, int]:
        name = str(raw.get("party") or "").strip()
        if not name:
            raise Refused("Party name: a value is needed")
        now = C.Param(name="now", kind=C.BOOL, default=True).parse(raw.get("now"))
        replace = bool(C.Param(name="replace", kind=C.BOOL, default=False).parse(raw.get("replace")))
        members = parties.party_members(screen.fight, now=bool(now))
        folder = parties_folder(screen)
        return parties.save_party(name, screen.system.id, members, folder, replace=replace), len(members)

    def done(saved: tuple[Path, int] | None) -> None:
        if saved is not None:
            path, n = saved
            # the party's name, as F6 lists it (it named the file: "Crew (twod6)")
            listed = parties.list_parties(screen.system.id, parties_folder(screen))
            name = next((named for named, p, _n in listed if p == path), path.stem)
            screen.notify(visible(f"{counted(n, 'PC')} saved as the party '{name}'"), title="Party", markup=False)

    ask(
        screen.app,
        FormDialog("Save the PCs as a party", SAVE_PARAMS, check, values={"now": True, "replace": False}),
        done,
    )


def load_party(screen: FightHost) -> None:
    found = parties.list_parties(screen.system.id, parties_folder(screen))
    if not found:
        screen.refuse(f"no saved parties for {screen.system.name} (save one with F5)")
        return

    def chosen(picked: tuple[Path, bool] | None) -> None:
        if picked is None:
            return
        path, fresh = picked
        try:
            todo = parties.party_commands(path, fresh=fresh)
        except TrackerError as e:
            screen.refuse(str(e))
            return
        screen.perform(todo)

    options: list[tuple[str, tuple[Path, bool]]] = []
    for name, path, n in found:
        if parties.keeps_now(path):
            options.append((f"{visible(name)} ({n} PC, as they were saved)", (path, False)))
            options.append((f"{visible(name)} ({n} PC, fresh)", (path, True)))
        else:
            options.append((f"{visible(name)} ({n} PC)", (path, True)))
    ask(screen.app, PickDialog("Load a party", options), chosen)
