"""A tripled blow's check against death, when its extra wound takes the one facing it to 0: the check is rolled
unconscious, with −3 (one check a blow, the fall to 0 in it counting), and its text now says so: it still read
"(tripled; knocked unconscious either way)" and a GM settling it by a ruling saw no −3."""

from __future__ import annotations

from systems.twod6.commands import ChooseDouble, Resolve
from systems.twod6.events import ResolveRolled
from tests.systems.twod6.helpers import FIGHTER, attack, data, of, set_wounds, setup, sheet


def test_the_tripled_check_says_its_minus_3_once_the_extra_wound_takes_him_to_0() -> None:
    f, roller = setup(("Ann", FIGHTER), ("Bob", sheet(wil=1, tou=2, skills="Resolve 1")))
    set_wounds(f, "c2", 2)
    attack(f, roller, (6, 6, 3, 3, 1, 2), "c1", "c2", result="wound")
    (death,) = [p for p in f.state.prompts if p.kind == "death"]
    assert "−3" not in death.text and not data(f, "c2").unconscious
    f.do(ChooseDouble(actor="c1", target="c2", choice="wound"))
    assert data(f, "c2").unconscious and data(f, "c2").wounds == 0
    (death,) = [p for p in f.state.prompts if p.kind == "death"]
    assert death.text.endswith("(tripled; knocked unconscious either way; unconscious: −3)"), death.text
    roller.add(2, 3)
    (rolled,) = of(f.do(Resolve(actor="c2", stakes="death")), ResolveRolled)
    assert ("unconscious", -3) in [(p.label, p.value) for p in rolled.check.parts]
    assert [p.kind for p in f.state.prompts if p.kind == "death"] == []  # one check for the blow
