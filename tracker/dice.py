"""Dice: expressions, rollers and results.

Every roll keeps its faces.  A roll asks a *roller* for faces; the roller is
injected, so the same rules code runs with the seeded random roller, a
scripted roller in tests, or faces the GM typed in from physical dice.

Expression grammar (case-insensitive, spaces ignored)::

    [N] d (S | F) [kh K | kl K] [! [L]] [+M | -M]

``N`` dice (default 1) of ``S`` sides, or Fudge dice (``4dF``: -1, 0, +1);
``khK``/``klK`` keep the K highest/lowest; ``!`` explodes: every kept die that
shows its highest face rolls one more die of the same kind, which is added and
may explode in turn, at most ``L`` extra dice in all (``!`` alone: at most 20).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Protocol

import attrs

from tracker.errors import Refused, TrackerError
from tracker.text import counted, whole_number

MAX_DICE = 100
MAX_SIDES = 1000
MAX_MODIFIER = 10_000
MAX_EXPLOSIONS = 20


class DiceError(TrackerError):
    """A dice expression or a set of faces is not acceptable."""


class FacesNeeded(Exception):
    """Raised by a typed-in roller that has no faces queued for a request.

    The caller asks the GM for ``request.count`` faces, queues them and runs
    the same decision again: rules code is deterministic given its faces.
    """

    def __init__(self, request: DiceRequest) -> None:
        super().__init__(f"faces needed for {request.describe()}")
        self.request = request


@attrs.frozen
class DiceRequest:
    """One request for faces: ``count`` dice showing ``lo``..``hi``."""

    count: int
    lo: int
    hi: int
    label: str = ""

    @property
    def notation(self) -> str:
        if (self.lo, self.hi) == (-1, 1):
            return f"{self.count}dF"
        return f"{self.count}d{self.hi}"

    def describe(self) -> str:
        return f"{self.notation} ({self.label})" if self.label else self.notation

    def check(self, faces: Sequence[int]) -> tuple[int, ...]:
        """Return ``faces`` as a tuple, or raise DiceError naming what is wrong."""
        if len(faces) != self.count:
            raise DiceError(f"{self.notation} needs {counted(self.count, 'face')}, got {len(faces)}")
        for face in faces:
            if not self.lo <= face <= self.hi:
                raise DiceError(f"a face of {face} is impossible on {self.notation}: faces run {self.lo}..{self.hi}")
        return tuple(faces)


class Roller(Protocol):
    """Where faces come from."""

    def faces(self, request: DiceRequest) -> tuple[int, ...]: ...


class SeededRoller:
    """Random faces from a seeded generator (the seed goes in the save header)."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        self._random = random.Random(self.seed)

    def faces(self, request: DiceRequest) -> tuple[int, ...]:
        r = self._random.randint
        return tuple(r(request.lo, request.hi) for _ in range(request.count))


class ScriptedRoller:
    """Faces given in advance, in order (tests and scripted scenarios)."""

    def __init__(self, faces: Sequence[int] = ()) -> None:
        self.queue: list[int] = list(faces)
        self.requests: list[DiceRequest] = []

    def add(self, *faces: int) -> None:
        self.queue.extend(faces)

    def faces(self, request: DiceRequest) -> tuple[int, ...]:
        self.requests.append(request)
        if len(self.queue) < request.count:
            raise DiceError(f"script ran out of faces at {request.describe()}")
        taken = self.queue[: request.count]
        del self.queue[: request.count]
        return request.check(taken)

    @property
    def exhausted(self) -> bool:
        return not self.queue


class TypedRoller:
    """Faces the GM typed in from physical dice.

    Faces are consumed in order of request; when none are queued the roller
    raises :class:`FacesNeeded`, the app asks the GM, calls :meth:`supply` and
    re-runs the decision.  ``rewind()`` starts a new attempt from the first
    supplied face.
    """

    def __init__(self) -> None:
        self.supplied: list[tuple[DiceRequest, tuple[int, ...]]] = []
        self._cursor = 0

    def rewind(self) -> None:
        self._cursor = 0

    def supply(self, request: DiceRequest, faces: Sequence[int]) -> None:
        self.supplied.append((request, request.check(faces)))

    def faces(self, request: DiceRequest) -> tuple[int, ...]:
        if self._cursor < len(self.supplied):
            wanted, faces = self.supplied[self._cursor]
            if (wanted.count, wanted.lo, wanted.hi) == (request.count, request.lo, request.hi):
                self._cursor += 1
                return faces
            # the decision took another path: forget faces from here on
            del self.supplied[self._cursor :]
        raise FacesNeeded(request)


def parse_faces(text: str, request: DiceRequest | None = None) -> list[int]:
    """Read faces typed by the GM: ``"5 6"``, ``"5,6"``; Fudge dice as ``"++0-"``, ``"+ + 0 -"`` or ``"1 1 0 -1"``.

    Given the ``request`` they answer, run-together faces are read as the GM meant them where no other reading
    exists: on Fudge dice ``"0000"`` is four blanks (not the number 0), and on dice whose faces are all single
    digits (d4, d6, d8) ``"66"`` is two sixes, since no such die shows 66.  A face out of range is left for
    :meth:`DiceRequest.check` to name.

    Ruling: run-together digits typed alone that could also be the total of the request ("11" or "12" on 2d6, a
    natural 11 at a 2d6 table) are refused, asking for the faces apart: read as 1,1 they were snake eyes
    (tests/core/test_gm2_fixes.py::test_run_together_faces_that_could_be_a_total_are_refused).  Faces are
    written in the digits 0-9 ("1_0" and other scripts' digits are refused, as in every number field).
    """
    fudge = request is not None and (request.lo, request.hi) == (-1, 1)
    digits = request is not None and not fudge and request.lo >= 0 and request.hi <= 9
    out: list[int] = []
    tokens = [t for t in re.split(r"[\s,;]+", text.strip()) if t]
    for token in tokens:
        if re.fullmatch(r"[+\-0]+", token) and (fudge or len(token) == 1 or re.search(r"[+\-]", token)):
            out.extend({"+": 1, "-": -1, "0": 0}[ch] for ch in token)
            continue
        if digits and token.isdigit() and token.isascii() and len(token) > 1:
            assert request is not None
            if len(tokens) == 1 and request.count * request.lo <= int(token) <= request.count * request.hi:
                raise DiceError(
                    f"'{token}': the faces {' and '.join(token)}, or a total of {int(token)}? "
                    f"type each face apart, like '{' '.join(str(max(request.lo, request.hi - 1 + n % 2)) for n in range(request.count))}'"
                )
            out.extend(int(ch) for ch in token)
            continue
        try:
            out.append(whole_number(token))
        except ValueError:
            hint = "type + 0 - for each die, like '+0-0'" if fudge else "type numbers like '5 6'"
            if request is None:
                hint += " (or + 0 - for Fudge dice)"
            raise DiceError(f"'{token}' is not a face: {hint}") from None
    if not out:
        raise DiceError("no faces typed")
    return out


@attrs.frozen
class DiceExpr:
    """A parsed dice expression."""

    count: int
    sides: int  # 0 for Fudge dice
    keep_high: int | None = None
    keep_low: int | None = None
    explode: int = 0  # most extra dice from explosions; 0: none
    modifier: int = 0

    @property
    def fudge(self) -> bool:
        return self.sides == 0

    @property
    def lo(self) -> int:
        return -1 if self.fudge else 1

    @property
    def hi(self) -> int:
        return 1 if self.fudge else self.sides

    def __str__(self) -> str:
        s = f"{self.count}d{'F' if self.fudge else self.sides}"
        if self.keep_high is not None:
            s += f"kh{self.keep_high}"
        if self.keep_low is not None:
            s += f"kl{self.keep_low}"
        if self.explode:
            s += f"!{self.explode}"
        if self.modifier:
            s += f"{self.modifier:+d}"
        return s

    def roll(self, roller: Roller, label: str = "") -> Roll:
        faces = roller.faces(DiceRequest(self.count, self.lo, self.hi, label))
        return self.result(faces, roller, label)

    def result(self, faces: Sequence[int], roller: Roller | None = None, label: str = "") -> Roll:
        """Build the roll from given first faces, rolling explosions on ``roller``."""
        faces = tuple(faces)
        kept = _keep(faces, self.keep_high, self.keep_low)
        extra: list[int] = []
        if self.explode and not self.fudge:
            pending = sum(1 for f in kept if f == self.hi)
            while pending and len(extra) < self.explode:
                if roller is None:
                    raise DiceError(f"{self} needs a roller for its explosions")
                (face,) = roller.faces(DiceRequest(1, self.lo, self.hi, f"{label} explodes".strip()))
                extra.append(face)
                pending = pending - 1 + (face == self.hi)
        total = sum(kept) + sum(extra) + self.modifier
        return Roll(str(self), label, faces, kept, tuple(extra), self.modifier, total)


def _keep(faces: tuple[int, ...], high: int | None, low: int | None) -> tuple[int, ...]:
    if high is not None:
        return tuple(sorted(faces, reverse=True)[:high])
    if low is not None:
        return tuple(sorted(faces)[:low])
    return faces


@attrs.frozen
class Roll:
    """One roll with its faces: what was rolled, what was kept, what exploded."""

    expr: str
    label: str
    faces: tuple[int, ...]
    kept: tuple[int, ...]
    extra: tuple[int, ...] = ()
    modifier: int = 0
    total: int = 0

    def describe(self) -> str:
        if not self.faces:  # a plain number or sum the GM typed (quick damage "3+4")
            return self.expr if self.expr == str(self.total) else f"{self.expr} = {self.total}"
        faces = ",".join(_face(f, self.expr) for f in self.faces)
        # the expression as a GM writes it: "1d6+2", not "1d6!1+2" (the most dice that may explode is the rules'
        # to say, in Why?; "!1" read as jargon, and "1d6!1+2 [6] exploded +6 = 14" as 6 + 6)
        s = f"{_EXPLODE_LIMIT.sub('', self.expr)} [{faces}]"
        if self.kept != self.faces:
            s += " kept " + ",".join(map(str, self.kept))
        if self.extra:
            s += " exploded +" + "+".join(map(str, self.extra))
        return f"{s} = {self.total}"


_EXPLODE_LIMIT = re.compile(r"!\d*")


def _face(face: int, expr: str) -> str:
    if "dF" in expr:
        return {1: "+", 0: "0", -1: "-"}[face]
    return str(face)


_EXPR = re.compile(
    r"^(?P<n>[0-9]+)?d(?P<s>[0-9]+|f)"
    r"(?:(?P<k>kh|kl)(?P<kn>[0-9]+))?"
    r"(?P<x>!(?P<xn>[0-9]+)?)?"
    r"(?P<m>[+-][0-9]+)?$"
)  # a dice expression, in the digits 0-9 (``\d`` also matches other scripts' digits)


def parse(text: str) -> DiceExpr:
    """Parse a dice expression, raising DiceError that says what is wrong."""
    src = text.strip().lower().replace(" ", "")
    if not src:
        raise DiceError("empty dice expression")
    m = _EXPR.match(src)
    if not m:
        raise DiceError(_explain(text))
    count = int(m["n"]) if m["n"] else 1
    sides = 0 if m["s"] == "f" else int(m["s"])
    if count < 1:
        raise DiceError(f"'{text}': roll at least one die")
    if count > MAX_DICE:
        raise DiceError(f"'{text}': at most {MAX_DICE} dice in one roll")
    if m["s"] != "f" and sides < 2:
        raise DiceError(f"'{text}': a die needs at least 2 sides")
    if sides > MAX_SIDES:
        raise DiceError(f"'{text}': at most {MAX_SIDES} sides")
    kh = kl = None
    if m["k"]:
        keep = int(m["kn"])
        if not 1 <= keep <= count:
            raise DiceError(f"'{text}': can keep 1 to {count} dice, not {keep}")
        kh, kl = (keep, None) if m["k"] == "kh" else (None, keep)
    explode = 0
    if m["x"]:
        if sides == 0:
            raise DiceError(f"'{text}': Fudge dice do not explode")
        explode = int(m["xn"]) if m["xn"] else MAX_EXPLOSIONS
        if explode > MAX_EXPLOSIONS:
            raise DiceError(f"'{text}': at most {MAX_EXPLOSIONS} explosions")
    modifier = int(m["m"]) if m["m"] else 0
    if abs(modifier) > MAX_MODIFIER:
        raise DiceError(f"'{text}': modifier too large")
    return DiceExpr(count, sides, kh, kl, explode, modifier)


def _explain(text: str) -> str:
    src = text.strip().lower().replace(" ", "")
    if "d" not in src:
        return f"'{text}' is not a dice expression: write it like 2d6+1, d20 or 4dF"
    after = src.split("d", 1)[1]
    if not after or not (after[0].isdigit() or after[0] == "f"):
        return f"'{text}': say how many sides the die has after 'd' (like d6), or F for Fudge dice"
    return f"'{text}' is not a dice expression: write it like 2d6+1, 2d6kh1, d6!3 or 4dF"


def roll(expr: str | DiceExpr, roller: Roller, label: str = "") -> Roll:
    """Parse (if needed) and roll."""
    e = parse(expr) if isinstance(expr, str) else expr
    return e.roll(roller, label)


# ---------------------------------------------------------------------------
# harm amounts

_TERM = re.compile(r"[+-]?[^+-]+")
AMOUNT_MAX = 10_000


def amount(text: str, dice: Roller, label: str = "") -> Roll:
    """Roll a harm amount: a number (``7``), arithmetic (``3+4``, ``10-2``) or dice (``2d6+1``, ``1d6+1d4``).

    The result is one :class:`~tracker.dice.Roll` whose faces are every die
    rolled, so the log shows them; Refused says what is wrong with the text.
    """
    src = str(text).strip().lower().replace(" ", "")
    if not src:
        raise Refused("the amount is empty")
    if len(src) > 60:
        raise Refused("the amount is too long")
    terms = _TERM.findall(src)
    if "".join(terms) != src or not terms:
        raise Refused(f"'{text}' is not an amount: write a number, a sum (3+4) or dice (2d6+1)")
    faces: list[int] = []
    kept: list[int] = []
    extra: list[int] = []
    modifier = 0
    total = 0
    for term in terms:
        sign = -1 if term.startswith("-") else 1
        body = term.lstrip("+-")
        if body.isascii() and body.isdigit():
            if len(body) > 5:
                raise Refused(f"'{text}': the number is too large")
            modifier += sign * int(body)
            total += sign * int(body)
            continue
        try:
            expr = parse(body)
        except DiceError as e:
            raise Refused(f"'{text}' is not an amount: {e}") from None
        r = expr.roll(dice, label)
        faces += r.faces
        kept += r.kept
        extra += r.extra
        modifier += sign * r.modifier
        total += sign * r.total
    if abs(total) > AMOUNT_MAX:
        raise Refused(f"'{text}': at most {AMOUNT_MAX}")
    return Roll(src, label, tuple(faces), tuple(kept), tuple(extra), modifier, total)
