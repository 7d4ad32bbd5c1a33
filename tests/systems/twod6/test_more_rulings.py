"""2d6 Gamma: the smaller rulings of our own, GM adjustments, help and the fight summary."""

from __future__ import annotations

from systems.twod6 import commands as K
from systems.twod6 import system
from systems.twod6.events import AttackRolled, Wounded
from tests.systems.twod6.helpers import DUMMY, FIGHTER, attack, data, of, refused, setup, sheet
from tracker import commands as C
from tracker.events import PromptRaised, PromptResolved


def test_two_unconsciousness_checks_at_once_keep_the_higher_dc():
    """Ruling (ours): a knock-out (DC = attack total) and the 2-left check (DC 7) in one blow: one check, DC 12."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    attack(f, roller, (4, 4, 2, 3), "c1", "c2")  # 12 vs 5: doubled
    events = f.do(K.ChooseDouble(actor="c1", target="c2", choice="unconscious"))
    assert [e.prompt.params["dc"] for e in of(events, PromptRaised)] == [7, 12]
    assert of(events, PromptResolved)[0].note == "replaced by a DC 12 check"
    assert [(p.id, p.params["dc"]) for p in f.state.prompts] == [("resolve:c2", 12)]


def test_the_unconscious_minus_3_counts_on_a_death_check_only_if_already_out_before_the_blow():
    """Ruling (ours): −3 on a resolve check only for someone unconscious before the blow that calls for it."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", sheet(skills="Resolve 1")))
    f.do(C.Adjust(id="c2", field="wounds", value=1))
    f.do(C.Adjust(id="c2", field="unconscious", value=True))
    attack(f, roller, (1, 2, 3, 4), "c1", "c2")  # 7 vs 4: a hit
    (p,) = f.state.prompts
    assert p.id == "death:c2" and p.params["penalty"] == -3
    roller.add(4, 4)  # 8 + 1 - 3 = 6 < 7
    f.do(K.Resolve(actor="c2", stakes="death"))
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
    f.do(K.Act(actor="c1", action="release grapple"))
    assert data(f, "c1").grappling is None and data(f, "c2").grappled_by is None and data(f, "c1").quick == 1
    refused(f, K.Act(actor="c1", action="release grapple"), "not holding anyone")


def test_falling_unconscious_ends_a_grapple():
    """Ruling (ours): someone unconscious or dead is out of any grapple."""
    f, roller = setup(("Ann", sheet(skills="Melee (Unarmed) 2")), ("Bob", DUMMY))
    attack(f, roller, (4, 4, 2, 4), "c1", "c2", skill="Melee (Unarmed)", result="grapple")
    f.do(C.NextTurn())
    f.do(C.NextTurn())
    attack(f, roller, (4, 4, 2, 4), "c1", "c2", skill="Melee (Unarmed)")
    roller.add(1, 1)
    f.do(K.Resolve(actor="c2"))
    assert data(f, "c2").unconscious and data(f, "c1").grappling is None


def test_gm_adjusts_a_stat_within_the_range():
    f, _ = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    (ev,) = f.do(C.Adjust(id="c1", field="agi", value=3))
    assert ev.old == 0 and data(f, "c1").agi == 3
    refused(f, C.Adjust(id="c1", field="agi", value=5), "above the most allowed")
    refused(f, C.Adjust(id="c1", field="wounds", value=9), "above the most allowed")


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
    assert isinstance(cmd, K.ChooseDouble) and cmd.penalty == -3


# -- GM adjustments of the fight state (audit) ---------------------------------------------------


def test_gm_frees_a_grapple_and_both_sides_let_go():
    """Ruling (ours): the GM sets 'grappled by'; empty frees the victim and the holder lets go too."""
    wrestler = sheet(str=1, skills="Melee (Unarmed) 2")
    f, roller = setup(("Ann", wrestler), ("Bob", wrestler), ("Cat", DUMMY))
    attack(f, roller, (4, 4, 1, 2), "c1", "c2", skill="Melee (Unarmed)", result="grapple")
    before = f.state
    (ev,) = f.do(C.Adjust(id="c2", field="grappled_by", value=""))
    assert ev.old == "c1" and ev.value is None
    assert data(f, "c2").grappled_by is None and data(f, "c1").grappling is None
    f.undo()
    assert f.state == before
    # moved to another holder: the old one lets go, the new one holds
    f.do(C.Adjust(id="c2", field="grappled_by", value="Cat"))
    assert data(f, "c2").grappled_by == "c3" and data(f, "c3").grappling == "c2"
    assert data(f, "c1").grappling is None
    refused(f, C.Adjust(id="c2", field="grappled_by", value="c2"), "cannot grapple itself")
    refused(f, C.Adjust(id="c2", field="grappled_by", value="Zed"), "no grappler 'Zed'")


def test_gm_heals_or_sets_useless_limbs_as_text():
    """Ruling (ours): useless limbs are set as 'name penalty' text; empty heals them all."""
    f, _ = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    (ev,) = f.do(C.Adjust(id="c2", field="useless_limbs", value="left leg -3, arm -2"))
    assert ev.old == "" and ev.value == "left leg -3, arm -2"
    assert data(f, "c2").limb_penalty == -5
    assert "left leg -3" in system.status(f.state, f.state.get("c2"))
    f.do(C.Adjust(id="c2", field="useless_limbs", value=""))
    assert data(f, "c2").limbs == ()
    refused(f, C.Adjust(id="c2", field="useless_limbs", value="arm"), "needs its penalty")
    refused(f, C.Adjust(id="c2", field="useless_limbs", value="arm -9"), "−2 or −3")


def test_gm_sets_the_half_round_actions_lost_next_turn():
    f, _ = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    f.do(C.Adjust(id="c2", field="distracted", value=1))
    f.do(C.NextTurn())
    assert data(f, "c2").half == 1 and data(f, "c2").distracted == 0
    refused(f, C.Adjust(id="c2", field="distracted", value=3), "above the most allowed")


def test_lowering_the_most_wounds_lowers_the_wounds_left():
    """Ruling (ours): wounds left never stay above the maximum the GM sets."""
    f, _ = setup(("Ann", FIGHTER), ("Bob", sheet(tou=2)))
    f.do(C.Adjust(id="c2", field="max_wounds", value=3))
    assert (data(f, "c2").wounds, data(f, "c2").max_wounds) == (3, 3)


def test_gm_knocking_out_a_grappler_ends_the_grapple():
    """Ruling (ours): set unconscious or dead by the GM, a combatant is out of any grapple, as in play."""
    wrestler = sheet(str=1, skills="Melee (Unarmed) 2")
    f, roller = setup(("Ann", wrestler), ("Bob", wrestler))
    attack(f, roller, (4, 4, 1, 2), "c1", "c2", skill="Melee (Unarmed)", result="grapple")
    f.do(C.Adjust(id="c1", field="unconscious", value=True))
    assert data(f, "c2").grappled_by is None and data(f, "c1").grappling is None


def test_every_adjustable_field_can_be_set_from_a_form_and_undone():
    """Every field system.adjustable offers takes a typed value, logs it and undoes exactly."""
    f, _ = setup(("Ann", sheet(str=1, cinematics=1)), ("Bob", DUMMY))
    typed = {"int": "1", "bool": "yes", "combatant": "c2", "str": "arm -2"}
    for p in system.adjustable(f.state, f.state.get("c1")):
        before, n = f.state, len(f.entries)
        value = "2" if p.name in ("wounds", "max_wounds", "cinematics", "str") else typed[p.kind]
        f.do(C.Adjust(id="c1", field=p.name, value=value))
        assert len(f.entries) == n + 1, p.name
        f.undo()
        assert f.state == before, p.name
