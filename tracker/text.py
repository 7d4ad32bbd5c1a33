"""User text is data: length caps and no control characters, checked where commands are decided.

Every name, note and piece of sheet text a GM types goes through :func:`clean`
before it can reach the log, so no path skips the checks; :func:`visible`
shows any control character an older file still holds as a visible escape.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from tracker.errors import Refused

NAME_MAX = 40  # combatant, group, condition and fight names
NOTE_MAX = 1000  # a note, a reason, a ruling
TEXT_MAX = 2000  # one field of a sheet (a weapon list, talents)
SHEET_MAX = 16000  # all the text of one sheet together

# C0 and C1 controls, DEL, and the bidi overrides that can disguise text: a set and a translation table, not a
# regular expression (compiling that character class, for its code points up to U+2069, was 0.45 ms of every
# launch; issue #13)
CONTROLS = frozenset(
    chr(c)
    for c in (
        *range(0x00, 0x20),
        *range(0x7F, 0xA0),
        *range(0x202A, 0x202F),
        *range(0x2066, 0x206A),
        # the line and paragraph separators break a line where Python and Textual split lines (a name holding one
        # broke the log's "Order:" line and shifted its border); the bidi marks and the zero-width no-break space
        # move or hide the text around them
        0x2028,
        0x2029,
        0x200E,
        0x200F,
        0x061C,
        0xFEFF,
    )
)
# each as Python's "unicode_escape" codec writes it (\t, \x1b, \u202e), without importing the codec
_ESCAPES = {
    ord(ch): {"\t": "\\t", "\n": "\\n", "\r": "\\r"}.get(ch)
    or (f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}")
    for ch in CONTROLS
}


def whole_number(text: str) -> int:
    """``text`` as a whole number: an optional sign and the digits 0-9, with spaces around.  ValueError for
    anything else: Python's ``int()`` also reads ``1_0`` as 10 and other scripts' digits (``٤`` as 4), numbers a
    GM never typed."""
    s = text.strip()
    body = s[1:] if s[:1] in "+-" else s
    if not (body and body.isascii() and body.isdigit()):
        raise ValueError(f"not a whole number: {text!r}")
    return int(s)


# characters that show nothing and mean nothing in one line of a name or a note: the zero-width space, the word
# joiner and the invisible operators, the soft hyphen, the combining grapheme joiner, the Mongolian vowel separator
INVISIBLE = frozenset("\u00ad\u034f\u180e\u200b\u2060\u2061\u2062\u2063\u2064")
# characters that show as a blank but are not whitespace to Python: the Hangul fillers and the blank Braille cell
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
_TIDY = {ord(ch): None for ch in INVISIBLE} | {ord(ch): " " for ch in BLANKS}
# and, for telling names apart only, the joiners and variation selectors (kept in the text: they shape emoji and
# scripts, but "Bandit 1" with a zero-width joiner after it looks like "Bandit 1")
_UNSEEN = {ord(ch): None for ch in ("\u200c", "\u200d", *map(chr, range(0xFE00, 0xFE10)))}


def clean(text: Any, what: str, limit: int = NAME_MAX, *, required: bool = False) -> str:
    """``text`` stripped, or Refused naming ``what`` when it is too long or holds control characters.

    Ruling: text is kept as it shows, so two names cannot look the same and differ: every run of whitespace
    (two spaces, a no-break space, an ideographic space) is one space, and characters that show nothing (a
    zero-width space, a word joiner, a soft hyphen; :data:`INVISIBLE`) are dropped ("Bandit\u00a0 1\u200b" is
    "Bandit 1"); see :func:`name_key` for how names are compared
    (tests/core/test_gm2_fixes.py::test_names_that_only_look_the_same_are_refused).
    """
    s = "" if text is None else str(text).strip()
    if not CONTROLS.isdisjoint(s):
        raise Refused(f"{what}: control characters (like Escape or a line break) are not allowed")
    s = " ".join(s.translate(_TIDY).split())
    if required and not s:
        raise Refused(f"{what}: a value is needed")
    if len(s) > limit:
        raise Refused(f"{what}: at most {limit} characters ({len(s)} given)")
    return s


def name_key(text: str) -> str:
    """What two names are compared by: names with the same key look the same to a GM or a player reading the log.

    Compatibility forms folded (NFKC: a fullwidth "Ｂ" is "B", "ﬁ" is "fi"), invisible characters and joiners
    dropped, whitespace runs made one space, case folded ("Bandit 1", "BANDIT\u00a0 1", "bandit 1\u200d" share
    one key).
    """
    folded = unicodedata.normalize("NFKC", text).translate(_TIDY).translate(_UNSEEN)
    # and every other character of no look of its own (format characters: tag characters, bidi marks…)
    seen = "".join(ch for ch in folded if unicodedata.category(ch) != "Cf")
    return " ".join(seen.split()).casefold()


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
    return text if CONTROLS.isdisjoint(text) else text.translate(_ESCAPES)


# ---------------------------------------------------------------------------
# linear scans for the sheet parsers
#
# The plug-ins' sheet patterns used to be regular expressions with a lazy head,
# like ``^(.*?)\s*(-?\d+)$``: on hostile text (thousands of spaces, digits or
# parentheses) the engine retries the tail from every position, which takes
# seconds. These helpers compute the same match by looking at the text from
# its end. They keep the regex module's meanings exactly: ``\d`` is
# ``str.isdecimal``, ``\s`` is ``str.isspace``, ``.`` is anything but a line
# break, and ``$`` matches at the end or before a line break that ends the text
# (tests/core/test_linear_parsing.py checks them against the old patterns).


def digits_start(text: str, end: int) -> int:
    """Where the run of decimal digits (``\\d``) that ends at ``end`` starts (``end`` when there is none)."""
    i = end
    while i > 0 and text[i - 1].isdecimal():
        i -= 1
    return i


def digits_end(text: str, start: int) -> int:
    """Where the run of decimal digits (``\\d``) that starts at ``start`` ends (``start`` when there is none)."""
    i, n = start, len(text)
    while i < n and text[i].isdecimal():
        i += 1
    return i


def spaces_start(text: str, end: int) -> int:
    """Where the run of whitespace (``\\s``) that ends at ``end`` starts (``end`` when there is none)."""
    i = end
    while i > 0 and text[i - 1].isspace():
        i -= 1
    return i


def spaces_end(text: str, start: int) -> int:
    """Where the run of whitespace (``\\s``) that starts at ``start`` ends (``start`` when there is none)."""
    i, n = start, len(text)
    while i < n and text[i].isspace():
        i += 1
    return i


def line_end(text: str) -> int:
    """The last place ``$`` matches: before a line break that ends the text, else the end."""
    return len(text) - 1 if text.endswith("\n") else len(text)


def lazy_head(text: str, tail: int) -> str | None:
    """What ``^(.*?)\\s*`` takes in front of a tail that cannot start with whitespace.

    ``tail`` is the first position from which the rest of the pattern matches.
    The lazy head stops at the whitespace before it; None when the head would
    hold a line break (``.`` does not match one, so the pattern does not match).
    """
    head = text[: spaces_start(text, tail)]
    return None if "\n" in head else head


def head_and_number(
    text: str, *, signs: str = "-", sign_required: bool = False, plus: bool = False, end: int | None = None
) -> tuple[str, str] | None:
    """A name and the number after it, in linear time: the groups of

    - ``re.match(r"^(.*?)\\s*(-?\\d+)$", text)`` by default,
    - ``^(.*?)\\s*\\+?(-?\\d+)$`` with ``plus=True``,
    - ``^(.*?)\\s*([+-]\\d+)$`` with ``signs="+-", sign_required=True``,
    - ``^(.*?)\\s*(-\\d+)$`` with ``sign_required=True``;

    None where the pattern does not match. ``end`` (default :func:`line_end`)
    is where the digits must end, for a pattern with more after them.
    """
    stop = line_end(text) if end is None else end
    first = digits_start(text, stop)
    if first == stop:
        return None
    start = first
    if first > 0 and text[first - 1] in signs:
        start = first - 1
    elif sign_required:
        return None
    tail = start - 1 if plus and start > 0 and text[start - 1] == "+" else start
    head = lazy_head(text, tail)
    return None if head is None else (head, text[start:stop])


def visible_lines(text: str) -> str:
    """Multi-line text with any other control character shown as an escape (line breaks kept)."""
    return "\n".join(visible(line) for line in str(text).split("\n"))


def counted(n: int, one: str, many: str | None = None) -> str:
    """``n`` and the word for that many: "1 shot", "2 shots", "3 sixes" (lines said "1 shot(s)", "1 six(es)")."""
    return f"{n} {one if n == 1 else (many or one + 's')}"
