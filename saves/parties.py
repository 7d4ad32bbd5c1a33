"""Party files: the PCs of a fight kept in a small JSON file, to add them to the next fight."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from saves.store import default_dir
from tracker import commands as C
from tracker.engine import Fight
from tracker.errors import Refused, TrackerError
from tracker.events import CombatantAdded
from tracker.model import PC


def parties_dir(fights_dir: Path | None = None) -> Path:
    """``parties/`` beside the default fights folder, or inside a folder the GM chose with ``--save FOLDER``."""
    if fights_dir is None or fights_dir == default_dir():
        return default_dir().parent / "parties"
    return fights_dir / "parties"


def _added(fight: Fight) -> dict[str, CombatantAdded]:
    out: dict[str, CombatantAdded] = {}
    for e in fight.entries:
        if isinstance(e.event, CombatantAdded):
            out[e.event.id] = e.event
    return out


def party_members(fight: Fight) -> list[dict[str, Any]]:
    """The PCs in the fight as they were added (name, group, checked sheet)."""
    added = _added(fight)
    out = []
    for c in fight.state.present:
        if c.kind != PC:
            continue
        ev = added.get(c.id)
        sheet = dict(ev.sheet) if ev else {}
        out.append({"name": c.name, "kind": c.kind, "group": c.group, "sheet": _jsonable(sheet)})
    return out


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def save_party(name: str, system_id: str, members: list[dict[str, Any]], folder: Path | None = None) -> Path:
    clean = re.sub(r"[^\w\- ]+", "", name).strip()
    if not clean:
        raise Refused("a party needs a name made of letters or digits")
    if not members:
        raise Refused("there are no PCs in this fight to save as a party")
    target = (folder or parties_dir()) / f"{clean}.json"
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(".json.tmp")
        tmp.write_text(json.dumps({"name": clean, "system": system_id, "members": members}, indent=2), "utf-8")
        tmp.replace(target)
    except OSError as e:
        raise TrackerError(f"cannot save the party to {target}: {e.strerror or e}") from None
    return target


def list_parties(system_id: str, folder: Path | None = None) -> list[tuple[str, Path, int]]:
    """(name, path, number of members) for the parties of this system."""
    base = folder or parties_dir()
    if not base.is_dir():
        return []
    out = []
    for p in sorted(base.glob("*.json")):
        try:
            data = json.loads(p.read_text("utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and data.get("system") == system_id:
            out.append((str(data.get("name") or p.stem), p, len(data.get("members") or ())))
    return out


def party_commands(path: Path) -> list[C.AddCombatant]:
    try:
        data = json.loads(path.read_text("utf-8"))
        members = data["members"]
        return [
            C.AddCombatant(
                name=str(m["name"]),
                kind=str(m.get("kind") or PC),
                group=m.get("group"),
                sheet=dict(m.get("sheet") or {}),
            )
            for m in members
        ]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise TrackerError(f"cannot read the party file {path.name}: {e}") from None
