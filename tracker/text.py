"""User text is data: length caps and no control characters, checked where commands are decided.

Every name, note and piece of sheet text a GM types goes through :func:`clean`
before it can reach the log, so no path skips the checks; :func:`visible`
shows any control character an older file still holds as a visible escape.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from tracker.errors import Refused

NAME_MAX = 40  # combatant, group, condition and fight names
NOTE_MAX = 1000  # a note, a reason, a ruling
TEXT_MAX = 2000  # one field of a sheet (a weapon list, talents)
SHEET_MAX = 16000  # all the text of one sheet together

# C0 and C1 controls, DEL, and the bidi overrides that can disguise text
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def clean(text: Any, what: str, limit: int = NAME_MAX, *, required: bool = False) -> str:
    """``text`` stripped, or Refused naming ``what`` when it is too long or holds control characters."""
    s = "" if text is None else str(text).strip()
    if required and not s:
        raise Refused(f"{what}: a value is needed")
    if _CONTROL.search(s):
        raise Refused(f"{what}: control characters (like Escape or a line break) are not allowed")
    if len(s) > limit:
        raise Refused(f"{what}: at most {limit} characters ({len(s)} given)")
    return s


def clean_sheet(sheet: Mapping[str, Any], what: str = "sheet") -> None:
    """Refuse a sheet whose keys or text values break the caps (values are checked, not changed)."""
    total = 0
    for key, value in sheet.items():
        clean(key, f"{what} field name", NAME_MAX)
        for text in _texts(value, 0):
            clean(text, f"{what} field '{key}'", TEXT_MAX)
            total += len(text)
    if total > SHEET_MAX:
        raise Refused(f"{what}: at most {SHEET_MAX} characters of text in all ({total} given)")


def _texts(value: Any, depth: int) -> list[str]:
    if depth > 8:
        raise Refused("the sheet is nested too deeply")
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        out = [str(k) for k in value]
        for v in value.values():
            out += _texts(v, depth + 1)
        return out
    if isinstance(value, list | tuple):
        out = []
        for v in value:
            out += _texts(v, depth + 1)
        return out
    return []


def visible(text: str) -> str:
    """``text`` with any control character shown as an escape (``\\x1b``), never passed to a terminal."""
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)
