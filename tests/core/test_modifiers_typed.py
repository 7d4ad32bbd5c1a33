"""Modifiers as a GM types them (audit a14 g1): "cover -1; flank +1" counted one +1 labelled "cover -1; flank"
(the -1 lost, the log line looked right), and "flank+1" was refused as not ending with a number."""

from __future__ import annotations

import pytest

from tracker.commands import Modifier, parse_modifiers
from tracker.errors import Refused


def test_a_semicolon_parts_modifiers_as_a_comma_does() -> None:
    want = (Modifier(label="cover", value=-1), Modifier(label="flank", value=1))
    assert parse_modifiers("cover -1; flank +1") == want
    assert parse_modifiers("cover -1;flank +1") == want
    assert parse_modifiers("cover -1, flank +1") == want


@pytest.mark.parametrize(
    ("typed", "label", "value"),
    [
        ("flank+1", "flank", 1),
        ("cover-1", "cover", -1),
        ("cover\u22121", "cover", -1),
        ("high ground+2", "high ground", 2),
        ("cover- 1", "cover", -1),  # (a label "cover-" worth +1: audit a14 g2, F1)
        ("flank+ 2", "flank", 2),
    ],
)
def test_a_sign_typed_against_its_label_is_the_numbers(typed: str, label: str, value: int) -> None:
    assert parse_modifiers(typed) == (Modifier(label=label, value=value),)


def test_labels_with_hyphens_and_numbers_stay_labels() -> None:
    # (audit a14 w2, F1: "AK-47 +1" was AK -47 and +1, rolled at -46)
    assert parse_modifiers("AK-47 +1") == (Modifier(label="AK-47", value=1),)
    assert parse_modifiers("M-16 +1, level-3 -1") == (
        Modifier(label="M-16", value=1),
        Modifier(label="level-3", value=-1),
    )
    assert parse_modifiers("T-1000 -2") == (Modifier(label="T-1000", value=-2),)
    assert parse_modifiers("AK-47 - 1") == (Modifier(label="AK-47", value=-1),)
    assert parse_modifiers("hand-to-hand +1") == (Modifier(label="hand-to-hand", value=1),)
    assert parse_modifiers("rank 2 +1") == (Modifier(label="rank 2", value=1),)
    assert parse_modifiers("flank+1 cover-1") == (Modifier(label="flank", value=1), Modifier(label="cover", value=-1))
    with pytest.raises(Refused, match="must end with a number"):
        parse_modifiers("hand-to-hand")
