"""The attack form starts on the weapon an empty field would use, and the dice asked for name it: an Outlaw with
two revolvers struck with his machete, and a PC with an empty gun with his knife, with no word of it."""

from __future__ import annotations

from systems.blackjack import system
from systems.blackjack.commands import Attack, attack_defaults
from tests.systems.blackjack.helpers import new_fight, npc, pc
from tracker import Adjust, StartFight
from tracker.dice import ScriptedRoller


def test_the_form_starts_on_the_first_ready_weapon() -> None:
    f = new_fight()
    josie = pc(f, "Josie", weapons="Revolver, Hunting knife")
    outlaw = npc(f, "Outlaw", "outlaw")
    fists = pc(f, "Fisty", weapons="")
    assert attack_defaults(f.state, josie) == {"weapon": "Revolver"}
    assert attack_defaults(f.state, outlaw) == {"weapon": f.state.get(outlaw).data.weapons[0].name}
    assert attack_defaults(f.state, fists) == {"weapon": "Fists"}
    f.do(Adjust(id=josie, field="shots", value="Revolver 0"))
    assert attack_defaults(f.state, josie) == {"weapon": "Hunting knife"}  # the one it will use, shown
    spec = next(s for s in system.commands() if s.name == "attack")
    assert spec.defaults_for(f.state, josie) == {"weapon": "Hunting knife"}


def test_the_dice_asked_for_an_attack_name_the_weapon() -> None:
    f = new_fight(5)
    josie = pc(f, "Josie", weapons="Revolver, Hunting knife")
    bear = npc(f, "Bear", "bear")
    f.do(StartFight())
    f.do(Attack(actor=josie, targets=(bear,)))
    roller = f.roller
    assert isinstance(roller, ScriptedRoller)
    assert roller.requests[-1].label == "Josie attacks Bear with the Revolver"
