"""Form starting values: who acts, whom it targets, and what is left for the GM."""

from __future__ import annotations

from screens import logic
from tracker import AddCombatant, Fight, ScriptedRoller, StartFight, registry


def started(system_id: str) -> Fight:
    f = Fight(registry.load(system_id), roller=ScriptedRoller())
    f.do(AddCombatant(name="Dusty", kind="pc", sheet={"weapons": "Revolver"}))
    f.do(AddCombatant(name="Outlaw", preset="outlaw"))
    f.do(StartFight())
    return f


def test_a_required_target_is_guessed_as_the_first_foe() -> None:
    f = started("blackjack")
    spec = logic.find_spec(f.system, "attack")
    values = logic.prefill(spec, f.state, None)
    assert values["actor"] == "c1"
    assert values["targets"] == ("c2",)


def test_an_optional_opponent_is_left_empty() -> None:
    """A blackjack save 'against' an NPC adds its Threat to the DV: the GM must choose it."""
    f = started("blackjack")
    spec = logic.find_spec(f.system, "save")
    optional = [p.name for p in spec.params if p.kind in ("combatant", "combatants") and not p.required]
    assert optional, "the save form has an optional opponent"
    values = logic.prefill(spec, f.state, None)
    assert all(name not in values for name in optional)


def test_a_field_of_a_side_starts_on_one_of_that_side() -> None:
    """Arguin' on Hattie's turn with Jesse (a PC) selected started its NPC field on Jesse; zludge's first aid,
    the medic selected, started its patient on an enemy."""
    f = Fight(registry.load("blackjack"), roller=ScriptedRoller())
    f.do(AddCombatant(name="Hattie", kind="pc", sheet={"weapons": "Revolver"}))
    f.do(AddCombatant(name="Jesse", kind="pc", sheet={"weapons": "Revolver"}))
    f.do(AddCombatant(name="Outlaw", preset="outlaw"))
    f.do(StartFight())
    argue = logic.find_spec(f.system, "argue")
    values = logic.prefill(argue, f.state, "c2")  # Jesse selected, Hattie's turn
    assert values["actor"] == "c1" and values["npc"] == "c3", values
    assert logic.prefill(argue, f.state, "c3")["npc"] == "c3"  # an NPC selected stays
    z = Fight(registry.load("zludge"), roller=ScriptedRoller())
    z.do(AddCombatant(name="Rook", kind="pc"))
    z.do(AddCombatant(name="Mad Dog", kind="npc"))
    z.do(AddCombatant(name="Kit", kind="pc"))
    z.do(StartFight())
    aid = logic.find_spec(z.system, "first_aid")
    medic = z.state.current
    values = logic.prefill(aid, z.state, medic)
    patient = z.state.get(values["target"])
    assert patient.is_pc and values["actor"] == medic, values  # an ally (it was Mad Dog)


def test_the_actions_list_puts_a_name_match_before_a_match_in_the_help() -> None:
    """blackjack: x, "paper", Enter opened "Treat an injury" (its help mentions a paper), not "The paper is
    destroyed"."""
    from screens.dialogs.pick import matching

    system = registry.load("blackjack")
    options = [(f"{s.title} — {s.help}" if s.help else s.title, s.name) for s in logic.specs(system)]
    found = matching("paper", options)
    assert len(found) >= 2 and "paper" in found[0][0].split(" — ")[0].lower(), [label for label, _ in found]


def test_side_fields_in_the_forms_as_opened() -> None:
    """As the app opens them (the last-target guess comes after prefill): zludge's first aid on an NPC's turn,
    the medic selected, started its patient on the enemy PC; Arguin' on an NPC's turn put the NPC as the PC."""
    import asyncio
    import tempfile
    from pathlib import Path

    from screens.app import TrackerApp
    from screens.dialogs.form import FormDialog
    from screens.fight import FightScreen
    from screens.widgets.initiative import InitiativeList
    from tests.ui.drive import press

    async def form_values(path: Path, key: str, select: str, turn: str) -> dict[str, str]:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            for _ in range(6):
                if screen.fight.state.name(screen.fight.state.current) == turn:
                    break
                await press(pilot, "n")
            screen.query_one(InitiativeList).select(screen.fight.state.by_name(select).id)  # type: ignore[union-attr]
            await pilot.pause()
            await press(pilot, key)
            assert isinstance(app.screen, FormDialog)
            return {
                p.name: str(app.screen.query_one(f"#f-{p.name}").value)
                for p in app.screen.params
                if p.kind == "combatant"
            }

    with tempfile.TemporaryDirectory() as d:
        z = Path(d) / "z.jsonl"
        import saves

        fz = saves.new_fight("zludge", z, seed=1)
        fz.do(AddCombatant(name="Hero", kind="pc"))
        fz.do(AddCombatant(name="Thug 1", kind="npc"))
        fz.do(AddCombatant(name="Thug 2", kind="npc"))
        fz.do(StartFight())
        ids = {c.name: c.id for c in fz.state.combatants}
        fz.close()
        got = asyncio.run(form_values(z, "f", "Thug 2", "Thug 2"))
        assert got["actor"] == ids["Thug 2"] and got["target"] == ids["Thug 1"], got  # (it was Hero)
        b = Path(d) / "b.jsonl"
        fb = saves.new_fight("blackjack", b, seed=1)
        fb.do(AddCombatant(name="Hero", kind="pc", sheet={"weapons": "Revolver"}))
        fb.do(AddCombatant(name="Outlaw", preset="outlaw", count=2))
        fb.do(StartFight())
        ids = {c.name: c.id for c in fb.state.combatants}
        fb.close()
        got = asyncio.run(form_values(b, "g", "Hero", "Outlaw 2"))
        assert got["actor"] == ids["Hero"] and got["npc"] in (ids["Outlaw 1"], ids["Outlaw 2"]), got


def test_a_target_is_guessed_among_the_foes_the_players_see_first() -> None:
    """A PC's attack, the PC selected, started on the first NPC in the order: a sniper hidden from the players."""
    f = Fight(registry.load("blackjack"), roller=ScriptedRoller())
    f.do(AddCombatant(name="Dusty", kind="pc", sheet={"weapons": "Revolver"}))
    f.do(AddCombatant(name="Sniper", preset="outlaw", hidden=True))
    f.do(AddCombatant(name="Outlaw", preset="outlaw"))
    f.do(StartFight())
    spec = logic.find_spec(f.system, "attack")
    assert logic.prefill(spec, f.state, "c1")["targets"] == ("c3",)
