"""Blackjack sheets: typed as short text the GM can read, checked, and made into records.

Sheets are typed as short text ("2 Revolvers", "Hex 1 (cast)", "Ironscales:
mundane bullet +1"); ``check_sheet`` turns them into plain JSON values for the
log and ``make_data`` into frozen records (:mod:`.records`).

Rulings made here (beyond the rules table), each named in a test:
- A tag phrase matches when all its words are among the attack's tags (plural
  "s" ignored), so Ironscales' "mundane bullet" and the Skeleton's "piercing"
  both resist a revolver shot (``test_ironscales_adds_dv_against_mundane_bullets_only``).
- NPC lead defaults to 0; the firearm-carrying presets carry 3
  (``test_presets_load_with_their_stat_lines``).
- A checked sheet carries ``rev`` (the sheet revision, now 2); a combatant added
  from an older fight file has none (revision 1), which tells the plug-in the
  file was written before morale prompts were logged by ``react``
  (``test_an_old_fight_file_replays_to_the_same_state``). Weapons and workings
  saved before throwing and papers were known learn them from the catalogue.
- A weapon not in the book is written with its kind ('Colt: firearm 6'); a bare unknown name is refused
  naming the book's closest (``parse_weapons``, ``test_an_unknown_weapon_is_refused_naming_the_closest``).
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Mapping
from typing import Any

import attrs
import cattrs

from tracker.commands import BOOL, INT, Param
from tracker.errors import Refused
from tracker.model import NPC, PC
from tracker.shapes import checker, sheet_value
from tracker.text import counted, digits_end, digits_start, head_and_number, line_end, spaces_end, spaces_start

from .deficiency import HELP as DEFICIENT_HELP
from .presets import FIREARM_TAGS, WEAPONS, WORKINGS
from .records import FATAL, LEVELS, REV, SHOTS_MAX, SLOTS_MAX, STATS, BJData, DvMod, Weapon, Working, check_new
from .table import R

THROWABLE = frozenset(name for name, w in WEAPONS.items() if w.throwable)


_BAD_RECORD = (TypeError, ValueError, KeyError, AttributeError, cattrs.errors.CattrsError, cattrs.BaseValidationError)


def _record(kind: type[Any], value: Any, what: str) -> Any:
    """``value`` (a record of a sheet, as JSON holds it) as a ``kind``; ValueError naming ``what`` and the field if
    one is of another JSON type than it declares, unknown, or missing."""
    try:
        return checker().structure(value, kind)
    except _BAD_RECORD as e:
        why = f"{type(e).__name__}: {e}"
        if isinstance(value, dict):
            for field in attrs.fields(attrs.resolve_types(kind)):
                try:
                    if field.name in value:
                        checker().structure(value[field.name], field.type)
                except _BAD_RECORD as bad:
                    why = f"its {field.name}: {bad}"
                    break
        raise ValueError(f"{what} is not a {kind.__name__} record ({why})") from None


def _called(what: str, record: Any) -> str:
    name = record.get("name") if isinstance(record, dict) else None
    return f"{what} {_shown(name)!r}" if isinstance(name, str) else what


# ---------------------------------------------------------------------------
# words and tags


def norm(word: str) -> str:
    w = word.strip().lower()
    if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
        w = w[:-1]
    return w


def words(text: str) -> tuple[str, ...]:
    return tuple(norm(w) for w in re.split(r"[\s,;:/]+", text) if w.strip())


def matches(phrases: tuple[str, ...], tags: tuple[str, ...]) -> str:
    """The first phrase all of whose words are among ``tags`` ('' if none)."""
    have = {norm(w) for t in tags for w in t.split()}
    for p in phrases:
        ws = words(p)
        if ws and all(w in have for w in ws):
            return p
    return ""


def split_list(text: Any) -> list[str]:
    if text is None:
        return []
    if isinstance(text, (list, tuple)):
        return [str(x).strip() for x in text if str(x).strip()]
    return [x.strip() for x in re.split(r"[,;]", str(text)) if x.strip()]


# ---------------------------------------------------------------------------
# parsing the typed sheet


def drop_parens(text: str) -> str:
    """``re.sub(r"\\(.*?\\)", "", text)`` in linear time: each '(' up to the next ')' on its line goes."""
    n = len(text)
    out: list[str] = []
    done = 0  # text[:done] is written out (or dropped)
    close = newline = -1  # the next ')' and line break after the '(' at hand (n: none)
    i = text.find("(")
    while i != -1:
        if close <= i:
            close = text.find(")", i + 1) % (n + 1)
        if newline <= i:
            newline = text.find("\n", i + 1) % (n + 1)
        if close < min(newline, n):
            out.append(text[done:i])
            done = close + 1
            i = text.find("(", done)
        else:
            i = text.find("(", i + 1)
    out.append(text[done:])
    return "".join(out)


def split_weapon(text: str) -> tuple[str | None, str, str | None] | None:
    """'2 Revolvers 4/6' -> (count, name, loaded), in linear time; None if it does not read.

    The groups of ``re.match(r"^(?:(?P<count>\\d+)\\s+)?(?P<name>.+?)(?:\\s+(?P<loaded>\\d+)(?:/\\d+)?)?$",
    text)``, which took seconds on long runs of spaces or digits.
    """
    n = len(text)
    stop = line_end(text)
    # the loaded shots: whitespace, then 'N' or 'N/M' up to where $ matches; at most one place
    shots = -1
    last = digits_start(text, stop)
    if 0 < last < stop:
        if text[last - 1].isspace():
            shots = last
        elif text[last - 1] == "/":
            first = digits_start(text, last - 1)
            if 0 < first < last - 1 and text[first - 1].isspace():
                shots = first
    spaces = spaces_start(text, shots) if shots >= 0 else -1
    loaded = text[shots : digits_end(text, shots)] if shots >= 0 else None

    def name_from(start: int, newline: int) -> tuple[str, str | None] | None:
        # the lazy name's first end: in the whitespace before the shots, else where $ matches
        if shots >= 0 and max(spaces, start + 1) < shots:
            end, shown = max(spaces, start + 1), loaded
        elif start + 1 <= stop:
            end, shown = stop, None
        elif start + 1 <= n:
            end, shown = n, None
        else:
            return None
        return None if newline < end else (text[start:end], shown)

    count_end = digits_end(text, 0)
    if count_end > 0:
        # the count and the whitespace after it, the whitespace given back a character at a time
        start = spaces_end(text, count_end)
        newline = text.find("\n", start) % (n + 1)
        while start > count_end:
            found = name_from(start, newline)
            if found:
                return text[:count_end], found[0], found[1]
            start -= 1
            if text[start] == "\n":
                newline = start
    found = name_from(0, text.find("\n") % (n + 1))
    return None if found is None else (None, found[0], found[1])


def find_weapon(name: str) -> Weapon | None:
    key = name.strip().lower()
    if key in WEAPONS:
        return WEAPONS[key]
    if key.endswith("s") and key[:-1] in WEAPONS:
        return WEAPONS[key[:-1]]
    return None


KINDS = ("firearm", "bow", "blowgun", "thrown", "melee", "natural", "special")
_SHOWN = 40  # characters of a typed name a refusal quotes


def _shown(name: str) -> str:
    return name if len(name) <= _SHOWN else name[: _SHOWN - 1] + "…"


def _book_weapon(name: str) -> Weapon | None:
    """A catalogued weapon by name, singular or plural ('Revolvers', 'Knives', 'Throwing knives')."""
    base = find_weapon(name)
    key = name.strip().lower()
    if base is None and key.endswith("ves"):
        base = WEAPONS.get(key[:-3] + "fe")
    return base


def _closest(name: str) -> list[str]:
    """The catalogue's weapons a typed name most likely meant: those whose words it holds ('Colt Revolver':
    Revolver), else those spelled nearly alike ('Revolvr')."""
    have = set(words(name))
    held = [w.name for key, w in WEAPONS.items() if set(words(key)) <= have]
    if held:
        return sorted(held, key=len, reverse=True)[:2]
    if len(name) > _SHOWN:
        return []
    close = difflib.get_close_matches(name.strip().lower(), list(WEAPONS), n=2, cutoff=0.75)
    return [WEAPONS[k].name for k in close]


def _not_in_book(name: str) -> Refused:
    shown = _shown(name)
    close = _closest(name)
    write = f"write {' or '.join(close)}, or " if close else "write one of the book's, or "
    return Refused(
        f"weapons: '{shown}' is not a weapon of the book: {write}give your own its kind, like "
        f"'{shown}: firearm 6' (a firearm and the shots it holds) or '{shown}: melee' "
        f"(kinds: {', '.join(KINDS)})"
    )


def _times(name: str, loaded: str | None) -> tuple[int, str, str | None] | None:
    """'Revolver x2', 'Revolver ×2', 'Revolver x 2', '2x Revolver', 'x2 Revolver' → (2, 'Revolver', loaded);
    None when the name has no such count. (A count before the name, '2 Revolvers', is ``split_weapon``'s;
    '2 x Revolver' reaches here as the name 'x Revolver' with its count apart.)"""
    text = name.strip()
    low = text.lower()
    # after the name: 'x2' ('Revolver x2'), or 'x' with the shots split_weapon took as the count ('Revolver x 2')
    cut = digits_start(low, len(low))
    if 0 < cut < len(low) and low[cut - 1] in "x×":
        head = text[: cut - 1]
        if head[-1:].isspace() and head.strip():
            return int(low[cut:]), head.strip(), loaded
    if loaded is not None and len(low) > 2 and low[-1] in "x×" and low[-2].isspace():
        return int(loaded), text[:-1].strip(), None
    # before the name: '2x Revolver', 'x2 Revolver', 'x Revolver' (after a count)
    end = digits_end(low, 0)
    if 0 < end < len(low) and low[end] in "x×" and low[end + 1 : end + 2].isspace():
        return int(low[:end]), text[end + 1 :].strip(), loaded
    if low[:1] in ("x", "×"):
        end = digits_end(low, 1)
        if end < len(low) and low[end].isspace() and text[end:].strip():
            return (int(low[1:end]) if end > 1 else 0), text[end:].strip(), loaded
    return None


def _own(name: str, kind: str, loaded: str | None, top: str | None) -> Weapon:
    """A weapon of the GM's own, by its kind: a firearm holds the shots typed ('Colt: firearm 6', or 4 loaded of
    6: 'Colt: firearm 4/6') and hurts as the book's firearms do (moderate, mundane bullets).
    Ruling: one named after a book's firearm is that firearm with its own shots ('Colt revolver: firearm 5'
    fires several shots a round, 'Sharps rifle: firearm 1' takes -2 DV at far range); any other fires one
    shot an action, with no DV note. A bow or blowgun is the book's Bow or Blowgun by another name, its stack
    the number typed (10 without one); any other kind has no shots and hurts as the book's melee weapons do
    (lesser)."""
    shown = name[:1].upper() + name[1:]
    own = words(name)
    if kind == "firearm":
        if loaded is None:
            raise Refused(
                f"weapons: how many shots does {_shown(shown)} hold? Write them after the kind, "
                f"like '{_shown(name)}: firearm 6'"
            )
        shots = int(top) if top is not None else int(loaded)
        if not 1 <= shots <= SHOTS_MAX:
            raise Refused(f"weapons: a firearm holds 1 to {SHOTS_MAX} shots, not {shots} ({_shown(shown)})")
        if int(loaded) > shots:
            raise Refused(f"weapons: a {_shown(shown)} holds {shots} shots, not {int(loaded)}")
        kin = [w for w in WEAPONS.values() if w.is_firearm and set(words(w.name)) <= set(own)]
        plain = Weapon(name=shown, kind=kind, level=WEAPONS["revolver"].level, tags=FIREARM_TAGS)
        book = max(kin, key=lambda w: len(w.name)) if kin else plain
        tags = (*book.tags, *(w for w in own if w not in book.tags))
        return attrs.evolve(book, name=shown, shots=shots, loaded=int(loaded), tags=tags)
    if kind in ("bow", "blowgun"):
        book = WEAPONS[kind]
        tags = (*book.tags, *(w for w in own if w not in book.tags))
        ammo = book.ammo if loaded is None else int(loaded)
        return attrs.evolve(book, name=shown, tags=tags, ammo=ammo)
    return Weapon(name=shown, kind=kind, tags=own)


def parse_weapons(text: Any, *, strict: bool = False) -> list[dict[str, Any]]:
    """'Machete, 2 Revolvers, Bow 12, Shotgun 1/2' → weapon records (as JSON).

    ``strict`` (every sheet typed: ``check_sheet``) reads the sheet as the GM means it. Ruling: a name not in
    the book's catalogue, with no kind written, is refused naming the catalogue's closest weapon and how to
    write one's own ('Colt Revolver' was silently a melee weapon: no shooting at range, BODY blows, no shots);
    one's own is written with its kind ('Colt: firearm 6', 'Club: melee'), a firearm with the shots it holds
    (refused without), and it hurts as the book's firearms do (moderate). 'Revolver x2' and '2x Revolver' are
    two Revolvers, as '2 Revolvers'; 'Knives' is Knife. An unknown kind is refused.
    Not ``strict``: the bare reading of the list, any unknown name a melee weapon of that name (as weapon
    lists were read before; records already checked, in a fight file or a party, pass as they are).
    """
    if isinstance(text, (list, tuple)) and all(isinstance(x, dict) for x in text):
        return [dict(x) for x in text]
    out: list[Weapon] = []
    taken: set[str] = set()  # the names given so far, in lower case
    numbered: dict[str, int] = {}  # per name (lower case): 'name 2' up to below this number are taken
    for item in split_list(text):
        item = drop_parens(item).strip()
        m = split_weapon(item)
        if not m:
            continue
        count = int(m[0] or 1)
        name, loaded = m[1].strip(), m[2]
        kind = ""
        if ":" in name:
            name, kind = (x.strip() for x in name.split(":", 1))
        if strict:
            times = _times(name, loaded)
            if times is not None and times[0] == 0 and m[0] is None:
                times = None  # 'x Revolver' with no count: a name (refused below, naming Revolver)
            if times is not None:
                if m[0] is not None and not name.lower().startswith(("x ", "× ")):
                    raise Refused(f"weapons: give the number of '{_shown(times[1])}' once, like '2 {times[1]}'")
                count = times[0] if m[0] is None else count * max(times[0], 1)
                name, loaded = times[1], times[2]
            kind = kind.lower()
            if not name:
                raise Refused("weapons: a weapon needs a name, like 'Revolver', or 'Colt: firearm 6' for your own")
            if kind and kind not in KINDS:
                raise Refused(f"weapons: '{_shown(kind)}' is not a kind of weapon: {', '.join(KINDS)}")
        if not 1 <= count <= 10:
            raise Refused(f"weapons: carry 1 to 10 of '{m[1]}', not {count}")
        base = _book_weapon(name) if strict else find_weapon(name)
        if base is None and strict and not kind:
            raise _not_in_book(name)
        top = None
        if loaded is not None:
            cut = digits_start(item, len(item))
            if 1 < cut < len(item) and item[cut - 1] == "/":
                top = item[cut:]
        if kind in ("firearm", "bow", "blowgun") and (base is None or base.kind != kind):
            base = _own(base.name if base is not None else name, kind, loaded, top)
        elif base is None:
            base = Weapon(name=name[:1].upper() + name[1:], kind=kind or "melee", tags=words(name))
        elif kind:
            base = attrs.evolve(base, kind=kind)
        if loaded is not None:
            n = int(loaded)
            if base.is_firearm:
                if n > base.shots:
                    raise Refused(f"weapons: a {base.name} holds {base.shots} shots, not {n}")
                base = attrs.evolve(base, loaded=n)
            elif base.ammo >= 0:
                base = attrs.evolve(base, ammo=n)
        key = base.name.lower()
        for _ in range(count):
            # the first of 'Knife', 'Knife 2', 'Knife 3'... not taken, without trying again those known taken
            name_i = base.name
            if name_i.lower() in taken:
                n = numbered.get(key, 2)
                name_i = f"{base.name} {n}"
                while name_i.lower() in taken:
                    n += 1
                    name_i = f"{base.name} {n}"
                numbered[key] = n + 1
            taken.add(name_i.lower())
            out.append(attrs.evolve(base, name=name_i))
    return [checker().unstructure(w) for w in out]


_CAST = re.compile("cast", re.IGNORECASE)  # four letters, matched where they must stand (constant time)


def split_working(text: str) -> tuple[str, str | None, str | None] | None:
    """'Naming 3 (cast)' -> (name, level, cast), in linear time; None if it does not read.

    The groups of ``re.match(r"^(?P<name>.+?)(?:\\s+(?P<level>\\d+))?(?:\\s*\\((?P<cast>cast[^)]*)\\))?$",
    text, re.IGNORECASE)``, which took seconds on long runs of spaces or digits.
    """
    n = len(text)
    stop = line_end(text)
    # each way the pattern can end, as (first name end, last name end, level, cast), in the order tried
    ways: list[tuple[int, int, str | None, str | None]] = []
    if stop > 0 and text[stop - 1] == ")":
        # '(cast...)' ending where $ matches, no ')' inside: its '(' comes after the ')' before
        i = text.find("(", text.rfind(")", 0, stop - 1) + 1, stop - 5)
        while i != -1:
            if _CAST.match(text, i + 1):
                cast = text[i + 1 : stop - 1]
                before = spaces_start(text, i)
                first = digits_start(text, before)
                if 0 < first < before and text[first - 1].isspace():
                    ways.append((spaces_start(text, first), first - 1, text[first:before], cast))
                ways.append((before, i, None, cast))
                if i >= 1:
                    break  # a name can end at or before this '(': later ones are never tried
            i = text.find("(", i + 1, stop - 5)
    first = digits_start(text, stop)
    if 0 < first < stop and text[first - 1].isspace():
        ways.append((spaces_start(text, first), first - 1, text[first:stop], None))
    ways.append((stop, stop, None, None))
    if stop < n:
        ways.append((n, n, None, None))
    for lo, hi, level, casting in ways:
        if hi >= 1:  # the name holds at least one character
            end = max(lo, 1)
            return None if "\n" in text[:end] else (text[:end], level, casting)
    return None


def parse_workings(text: Any) -> list[dict[str, Any]]:
    """'Hex 1, Naming 3 (cast)' → working records (as JSON)."""
    if isinstance(text, (list, tuple)) and all(isinstance(x, dict) for x in text):
        return [dict(x) for x in text]
    out: list[dict[str, Any]] = []
    for item in split_list(text):
        m = split_working(item)
        if not m:
            continue
        name = m[0].strip()
        base = WORKINGS.get(name.lower()) or Working(name=name[:1].upper() + name[1:])
        if m[1]:
            level = int(m[1])
            if not 1 <= level <= 9:
                raise Refused(f"workings: {name}'s level (the lead to ingest) must be 1 to 9, not {level}")
            base = attrs.evolve(base, level=level)
        out.append(checker().unstructure(attrs.evolve(base, cast_today=bool(m[2]))))
    return out


_BOXES = "▢□■☐☒▣◻◼"


def parse_slots(text: Any) -> list[int]:
    """'2/2/1' (or '2|2|2|1', '2, 2, 1', or boxes '▢▢|▢▢|▢') → slots per level."""
    if isinstance(text, (list, tuple)):
        groups = [int(x) for x in text]
    else:
        raw = str(text or "2/2/1").strip()
        if all((ch.isascii() and ch.isdigit()) or ch in "|/, " for ch in raw):
            groups = [int(p) for p in re.split(r"[|/,\s]+", raw) if p]
        elif all(ch in _BOXES or ch in "| " for ch in raw):
            groups = [len(p.replace(" ", "")) for p in raw.split("|") if p.strip()]
        else:
            raise Refused(
                f"injury slots: write a number per level, Lesser/Moderate/Severe[/Grievous] (like 2/2/1 or ▢▢|▢▢|▢), "
                f"not '{raw}'"
            )
    if not 1 <= len(groups) <= len(LEVELS):
        raise Refused(f"injury slots: give 1 to {len(LEVELS)} groups (Lesser/Moderate/Severe/Grievous), like 2/2/1")
    if any(not 1 <= g <= SLOTS_MAX for g in groups):
        raise Refused(f"injury slots: each level holds 1 to {SLOTS_MAX} slots")
    return groups


def parse_injuries(text: Any, slots: list[int] | tuple[int, ...]) -> list[list[str]]:
    """'lesser bruised, moderate cut' → names per level (must fit the slots)."""
    if isinstance(text, (list, tuple)) and all(isinstance(x, (list, tuple)) for x in text):
        out = [list(x) for x in text]
    else:
        out = [[] for _ in slots]
        for item in split_list(text):
            level, _, name = item.partition(" ")
            idx = level_index(level, len(slots))
            if idx >= len(slots):
                raise Refused("injuries: a fatal injury kills; mark the combatant dead instead")
            out[idx].append(name.strip() or "injury")
    if len(out) != len(slots):
        raise Refused("injuries: give one list per injury level")
    for i, names in enumerate(out):
        if len(names) > slots[i]:
            what = counted(len(names), f"{LEVELS[i]} injury", f"{LEVELS[i]} injuries")
            raise Refused(f"injuries: {what} do not fit {counted(slots[i], 'slot')}")
    return out


def level_index(name: str, groups: int) -> int:
    key = name.strip().lower()
    if key == FATAL:
        return groups
    if key in LEVELS:
        idx = LEVELS.index(key)
        if idx >= groups:
            raise Refused(
                f"there is no {key} level on a track of {groups} groups (Grievous is the 4th group)",
                rule=R.MONSTER_SLOTS,
            )
        return idx
    raise Refused(f"'{name}' is not an injury level: lesser, moderate, severe, grievous or fatal")


_DV = re.compile("dv\n?", re.IGNORECASE)


def split_dv_mod(text: str) -> tuple[str, str] | None:
    """'mundane bullet +1 DV' -> (tags, value), in linear time; None if it does not read.

    The groups of ``re.match(r"^(?P<tags>.*?)\\s*(?P<v>[+-]\\d+)\\s*(?:dv)?$", text, re.IGNORECASE)``,
    which took seconds on long runs of spaces.
    """
    n = len(text)
    end = n
    for unit in (2, 3):  # 'dv' where $ matches, then the whitespace before it
        if n >= unit and _DV.fullmatch(text, n - unit):
            end = n - unit
            break
    return head_and_number(text, signs="+-", sign_required=True, end=spaces_start(text, end))


def parse_dv_mods(text: Any) -> list[dict[str, Any]]:
    """'Ironscales: mundane bullet +1' → DV modifiers (as JSON)."""
    if isinstance(text, (list, tuple)) and all(isinstance(x, dict) for x in text):
        return [dict(x) for x in text]
    out = []
    for item in split_list(text):
        label, _, rest = item.rpartition(":")
        rest = rest.strip()
        m = split_dv_mod(rest)
        if not m or not m[0]:
            raise Refused(f"DV modifiers: write them like 'Ironscales: mundane bullet +1', not '{item}'")
        out.append({"label": label.strip() or m[0], "tags": list(words(m[0])), "value": int(m[1])})
    return out


# ---------------------------------------------------------------------------
# sheet fields and the check


def sheet_fields(kind: str) -> tuple[Param, ...]:
    common_tail = (
        Param(
            name="slots", label="Injury slots", default="2/2/1", help="Lesser/Moderate/Severe[/Grievous], e.g. 2/2/1"
        ),
        Param(name="injuries", label="Injuries", required=False, help="Already marked: 'lesser bruised, moderate cut'"),
        Param(name="lead", kind=INT, label="Lead", default=3 if kind == PC else 0, min=0, max=99),
        Param(
            name="workings", label="Workings", required=False, help="'Hex 1, Naming 3 (cast)': name, lead, cast today"
        ),
    )
    if kind == PC:
        stats = []
        for s in STATS:
            stats.append(
                Param(
                    name=s, kind=INT, label=s.upper(), default=10, min=3, max=19, help="3 to 19 (saves max out at 19)"
                )
            )
            stats.append(Param(name=f"{s}_marks", kind=INT, label=f"{s.upper()} marks", default=0, min=0, max=2))
        return (
            *stats,
            Param(
                name="weapons",
                label="Weapons",
                default="Revolver",
                help="'Revolver 4, Shotgun, Hunting knife, Bow 12' (loaded shots or arrows after the name); "
                "one not in the book with its kind: 'Colt: firearm 6', 'Cane: melee'",
            ),
            *common_tail,
        )
    return (
        Param(name="threat", kind=INT, label="Threat", default=3, min=1, max=10, help="1 to 10"),
        Param(
            name="morale",
            kind=INT,
            label="Morale",
            default=7,
            min=2,
            max=12,
            help="2 (never fights) to 12 (never checks)",
        ),
        Param(
            name="weapons",
            label="Weapons and attacks",
            default="Fists",
            help="'Machete, 2 Revolvers, Bear hug'; one not in the book with its kind: 'Horns: natural'",
        ),
        Param(
            name="deficiencies",
            label="Deficient in",
            required=False,
            help=DEFICIENT_HELP,
        ),
        Param(name="resistances", label="Resists", required=False, help="'piercing, slashing'"),
        Param(name="weaknesses", label="Weak to", required=False, help="'bludgeoning'"),
        Param(name="immunities", label="Immune to", required=False, help="'snake venom'"),
        Param(name="dv_mods", label="DV modifiers", required=False, help="'Ironscales: mundane bullet +1'"),
        Param(name="specials", label="Specials (notes)", required=False),
        Param(name="size", label="Size", default="medium"),
        Param(name="dead", kind=BOOL, label="Dead", default=False),
        *common_tail,
    )


@functools.cache
def _labels() -> dict[str, str]:
    """Each sheet field's label, up to any explanation in brackets."""
    return {p.name: p.label.split(" (")[0] for kind in (PC, NPC) for p in sheet_fields(kind) if p.label}


def _int(sheet: Mapping[str, Any], name: str, default: int) -> int:
    """A whole-number field of the sheet; a refusal names it as the add dialog does ("Lead", not "LEAD")."""
    raw = sheet.get(name)
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return default
    return Param(name=name, kind=INT, label=_labels().get(name, name.upper())).parse(raw)


def check_sheet(kind: str, sheet: Mapping[str, Any]) -> dict[str, Any]:
    """Validate a sheet (Refused names the rule) and return it as JSON values.

    Ruling: weapon, working and DV modifier records given whole (a party file's, a preset's: ``parse_weapons``
    passes them as they are) are held to what ``make_data`` reads from a fight file, and refused here in words
    (a party file's weapon jam edited to true was read as 1; one past ``check_new``'s bounds raised ValueError
    from the fold instead of a refusal) (tests/reliability/test_sheet_strict.py::
    test_a_party_record_of_the_wrong_type_is_refused_in_words).
    """
    out: dict[str, Any] = {}
    if kind == PC:
        for s in STATS:
            v = _int(sheet, s, 10)
            if not 3 <= v <= 19:
                raise Refused(f"{s.upper()} must be 3 to 19 (saves start 3–18 and max out at 19), not {v}")
            out[s] = v
            marks = _int(sheet, f"{s}_marks", 0)
            if not 0 <= marks <= 2:
                raise Refused(f"{s.upper()} marks run 0 to 2 (the third mark raises the stat)")
            out[f"{s}_marks"] = marks
    else:
        threat = _int(sheet, "threat", 3)
        if not 1 <= threat <= 10:
            raise Refused(f"Threat runs 1 to 10, not {threat}")
        morale = _int(sheet, "morale", 7)
        if not 2 <= morale <= 12:
            raise Refused(f"Morale runs 2 to 12, not {morale}")
        out.update(threat=threat, morale=morale)
        for name in ("deficiencies", "resistances", "weaknesses", "immunities"):
            out[name] = split_list(sheet.get(name))
        out["dv_mods"] = parse_dv_mods(sheet.get("dv_mods"))
        out["specials"] = str(sheet.get("specials") or "")
        out["size"] = str(sheet.get("size") or "medium")
        out["dead"] = bool(Param(name="dead", kind=BOOL, default=False).parse(sheet.get("dead")))
    lead = _int(sheet, "lead", 3 if kind == PC else 0)
    if lead < 0:
        raise Refused("lead cannot be negative")
    out["lead"] = lead
    out["weapons"] = parse_weapons(sheet.get("weapons", "Revolver" if kind == PC else "Fists"), strict=True)
    out["workings"] = parse_workings(sheet.get("workings"))
    slots = parse_slots(sheet.get("slots"))
    out["slots"] = slots
    out["injuries"] = parse_injuries(sheet.get("injuries"), slots)
    out["rev"] = REV
    try:  # records given whole (a party's or a preset's weapons) are read as a file's are: refused in words
        make_data(kind, out)
    except ValueError as e:
        raise Refused(f"this sheet cannot be added: {e}") from None
    return out


def make_data(kind: str, sheet: Mapping[str, Any]) -> BJData:
    """Build the record from a checked sheet (pure).

    Ruling: the sheet is read as JSON holds it, each value of the type its field declares, nothing coerced: a
    ``combatant_added`` line read from a file whose sheet gives 7.9 or "7" for Morale, true for a stat, 1 for a
    flag, or a weapon record's jam as true was edited by hand (``check_sheet`` writes whole numbers and flags), so
    its event does not apply (ValueError) and the loader names its line, as for a value out of bounds
    (``check_new``).  Morale 7.9 was read as 7 and ``tracker check`` called the file good.  The GM's own sheets
    (the add form, a preset, a party) are parsed by ``check_sheet`` before they reach here.  Tests:
    tests/reliability/test_sheet_strict.py::test_a_sheet_value_of_the_wrong_json_type_is_refused_at_its_line.
    """
    s = dict(sheet)
    slots: tuple[int, ...] = sheet_value(s, "slots", tuple[int, ...], (2, 2, 1))
    fields: dict[str, Any] = {
        "kind": kind,
        "slots": slots,
        "injuries": sheet_value(s, "injuries", tuple[tuple[str, ...], ...], tuple(() for _ in slots)),
        "lead": sheet_value(s, "lead", int, 0),
        "weapons": tuple(_weapon(w) for w in sheet_value(s, "weapons", tuple[Any, ...], ())),
        "workings": tuple(_working(w) for w in sheet_value(s, "workings", tuple[Any, ...], ())),
    }
    if kind == PC:
        for st in STATS:
            fields[st] = sheet_value(s, st, int, 10)
            fields[f"{st}_marks"] = sheet_value(s, f"{st}_marks", int, 0)
    else:
        fields.update(
            threat=sheet_value(s, "threat", int, 3),
            morale=sheet_value(s, "morale", int, 7),
            deficiencies=sheet_value(s, "deficiencies", tuple[str, ...], ()),
            resistances=sheet_value(s, "resistances", tuple[str, ...], ()),
            weaknesses=sheet_value(s, "weaknesses", tuple[str, ...], ()),
            immunities=sheet_value(s, "immunities", tuple[str, ...], ()),
            dv_mods=sheet_value(s, "dv_mods", tuple[DvMod, ...], ()),
            specials=sheet_value(s, "specials", str, ""),
            size=sheet_value(s, "size", str, "medium"),
            dead=sheet_value(s, "dead", bool, False),
        )
    fields["rev"] = sheet_value(s, "rev", int, 1)
    record = BJData(**fields)
    check_new(record)  # a value no checked sheet holds: the line was edited by hand (ValueError)
    return record


def _weapon(record: Mapping[str, Any]) -> Weapon:
    """A weapon from its sheet record; one saved before throwing was known learns it from the catalogue."""
    w: Weapon = _record(Weapon, record, _called("the weapon", record))
    if "throwable" not in record and re.sub(r" \d+$", "", w.name.lower()) in THROWABLE:
        w = attrs.evolve(w, throwable=True)
    return w


def _working(record: Mapping[str, Any]) -> Working:
    """A working from its sheet record; one saved before papers were known learns it from the catalogue."""
    w: Working = _record(Working, record, _called("the working", record))
    base = WORKINGS.get(w.name.lower())
    if "paper" not in record and base is not None and base.paper:
        w = attrs.evolve(w, paper=True)
    return w
