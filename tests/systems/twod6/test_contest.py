"""2d6 Gamma: opposed checks between two combatants (the ``contest`` command, key o).

Each test quotes the book line it plays (seeds/003_*.txt) and failed on the code before the command existed (the
audit's finding "no opposed check between two combatants": Intimidate could only be rolled against a DC typed in).
"""

from __future__ import annotations

from screens import keys
from systems.twod6 import system
from systems.twod6.commands import Contest, Sneak, SpendCinematic, reroll_choices
from systems.twod6.events import ContestRolled
from systems.twod6.table import R
from tests.systems.twod6.helpers import DUMMY, data, refused, setup, sheet
from tracker import Fight
from tracker.commands import AddCombatant, Adjust, Modifier, NextTurn, SetInitiative, StartFight
from tracker.dice import ScriptedRoller


def contest(f: Fight, roller: ScriptedRoller, faces: tuple[int, ...], **kw: object) -> ContestRolled:
    roller.add(*faces)
    (ev,) = [e for e in f.do(Contest(**kw)) if isinstance(e, ContestRolled)]  # type: ignore[arg-type]
    assert roller.exhausted, f"unused faces: {roller.queue}"
    return ev


def test_intimidate_is_opposed_by_resolve():
    """ "Intimidate is opposed by resolve" (@35535); "Intimidate [WIL] [STR]": auto takes the better of the two;
    Resolve against fear adds WIL.  On its own turn the check is a half-round action; off it, none."""
    f, roller = setup(
        ("Brute", sheet(str=2, wil=1, skills="Intimidate 1")),
        ("Clerk", sheet(wil=1, str=3, skills="Resolve 2")),
    )
    ev = contest(f, roller, (3, 4, 3, 3), actor="c1", target="c2", skill="Intimidate")
    assert ev.opposing_skill == "Resolve"
    assert ev.check.parts == (Modifier(label="Intimidate ranks", value=1), Modifier(label="STR", value=2))
    assert ev.opposing.parts == (Modifier(label="Resolve ranks", value=2), Modifier(label="WIL", value=1))
    assert (ev.check.total, ev.opposing.total, ev.success) == (10, 9, True)
    assert ev.cost == "half" and data(f, "c1").half == 1
    text = ev.describe(f.steps[-1].before)
    assert text.startswith("Brute Intimidate vs Clerk's Resolve: 2d6 [3,4]") and "— succeeds [half action]" in text
    f.do(NextTurn())  # Clerk's turn: Brute's check at this moment costs nothing
    ev = contest(f, roller, (1, 3, 5, 5), actor="c1", target="c2", skill="intimidate", stat="wil")
    assert ev.cost == "none" and not ev.success and ev.check.parts[1] == Modifier(label="WIL", value=1)


def test_bluff_is_opposed_by_notice_or_bluff_the_gm_may_choose():
    """Bluff "is opposed by another character's Notice or Bluff" (@32816): auto takes the target's better one, the
    GM may choose the other; Resolve is no opposition to a lie."""
    f, roller = setup(
        ("Liar", sheet(cha=2, skills="Bluff 2")),
        ("Mark", sheet(per=0, cha=1, skills="Bluff 2, Notice 1")),
    )
    ev = contest(f, roller, (3, 3, 3, 3), actor="c1", target="c2", skill="Bluff")
    assert ev.opposing_skill == "Bluff" and ev.opposing.total == 6 + 2 + 1  # Bluff 3 beats Notice 1
    ev = contest(f, roller, (3, 3, 3, 3), actor="c1", target="c2", skill="Bluff", opposing="Notice")
    assert ev.opposing_skill == "Notice" and ev.opposing.total == 6 + 1 and ev.success
    refused(f, Contest(actor="c1", target="c2", skill="Bluff", opposing="Resolve"), "with Notice or Bluff")


def test_diplomacy_is_opposed_by_diplomacy():
    """ "Diplomacy is opposed by diplomacy" (@34212), "Diplomacy [CHA]"."""
    f, roller = setup(("Envoy", sheet(cha=2, skills="Diplomacy 1")), ("Baron", sheet(cha=1, skills="Diplomacy 2")))
    ev = contest(f, roller, (4, 4, 4, 4), actor="c1", target="c2", skill="Diplomacy")
    assert ev.opposing_skill == "Diplomacy" and (ev.check.total, ev.opposing.total) == (11, 11)
    assert not ev.success  # a tie: the Baron is not won over
    refused(f, Contest(actor="c1", target="c2", skill="Diplomacy", opposing="Notice"), "with Diplomacy")
    refused(f, Contest(actor="c1", target="c1", skill="Diplomacy"), "cannot oppose itself")
    refused(f, Contest(actor="c1", target="c2", skill="Athletics"), "use a skill check")


def test_perform_notice_forgery_and_casting_each_meet_what_the_book_names():
    """ "Perform is opposed by perform" (@38685); "Forgery is opposed by Notice" (@34954); "Notice is most often opposed
    by stealth, but can also be opposed by forgery, lie" (@38202); casting "can be opposed by a defensive combat
    check, a resolve check, or even an athletics check … but can always be opposed by another casting roll"
    (@33411); a negated caster casts nothing (@27954)."""
    f, roller = setup(
        ("Bard", sheet(cha=1, per=1, int=1, skills="Perform (Song) 2, Forgery 1, Notice 1, Cast 1")),
        ("Rival", sheet(cha=1, per=2, wil=2, skills="Perform 1, Notice 1, Stealth 2, Resolve 2, Cast 1")),
    )
    ev = contest(f, roller, (3, 3, 3, 3), actor="c1", target="c2", skill="Perform", stat="cha")
    assert ev.opposing_skill == "Perform" and ev.check.parts[0] == Modifier(label="Perform (Song) ranks", value=2)
    ev = contest(f, roller, (3, 3, 3, 3), actor="c1", target="c2", skill="Forgery", cost="none")
    assert ev.opposing_skill == "Notice" and ev.opposing.total == 6 + 1 + 2
    ev = contest(f, roller, (3, 3, 3, 3), actor="c1", target="c2", skill="Notice", cost="none")
    assert ev.opposing_skill == "Stealth" and ev.opposing.total == 6 + 2  # Stealth 2 + AGI 0: its best
    ev = contest(f, roller, (3, 3, 3, 3), actor="c1", target="c2", skill="Notice", opposing="Bluff", cost="none")
    assert ev.opposing_skill == "Bluff" and ev.opposing.total == 6 + 2  # no Bluff ranks: WIL, its better stat
    ev = contest(f, roller, (3, 3, 3, 3), actor="c1", target="c2", skill="Cast", cost="none")
    assert ev.opposing_skill == "Resolve" and ev.opposing.total == 6 + 2 + 2  # Resolve 4 beats Cast 1 + WIL 2
    ev = contest(f, roller, (3, 3, 3, 3), actor="c1", target="c2", skill="Cast", opposing="Athletics", cost="none")
    assert ev.opposing_skill == "Athletics"
    f.do(NextTurn())
    f.do(NextTurn())
    f.do(Adjust(id="c2", field="negated", value=True))
    refused(f, Contest(actor="c1", target="c2", skill="Cast", opposing="Cast"), "negated")
    f.do(Adjust(id="c1", field="negated", value=True))
    refused(f, Contest(actor="c1", target="c2", skill="Cast"), "negated")


def test_lockpicking_and_hacking_are_opposed_by_the_craft():
    """ "Lockpicking is opposed by Craft (Lock)" (@36596), Hacking "is opposed by Craft(Programming)" (@35149).
    Ruling: a craft is a Trade (@33542): the target's Trade (Lock) counts when it has no Craft (Lock)."""
    f, roller = setup(
        ("Thief", sheet(dex=2, int=1, skills="Lockpicking 1, Hacking 1")),
        ("Smith", sheet(int=1, dex=2, skills="Trade (Lock) 2, Craft (Programming) 1")),
    )
    ev = contest(f, roller, (3, 3, 3, 3), actor="c1", target="c2", skill="Lockpicking")
    assert ev.opposing_skill == "Trade (Lock)" and ev.opposing.total == 6 + 2 + 2
    assert ev.check.parts == (Modifier(label="Lockpicking ranks", value=1), Modifier(label="DEX", value=2))
    ev = contest(f, roller, (3, 3, 3, 3), actor="c1", target="c2", skill="Hacking", cost="none")
    assert ev.opposing_skill == "Craft (Programming)" and ev.opposing.total == 6 + 1 + 2
    assert ev.check.parts[1] == Modifier(label="INT", value=1)  # "Hacking [INT]"


def test_a_tie_goes_to_the_one_opposing():
    """Ruling (rule contest_tie): the book's only tie between two checks is combat's ("In the event of a tie, the
    defender always wins", @51089); an opposed check goes the same way.  Snake eyes lose ("a natural 2 … you
    automatically lose"), both snake eyes go to the one opposing, and a critical rolls on (as any check)."""
    f, roller = setup(("Ann", sheet(skills="Intimidate 1")), ("Bob", sheet(skills="Resolve 1")))
    tie = contest(f, roller, (3, 4, 4, 3), actor="c1", target="c2", skill="Intimidate", stat="str", cost="none")
    assert tie.check.total == tie.opposing.total == 8 and not tie.success
    before = f.steps[-1].before
    assert tie.describe(before).endswith("— fails (a tie goes to the one opposing)")
    ids = [r.rule_id for r in system.explain(before, tie, f.state)]
    assert R.CONTEST.id in ids and R.CONTEST_TIE.id in ids
    both = contest(f, roller, (1, 1, 1, 1), actor="c1", target="c2", skill="Intimidate", stat="str", cost="none")
    assert not both.success
    theirs = contest(f, roller, (1, 2, 1, 1), actor="c1", target="c2", skill="Intimidate", stat="str", cost="none")
    assert theirs.success and theirs.opposing.fumble  # 4 beats nothing: Bob's snake eyes lose
    mine = contest(f, roller, (1, 1, 1, 2), actor="c1", target="c2", skill="Intimidate", stat="str", cost="none")
    assert not mine.success and mine.check.fumble
    crit = contest(f, roller, (6, 5, 1, 2, 6, 6, 6, 6, 1, 1), actor="c1", target="c2", skill="Intimidate", stat="str")
    assert crit.check.total == 11 + 3 + 1 and crit.opposing.total == 11 + 11 + 2 + 1 and not crit.success


def test_stealth_then_intimidate_meets_armor_only_and_sneak_attack_adds_1():
    """Stealth: "If a character makes a successful stealth check against another character's notice before using
    the … intimidate, or diplomacy skills, the defender may not add any bonus to their roll in the subsequent
    check, other than those from armor" (@40586; RULINGS second pass: it covers intimidate and diplomacy).  Sneak
    "Attack": "+1 on their next 'attack'" for the skill the talent names (@22636).  The Stealth is spent by that
    check; a Bluff neither uses nor spends it."""
    f, roller = setup(
        (
            "Shade",
            sheet(
                agi=2,
                str=1,
                cha=1,
                skills="Stealth 2, Intimidate 1, Diplomacy 1, Bluff 1",
                talents="Sneak Attack (Intimidate)",
            ),
        ),
        ("Guard", sheet(wil=2, cha=2, skills="Resolve 2, Diplomacy 2, Notice 1", armor="light")),
    )
    roller.add(4, 4, 1, 2)
    f.do(Sneak(actor="c1", targets=("c2",)))
    assert data(f, "c1").hidden_from == ("c2",)
    bluff = contest(f, roller, (3, 3, 3, 3), actor="c1", target="c2", skill="Bluff")
    assert bluff.opposing_skill == "Bluff" and not bluff.stealth and data(f, "c1").hidden_from == ("c2",)
    f.do(NextTurn())
    f.do(NextTurn())
    ev = contest(f, roller, (3, 3, 3, 3), actor="c1", target="c2", skill="Intimidate")
    assert ev.stealth and ev.opposing_skill == "armor only (caught by stealth)"
    assert ev.opposing.parts == (Modifier(label="light armor", value=1),)  # no Resolve, no WIL
    assert Modifier(label="sneak attack", value=1) in ev.check.parts and ev.check.total == 6 + 1 + 1 + 1
    assert data(f, "c1").hidden_from == ()  # spent
    why = {r.rule_id for r in system.explain(f.steps[-1].before, ev, f.state)}
    assert {R.STEALTH.id, R.SNEAK_ATTACK.id, R.CONTEST.id} <= why
    again = contest(f, roller, (3, 3, 3, 3), actor="c1", target="c2", skill="Intimidate")
    assert not again.stealth and again.opposing_skill == "Resolve"  # the advantage was spent
    # Diplomacy: armor only too, but Sneak Attack (Intimidate) gives it nothing
    f.do(NextTurn())
    f.do(NextTurn())
    roller.add(4, 4, 1, 2)
    f.do(Sneak(actor="c1", targets=("c2",)))
    dip = contest(f, roller, (3, 3, 3, 3), actor="c1", target="c2", skill="Diplomacy")
    assert dip.stealth and dip.opposing.total == 6 + 1
    assert all(p.label != "sneak attack" for p in dip.check.parts) and data(f, "c1").hidden_from == ()


def test_stealth_contest_before_the_fight_hides_and_notice_spots():
    """Sneak "Attack" works "either in or out of combat" (@22500): Stealth against Notice before the fight hides the
    sneak, and its Intimidate once the fight runs meets armor only.  Ruling: an active Notice that beats the hider's
    Stealth ("Notice is most often opposed by stealth", @38202) spots it: that Stealth is gone."""
    roller = ScriptedRoller()
    f = Fight(system, roller=roller)
    f.do(AddCombatant(name="Shade", kind="pc", sheet=sheet(agi=2, skills="Stealth 2, Intimidate 1")))
    f.do(AddCombatant(name="Guard", kind="npc", sheet=sheet(per=1, skills="Notice 1, Resolve 1, Stealth 1")))
    ev = contest(f, roller, (4, 4, 2, 3), actor="c1", target="c2", skill="Stealth")
    assert ev.success and ev.opposing_skill == "Notice" and ev.cost == "none"
    assert data(f, "c1").hidden_from == ("c2",)
    # the Guard searches and beats the Shade's Stealth: spotted
    spot = contest(f, roller, (5, 5, 3, 3), actor="c2", target="c1", skill="Notice")
    assert spot.success and spot.opposing_skill == "Stealth" and data(f, "c1").hidden_from == ()
    ev = contest(f, roller, (4, 4, 2, 3), actor="c1", target="c2", skill="Stealth")
    f.do(SetInitiative(values={"c1": 10, "c2": 5}))
    f.do(StartFight())
    ev = contest(f, roller, (3, 3, 3, 3), actor="c1", target="c2", skill="Intimidate", stat="str")
    assert ev.stealth and ev.opposing.total == 6 and ev.cost == "half"


def test_a_cinematic_rerolls_a_lost_contest_against_the_same_opposing_roll():
    """ "reroll a failed check" (@56400): a lost opposed check is rerolled; the opposing roll stands."""
    f, roller = setup(("Ann", sheet(str=1, skills="Intimidate 1", cinematics=1)), ("Bob", sheet(skills="Resolve 2")))
    lost = contest(f, roller, (2, 2, 4, 4), actor="c1", target="c2", skill="Intimidate")
    assert not lost.success and len(data(f, "c1").failed) == 1
    assert reroll_choices(f.state, "c1")["check"] == ("Intimidate check against Bob",)
    roller.add(5, 5)
    events = f.do(SpendCinematic(actor="c1", use="reroll"))
    (again,) = [e for e in events if isinstance(e, ContestRolled)]
    assert again.reroll and again.opposing == lost.opposing and again.success and again.cost == "none"
    assert data(f, "c1").failed == () and data(f, "c1").cinematics == 0
    assert "(cinematic reroll)" in again.describe(f.state)


def test_the_opposed_check_has_its_key_form_help_and_players_line():
    """The form (key o, free among the core's keys and the plug-in's), the help, and the players' line."""
    spec = next(s for s in system.commands() if s.name == "contest")
    assert spec.key == "o" and keys.system_keys(system)["o"] == "contest"
    assert [s.key for s in system.commands()].count("o") == 1
    assert all("o" not in b.key.split(",") for b in keys.CORE)
    cmd = spec.make({"actor": "c1", "target": "c2", "skill": "Bluff", "opposing": "Notice"})
    assert isinstance(cmd, Contest) and cmd.opposing == "Notice"
    help_text = system.help()
    assert "o opposed check" in help_text and "Intimidate vs Resolve" in help_text and "g negate" in help_text
    f, roller = setup(("Ann", sheet(skills="Intimidate 1")), ("Bob", DUMMY))
    ev = contest(f, roller, (4, 4, 1, 2), actor="c1", target="c2", skill="Intimidate", stat="str")
    said = system.tally(f.steps[-1].before, ev)
    assert said is not None and said.deed == "{actor} Intimidate vs {target}: succeeds"
