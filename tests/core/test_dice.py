"""Dice expressions, rollers and the faces they keep."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tracker.dice import (
    DiceError,
    DiceRequest,
    FacesNeeded,
    ScriptedRoller,
    SeededRoller,
    TypedRoller,
    parse,
    parse_faces,
    roll,
)


@pytest.mark.parametrize(
    ("text", "count", "sides", "mod"),
    [("d20", 1, 20, 0), ("1d6-1", 1, 6, -1), ("2d6+2", 2, 6, 2), ("d3", 1, 3, 0), ("4dF", 4, 0, 0), ("3D6", 3, 6, 0)],
)
def test_parses_the_books_expressions(text: str, count: int, sides: int, mod: int) -> None:
    e = parse(text)
    assert (e.count, e.sides, e.modifier) == (count, sides, mod)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("3d", "sides"),
        ("d0", "at least 2 sides"),
        ("999999d6", "at most 100 dice"),
        ("", "empty"),
        ("banana", "not a dice expression"),
        ("2d6kh3", "keep 1 to 2"),
        ("4dF!", "do not explode"),
        ("0d6", "at least one die"),
    ],
)
def test_bad_expressions_say_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(DiceError, match=words):
        parse(text)


def test_keep_highest_keeps_the_best_die() -> None:
    r = roll("2d6kh1+2", ScriptedRoller([5, 3]))
    assert r.faces == (5, 3)
    assert r.kept == (5,)
    assert r.total == 7


def test_exploding_die_rolls_again_on_its_highest_face_up_to_the_limit() -> None:
    # kept 6 explodes into 6, which explodes into 6 — but the limit is 2 extra dice
    r = roll("2d6kh1!2+2", ScriptedRoller([5, 6, 6, 6]))
    assert r.kept == (6,)
    assert r.extra == (6, 6)
    assert r.total == 6 + 6 + 6 + 2


def test_explosion_chain_stops_on_a_lower_face() -> None:
    r = roll("1d6!5", ScriptedRoller([6, 6, 2]))
    assert r.extra == (6, 2)
    assert r.total == 14


def test_no_explosion_without_a_highest_face() -> None:
    r = roll("1d6!3", ScriptedRoller([5]))
    assert r.extra == ()
    assert r.total == 5


def test_fudge_dice_run_minus_one_to_plus_one() -> None:
    r = roll("4dF", ScriptedRoller([1, 1, 0, -1]))
    assert r.total == 1
    assert "[+,+,0,-]" in r.describe()


def test_scripted_roller_refuses_impossible_faces() -> None:
    with pytest.raises(DiceError, match="impossible"):
        roll("1d6", ScriptedRoller([7]))


def test_typed_roller_asks_for_faces_then_uses_them() -> None:
    typed = TypedRoller()
    with pytest.raises(FacesNeeded) as need:
        roll("2d6", typed, "attack")
    request = need.value.request
    assert request.describe() == "2d6 (attack)"
    typed.supply(request, parse_faces("5 6"))
    typed.rewind()
    assert roll("2d6", typed, "attack").total == 11


def test_typed_roller_refuses_faces_out_of_range() -> None:
    typed = TypedRoller()
    with pytest.raises(DiceError, match="impossible on 1d20"):
        typed.supply(DiceRequest(1, 1, 20, ""), [21])
    with pytest.raises(DiceError, match="needs 2 face"):
        typed.supply(DiceRequest(2, 1, 6, ""), [3])
    assert typed.supplied == []


def test_typed_fudge_faces_can_be_signs() -> None:
    assert parse_faces("+ - 0 +") == [1, -1, 0, 1]
    assert parse_faces("++0-") == parse_faces("1 1 0 -1") == [1, 1, 0, -1]
    with pytest.raises(DiceError, match="not a face"):
        parse_faces("five")


def test_typed_faces_run_together_read_as_the_gm_meant_them() -> None:
    """Ruling (no book covers typing): given the roll they answer, run-together faces have one reading.  On Fudge
    dice every 0 is a blank die ("0000" was read as the one number 0: "4dF needs 4 face(s), got 1"); on dice of
    single-digit faces "66" is two sixes.  Where a run-together token could be one face (a d20's "15"), it is."""
    fudge = DiceRequest(4, -1, 1, "")
    assert parse_faces("0000", fudge) == [0, 0, 0, 0]
    assert parse_faces("00+-", fudge) == [0, 0, 1, -1]
    assert parse_faces("0 0 0 0", fudge) == parse_faces("0,0 00", fudge) == [0, 0, 0, 0]
    assert parse_faces("1 1 0 -1", fudge) == [1, 1, 0, -1]
    d6 = DiceRequest(2, 1, 6, "")
    assert parse_faces("66", d6) == parse_faces("6 6", d6) == [6, 6]
    assert parse_faces("15", DiceRequest(1, 1, 20, "")) == [15]
    assert parse_faces("10", DiceRequest(1, 1, 10, "")) == [10]
    typed = TypedRoller()
    with pytest.raises(DiceError, match="a face of 7 is impossible on 2d6"):
        typed.supply(d6, parse_faces("67", d6))
    with pytest.raises(DiceError, match=r"'x' is not a face: type \+ 0 - for each die"):
        parse_faces("x", fudge)
    with pytest.raises(DiceError, match=r"'six' is not a face: type numbers like '5 6'$"):
        parse_faces("six", d6)


def test_seeded_roller_repeats_with_the_same_seed() -> None:
    a = [roll("3d6", SeededRoller(7)).faces for _ in range(1)]
    b = [roll("3d6", SeededRoller(7)).faces for _ in range(1)]
    assert a == b


@given(
    count=st.integers(1, 10),
    sides=st.integers(2, 20),
    mod=st.integers(-5, 5),
    seed=st.integers(0, 10_000),
)
def test_totals_add_up_from_the_kept_faces(count: int, sides: int, mod: int, seed: int) -> None:
    expr = f"{count}d{sides}{mod:+d}" if mod else f"{count}d{sides}"
    r = roll(expr, SeededRoller(seed))
    assert len(r.faces) == count
    assert all(1 <= f <= sides for f in r.faces)
    assert r.total == sum(r.kept) + sum(r.extra) + mod
    assert str(parse(expr)) == expr
