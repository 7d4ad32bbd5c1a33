"""The GM's library: their own presets per system (the gang boss, the hireling, a custom PC), kept between fights.

One human-readable JSON file per system, ``library/<system id>.json`` beside the fights folder (or inside a
folder the GM chose with ``--save FOLDER``), private like fights (0600 in a 0700 folder)::

    {
      "library": "gm-combat-tracker presets",
      "system": "bnb",
      "presets": [
        {"id": "my:gang-boss", "name": "Gang boss", "kind": "npc", "sheet": {"level": 3, "hp": 14}}
      ]
    }

A GM may back it up, edit it and share it.  A file that does not parse, or that names a field this version does
not know, is reported with its line and skipped (the book's presets still work); it is rewritten only by the
GM's own action (saving, renaming or deleting a preset), and never while it is damaged.

:func:`presets` hands the presets to the core (:func:`tracker.registry.use_presets`), so
``AddCombatant(preset="my:gang-boss", count=3)`` adds them in any fight, exactly like a book preset.

The conditions the GM typed before in a system are kept beside it (``<system id>-conditions.txt``, one per
line) for the condition form's suggestions.
"""

from __future__ import annotations

import json
import os
import re
import stat
import unicodedata
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from saves.files import FILE_MODE, default_dir, make_private_dir, read_small, write_whole
from saves.parties import now_values
from tracker import Fight, registry
from tracker.errors import Refused, TrackerError
from tracker.events import CombatantAdded
from tracker.model import KINDS, NPC
from tracker.plugin import Preset
from tracker.text import NAME_MAX, clean, visible

MARK = "gm-combat-tracker presets"
LIBRARY_MAX = 2_000_000
CONDITIONS_KEPT = 200
_TOP = frozenset({"library", "system", "presets"})
_ENTRY = frozenset({"id", "name", "kind", "sheet", "summary", "category", "now"})


class LibraryError(TrackerError):
    """The GM's library file cannot be used as it is: says which file and which line."""


def library_dir(fights_dir: Path | None = None) -> Path:
    """``library/`` beside the default fights folder, or inside a folder the GM chose with ``--save FOLDER``."""
    if fights_dir is None or fights_dir == default_dir():
        return default_dir().parent / "library"
    return fights_dir / "library"


def library_file(system_id: str, folder: Path | None = None) -> Path:
    return library_dir(folder) / f"{system_id}.json"


def _line_of(text: str, key: str, start: int = 0) -> int:
    """The line of the first ``"key":`` in ``text`` from ``start`` (the line of ``start`` when not found)."""
    m = re.compile(rf'"{re.escape(key)}"\s*:').search(text, start)
    return text.count("\n", 0, m.start() if m else start) + 1


def _preset_starts(text: str) -> list[int]:
    """Where each preset's object begins in ``text`` (a fault in preset 3 was named at the first "id" of the file,
    preset 1's line); empty if they cannot be told apart."""
    m = re.search(r'"presets"\s*:\s*\[', text)
    if m is None:
        return []
    decoder = json.JSONDecoder()
    starts: list[int] = []
    i = m.end()
    try:
        while True:
            while i < len(text) and text[i] in " \t\r\n,":
                i += 1
            if i >= len(text) or text[i] == "]":
                return starts
            starts.append(i)
            _obj, i = decoder.raw_decode(text, i)
    except (ValueError, RecursionError):
        return []


def _read(system_id: str, folder: Path | None) -> list[dict[str, Any]]:
    """The presets of the file as dicts (none when there is no file); LibraryError names the line of a fault."""
    path = library_file(system_id, folder)
    if not path.exists():
        return []
    where = f"the library file {path}"
    try:
        raw = read_small(path, LIBRARY_MAX + 1)
    except IsADirectoryError:
        raise LibraryError(f"{where} is not a regular file") from None
    except OSError as e:
        raise LibraryError(f"cannot read {where}: {e.strerror or e}") from None
    if len(raw) > LIBRARY_MAX:
        raise LibraryError(f"{where} is larger than {LIBRARY_MAX:,} bytes")
    try:
        text = raw.decode("utf-8")
        data = json.loads(text)
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        raise LibraryError(f"{where}, line {line}: not UTF-8 text") from None
    except json.JSONDecodeError as e:
        raise LibraryError(f"{where}, line {e.lineno}: {e.msg}") from None
    except RecursionError:
        raise LibraryError(f"{where}: nested too deeply") from None
    if not isinstance(data, dict) or not isinstance(data.get("presets"), list):
        raise LibraryError(f'{where}, line 1: not a library of presets (no "presets" list)')
    for key in data:
        if key not in _TOP:
            raise LibraryError(f'{where}, line {_line_of(text, key)}: unknown field "{visible(key)}"')
    if data.get("system", system_id) != system_id:
        raise LibraryError(
            f'{where}, line {_line_of(text, "system")}: the presets of "{visible(str(data["system"]))}", '
            f"not {system_id}"
        )
    out: list[dict[str, Any]] = []
    starts = _preset_starts(text)
    for n, entry in enumerate(data["presets"], 1):
        start = starts[n - 1] if len(starts) == len(data["presets"]) else 0
        if not isinstance(entry, dict):
            raise LibraryError(f"{where}: preset {n} is not an object")
        for key in entry:
            if key not in _ENTRY:
                line = _line_of(text, key, start)
                raise LibraryError(f'{where}, line {line}: unknown field "{visible(key)}" in preset {n}')
        name, pid, sheet = entry.get("name"), entry.get("id"), entry.get("sheet", {})
        if not isinstance(name, str) or not name.strip():
            raise LibraryError(f"{where}: preset {n} has no name")
        try:
            clean(name, "Name", NAME_MAX)
        except Refused as e:  # (said with neither file nor line: "Name: control characters … are not allowed")
            raise LibraryError(f"{where}, line {_line_of(text, 'name', start)}: preset {n}'s {e}") from None
        if not isinstance(pid, str) or not pid.startswith("my:"):
            line = _line_of(text, "id", start)
            raise LibraryError(f'{where}, line {line}: preset {n}\'s id must start with "my:"')
        if not isinstance(sheet, dict):
            raise LibraryError(f"{where}: preset {n}'s sheet is not an object")
        if not isinstance(entry.get("now", {}), dict):
            line = _line_of(text, "now", start)
            raise LibraryError(f'{where}, line {line}: preset {n}\'s "now" is not an object')
        if entry.get("kind", NPC) not in KINDS:
            raise LibraryError(f"{where}: preset {n}'s kind must be one of {', '.join(KINDS)}")
        out.append(entry)
    return out


def _preset(entry: Mapping[str, Any]) -> Preset:
    """A preset of the file.

    Ruling: a library file may come from another GM, so every text of it is hostile: its name is refused with
    control characters (:func:`_read`), and its summary and category, shown as they are written, keep any control
    character shown as an escape (``\\x1b``: :func:`tracker.text.visible`), as names in fight files are; an
    Escape in them retitled the terminal and misdrew the add dialog.  The file is not changed; an unknown field
    or a foreign system quoted in a "damaged library" message is shown the same way
    (tests/reliability/test_library_hostile.py)."""
    return Preset(
        id=str(entry["id"]),
        name=clean(str(entry["name"]), "Name", NAME_MAX),
        sheet=dict(entry.get("sheet") or {}),
        kind=str(entry.get("kind") or NPC),
        summary=visible(str(entry.get("summary") or "")),
        category=visible(str(entry.get("category") or "")) or "mine",
        now=dict(entry.get("now") or {}),
    )


def presets(system_id: str, folder: Path | None = None) -> tuple[Preset, ...]:
    """The GM's presets of a system, handed to the core so ``AddCombatant(preset=id)`` finds them.

    A damaged file raises :class:`LibraryError` (naming the file and line); the core then has none of the GM's
    presets for the system, and the book's still work."""
    try:
        found = tuple(_preset(e) for e in _read(system_id, folder))
    except (LibraryError, Refused):
        registry.use_presets(system_id, ())
        raise
    registry.use_presets(system_id, found)
    return found


def _slug(name: str) -> str:
    """The name in an id: its letters, marks and digits in lower case, any other run of characters a dash.

    Ruling: a name of other letters than Latin keeps them ("Гоблин" is ``my:гоблин``); every such name was
    ``my:preset``, and the second one clashed with the first (tests/core/test_library_ids.py
    ``test_names_in_other_letters_are_different_presets``)."""
    text = unicodedata.normalize("NFC", name).lower()
    kept = "".join(ch if unicodedata.category(ch)[0] in "LMN" else "-" for ch in text)
    return re.sub(r"-+", "-", kept).strip("-") or "preset"


def _free_id(name: str, entries: Iterable[Mapping[str, Any]]) -> str:
    """``my:<slug>`` when no preset has it (as its id, or as its name), else ``my:<slug>-2``, ``-3``…

    Ruling: a preset's id is its own for good: a renamed preset keeps it, and a new preset whose name slugs the
    same gets the next free one, never the renamed one's (tests/core/test_library_ids.py
    ``test_a_new_preset_of_a_renamed_ones_old_name_is_another_preset``)."""
    taken = {str(e[key]).casefold() for e in entries for key in ("id", "name")}
    base = f"my:{_slug(name)}"
    for pid in (base, *(f"{base}-{n}" for n in range(2, 10_000))):
        if pid.casefold() not in taken:
            return pid
    raise Refused(f"too many presets called '{name}'")


def _write(system_id: str, entries: Iterable[Mapping[str, Any]], folder: Path | None) -> None:
    path = library_file(system_id, folder)
    make_private_dir(path.parent)
    body = {"library": MARK, "system": system_id, "presets": list(entries)}
    text = json.dumps(body, indent=2, ensure_ascii=False, default=str) + "\n"
    try:
        write_whole(path, text.encode("utf-8"), replace=True)  # (a FIFO or a symlink beside it is never used)
    except OSError as e:
        raise LibraryError(f"cannot save the library file {path}: {e.strerror or e}") from None


class PresetExists(Refused):
    """The GM's library has a preset of that name already (:func:`save_preset` replaces it only when told to)."""


def save_preset(
    system_id: str,
    fight: Fight,
    combatant_id: str,
    name: str,
    *,
    now: bool = False,
    replace: bool = False,
    folder: Path | None = None,
) -> str:
    """Keep a combatant of ``fight`` in the GM's library under ``name``; returns its preset id (``my:<name>``).

    Its sheet as it was given (``CombatantAdded.given``: what the rules rolled as it was added left to roll again,
    each one added from it rolling anew; a fight written before the event kept it gives the checked sheet); with
    ``now``, the sheet as checked (what was rolled kept) and the GM-adjustable values in which it differs from a
    fresh one (HP lost, injuries, spent lead…), applied again to each one added from the preset — the same
    choice as a party file's.  A preset of the same name (in any case) is refused, unless ``replace``: it is
    then replaced where it stands, under its own id (it was replaced without a word, and the GM's kept preset
    lost).  Refused on a damaged library file: it is never rewritten until the GM mends it.

    Ruling: a preset kept "fresh" is the sheet as the GM or the book gave it: each one added from it rolls what the
    book rolls for it (bnb: its HP from its Hit Dice); a wolf kept fresh gave every copy the first wolf's HP
    (tests/core/test_library_ids.py ``test_a_fresh_preset_rolls_again_for_each_one_added``).

    Ruling: only a preset of the same *name* is replaced; one renamed since, whose id the new name would slug
    to, is another preset and stays (tests/core/test_library_ids.py
    ``test_a_new_preset_of_a_renamed_ones_old_name_is_another_preset``).

    Ruling: a combatant whose kind the GM changed (an NPC made a PC) is kept with the kind its sheet was added
    as, and the change made again after it is added, first of its kept values: the NPC's sheet read as a PC's
    was another character (tests/core/test_library_ids.py ``test_an_npc_made_a_pc_comes_back_the_same``).
    """
    name = clean(name, "Name", NAME_MAX)
    if not name:
        raise Refused("a preset needs a name")
    c = fight.state.get(combatant_id)
    added = next((e.event for e in fight.entries if isinstance(e.event, CombatantAdded) and e.event.id == c.id), None)
    if added is None:
        raise Refused(f"{c.name}'s sheet is not in this fight's log")
    # fresh: the sheet as it was given (each one added from it rolls again); as it is now: as the rules made it
    given = added.given if added.given is not None and not now else added.sheet
    sheet = json.loads(json.dumps(dict(given), default=str))
    entries = _read(system_id, folder)
    taken = next((e for e in entries if str(e["name"]).casefold() == name.casefold()), None)
    if taken is not None and not replace:
        raise PresetExists(f"you already have a preset called '{taken['name']}': give another name, or replace it")
    others = [e for e in entries if e is not taken]
    pid = str(taken["id"]) if taken is not None else _free_id(name, others)
    entry: dict[str, Any] = {"id": pid, "name": name, "kind": added.kind, "sheet": sheet}
    kept_now: dict[str, Any] = {} if c.kind == added.kind else {"kind": c.kind}
    if now:
        kept_now.update(now_values(fight, c, sheet, kind=added.kind))
    if kept_now:
        entry["now"] = kept_now
    if taken is None:
        _write(system_id, [*entries, entry], folder)
    else:
        _write(system_id, [entry if e is taken else e for e in entries], folder)
    presets(system_id, folder)
    return pid


def _find(entries: list[dict[str, Any]], preset_id: str) -> dict[str, Any]:
    """The preset of this id, else of this name (any case): an id is looked for first, since another preset
    may be named like it."""
    key = preset_id.strip().casefold()
    for field in ("id", "name"):
        for e in entries:
            if str(e[field]).casefold() == key:
                return e
    raise Refused(f"no preset of yours called '{preset_id}'")


def rename_preset(system_id: str, preset_id: str, name: str, folder: Path | None = None) -> None:
    """Give one of the GM's presets another name (its id stays, so nothing that names it breaks)."""
    name = clean(name, "Name", NAME_MAX)
    if not name:
        raise Refused("a preset needs a name")
    entries = _read(system_id, folder)
    entry = _find(entries, preset_id)
    if any(e is not entry and str(e["name"]).casefold() == name.casefold() for e in entries):
        raise Refused(f"you already have a preset called '{name}'")
    entry["name"] = name
    _write(system_id, entries, folder)
    presets(system_id, folder)


def delete_preset(system_id: str, preset_id: str, folder: Path | None = None) -> None:
    """Take one of the GM's presets out of the library."""
    entries = _read(system_id, folder)
    entry = _find(entries, preset_id)
    _write(system_id, [e for e in entries if e is not entry], folder)
    presets(system_id, folder)


# -- conditions typed before ------------------------------------------------------------------------------------


def _conditions_file(system_id: str, folder: Path | None) -> Path:
    return library_dir(folder) / f"{system_id}-conditions.txt"


def typed_conditions(system_id: str, folder: Path | None = None) -> list[str]:
    """The conditions the GM typed before in this system, latest first (none if the file cannot be read)."""
    try:
        lines = read_small(_conditions_file(system_id, folder), LIBRARY_MAX).decode("utf-8", "replace").splitlines()
    except OSError:
        return []
    names = []
    for line in reversed(lines):
        try:  # a line the GM could not have typed (too long, NUL bytes a power cut left) is left out, never fatal
            names.append(clean(line, "Condition", NAME_MAX))
        except Refused:
            continue
    return list(dict.fromkeys(n for n in names if n))[:CONDITIONS_KEPT]


def remember_condition(system_id: str, name: str, folder: Path | None = None) -> None:
    """Note a condition the GM typed, for the next condition form (best effort: never stops the fight)."""
    name = " ".join(name.split())
    if not name or name in typed_conditions(system_id, folder)[:20]:
        return
    path = _conditions_file(system_id, folder)
    try:
        make_private_dir(path.parent)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NONBLOCK | os.O_CLOEXEC, FILE_MODE)
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # (a FIFO there blocked the app)
            os.close(fd)
            return
        with os.fdopen(fd, "a", encoding="utf-8") as f:
            f.write(name.replace("\n", " ") + "\n")
    except OSError:
        pass


__all__ = [
    "LibraryError",
    "delete_preset",
    "library_dir",
    "library_file",
    "presets",
    "remember_condition",
    "rename_preset",
    "save_preset",
    "typed_conditions",
]
