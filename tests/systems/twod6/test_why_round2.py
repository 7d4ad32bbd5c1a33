"""2d6 Gamma Why?: the second audit's findings T1 and T2 (each failed on the code before its fix).

T1: every failed Negate, Sneak or break-free read "fails (a tie goes to the one opposing)", 6 vs 12 too, and
neither side's roll named its skill.  T2: an Entangle that lands cited only "The result is chosen first"; breaking
out of it read "Bandit 2: freed by Mage", as if the caster freed it.
"""

from __future__ import annotations

from typing import Any

from systems.twod6 import system
from systems.twod6.commands import Act, Attack, BreakGrapple, Negate, Sneak
from systems.twod6.events import BROKE_FREE, EffectApplied, OpposedRolled
from systems.twod6.table import R
from tests.systems.twod6.helpers import setup, sheet
from tracker import Fight
from tracker.commands import NextTurn
from tracker.dice import ScriptedRoller
from tracker.reasons import Reason


def why(f: Fight, cls: type, n: int = -1) -> tuple[Any, list[Reason]]:
    """The last event of type ``cls`` in step ``n``, and its reasons."""
    step = f.steps[n]
    s = step.before
    for ev in step.events:
        after = system.evolve(s, ev)
        if isinstance(ev, cls):
            found, reasons = ev, list(system.explain(s, ev, after))
        s = after
    return found, reasons


def text(reasons: list[Reason]) -> str:
    return "\n".join(f"{r.rule_id}: " + " · ".join(r.terms) for r in reasons)


def held(faces: tuple[int, ...], entangle: bool) -> tuple[Fight, ScriptedRoller]:
    f, roller = setup(
        ("Brawl", sheet(str=2, skills="Melee (Unarmed) 2")),
        ("Mage", sheet(int=2, skills="Cast 2", talents="Entangle, Negate")),
        ("Bandit", sheet(agi=1, armor="light")),
    )
    if entangle:
        f.do(NextTurn())
        roller.add(4, 4, 4, 4)  # a hit, not doubled
        f.do(Attack(actor="c2", targets=("c3",), skill="Cast (Entangle)", result="grapple"))
    else:
        roller.add(4, 4, 4, 4)  # a hit, not doubled
        f.do(Attack(actor="c1", targets=("c3",), skill="Melee (Unarmed)", result="grapple"))
        f.do(NextTurn())
    f.do(NextTurn())  # the Bandit's turn
    roller.add(*faces)
    return f, roller


def test_a_failed_break_free_says_the_tie_rule_only_on_a_tie_and_names_each_sides_skill():
    f, roller = held((3, 3, 4, 4), entangle=False)
    f.do(BreakGrapple(actor="c3"))
    ev, reasons = why(f, OpposedRolled)
    assert (ev.check.total, ev.opposing.total, ev.success) == (6, 12, False)
    said = text(reasons)
    assert "tie" not in said, said
    assert "Bandit Melee (Unarmed): 2d6 [3,3]" in said and "Brawl Melee (Unarmed): 2d6 [4,4]" in said, said
    assert "fails" in said
    # a tie (the Bandit's next turn): said, with its rule
    for _ in range(3):
        f.do(NextTurn())
    roller.add(5, 4, 2, 3)  # 9 + 1 AGI - 1 armor = 9 vs 5 + 2 ranks + 2 STR = 9
    f.do(BreakGrapple(actor="c3"))
    ev, reasons = why(f, OpposedRolled)
    assert ev.check.total == ev.opposing.total == 9 and not ev.success
    said = text(reasons)
    assert "fails: a tie goes to the one holding" in said and f"{R.OPPOSED.id}: tie at 9" in said, said


def test_a_failed_sneak_and_negate_name_their_skills_and_say_no_tie_that_was_not():
    f, roller = setup(("Shade", sheet(agi=1, skills="Stealth 1")), ("Guard", sheet(per=2, skills="Notice 2")))
    roller.add(2, 3, 5, 5)
    f.do(Sneak(actor="c1", targets=("c2",)))
    _, reasons = why(f, OpposedRolled)
    said = text(reasons)
    assert "Shade Stealth: 2d6 [2,3]" in said and "Guard Notice: 2d6 [5,5]" in said and "tie" not in said, said
    f, roller = setup(
        ("Mage", sheet(int=1, skills="Cast 1", talents="Negate")), ("Witch", sheet(int=1, skills="Cast 1"))
    )
    roller.add(3, 3, 3, 3)
    f.do(Negate(actor="c1", target="c2"))
    _, reasons = why(f, OpposedRolled)
    said = text(reasons)
    assert "Mage Cast: 2d6 [3,3]" in said and "Witch Cast: 2d6 [3,3]" in said, said
    assert "fails: a tie goes to the one opposing" in said and f"{R.CONTEST_TIE.id}: tie at 8" in said, said


def test_an_entangle_cites_entangle_and_breaking_out_is_no_freeing_by_the_caster():
    f, _ = held((5, 5, 2, 2), entangle=True)
    landed, reasons = why(f, EffectApplied, -2)  # the Mage's attack (then the Bandit's turn)
    assert landed.effect == "entangle"
    ids = [r.rule_id for r in reasons]
    assert R.ENTANGLE.id in ids and R.GRAPPLE.id in ids, ids
    assert "Bandit: entangled (a grapple at range) by Mage" in text(reasons)
    f.do(BreakGrapple(actor="c3"))
    ev, reasons = why(f, EffectApplied)
    assert ev.effect == "freed" and ev.source == BROKE_FREE
    said = text(reasons)
    assert "freed by" not in said and "Bandit breaks free of Mage's entangle against its Cast" in said, said
    assert [r.rule_id for r in reasons] == [R.ENTANGLE.id, R.GRAPPLE.id]
    _, reasons = why(f, OpposedRolled)
    assert "Mage Cast (Entangle): 2d6 [2,2]" in text(reasons)
    # the grappler letting go says so
    f, _ = held((), entangle=False)
    f.do(NextTurn())  # round 2: Brawl's turn
    f.do(Act(actor="c1", action="release grapple"))
    _, reasons = why(f, EffectApplied)
    assert text(reasons) == "grapple: Brawl lets go of Bandit"
    # an older file's "freed" (no source): neither "by" nor a guess
    step = f.steps[-1]
    old = EffectApplied(target="c3", effect="freed", by="c1")
    assert [r.terms for r in system.explain(step.before, old, step.after)] == [("Bandit is free of Brawl's grapple",)]
