"""A sheet value the add dialog refuses is named as the dialog names its field: its label ("Level", "Lead",
"ACC marks"), never the record's name ("level", "LEAD", "ACC_MARKS")."""

from __future__ import annotations

import pytest

from tracker import AddCombatant, Fight, Refused, registry
from tracker.commands import INT
from tracker.model import NPC, PC

SYSTEMS = ("bnb", "blackjack", "zludge", "twod6")


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_whole_number_field_typed_wrong_is_named_by_its_label(system_id: str) -> None:
    system = registry.load(system_id)
    checked = 0
    for kind in (PC, NPC):
        for p in system.sheet_fields(kind):
            if p.kind != INT:
                continue
            with pytest.raises(Refused) as refused:
                Fight(system).do(AddCombatant(name="X", kind=kind, sheet={p.name: "x5"}))
            named = str(refused.value).split(": ")[0]
            assert named in (p.title, p.title.split(" (")[0]), (kind, p.name, str(refused.value))  # (or without
            # the explanation in brackets after the label)
            checked += 1
    assert checked
