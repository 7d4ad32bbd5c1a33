"""Party files: a PC the GM made one in the fight (an NPC turned PC) comes back as the same character."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest

from saves import parties
from tracker import AddCombatant, Adjust, Damage, Fight, StartFight, registry


def _hireling_made_pc() -> Fight:
    f = Fight(registry.load("bnb"))
    f.do(AddCombatant(name="Hireling", sheet={"dc": 13, "hd": "2", "hp": 0, "weapons": "rifle"}))
    f.do(AddCombatant(name="Thug", sheet={"dc": 11, "hd": "1", "hp": 4}))
    f.do(Adjust(id="c1", field="kind", value="pc"))  # the hireling joins the posse
    return f


@pytest.mark.parametrize("fresh", (False, True))
def test_an_npc_made_a_pc_comes_back_from_a_party_the_same(fresh: bool, tmp_path: Path) -> None:
    """Kept with the NPC's sheet and kind "pc", it came back a level 1 Shootist (HD 2 → 1, to-hit +2 → +0)."""
    f = _hireling_made_pc()
    f.do(StartFight())
    f.do(Damage(targets=("c1",), amount="2"))
    path = parties.save_party("Crew", "bnb", parties.party_members(f, now=True), tmp_path)
    g = Fight(f.system)
    g.do_all(parties.party_commands(path, fresh=fresh))
    back, was = g.state.combatants[0], f.state.get("c1")
    assert back.kind == "pc"
    assert (back.data.cls, back.data.hd, back.data.to_hit, back.data.st) == (
        was.data.cls,
        was.data.hd,
        was.data.to_hit,
        was.data.st,
    )
    if fresh:
        assert back.data.hp == back.data.max_hp == was.data.max_hp
    else:
        assert back.data == attrs.evolve(was.data, lost=0)  # (wounds bound this battle: this battle's only)
    assert len(g.steps) == 1


def test_a_party_file_of_an_older_version_loads_as_before(tmp_path: Path) -> None:
    """A member without "became" is added with its kind, as before."""
    f = _hireling_made_pc()
    path = parties.save_party("Crew", "bnb", parties.party_members(f), tmp_path)
    data = json.loads(path.read_text())
    member = data["members"][0]
    assert (member["kind"], member["became"]) == ("npc", "pc")
    del member["became"]
    member["kind"] = "pc"  # what an older version wrote
    path.write_text(json.dumps(data))
    cmds = parties.party_commands(path)
    assert [type(c).__name__ for c in cmds] == ["AddCombatant"]
    g = Fight(f.system)
    g.do_all(cmds)
    assert g.state.combatants[0].kind == "pc" and g.state.combatants[0].data.cls == "Shootist"
