"""2d6 Gamma: the smaller rulings of our own, GM adjustments, help and the fight summary."""

from __future__ import annotations

from systems.twod6 import system
from systems.twod6.commands import Act, ChooseDouble, Resolve
from systems.twod6.events import AttackRolled, Wounded
from tests.systems.twod6.helpers import DUMMY, FIGHTER, attack, data, of, refused, set_wounds, setup, sheet
from tracker.commands import Adjust, Modifier, NextTurn
from tracker.events import Adjusted, PromptRaised, PromptResolved


def test_two_unconsciousness_checks_at_once_keep_the_higher_dc():
    """Ruling (ours): a knock-out (DC = attack total) and the 2-left check (DC 7) in one blow: one check, DC 12."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    first = attack(f, roller, (4, 4, 2, 3), "c1", "c2")  # 12 vs 5: doubled; the declared wound: 2 left
    events = f.do(ChooseDouble(actor="c1", target="c2", choice="unconscious"))
    assert [e.prompt.params["dc"] for e in of(first + events, PromptRaised) if e.prompt.kind == "resolve"] == [7, 12]
    assert of(events, PromptResolved)[0].note == "replaced by a DC 12 check"
    assert [(p.id, p.params["dc"]) for p in f.state.prompts] == [("resolve:c2", 12)]
    # the other way round: the knock-out first, then the 2-left check is covered by it
    f2, roller2 = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    attack(f2, roller2, (4, 4, 2, 3), "c1", "c2", result="unconscious")
    f2.do(ChooseDouble(actor="c1", target="c2", choice="wound"))
    assert [(p.id, p.params["dc"]) for p in f2.state.prompts] == [("resolve:c2", 12)]


def test_the_unconscious_minus_3_counts_on_a_check_rolled_while_unconscious():
    """Rule 7: "Unconscious characters ... take a -3 penalty to all checks": a death check rolled while
    unconscious takes it (the check after a tripled attack comes first, before the knock-out)."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", sheet(skills="Resolve 1")))
    set_wounds(f, "c2", 2)
    f.do(Adjust(id="c2", field="unconscious", value=True))
    attack(f, roller, (1, 2, 3, 4), "c1", "c2")  # 7 vs 4: a hit, 1 left: no check, already out
    assert f.state.prompts == ()
    f.do(NextTurn())  # Bob, unconscious, is skipped
    again = attack(f, roller, (2, 3, 5, 5), "c1", "c2")  # 9 vs 10 - 3: a hit, 0 left
    assert data(f, "c2").wounds == 0 and of(again, PromptRaised)[0].prompt.id == "death:c2"
    roller.add(4, 4)  # 8 + 1 - 3 = 6 < 7
    (rolled, _) = f.do(Resolve(actor="c2", stakes="death"))
    assert Modifier(label="unconscious", value=-3) in rolled.check.parts and rolled.check.total == 6
    assert data(f, "c2").dead


def test_a_defender_may_spend_a_cinematic_on_an_automatic_critical_defense():
    f, roller = setup(("Ann", FIGHTER), ("Bob", sheet(cinematics=1)))
    (ev,) = of(attack(f, roller, (5, 5, 2, 2), "c1", "c2", defense_critical=True), AttackRolled)
    assert ev.defense.automatic and ev.defense.total == 15 and not ev.hit
    assert data(f, "c2").cinematics == 0


def test_the_grappler_lets_go_as_a_quick_action():
    """Ruling (ours): the grappler releases its hold as a quick action."""
    f, roller = setup(("Ann", sheet(skills="Melee (Unarmed) 2")), ("Bob", DUMMY))
    attack(f, roller, (4, 4, 2, 4), "c1", "c2", skill="Melee (Unarmed)", result="grapple")
    f.do(Act(actor="c1", action="release grapple"))
    assert data(f, "c1").grappling is None and data(f, "c2").grappled_by is None and data(f, "c1").quick == 1
    refused(f, Act(actor="c1", action="release grapple"), "not holding anyone")


def test_falling_unconscious_ends_a_grapple():
    """Ruling (ours): someone unconscious or dead is out of any grapple."""
    f, roller = setup(("Ann", sheet(skills="Melee (Unarmed) 2")), ("Bob", DUMMY))
    attack(f, roller, (4, 4, 2, 4), "c1", "c2", skill="Melee (Unarmed)", result="grapple")
    f.do(NextTurn())
    f.do(NextTurn())
    attack(f, roller, (4, 4, 2, 4), "c1", "c2", skill="Melee (Unarmed)")
    roller.add(1, 1)
    f.do(Resolve(actor="c2"))
    assert data(f, "c2").unconscious and data(f, "c1").grappling is None


def test_gm_adjusts_a_stat_within_the_range():
    f, _ = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    (ev,) = f.do(Adjust(id="c1", field="agi", value=3))
    assert ev.old == 0 and data(f, "c1").agi == 3
    refused(f, Adjust(id="c1", field="agi", value=5), "above the most allowed")
    refused(f, Adjust(id="c1", field="wounds", value=9), "above the most allowed")


def test_help_detail_and_tally():
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    text = system.help()
    for word in ("Snake eyes", "Multiattack", "DC 9", "Cinematics", "a attack", "a melee parry too"):
        assert word in text
    assert "STR +1" in system.detail(f.state, f.state.get("c1"))
    events = attack(f, roller, (4, 4, 3, 4), "c1", "c2")
    before = f.steps[-1].before
    hit = system.tally(before, of(events, AttackRolled)[0])
    assert hit is not None and hit.hit and hit.target == "c2"
    harm = system.tally(before, of(events, Wounded)[0])
    assert harm is not None and harm.harm == 1 and not harm.fell
    assert [s.name for s in system.commands()][:3] == ["attack", "aim", "act"]
    form = next(s for s in system.commands() if s.name == "double_result")
    cmd = form.make({"actor": "c1", "target": "c2", "choice": "limb", "penalty": "-3"})
    assert isinstance(cmd, ChooseDouble) and cmd.penalty == -3


# -- GM adjustments of the fight state (audit) ---------------------------------------------------


def test_gm_frees_a_grapple_and_both_sides_let_go():
    """Ruling (ours): the GM sets 'grappled by'; empty frees the victim and the holder lets go too."""
    wrestler = sheet(str=1, skills="Melee (Unarmed) 2")
    f, roller = setup(("Ann", wrestler), ("Bob", wrestler), ("Cat", DUMMY))
    attack(f, roller, (4, 4, 1, 2), "c1", "c2", skill="Melee (Unarmed)", result="grapple")
    before = f.state
    (ev,) = f.do(Adjust(id="c2", field="grappled_by", value=""))
    assert ev.old == "c1" and ev.value is None
    assert data(f, "c2").grappled_by is None and data(f, "c1").grappling is None
    f.undo()
    assert f.state == before
    # moved to another holder: the old one lets go, the new one holds
    f.do(Adjust(id="c2", field="grappled_by", value="Cat"))
    assert data(f, "c2").grappled_by == "c3" and data(f, "c3").grappling == "c2"
    assert data(f, "c1").grappling is None
    refused(f, Adjust(id="c2", field="grappled_by", value="c2"), "cannot grapple itself")
    refused(f, Adjust(id="c2", field="grappled_by", value="Zed"), "no grappler 'Zed'")


def test_gm_heals_or_sets_useless_limbs_as_text():
    """Ruling (ours): useless limbs are set as 'name penalty' text; empty heals them all."""
    f, _ = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    (ev,) = f.do(Adjust(id="c2", field="useless_limbs", value="left leg -3, arm -2"))
    assert ev.old == "" and ev.value == "left leg -3, arm -2"
    assert data(f, "c2").limb_penalty == -5
    assert "left leg -3" in system.status(f.state, f.state.get("c2"))
    f.do(Adjust(id="c2", field="useless_limbs", value=""))
    assert data(f, "c2").limbs == ()
    refused(f, Adjust(id="c2", field="useless_limbs", value="arm"), "needs its penalty")
    refused(f, Adjust(id="c2", field="useless_limbs", value="arm -9"), "−2 or −3")


def test_gm_sets_the_half_round_actions_lost_next_turn():
    f, _ = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    f.do(Adjust(id="c2", field="distracted", value=1))
    f.do(NextTurn())
    assert data(f, "c2").half == 1 and data(f, "c2").distracted == 0
    refused(f, Adjust(id="c2", field="distracted", value=3), "above the most allowed")


def test_lowering_the_most_wounds_lowers_the_wounds_left():
    """Ruling (ours): wounds left never stay above the maximum the GM sets."""
    f, _ = setup(("Ann", FIGHTER), ("Bob", sheet(tou=2)))
    f.do(Adjust(id="c2", field="max_wounds", value=3))
    assert (data(f, "c2").wounds, data(f, "c2").max_wounds) == (3, 3)


def test_gm_knocking_out_a_grappler_ends_the_grapple():
    """Ruling (ours): set unconscious or dead by the GM, a combatant is out of any grapple, as in play."""
    wrestler = sheet(str=1, skills="Melee (Unarmed) 2")
    f, roller = setup(("Ann", wrestler), ("Bob", wrestler))
    attack(f, roller, (4, 4, 1, 2), "c1", "c2", skill="Melee (Unarmed)", result="grapple")
    f.do(Adjust(id="c1", field="unconscious", value=True))
    assert data(f, "c2").grappled_by is None and data(f, "c1").grappling is None


def test_every_adjustable_field_can_be_set_from_a_form_and_undone():
    """Every field system.adjustable offers takes a typed value, logs it and undoes exactly."""
    f, _ = setup(("Ann", sheet(str=1, cinematics=1)), ("Bob", DUMMY))
    typed = {"int": "1", "bool": "yes", "combatant": "c2", "str": "arm -2"}
    for p in system.adjustable(f.state, f.state.get("c1")):
        before, n = f.state, len(f.steps)
        value = "2" if p.name in ("wounds", "max_wounds", "cinematics", "str") else typed[p.kind]
        events = f.do(Adjust(id="c1", field=p.name, value=value))
        assert len(f.steps) == n + 1 and isinstance(events[0], Adjusted), p.name
        f.undo()
        assert f.state == before, p.name
