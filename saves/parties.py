"""Party files: the PCs of a fight kept in a small JSON file, to add them to the next fight.

They are private like fights: the file 0600, its folder 0700 (made so, or
made private again, when a party is saved).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from pathlib import Path
from typing import Any

from saves.files import DIR_MODE, default_dir, make_private_dir, read_small, write_whole
from tracker import commands as C
from tracker.engine import CORE_FIELDS
from tracker.errors import Refused, TrackerError
from tracker.events import CombatantAdded
from tracker.fight import Fight
from tracker.model import PC, Combatant


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


def party_members(fight: Fight, now: bool = False) -> list[dict[str, Any]]:
    """The PCs in the fight as they were added (name, group, checked sheet).

    With ``now``, each member also keeps the GM-adjustable values in which it
    differs from a fresh combatant of the same sheet (HP lost, injuries, spent
    lead, wounds…): loading the party applies them as GM adjustments, through
    the rules' own checks.  Only values an adjustment can set are kept, and
    only those a fresh combatant accepts in turn.

    Ruling: a PC the GM made one in the fight (an NPC turned PC with ``=``) is kept with the kind its sheet was
    added as and ``"became": "pc"``, the kind change made again as it is loaded, fresh or not, before its other
    values; loaded as a PC from the NPC's sheet it was another character (bnb: a Shootist of level 1, not the
    2 HD hireling).  A file without "became" loads as before (tests/core/test_party_kind.py
    ``test_an_npc_made_a_pc_comes_back_from_a_party_the_same``).
    """
    added = _added(fight)
    out = []
    for c in fight.state.present:
        if c.kind != PC:
            continue
        ev = added.get(c.id)
        sheet = dict(ev.sheet) if ev else {}
        kind = ev.kind if ev is not None else c.kind
        member: dict[str, Any] = {"name": c.name, "kind": kind, "group": c.group, "sheet": _jsonable(sheet)}
        if kind != c.kind:
            member["became"] = c.kind
        if now:
            member["now"] = now_values(fight, c, sheet, kind=kind)
        out.append(member)
    return out


def now_values(fight: Fight, c: Combatant, sheet: dict[str, Any], *, kind: str | None = None) -> dict[str, Any]:
    """The adjustments that bring a fresh combatant from ``sheet`` to ``c``'s present values, in the order they
    are to be applied.  One value's adjustment may move another (bnb: temporary damage set after the HP took HP
    off again, and a Shootist kept with 2 temporary damage came back dying), so they are replayed until every
    value holds, a value set again going to the end of the order.

    ``kind``: the kind the sheet was added as, when the GM changed it since (the fresh one is added so, then
    made ``c``'s kind, as loading does); by default ``c``'s own."""
    system = fight.system
    scratch = Fight(system)
    try:
        scratch.do(C.AddCombatant(name=c.name, kind=kind or c.kind, sheet=sheet))
        fresh_id = scratch.state.combatants[0].id
        if scratch.state.get(fresh_id).kind != c.kind:
            scratch.do(C.Adjust(id=fresh_id, field="kind", value=c.kind))
    except TrackerError:
        return {}
    kept: dict[str, Any] = {}
    fight_only = set(getattr(system, "fight_only", ()))
    fields = [p.name for p in system.adjustable(fight.state, c) if p.name not in {*CORE_FIELDS, *fight_only}]
    for _ in range(len(fields) + 1):  # (each pass sets at least one value for good, or stops)
        moved = False
        for name in fields:
            value = getattr(c.data, name, None)
            if value is None or value == getattr(scratch.state.get(fresh_id).data, name, None):
                continue
            for shape in (_jsonable(value), _as_text(value)):
                try:
                    scratch.do(C.Adjust(id=fresh_id, field=name, value=shape, restore=True))  # (as loading does)
                except (TrackerError, TypeError, ValueError):
                    continue
                kept.pop(name, None)  # (set again: after the values set since)
                kept[name] = shape
                moved = True
                break
        if not moved:
            break
    return kept


def _as_text(value: Any) -> str:
    """A value as a GM would type it into the adjust form (a list as its items, comma separated)."""
    if isinstance(value, list | tuple):
        return ", ".join(_as_text(v) for v in value)
    return str(value)


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def save_party(
    name: str, system_id: str, members: list[dict[str, Any]], folder: Path | None = None, *, replace: bool = False
) -> Path:
    """Write the party; a party of this system with the same name (in any case) is replaced only when asked (F5
    replaced a party without a word, and a party of another system of that name too: the file was the name)."""
    clean = re.sub(r"[^\w\- ]+", "", name).strip()
    if not clean:
        raise Refused("a party needs a name made of letters or digits")
    if not members:
        raise Refused("there are no PCs in this fight to save as a party")
    base = folder or parties_dir()
    same = next(
        (path for named, path, _n in list_parties(system_id, base) if named.casefold() == clean.casefold()), None
    )
    if same is not None and not replace:
        raise Refused(f"there is already a party called '{same.stem}': tick Replace to save over it")
    target = same or _free_path(base, clean, system_id)
    data = json.dumps({"name": clean, "system": system_id, "members": members}, indent=2).encode("utf-8")
    try:
        make_private_dir(target.parent)
        with contextlib.suppress(OSError):  # a folder an older tracker made 0755: private now, like fights'
            os.chmod(target.parent, DIR_MODE)
        write_whole(target, data, replace=True)
    except OSError as e:
        raise TrackerError(f"cannot save the party to {target}: {e.strerror or e}") from None
    return target


def _free_path(base: Path, clean: str, system_id: str) -> Path:
    """A file name no party has: the name, else the name and the system (another system's party of that name
    keeps its file), else a number after them."""
    taken = {p.name.casefold() for p in base.glob("*.json")} if base.is_dir() else set()
    for stem in (clean, f"{clean} ({system_id})", *(f"{clean} ({system_id}) {n}" for n in range(2, 1000))):
        if f"{stem}.json".casefold() not in taken:
            return base / f"{stem}.json"
    raise Refused(f"too many parties called '{clean}'")


def list_parties(system_id: str, folder: Path | None = None) -> list[tuple[str, Path, int]]:
    """(name, path, number of members) for the parties of this system."""
    base = folder or parties_dir()
    if not base.is_dir():
        return []
    out = []
    for p in sorted(base.glob("*.json")):
        try:
            data = json.loads(read_small(p, PARTY_MAX + 1).decode("utf-8"))
        except (OSError, ValueError, RecursionError):
            continue
        if isinstance(data, dict) and data.get("system") == system_id:
            out.append((str(data.get("name") or p.stem), p, len(data.get("members") or ())))
    return out


PARTY_MAX = 1 << 20  # bytes: a party file is a handful of sheets


def party_commands(path: Path, fresh: bool = False) -> list[Any]:
    """The commands that add the party: each member from its sheet, then (a party kept "as it was") the GM
    adjustments that bring it back to how it was saved.  Loaded as one GM action, one undo."""
    try:
        raw = read_small(path, PARTY_MAX + 1)
        if len(raw) > PARTY_MAX:
            raise ValueError("too large for a party file")
        data = json.loads(raw.decode("utf-8"))
        members = data["members"]
        out: list[Any] = []
        for m in members:
            name = str(m["name"])
            out.append(
                C.AddCombatant(
                    name=name, kind=str(m.get("kind") or PC), group=m.get("group"), sheet=dict(m.get("sheet") or {})
                )
            )
            became = m.get("became")
            if became is not None:  # (a kind the GM gave it in a fight: made again, fresh or not)
                out.append(C.Adjust(id=name, field="kind", value=str(became), note="as the party was saved"))
            if not fresh:
                now = dict(m.get("now") or {}).items()
                out += [
                    C.Adjust(id=name, field=str(k), value=v, note="as the party was saved", restore=True)
                    for k, v in now
                ]
        return out
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as e:
        raise TrackerError(f"cannot read the party file {path.name}: {e}") from None


def keeps_now(path: Path) -> bool:
    """Whether a party file keeps its members as they were (injuries, lead, wounds), not fresh."""
    try:
        data = json.loads(read_small(path, PARTY_MAX).decode("utf-8"))
        return any(m.get("now") for m in data["members"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return False
