"""2d6 Gamma: the second round of held-out rules cases (audit rules3 findings 1, 5, 6; audit view finding 3).

Each test quotes the book line it plays (seeds/003_*.txt) and failed on the code before its fix.
"""

from __future__ import annotations

from screens.table import public_log
from systems.twod6 import system
from systems.twod6.commands import Attack, Contest, SkillCheck, Sneak, SpendCinematic
from systems.twod6.events import CinematicSpent, ContestRolled, SkillChecked
from systems.twod6.table import R
from tests.systems.twod6.helpers import data, refused, setup, sheet
from tracker import Fight
from tracker.commands import AddCombatant, Modifier, NextTurn, SetInitiative, SetView, StartFight
from tracker.dice import ScriptedRoller


def contest(f: Fight, roller: ScriptedRoller, faces: tuple[int, ...], **kw: object) -> ContestRolled:
    roller.add(*faces)
    (ev,) = [e for e in f.do(Contest(**kw)) if isinstance(e, ContestRolled)]  # type: ignore[arg-type]
    assert roller.exhausted, f"unused faces: {roller.queue}"
    return ev


def test_casting_by_a_check_or_an_opposed_check_takes_the_full_round():
    """A half-round action is "making an active skill check (not including an attack or casting as spell)" (@49307);
    "Characters with the fast caster talent can cast spells that would normally be a full round action as a
    half-round action instead" (@19837).  Casting by the opposed check (o) or a skill check (k) cost a half-round
    action, so a caster without Fast Caster cast twice a turn."""
    f, roller = setup(
        ("Mage", sheet(int=2, skills="Cast 2", talents="Charm")),
        ("Rook", sheet(wil=1, skills="Resolve 1")),
        ("Fast", sheet(int=2, skills="Cast 2", talents="Charm, Fast Caster")),
    )
    ev = contest(f, roller, (3, 3, 3, 3), actor="c1", target="c2", skill="Cast", opposing="Resolve")
    assert ev.cost == "full" and "[full action]" in ev.describe(f.steps[-1].before)
    refused(f, Contest(actor="c1", target="c2", skill="Cast", opposing="Resolve"), "full-round")
    refused(f, SkillCheck(actor="c1", skill="Cast", dc=9), "full-round")
    why = system.explain(f.steps[-1].before, ev, f.state)
    assert any(r.rule_id == R.CHECK_COST.id and "casting" in " ".join(r.terms) for r in why)
    # a spell's own Cast (Illusion) by a skill check: a full round too
    f, roller = setup(("Mage", sheet(int=2, skills="Cast 2", talents="Illusion")), ("Rook", sheet()))
    roller.add(3, 3)
    (chk,) = [e for e in f.do(SkillCheck(actor="c1", skill="Cast (Illusion)", dc=9)) if isinstance(e, SkillChecked)]
    assert chk.cost == "full" and data(f, "c1").half == 0
    # with Fast Caster: a half-round action, so two a turn
    f, roller = setup(
        ("Fast", sheet(int=2, skills="Cast 2", talents="Charm, Fast Caster")), ("Rook", sheet(skills="Resolve 1"))
    )
    one = contest(f, roller, (3, 3, 3, 3), actor="c1", target="c2", skill="Cast", opposing="Resolve")
    roller.add(3, 3)
    (two,) = [e for e in f.do(SkillCheck(actor="c1", skill="Cast", dc=9)) if isinstance(e, SkillChecked)]
    assert one.cost == two.cost == "half"
    ids = [r.rule_id for r in system.explain(f.steps[-1].before, two, f.state)]
    assert R.FAST_CASTER.id in ids
    # off its turn the GM's call costs nothing, as any check
    f.do(NextTurn())
    off = contest(f, roller, (3, 3, 3, 3), actor="c1", target="c2", skill="Cast", opposing="Resolve")
    assert off.cost == "none"
    # other active checks stay half-round
    f, roller = setup(("Brute", sheet(str=2, skills="Intimidate 1")), ("Rook", sheet(skills="Resolve 1")))
    assert contest(f, roller, (3, 3, 3, 3), actor="c1", target="c2", skill="Intimidate").cost == "half"


def test_a_deliberate_notice_on_ones_own_turn_is_a_half_round_action():
    """ "There are two kinds of notice checks: active and passive. Passive are checks that your character is unaware
    of …, whereas active checks are when your character says something like 'I put my ear against the wall and
    listen'" (@37861); quick actions include "performing a passive skill check (like notice or knowledge)", half-round
    ones "making an active skill check" (@49073).  A watcher's search by the opposed check on its own turn was a
    quick action: two searches and an attack in one turn."""
    f, roller = setup(("Shade", sheet(agi=2, skills="Stealth 2")), ("Guard", sheet(per=2, skills="Notice 2")))
    roller.add(3, 3, 1, 2)
    f.do(Sneak(actor="c1", targets=("c2",)))
    f.do(NextTurn())
    spot = contest(f, roller, (5, 5, 3, 3), actor="c2", target="c1", skill="Notice")
    assert spot.cost == "half" and "[half action]" in spot.describe(f.steps[-1].before)
    assert data(f, "c2").half == 1
    refused(f, Attack(actor="c2", targets=("c1",), skill="Melee (Heavy)"), "full-round")
    # the passive Notice the GM rolls for the character (the skill check form's) stays a quick action
    roller.add(3, 3)
    (passive,) = [e for e in f.do(SkillCheck(actor="c2", skill="Notice", dc=7)) if isinstance(e, SkillChecked)]
    assert passive.cost == "quick"
    # and the Notice opposing a Stealth costs the watcher nothing
    f.do(NextTurn())
    hide = contest(f, roller, (3, 3, 3, 3), actor="c1", target="c2", skill="Stealth")
    assert hide.opposing_skill == "Notice" and data(f, "c2").quick == 2 - 1  # its one quick action, spent above


def test_favored_culture_adds_1_on_diplomacy_bluff_and_intimidate_against_that_culture():
    """Favored Culture: "a +1 on all diplomacy, bluff, and intimidate checks if they take it as favored culture"
    (@20193).  Ruling: the culture is the other's sheet Race or its group (as Favored Enemy's race); the one opposing
    with Diplomacy or Bluff takes it too.  The opposed check ignored the talent: 8 vs 8, a tie lost."""
    f, roller = setup(
        ("Envoy", sheet(cha=1, skills="Diplomacy 1, Bluff 1, Intimidate 1", talents="Favored Culture (Goblin)")),
        ("Gob", sheet(cha=1, wil=1, skills="Diplomacy 1, Resolve 1", race="Goblin")),
        ("Man", sheet(cha=1, skills="Diplomacy 1")),
    )
    ev = contest(f, roller, (3, 3, 3, 3), actor="c1", target="c2", skill="Diplomacy")
    assert Modifier(label="favored culture", value=1) in ev.check.parts
    assert (ev.check.total, ev.opposing.total, ev.success) == (9, 8, True)
    why = system.explain(f.steps[-1].before, ev, f.state)
    fav = [r for r in why if r.rule_id == R.FAVORED_CULTURE.id]
    assert fav and "favored culture +1" in fav[0].terms[0]
    ev = contest(f, roller, (3, 3, 3, 3), actor="c1", target="c2", skill="Intimidate", stat="cha", cost="none")
    assert Modifier(label="favored culture", value=1) in ev.check.parts
    # another culture: nothing
    ev = contest(f, roller, (3, 3, 3, 3), actor="c1", target="c3", skill="Diplomacy", cost="none")
    assert all(p.label != "favored culture" for p in ev.check.parts) and not ev.success
    # the one opposing with Diplomacy takes it against an actor of its favored culture
    ev = contest(f, roller, (3, 3, 3, 3), actor="c2", target="c1", skill="Diplomacy", cost="none")
    assert Modifier(label="favored culture", value=1) in ev.opposing.parts and not ev.success
    # a group named after the culture counts as it does for Favored Enemy
    roller2 = ScriptedRoller()
    g = Fight(system, roller=roller2)
    g.do(AddCombatant(name="Envoy", kind="pc", sheet=sheet(skills="Bluff 1", talents="Favored Culture Elves")))
    g.do(AddCombatant(name="Lord", kind="npc", group="Elves", sheet=sheet(skills="Notice 1")))
    g.do(SetInitiative(values={"c1": 10, "c2": 5}))
    g.do(StartFight())
    ev = contest(g, roller2, (3, 3, 3, 3), actor="c1", target="c2", skill="Bluff")
    assert Modifier(label="favored culture", value=1) in ev.check.parts and ev.success


def test_a_reroll_of_a_check_against_a_hidden_foe_shows_the_players_nothing():
    """The players' view shows a hidden combatant's doings not at all: a PC's cinematic reroll of an Intimidate
    against a hidden foe read "Marla spends a cinematic (0 left): reroll the failed Intimidate check", a check the
    players never saw.  The same reroll against a seen foe is still said."""
    roller = ScriptedRoller()
    f = Fight(system, roller=roller)
    f.do(AddCombatant(name="Marla", kind="pc", sheet=sheet(str=1, skills="Intimidate 1", cinematics=3)))
    f.do(AddCombatant(name="Grunk", kind="npc", sheet=sheet(skills="Resolve 1")))
    f.do(AddCombatant(name="Lurker", kind="npc", hidden=True, sheet=sheet(skills="Resolve 2")))
    f.do(SetInitiative(values={"c1": 20, "c2": 15, "c3": 5}))
    f.do(StartFight())
    f.do(SetView(npc_numbers=True, npc_names=True, dice=True))
    lost = contest(f, roller, (2, 2, 4, 4), actor="c1", target="c3", skill="Intimidate")
    assert not lost.success
    roller.add(5, 5)
    events = f.do(SpendCinematic(actor="c1", use="reroll"))
    (spent,) = [e for e in events if isinstance(e, CinematicSpent)]
    assert spent.against == ("c3",)
    assert not [line for line in public_log(system, f.steps, f.state) if "cinematic" in line]
    # an automatic critical declared with a check against the hidden one: no line either
    contest(f, roller, (3, 3, 3, 3), actor="c1", target="c3", skill="Intimidate", cost="none", auto_critical=True)
    assert not [line for line in public_log(system, f.steps, f.state) if "cinematic" in line]
    # against the seen Grunk: said as before
    contest(f, roller, (2, 2, 4, 4), actor="c1", target="c2", skill="Intimidate", cost="none")
    roller.add(5, 5)
    f.do(SpendCinematic(actor="c1", use="reroll"))
    said = [line for line in public_log(system, f.steps, f.state) if "spends a cinematic" in line]
    assert said == ["Marla spends a cinematic (0 left): reroll the failed Intimidate check"], said
