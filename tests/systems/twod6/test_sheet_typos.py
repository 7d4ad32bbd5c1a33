"""2d6 Gamma sheets typed with a near miss: read as the book writes the name, or refused naming what to write.

Ruling (systems/twod6/sheet.py): case, spaces, hyphens, a missing parenthesis and a trailing plural do not
matter ("Melee Heavy" is Melee (Heavy), "Extra Wounds" Extra Wound, "Multi-attack" Multiattack); a near miss of a
skill, talent or spell the book lists is refused with the name to write; a skill listed twice is refused; an item
names a skill of the book or of the sheet.  Names the book leaves free (Knowledge (…), Trade (…), a skill or talent
of the GM's own that is no near miss of the book's) pass as before.
"""

from __future__ import annotations

import saves
from systems.twod6 import plugin as twod6_plugin
from systems.twod6 import system
from systems.twod6.events import AttackRolled
from systems.twod6.record import make_data
from systems.twod6.sheet import Item, check_sheet
from tests.systems.twod6.helpers import DUMMY, attack, data, of, refused, setup, sheet
from tracker import Fight
from tracker.commands import AddCombatant, Adjust, DismissPrompt, Modifier, NextTurn, SetInitiative, StartFight
from tracker.dice import ScriptedRoller


def added(**kw: object) -> dict:
    """The sheet as the tracker writes it back after adding it."""
    f = Fight(system, roller=ScriptedRoller())
    return dict(f.do(AddCombatant(name="Vex", sheet=sheet(**kw)))[0].sheet)


def refuses(words: str, **kw: object) -> str:
    return refused(Fight(system, roller=ScriptedRoller()), AddCombatant(name="Vex", sheet=sheet(**kw)), words)


def test_a_missing_parenthesis_is_read_as_the_book_writes_the_skill():
    """'Melee Heavy 2' is Melee (Heavy) 2: the attack keeps its ranks (it lost them, kept as 'Melee Heavy')."""
    f, roller = setup(("Ann", sheet(str=1, skills="Melee Heavy 2, Athletics 1")), ("Bob", DUMMY))
    assert data(f, "c1").skills == (("Melee (Heavy)", 2), ("Athletics", 1))
    (ev,) = of(attack(f, roller, (3, 4, 3, 4), "c1", "c2"), AttackRolled)
    assert Modifier(label="Melee (Heavy) ranks", value=2) in ev.attack.parts
    assert ev.attack.total == 7 + 2 + 1
    assert added(skills="melee-heavy 2, trade healing 1, LANGUAGE (elvish) 1")["skills"] == (
        "Melee (Heavy) 2, Trade (healing) 1, Language (elvish) 1"
    )


def test_plurals_hyphens_and_a_missing_parenthesis_in_talents_are_read_as_the_book_writes_them():
    """'Extra Wounds, Multi-attack, Favored Enemy Goblin': the book's Extra Wound (+1 wound), Multiattack (a
    half-round attack) and Favored Enemy (Goblin)."""
    f, _ = setup(("Ann", sheet(talents="Extra Wounds, Multi-attack, Favored Enemy Goblin")))
    d = data(f, "c1")
    assert d.talents == ("Extra Wound", "Multiattack", "Favored Enemy (Goblin)")
    assert d.max_wounds == 4
    assert d.has("Multiattack")
    assert d.talent_args("Favored Enemy") == ("Goblin",)
    assert added(talents="sneak-attack (shooting), dual wield (melee light)")["talents"] == (
        "Sneak Attack (Shooting), Dual Wield (Melee (Light))"
    )


def test_a_near_miss_of_a_skill_of_the_book_is_refused_naming_the_skill_to_write():
    why = refuses("did you mean Melee (Heavy)?", skills="Meele (Heavy) 2")
    assert why.startswith("'Meele (Heavy)' is not a skill of the book")
    refuses("did you mean Melee (Heavy)?", skills="Melee (Hevy) 2")
    refuses("did you mean Resolve?", skills="Athletics 1, Resolv 1")
    refuses("did you mean Knowledge (History)?", skills="Knowlege (History) 1")


def test_melee_is_taken_as_one_of_its_three_kinds():
    """ "Melee combat comes in three flavors: Heavy, Light, and Unarmed": a bare or other Melee names one."""
    for skills in ("Melee 2", "Melee (Spear) 2", "Melee Polearm 1"):
        why = refuses("melee comes in three kinds", skills=skills)
        assert "Melee (Heavy), Melee (Light) or Melee (Unarmed)" in why


def test_a_near_miss_of_a_talent_of_the_book_is_refused_naming_the_talent_to_write():
    why = refuses("did you mean Favored Enemy (Goblin)?", talents="Extra Wounds, Multi-attack, Favoured Enemy (Goblin)")
    assert why.startswith("'Favoured Enemy (Goblin)' is not a talent of the book")
    refuses("did you mean Spell Turning?", talents="Spell Turnin")
    refuses("did you mean Vicious Parry?", talents="Vicous Parry")
    refuses("did you mean Sniper?", talents="Snipr")


def test_a_skill_listed_twice_is_refused():
    """'Resolve 1, Resolve 3' kept only Resolve 3: now refused, as zludge refuses it."""
    refuses("Resolve is listed twice", skills="Resolve 1, Resolve 3")
    refuses("Melee (Heavy) is listed twice", skills="Melee Heavy 2, Melee (Heavy) 1")
    refuses("Knowledge (History) is listed twice", skills="Knowledge (History) 2, knowledge history 1")


def test_an_item_names_a_skill_of_the_book_or_of_the_sheet():
    """'Longsword +1' was an item for a skill called Longsword: refused, saying how an item is written."""
    why = refuses("name: skill +N", items="Longsword +1")
    assert "Longsword: Melee (Heavy) +1" in why
    assert "'Longsword' is no skill" in why
    refuses("name: skill +N", items="Gun: Firearms +1")
    refuses("did you mean Melee (Heavy)?", items="Sword: Meele (Heavy) +1")
    # a skill of the sheet's own may have its item; a skill the book lists needs no ranks for one
    assert added(skills="Sailing 2", items="Compass: sailing +1")["items"] == "Compass: Sailing +1"
    assert (
        added(items="Spear: melee heavy +1; Pendant: Cast +1")["items"] == "Spear: Melee (Heavy) +1; Pendant: Cast +1"
    )


def test_the_books_names_and_names_of_the_gms_own_still_pass():
    """Knowledge (…), Trade (…), every sample skill, talent and spell of the book, and new names no near miss of
    the book's, pass; every preset's sheet passes and is written back unchanged."""
    out = added(
        skills=(
            "Knowledge (History) 2, Trade (Healing) 1, Sleight of Hand 1, Lockpicking 1, Perform 1, Drive 1, "
            "Craft (Lock) 1, Sailing 2, Melee (Unarmed) 1, Throwing 1"
        ),
        talents=(
            "Darkvision, Extra Sense (heat), Iron Will, Stat Boost (STR), Rich, Blast, Armor, Fly/Jump, "
            "Animal Kinship, Extra Wound, Favored Enemy (Goblin)"
        ),
        items="Compass: Sailing +1; Pendant: Cast +1; Lucky Coin: Knowledge (History) +1",
    )
    assert out["skills"] == (
        "Knowledge (History) 2, Trade (Healing) 1, Sleight of Hand 1, Lockpicking 1, Perform 1, Drive 1, "
        "Craft (Lock) 1, Sailing 2, Melee (Unarmed) 1, Throwing 1"
    )
    assert "Iron Will" in out["talents"] and "Darkvision" in out["talents"]
    assert added(**out) == out  # written back as it reads
    f = Fight(system, roller=ScriptedRoller())
    for preset in system.presets():
        (ev,) = f.do(AddCombatant(name=preset.name, kind=preset.kind, sheet=preset.sheet))[:1]
        assert added(**ev.sheet) == dict(ev.sheet), preset.id
    # a fight file written before these checks reads its sheets as it did (the last of a skill listed twice)
    old = make_data("pc", {"skills": "Resolve 1, Resolve 3, Meele (Heavy) 2", "items": "Longsword +1"})
    assert old.skills == (("Resolve", 3), ("Meele (Heavy)", 2))


# -- items typed with commas (audit a10 F1) --------------------------------------------------------------------------

TWO_ITEMS = "Ancestral Longsword: Melee (Heavy) +1, Pendant: Cast +1"


def test_items_typed_with_commas_are_read_as_items():
    """Ruling (sheet.py parse_items): items are separated by ';' or ',', as skills and talents are.  Typed with a
    comma, the Longsword and the Pendant were one item ("Ancestral Longsword: Melee (Heavy) +1, Pendant" for Cast
    +1) and the attack lost the Longsword's +1; now two items, the attack 7 + 2 + 1 + 1 = 11, and the detail pane
    shows the two items it read."""
    f, roller = setup(("Ann", sheet(str=1, skills="Melee (Heavy) 2, Cast 1", items=TWO_ITEMS)), ("Bob", DUMMY))
    assert data(f, "c1").items == (
        Item(name="Ancestral Longsword", skill="Melee (Heavy)", bonus=1),
        Item(name="Pendant", skill="Cast", bonus=1),
    )
    (ev,) = of(attack(f, roller, (3, 4, 3, 4), "c1", "c2", skill="Melee (Heavy)"), AttackRolled)
    assert Modifier(label="Ancestral Longsword", value=1) in ev.attack.parts
    assert ev.attack.total == 11
    assert "Items: Ancestral Longsword (Melee (Heavy) +1); Pendant (Cast +1)" in system.detail(
        f.state, f.state.get("c1")
    )
    # written back with ';', as it was read; a ',' inside a name stays in it; ';' and ',' may be mixed
    assert added(items=TWO_ITEMS)["items"] == "Ancestral Longsword: Melee (Heavy) +1; Pendant: Cast +1"
    assert added(items="Sword, Flaming: Melee (Heavy) +1, Pendant: Cast +1")["items"] == (
        "Sword, Flaming: Melee (Heavy) +1; Pendant: Cast +1"
    )
    assert added(items="Sword: Melee (Heavy) +1, Rifle: Shooting +2; Pendant: Cast +1")["items"] == (
        "Sword: Melee (Heavy) +1; Rifle: Shooting +2; Pendant: Cast +1"
    )


def test_dual_wield_items_typed_with_commas_give_both_bonuses():
    """Dual Wield "apply the bonuses from two items to a single skill": 'Dagger: …, Sword: …' with a comma gave one
    item and +1; now +2."""
    items = "Dagger: Melee (Light) +1, Sword: Melee (Light) +1"
    f, roller = setup(
        ("Two", sheet(skills="Melee (Light) 1", items=items, talents="Dual Wield (Melee (Light))")), ("Dummy", DUMMY)
    )
    (ev,) = of(attack(f, roller, (3, 3, 3, 3), "c1", "c2", skill="Melee (Light)", result="shove"), AttackRolled)
    assert ev.attack.total == 6 + 1 + 2


def test_an_item_name_holding_a_colon_is_refused_saying_how_to_separate_items():
    """Ruling (sheet.py parse_items): two items run together without a separator are refused, saying to separate
    them with ';' or ','; a piece after a ',' that is no 'name: skill +N' is refused with how an item is written."""
    why = refuses("separate them with ';' or ','", items="Longsword: Melee (Heavy) +1 Pendant: Cast +1")
    assert "runs two items together" in why
    why = refuses("must read 'name: skill +N'", items="Ancestral Longsword: Melee (Heavy) +1, Pendant")
    assert why.startswith("item 'Pendant'")


def test_an_older_fight_file_with_items_typed_with_commas_replays_as_before(tmp_path, monkeypatch):
    """A fight file written before commas split items holds the merged item its sheet was checked into; it loads,
    replays and fights on as it did (one item, the attack without the Longsword's +1: 10), and the detail pane
    quotes the merged name so it reads as the one item it is."""

    def as_before(sheet: dict) -> dict:
        """The earlier version's check: it wrote the items back as read, one item (the same text)."""
        return {**check_sheet({**sheet, "items": ""}), "items": TWO_ITEMS}

    path = tmp_path / "old.jsonl"
    roller = ScriptedRoller()
    fight = saves.new_fight(system, path, seed=1, roller=roller)
    with monkeypatch.context() as m:
        m.setattr(twod6_plugin, "check_sheet", as_before)
        fight.do(AddCombatant(name="Ann", sheet=sheet(str=1, skills="Melee (Heavy) 2, Cast 1", items=TWO_ITEMS)))
    fight.do(AddCombatant(name="Bob", sheet=DUMMY))
    fight.do(SetInitiative(values={"c1": 20, "c2": 19}))
    fight.do(StartFight())
    (ev,) = of(attack(fight, roller, (3, 4, 3, 4), "c1", "c2", skill="Melee (Heavy)"), AttackRolled)
    assert ev.attack.total == 10  # as the earlier version rolled it: no Longsword +1
    live = fight.state
    fight.close()
    assert f'"items":"{TWO_ITEMS}"' in path.read_text(encoding="utf-8")
    f = saves.load(path).fight(roller=roller)
    assert f.state == live
    merged = Item(name="Ancestral Longsword: Melee (Heavy) +1, Pendant", skill="Cast", bonus=1)
    assert data(f, "c1").items == (merged,)
    assert make_data("pc", {"items": TWO_ITEMS}).items == (merged,)
    shown = system.detail(f.state, f.state.get("c1"))
    assert 'Items: "Ancestral Longsword: Melee (Heavy) +1, Pendant" (Cast +1)' in shown
    f.do(Adjust(id="c2", field="wounds", value=3))  # fights on from the file: the next attack as before
    f.do(DismissPrompt(prompt_id=f.state.prompts[0].id, note="setup"))
    f.do(NextTurn())
    f.do(NextTurn())  # round 2: Ann again
    (again,) = of(attack(f, roller, (3, 4, 3, 4), "c1", "c2", skill="Melee (Heavy)"), AttackRolled)
    assert again.attack.total == 10
