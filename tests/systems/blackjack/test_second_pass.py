"""Rules fidelity, second pass (issue #16): each scenario quotes the book and failed on the first-pass code."""

from __future__ import annotations

import pytest

from systems.blackjack import system
from systems.blackjack.commands import (
    Attack,
    CastWorking,
    DestroyPaper,
    IngestLead,
    Injure,
    MakeSave,
    Rest,
    Treat,
)
from systems.blackjack.events import (
    AttackMade,
    InjuryCleared,
    InjuryMarked,
    PaperBound,
    PaperDestroyed,
    SavePassed,
    SaveRolled,
    WorkingCast,
    WorkingStopped,
)
from tests.systems.blackjack.helpers import data, new_fight, npc, of_type, pc, turn_of, weapon
from tracker.commands import Adjust, EndFight, Heal, NextTurn, RemoveCombatant, StartFight, parse_modifiers
from tracker.errors import Refused
from tracker.events import ConditionRemoved, PromptRaised

# -- 3. a second casting pays its powderburn before the dice ---------------------------------


def test_a_second_casting_marks_its_powderburn_before_the_dice() -> None:
    """Book: "A working may be cast once per day safely. A caster may choose to cast the working again at the
    cost of a lesser injury (powderburn)." The cost is marked first, then the working's dice are rolled."""
    f = new_fight(2)
    m = pc(f, "Ma", lead=3, workings="Hag eye 1 (cast)")
    f.do(IngestLead(actor=m, amount=1))
    ev = f.do(CastWorking(actor=m, working="Hag eye"))
    kinds = [type(e).__name__ for e in ev]
    assert kinds.index("InjuryMarked") < kinds.index("WorkingCast")
    assert of_type(ev, InjuryMarked)[0].name == "powderburn (second casting today)"
    assert of_type(ev, WorkingCast)[0].again and data(f, m).injuries[0] == ("powderburn (second casting today)",)


def test_a_second_casting_that_kills_the_caster_casts_nothing() -> None:
    """Ruling (rules/magic.py): a second casting's powderburn that kills the caster stops the working: no dice,
    no save, no effect, no sixes prompt."""
    f = new_fight()  # no faces scripted: any roll would fail the test
    m = pc(f, "Ma", lead=3, workings="Hex 1 (cast)", injuries="lesser a, lesser b, moderate c, moderate d, severe e")
    o = npc(f, "Outlaw", "outlaw")
    f.do(IngestLead(actor=m, amount=1))
    ev = f.do(CastWorking(actor=m, working="Hex", target=o))
    assert [type(e) for e in ev] == [InjuryMarked, WorkingStopped]
    assert ev[0].fatal and data(f, m).dead
    assert "the powderburn kills the caster" in ev[1].describe(f.state)
    assert not f.state.prompts and f.state.get(o).condition("Hexed") is None
    assert data(f, m).workings[0].cast_today


def test_a_second_casting_that_drops_the_caster_casts_nothing() -> None:
    """Ruling (rules/magic.py): a powderburn that lands at Severe ("Need help or will die") drops the caster:
    the working is not cast and the lead ingested stays ingested."""
    f = new_fight()
    m = pc(f, "Ma", lead=3, workings="Hex 1 (cast)", injuries="lesser a, lesser b, moderate c, moderate d")
    o = npc(f, "Outlaw", "outlaw")
    f.do(IngestLead(actor=m, amount=1))
    ev = f.do(CastWorking(actor=m, working="Hex", target=o))
    assert [type(e) for e in ev] == [InjuryMarked, WorkingStopped]
    assert ev[0].steps[-1] == "severe" and not data(f, m).dead
    assert system.standing(f.state, f.state.get(m)).word == "dying"
    assert data(f, m).ingested == 1 and data(f, m).lead == 2
    assert not of_type(ev, SaveRolled) and f.state.get(o).condition("Hexed") is None


# -- 4. a negotiation whose DV goes negative passes without a roll --------------------------------


def test_a_negotiation_whose_dv_goes_negative_passes_with_no_roll() -> None:
    """Book: "make a CTRL save with a DV equal to the NPC's Threat. In an advantageous position (with a bribe …),
    -4 to the DV. If it goes negative, the check passes automatically." """
    f = new_fight()  # no faces: a roll would fail the test
    d = pc(f, ctrl=5)
    o = npc(f, "Outlaw", "outlaw")
    before = f.state
    ev = f.do(MakeSave(actor=d, stat="CTRL", against=o, modifiers=parse_modifiers("bribe -4"), social=True))
    assert [type(e) for e in ev] == [SavePassed]
    assert ev[0].dv == -1
    assert ev[0].describe(before) == (
        "Dusty saves: CTRL DV -1 (Outlaw's Threat +3, bribe -4) is below 0: passes automatically, no roll"
    )


def test_a_negotiation_at_dv_0_or_not_social_still_rolls() -> None:
    """Book: "As always, add each injury to the DV": Threat 3 - 4 + 1 injury is 0, not negative: the save rolls.
    A save not marked social floors its DV at 0 and rolls, as every save does."""
    f = new_fight(4, 4)
    d = pc(f, ctrl=12, injuries="lesser bruised")
    o = npc(f, "Outlaw", "outlaw")
    ev = f.do(MakeSave(actor=d, stat="CTRL", against=o, modifiers=parse_modifiers("bribe -4"), social=True))
    assert of_type(ev, SaveRolled)[0].save.dv == 0
    clean = pc(f, "Clean", ctrl=12)
    ev = f.do(MakeSave(actor=clean, stat="CTRL", against=o, modifiers=parse_modifiers("bribe -4")))
    assert of_type(ev, SaveRolled)[0].save.dv == 0 and not of_type(ev, SavePassed)


# -- 5. melee axes and knives can be thrown ------------------------------------------------------


@pytest.mark.parametrize("name", ["Hand axe", "Hatchet", "Hunting knife", "Knife"])
def test_a_hand_axe_or_knife_can_be_thrown_at_nearby_range(name: str) -> None:
    """Book: "Melee weapons … Some can be thrown, like axes and knives, and use the Accuracy (ACC) save to
    attack." Ruling (rules/attacks.py): at nearby range, never far; the weapon then lies on the floor."""
    f = new_fight(10)
    d = pc(f, acc=14, body=5, weapons=f"{name}, Revolver")
    o = npc(f, "Outlaw", "outlaw")
    ev = f.do(Attack(actor=d, targets=(o,), weapon=name, range="nearby"))
    throw = of_type(ev, AttackMade)[0]
    assert (throw.save.stat, throw.thrown, throw.hit) == ("ACC", True, True)
    assert data(f, o).injuries[0] == (f"{name.lower()} wound",)
    assert weapon(f, d, name).dropped and f"the {name} lies on the floor" in throw.describe(f.state)
    n = len(f.entries)
    with pytest.raises(Refused, match="lies on the floor"):
        f.do(Attack(actor=d, targets=(o,), weapon=name, range="close"))
    assert len(f.entries) == n
    f.do(Adjust(id=d, field="floor", value=""))  # the GM gives it back
    assert not weapon(f, d, name).dropped
    with pytest.raises(Refused, match="cannot reach far range"):
        f.do(Attack(actor=d, targets=(o,), weapon=name, range="far"))
    assert len(f.entries) == n + 1


@pytest.mark.parametrize("name", ["Throwing knife", "Throwing axe"])
def test_a_throwing_knife_thrown_lies_on_the_floor_and_a_second_one_is_thrown_next(name: str) -> None:
    """Book l.204–205: "Throwing Knife | 1 | 2 to a slot": burden items, not a supply. Ruling (rules/attacks.py):
    thrown at nearby range, one lies on the floor as a thrown knife does; of two carried, the next throw takes the
    one still in hand, and a third is refused until the GM gives them back. (Each was thrown for ever.)"""
    f = new_fight(10, 10, 10)
    d = pc(f, acc=14, body=5, weapons=f"{name} x2, Revolver")
    o = npc(f, "Outlaw", "outlaw", threat=3)
    first = of_type(f.do(Attack(actor=d, targets=(o,), weapon=name, range="nearby")), AttackMade)[0]
    assert first.thrown and f"the {name} lies on the floor" in first.describe(f.state)
    second = of_type(f.do(Attack(actor=d, targets=(o,), weapon=name, range="nearby")), AttackMade)[0]
    assert second.thrown and second.weapon_index != first.weapon_index
    assert [w.dropped for w in data(f, d).weapons if w.name.startswith(name)] == [True, True]
    n = len(f.entries)
    with pytest.raises(Refused, match="lies on the floor"):
        f.do(Attack(actor=d, targets=(o,), weapon=name, range="nearby"))
    assert len(f.entries) == n
    f.do(Adjust(id=d, field="floor", value=""))  # the GM gives them back
    assert not any(w.dropped for w in data(f, d).weapons)
    close = of_type(f.do(Attack(actor=d, targets=(o,), weapon=name, range="close")), AttackMade)[0]
    assert not close.thrown and close.save.stat == "BODY"  # a melee weapon at close range: kept in hand


def test_other_melee_weapons_are_not_thrown_and_a_close_axe_is_melee() -> None:
    """Only the axes and knives are thrown: a machete must be close; a hand axe at close range is a BODY blow."""
    f = new_fight(3)
    d = pc(f, acc=14, body=12, weapons="Machete, Hand axe")
    o = npc(f, "Outlaw", "outlaw")
    with pytest.raises(Refused, match="must be close"):
        f.do(Attack(actor=d, targets=(o,), weapon="Machete", range="nearby"))
    ev = f.do(Attack(actor=d, targets=(o,), weapon="Hand axe"))
    assert (ev[0].save.stat, ev[0].thrown) == ("BODY", False) and not weapon(f, d, "Hand axe").dropped


# -- 6. Naming's agony is bound to the paper -----------------------------------------------------------


def _named(*extra_faces: int) -> tuple:
    f = new_fight(1, 1, 1, 1, *extra_faces)
    w = npc(f, "Witch", "hexpaper_witch")
    d = pc(f, ctrl=12, injuries="lesser bruised")
    f.do(IngestLead(actor=w, amount=3))
    ev = f.do(CastWorking(actor=w, working="Naming", target=d))
    return f, w, d, ev


def test_treatment_cannot_clear_namings_agony_destroying_the_paper_does() -> None:
    """Book: Naming: "CTRL save or suffer severe injury (agony). Can only be removed if the paper is destroyed."
    Ruling (rules/harm.py): treatment, quick healing and rest leave it; "The paper is destroyed" clears it."""
    f, _witch, d, ev = _named()
    bound = of_type(ev, PaperBound)[0]
    assert (bound.bond.working, bound.bond.level, bound.bond.name) == ("Naming", 2, "agony")
    assert data(f, d).injuries[2] == ("agony",)
    n = len(f.entries)
    with pytest.raises(Refused, match="bound to a paper"):
        f.do(Treat(target=d, level="severe"))
    with pytest.raises(Refused, match="bound to a paper"):
        f.do(Heal(targets=(d,), amount="severe"))
    assert len(f.entries) == n
    f.do(Treat(target=d))  # the worst it may clear: the lesser bruise
    assert data(f, d).injuries == ((), (), ("agony",))
    with pytest.raises(Refused, match="only destroying the paper removes them"):
        f.do(Treat(target=d))
    ev = f.do(DestroyPaper(target=d, note="burned in the stove"))
    assert [type(e) for e in ev] == [PaperDestroyed, InjuryCleared]
    assert ev[1].reason == "the paper is destroyed" and data(f, d).injuries == ((), (), ())
    assert data(f, d).bound == ()


def test_a_nights_rest_leaves_a_bound_agony_and_the_paper_also_ends_a_hex() -> None:
    """Ruling (rules/harm.py): a night's rest leaves the bound agony; destroying a Hex's paper ("+2 DV until the
    paper is destroyed") ends the Hexed condition and nothing else."""
    f, w, d, _ = _named(1, 1)
    f.do(EndFight())
    f.do(Rest())
    assert data(f, d).injuries == ((), (), ("agony",))
    f.do(IngestLead(actor=w, amount=1))
    f.do(CastWorking(actor=w, working="Hex", target=d))
    assert f.state.get(d).condition("Hexed") is not None
    n = len(f.entries)
    with pytest.raises(Refused, match="no paper binds Dusty with Curse"):
        f.do(DestroyPaper(target=d, working="Curse"))
    assert len(f.entries) == n
    ev = f.do(DestroyPaper(target=d, working="Hex"))
    assert of_type(ev, ConditionRemoved) and f.state.get(d).condition("Hexed") is None
    assert data(f, d).injuries[2] == ("agony",) and [b.working for b in data(f, d).bound] == ["Naming"]


# -- 6a. a removal during setup is no casualty ---------------------------------------------------------------


def test_a_removal_during_setup_is_no_casualty() -> None:
    """Book: morale is rolled when "they suffer the first casualty on their side". Rule ``casualty`` (ruling on blackjack l.245): a casualty is an NPC
    dropped, killed or removed after the fight has started. A removal in setup neither opens the prompt at the
    next plain miss nor uses up the trigger: the first real kill opens it."""
    f = new_fight(2, 10)
    d = pc(f, acc=14)
    o1 = npc(f, "Outlaw 1", "outlaw", group="Gang")
    o2 = npc(f, "Outlaw 2", "outlaw", group="Gang")
    o3 = npc(f, "Outlaw 3", "outlaw", group="Gang", injuries="moderate a, moderate b, severe c")
    f.do(RemoveCombatant(id=o1, reason="rode off before the shooting"))
    f.do(StartFight())
    ev = f.do(Attack(actor=d, targets=(o2,)))  # 2: at or under the DV, a plain miss
    assert not of_type(ev, PromptRaised) and not f.state.prompts
    turn_of(f, d)  # one attack a turn: the next is Dusty's next turn
    ev = f.do(Attack(actor=d, targets=(o3,)))  # 10: a hit, moderate → full → severe full → fatal
    assert data(f, o3).dead
    raised = of_type(ev, PromptRaised)[0].prompt
    assert raised.text.startswith("Gang: first casualty; half its number") and raised.combatant == o2
    with pytest.raises(Refused, match="resolve first"):
        f.do(NextTurn())


def test_a_severe_npc_is_no_casualty_until_it_dies() -> None:
    """Ruling (rules/morale.py): Severe ("need help or will die") leaves the NPC down but fighting: no casualty
    yet; its death is the side's first casualty."""
    f = new_fight()
    a = npc(f, "Outlaw A", "outlaw", group="Gang")
    npc(f, "Outlaw B", "outlaw", group="Gang")
    f.do(StartFight())
    ev = f.do(Injure(target=a, level="severe"))
    assert system.standing(f.state, f.state.get(a)).word == "dying" and not of_type(ev, PromptRaised)
    ev = f.do(Injure(target=a, level="severe"))
    assert data(f, a).dead and "first casualty" in of_type(ev, PromptRaised)[0].prompt.text
