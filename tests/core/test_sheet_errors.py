"""A sheet value the add dialog refuses is named as the dialog names its field: its label ("Level", "Lead",
"ACC marks"), never the record's name ("level", "LEAD", "ACC_MARKS")."""

from __future__ import annotations

import pytest

from tracker import AddCombatant, Fight, Refused, registry
from tracker.commands import INT, Adjust, Param, parse_modifiers
from tracker.model import NPC, PC

SYSTEMS = ("bnb", "blackjack", "zludge", "twod6")


def whole_number_fields(system_id: str) -> list[tuple[str, Param]]:
    """(kind, field) for every whole-number field of the system's sheets."""
    system = registry.load(system_id)
    return [(kind, p) for kind in (PC, NPC) for p in system.sheet_fields(kind) if p.kind == INT]


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_whole_number_field_typed_wrong_is_named_by_its_label(system_id: str) -> None:
    system = registry.load(system_id)
    fields = whole_number_fields(system_id)
    for kind, p in fields:
        with pytest.raises(Refused) as refused:
            Fight(system).do(AddCombatant(name="X", kind=kind, sheet={p.name: "x5"}))
        named = str(refused.value).split(": ")[0]
        # (or without the explanation in brackets after the label)
        assert named in (p.title, p.title.split(" (")[0]), (kind, p.name, str(refused.value))
    assert fields


ODD_NUMBERS = ("1_0", "٤", "²", "1 0", "0x3", "3.0")


@pytest.mark.parametrize("text", ODD_NUMBERS)
def test_a_whole_number_is_a_sign_and_the_digits_0_to_9(text: str) -> None:
    """Python's int() read "1_0" as 10 and "٤" as 4: a typo became a number the GM never typed, recorded without
    a word (an adjust of HP to "1_2" set 12).  A sign and spaces around stay fine."""
    p = Param(name="hp", kind=INT, label="HP")
    with pytest.raises(Refused, match="is not a whole number"):
        p.parse(text)
    assert (p.parse(" +4 "), p.parse("-5"), p.parse("007")) == (4, -5, 7)
    if " " not in text:  # ("cover 1 0" is a modifier "cover 1" of 0)
        with pytest.raises(Refused, match="must end with a number"):
            parse_modifiers(f"cover {text}")


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_an_odd_number_on_a_sheet_or_an_adjust_is_refused(system_id: str) -> None:
    system = registry.load(system_id)
    fields = whole_number_fields(system_id)
    for kind, p in fields:
        for text in ("1_0", "٤"):
            with pytest.raises(Refused):
                Fight(system).do(AddCombatant(name="X", kind=kind, sheet={p.name: text}))
    assert fields
    f = Fight(system)
    f.do(AddCombatant(name="X", kind=PC))
    c = f.state.combatants[0]
    adjusted = [a for a in system.adjustable(f.state, c) if a.kind == INT]
    assert adjusted, "no whole-number adjust field"
    for a in adjusted:
        with pytest.raises(Refused):
            f.do(Adjust(id=c.id, field=a.name, value="1_2"))
