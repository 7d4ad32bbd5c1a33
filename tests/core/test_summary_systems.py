"""Falls and harm in the summary and the recap, in every system (issue #11).

A fall counts whatever took the combatant out: the rules (an attack), quick
damage, or a GM adjustment; harm the GM writes in counts as harm taken, on the
GM's side.  The recap keeps what was logged after "The fight ends".
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest

import saves
from saves.export import recap
from screens import logic
from tracker import (
    AddCombatant,
    Adjust,
    Damage,
    DismissPrompt,
    EndFight,
    Fight,
    NextTurn,
    Note,
    RollInitiative,
    StartFight,
    registry,
)
from tracker.dice import DiceRequest
from tracker.errors import TrackerError
from tracker.events import Adjusted
from tracker.model import FightState
from tracker.replay import Timeline
from tracker.summary import OTHER, Summary, summarize

SYSTEMS = ("bnb", "blackjack", "zludge", "twod6")
CASTS = {  # a PC preset and an NPC preset (three of them)
    "bnb": ("shootist", "outlaw"),
    "blackjack": ("gunslinger", "outlaw"),
    "zludge": ("soldier", "thug"),
    "twod6": ("longsword", "bandit"),
}
LETHAL = {"bnb": "30", "blackjack": "fatal", "zludge": "4", "twod6": "10"}  # quick damage that takes anyone out
KNOCK_OUT = {  # a GM adjustment that takes someone out
    "bnb": ("status", "dead"),
    "blackjack": ("dead", "yes"),
    "zludge": ("dead", "yes"),
    "twod6": ("unconscious", "yes"),
}


def hurt_by_hand(system_id: str, state: FightState, cid: str) -> tuple[str, Any, int] | None:
    """A GM adjustment that harms without taking out: (field, value, harm), where the system keeps such a value."""
    d = state.get(cid).data
    if system_id == "bnb":
        return ("hp", d.hp - 1, 1)
    if system_id == "blackjack":
        from systems.blackjack.records import LEVELS

        had = [f"{LEVELS[i]} {name}" for i, row in enumerate(d.injuries) for name in row]
        return ("injury_list", ", ".join([*had, "lesser scratch"]), 1)
    if system_id == "twod6":
        return ("wounds", d.wounds - 1, 1)
    if system_id == "zludge" and d.wound_track.startswith("."):
        return ("wound_track", "0" + d.wound_track[1:], 1)  # a scratch written into the first box
    return None


class CycleRoller:
    """Faces that never run out: a fixed walk through each die's faces."""

    def __init__(self) -> None:
        self.k = 0

    def faces(self, request: DiceRequest) -> tuple[int, ...]:
        span = request.hi - request.lo + 1
        out = []
        for _ in range(request.count):
            self.k += 1
            out.append(request.lo + (self.k * 7) % span)
        return tuple(out)


def out(fight: Fight, cid: str) -> bool:
    state = fight.state
    return fight.system.standing(state, state.get(cid)).out


def answer_prompts(fight: Fight) -> None:
    for _ in range(10):
        state = fight.state
        if not state.prompts:
            return
        prompt = state.prompts[0]
        spec = logic.find_spec(fight.system, prompt.command)
        try:
            if spec is None:
                raise TrackerError("no command")
            fight.do(spec.make(logic.prompt_prefill(spec, state, prompt)))
        except TrackerError:
            fight.do(DismissPrompt(prompt_id=prompt.id, note="ruled"))


def fight_until_a_fall(fight: Fight, actions: int = 200) -> None:
    """Attacks by whoever's turn it is, by the rules, until someone is out of the fight."""
    system = fight.system
    attack = logic.find_spec(system, "attack")
    assert attack is not None
    for i in range(actions):
        if any(system.standing(fight.state, c).out for c in fight.state.present):
            return
        with contextlib.suppress(TrackerError):
            if fight.state.prompts:
                answer_prompts(fight)
            elif i % 2 == 0:
                fight.do(attack.make(logic.prefill(attack, fight.state, None)))
            else:
                fight.do(NextTurn())
    raise AssertionError("no one fell by the rules")


def standing_up(fight: Fight) -> list[str]:
    return [c.id for c in fight.state.present if not out(fight, c.id)]


def story(system_id: str, folder: Path) -> tuple[Path, dict[str, Any]]:
    """A fight with a fall by the rules, one by quick damage, one by a GM adjustment, then notes after the end."""
    system = registry.load(system_id)
    path = folder / f"{system_id}.jsonl"
    fight = saves.new_fight(system, path, seed=1, roller=CycleRoller())
    pc, npc = CASTS[system_id]
    fight.do(AddCombatant(name="", preset=pc, kind="pc"))
    fight.do(AddCombatant(name="", preset=npc, kind="npc", count=3))
    fight.do(RollInitiative())
    fight.do(StartFight())
    marks: dict[str, Any] = {}

    fight_until_a_fall(fight)
    marks["rules"] = len(fight.entries)

    victim = standing_up(fight)[-1]
    fight.do(Damage(targets=(victim,), amount=LETHAL[system_id]))
    assert out(fight, victim)
    marks["damaged"] = fight.state.name(victim)
    marks["damage"] = len(fight.entries)

    victim = standing_up(fight)[-1]
    field, value = KNOCK_OUT[system_id]
    fight.do(Adjust(id=victim, field=field, value=value, note="a rock falls on them"))
    assert out(fight, victim)
    marks["adjusted"] = fight.state.name(victim)
    marks["adjust"] = len(fight.entries)

    hurt = hurt_by_hand(system_id, fight.state, standing_up(fight)[0])
    if hurt is not None:
        marks["hurt"] = fight.state.name(standing_up(fight)[0])
        fight.do(Adjust(id=standing_up(fight)[0], field=hurt[0], value=hurt[1], note="a splinter"))
        marks["harm"] = hurt[2]
    marks["hurt_at"] = len(fight.entries)

    fight.do(EndFight(note="the gang runs"))
    fight.do(Note(text="Binding wounds after the fight"))
    fight.close()
    return path, marks


def falls_between(s: Summary, lo: int, hi: int) -> list[str]:
    return [f.who for f in s.falls if lo < f.seq <= hi]


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_every_kind_of_fall_and_harm_by_hand_counts(system_id: str, tmp_path: Path) -> None:
    path, marks = story(system_id, tmp_path)
    loaded = saves.load(path)
    timeline = Timeline(loaded.system, loaded.entries)
    s = summarize(timeline)

    by_rules = falls_between(s, 0, marks["rules"])
    assert by_rules, "the fall by the rules"
    assert falls_between(s, marks["rules"], marks["damage"]) == [marks["damaged"]]
    assert falls_between(s, marks["damage"], marks["adjust"]) == [marks["adjusted"]]
    for name in (*by_rules, marks["damaged"], marks["adjusted"]):
        f = s.fighter(name)
        assert f.fell_round is not None and f.falls == 1
    assert s.fighter(marks["adjusted"]).fell_round == timeline.state_at(marks["adjust"]).round

    if "hurt" in marks:  # harm the GM wrote in: harm taken, on the GM's side
        before = summarize(timeline, marks["adjust"])
        assert s.fighter(marks["hurt"]).harm_taken == before.fighter(marks["hurt"]).harm_taken + marks["harm"]
        gm = sum(by.get(OTHER, 0) for _r, by in s.harm_by_round)
        assert gm == sum(by.get(OTHER, 0) for _r, by in before.harm_by_round) + marks["harm"]

    text = recap(loaded)
    fell = text.split("## Who fell", 1)[1].split("##", 1)[0]
    for f in s.falls:
        assert f"{f.who} fell in round {f.round} (log line {f.seq})" in fell
    assert "## Harm per round" in text
    fight_part = text.split("## The fight", 1)[1].split("## Outcome", 1)[0]
    assert fight_part.index("The fight ends: the gang runs") < fight_part.index("Binding wounds after the fight")


def test_a_fall_counts_once_and_again_after_getting_up(tmp_path: Path) -> None:
    """Out, in again, out again: two falls; a tally and the standing saying the same fall: one."""
    system = registry.load("twod6")
    fight = Fight(system, roller=CycleRoller())
    fight.do(AddCombatant(name="Ann", preset="longsword", kind="pc"))
    fight.do(AddCombatant(name="Bob", preset="bandit", kind="npc"))
    fight.do(RollInitiative())
    fight.do(StartFight())
    bob = fight.state.by_name("Bob")
    assert bob is not None
    fight.do(Adjust(id=bob.id, field="unconscious", value="yes"))
    fight.do(Adjust(id=bob.id, field="dead", value="yes"))  # still the same fall
    fight.do(Adjust(id=bob.id, field="dead", value="no"))
    fight.do(Adjust(id=bob.id, field="unconscious", value="no"))  # up again
    fight.do(Damage(targets=(bob.id,), amount="10"))
    answer_prompts(fight)
    s = summarize(Timeline(system, fight.entries))
    assert [f.who for f in s.falls] == ["Bob", "Bob"]
    assert s.fighter("Bob").falls == 2 and s.fighter("Bob").fell_round == 1


def test_the_recap_is_titled_with_the_fight_name_and_keeps_what_follows_the_end(tmp_path: Path) -> None:
    from tests.support import toy
    from tracker import NameFight, SetInitiative

    path = tmp_path / "f.jsonl"
    f = saves.new_fight(toy.system, path, seed=1, roller=CycleRoller())
    f.do(NameFight(name="Ambush at the ford"))
    f.do(AddCombatant(name="Alice", kind="pc", sheet={"hp": 8}))
    f.do(AddCombatant(name="Goblin", preset="goblin"))
    f.do(SetInitiative(values={"c1": 15, "c2": 12}))
    f.do(StartFight())
    f.do(EndFight())
    f.do(Adjust(id="c2", field="hp", value=1, note="binding wounds"))
    f.do(NameFight(name="The ford, at dusk"))  # renamed afterwards: the last name is the fight's
    f.close()
    text = recap(saves.load(path))
    assert text.startswith("# Fight recap: The ford, at dusk\n")
    after = text.split("**The fight ends**", 1)[1].split("## Outcome", 1)[0]
    assert "binding wounds" in after and "The ford, at dusk" in after


def test_the_recap_shows_names_and_notes_as_typed_never_as_markdown(tmp_path: Path) -> None:
    """Names, notes and the fight's name holding Markdown or HTML (``*Star* _u_``, ``<b>Tag</b>``, a link) came
    out as emphasis, a tag or a link in any Markdown viewer: only table cells escaped ``|``.  Rendered, the
    recap now shows each as typed, and the dice faces stay readable in its source."""
    from markdown_it import MarkdownIt

    from tests.support import toy
    from tracker import NameFight, SetInitiative

    path = tmp_path / "f.jsonl"
    f = saves.new_fight(toy.system, path, seed=1, roller=CycleRoller())
    f.do(NameFight(name="**Ambush** at <i>the ford</i>"))
    f.do(AddCombatant(name="*Star* _u_", kind="pc", sheet={"hp": 8}))
    f.do(AddCombatant(name="<b>Tag</b>", kind="npc", sheet={"hp": 5}))
    f.do(AddCombatant(name="[x](http://e.org)", kind="npc", sheet={"hp": 5}))
    f.do(SetInitiative(values={"c1": 15, "c2": 12, "c3": 10}))
    f.do(StartFight())
    f.do(Damage(targets=("c2",), amount="2"))
    f.do(Note(text="~~gone~~ `code` | pipe"))
    f.close()
    text = recap(saves.load(path))
    html = MarkdownIt("commonmark").enable("table").enable("strikethrough").render(text)
    for made in ("<em>Star", "<em>u</em>", "<b>Tag", "<i>the", "<a ", "<code>code", "<s>gone", "<del>gone"):
        assert made not in html, (made, html)
    assert "<strong>Ambush" not in html
    for typed in ("*Star* _u_", "&lt;b&gt;Tag&lt;/b&gt;", "[x](http://e.org)", "~~gone~~ `code` | pipe"):
        assert typed in html, (typed, html)
    assert "**Ambush** at &lt;i&gt;the ford&lt;/i&gt;" in html
    assert "[" in text and "\\[" not in text  # a die's faces as the log shows them


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_combatant_added_as_it_was_kept_brings_no_harm_or_fall_into_the_fight(system_id: str, tmp_path: Path) -> None:
    """Its kept wounds are set by adjustments in the action that adds it ("as the preset was kept"): the
    summary counted them as harm taken in this fight (on the GM's side), and a combatant kept dead as a fall."""
    from saves import library

    first = Fight(registry.load(system_id), roller=CycleRoller())
    pc, npc = CASTS[system_id]
    first.do(AddCombatant(name="", preset=npc))
    first.do(StartFight())
    first.do(Damage(targets=("c1",), amount=LETHAL[system_id]))
    for p in list(first.state.prompts):
        first.do(DismissPrompt(prompt_id=p.id, note="setup"))
    pid = library.save_preset(system_id, first, "c1", "Kept", now=True, folder=tmp_path)
    try:
        later = Fight(registry.load(system_id), roller=CycleRoller())
        later.do(AddCombatant(name="", preset=pc))
        later.do(AddCombatant(preset=pid))
        assert any(e.event.note == "as the preset was kept" for e in later.entries if isinstance(e.event, Adjusted))
        s = summarize(Timeline(later.system, list(later.entries)))
        assert all(f.harm_taken == 0 and f.falls == 0 for f in s.fighters), s.fighters
        assert s.falls == () and not any(any(by.values()) for _r, by in s.harm_by_round)
    finally:
        registry.use_presets(system_id, ())


def test_the_recap_s_outcome_keeps_the_conditions_the_table_shows(tmp_path: Path) -> None:
    """The Combatants table said "Alice … HP 8/8; Stunned (to r2)", the Outcome just "Alice: HP 8/8"."""
    from tests.support import toy
    from tracker import AddCondition, SetInitiative

    path = tmp_path / "f.jsonl"
    f = saves.new_fight(toy.system, path, seed=1, roller=CycleRoller())
    f.do(AddCombatant(name="Alice", kind="pc", sheet={"hp": 8}))
    f.do(AddCombatant(name="Goblin", preset="goblin"))
    f.do(SetInitiative(values={"c1": 15, "c2": 12}))
    f.do(StartFight())
    f.do(AddCondition(id="c1", name="Stunned", rounds=2))
    f.close()
    outcome = recap(saves.load(path)).split("## Outcome", 1)[1].split("##", 1)[0]
    alice = next(line for line in outcome.splitlines() if line.startswith("- Alice"))
    assert "Stunned" in alice, outcome
