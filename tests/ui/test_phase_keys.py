"""Keys of one phase of the fight (setup, the running fight, after it) pressed in another say when they act,
in the toast every refused action uses, and log nothing (``L`` during a fight did nothing and said nothing)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.widgets import OptionList

from screens.app import TrackerApp
from screens.fight import FightScreen
from tests.ui.drive import build_fight, press, type_text
from tracker import commands as C


def toasts(app: TrackerApp) -> str:
    """The toasts on the screen, as drawn (their lines joined)."""
    out = []
    for toast in app.screen.query("Toast"):
        size = toast.outer_size
        out += [strip.text for strip in toast.render_lines(Region(0, 0, size.width, size.height))]
    return " ".join(" ".join(out).replace("▌", "").split())  # (▌: the toast's left edge, on each line)


SIZES = [(80, 24), (120, 36)]
SYSTEMS = ["bnb", "blackjack", "zludge", "twod6"]

# started?: (the key, the words the screen shows for it)
CASES = {
    True: [("L", "Let time pass (rest): before the fight starts or after it ends"), ("S", "the fight has started")],
    False: [("n", "Next turn: the fight has not started (S starts it)"), ("D", "the fight has not started")],
}


async def _refused_and_nothing_logged(path: Path, size: tuple[int, int], keys: list[tuple[list[str], str]]) -> None:
    """Open the fight; each list of keys (a key's name, or words with a space typed as they are) is refused with
    the toast's words, the toast then cleared; nothing is logged."""
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size, notifications=True) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FightScreen)
        logged = len(screen.fight.entries)
        for typed, said in keys:
            for key in typed:
                if " " in key:  # words typed (into the palette: its search then takes a moment, longer on a
                    await type_text(pilot, key)  # busy machine: wait for its list, not a fixed time)
                    for _ in range(100):
                        await pilot.pause(0.05)
                        if any(ol.option_count for ol in app.screen.query(OptionList)):
                            break
                    await pilot.pause(0.1)
                else:
                    await press(pilot, key)
            await pilot.pause()
            assert app.screen is screen, app.screen
            assert said in toasts(app), toasts(app)
            app.clear_notifications()
            await pilot.pause()
        assert len(screen.fight.entries) == logged


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("started", [True, False], ids=["running", "setup"])
@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_key_out_of_its_phase_says_when_it_acts(
    system_id: str, started: bool, size: tuple[int, int], data_dir: Path
) -> None:
    path = data_dir / "p.jsonl"
    build_fight(system_id, path, start=started).close()
    asyncio.run(_refused_and_nothing_logged(path, size, [([key], said) for key, said in CASES[started]]))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_palette_keeps_to_the_phase_as_the_keys_do(system_id: str, size: tuple[int, int], data_dir: Path) -> None:
    """ctrl+p "Quick damage" in the setup dealt the damage (the palette called the action past the screen's
    check, where the - key is refused): it says when it acts, as the key does, and logs nothing."""
    path = data_dir / "p.jsonl"
    build_fight(system_id, path, start=False).close()
    palette = ["ctrl+p", "Quick damage", "enter"]
    asyncio.run(
        _refused_and_nothing_logged(path, size, [(palette, "Quick damage: the fight has not started (S starts it)")])
    )


# a system's action of the running fight (its key, the title its refusal starts with), where it has one
FIGHT_ACTIONS = {"bnb": ("a", "Attack"), "zludge": ("a", "Attack"), "twod6": ("a", "Attack")}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("phase", ["setup", "ended"])
@pytest.mark.parametrize("system_id", sorted(FIGHT_ACTIONS))
def test_an_attack_out_of_the_fight_is_refused_before_its_form_opens(
    system_id: str, phase: str, size: tuple[int, int], data_dir: Path
) -> None:
    """After the fight's end the attack form opened, took the GM's choices, and OK was refused: "the fight is
    over". An action of the running fight says so at once, by its key and from the actions list (x)."""
    path = data_dir / "p.jsonl"
    fight = build_fight(system_id, path, start=phase == "ended")
    if phase == "ended":
        fight.do(C.EndFight())
    fight.close()
    key, title = FIGHT_ACTIONS[system_id]
    said = f"{title}: " + (
        "the fight has ended (u undoes its end)" if phase == "ended" else "the fight has not started (S starts it)"
    )
    asyncio.run(_refused_and_nothing_logged(path, size, [([key], said), (["x", f"{title}", "enter"], said)]))


@pytest.mark.parametrize("size", SIZES)
def test_ending_an_ended_fight_says_so_without_asking(size: tuple[int, int], data_dir: Path) -> None:
    """ctrl+e after the end asked "End the fight?", and Yes then said it was not done."""
    path = data_dir / "p.jsonl"
    fight = build_fight("bnb", path)
    fight.do(C.EndFight())
    fight.close()
    said = "End the fight: the fight is already over (u undoes its end)"
    asyncio.run(_refused_and_nothing_logged(path, size, [(["ctrl+e"], said)]))
