"""A fight whose opening recovered many things (60 damaged checkpoints) says so in a few notices, the last counting
the rest: 60 toasts stacked over the fight screen."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from screens.app import TrackerApp
from screens.fight import WARNINGS_SHOWN
from tests.ui.drive import build_fight


def test_many_recovered_things_are_said_in_a_few_notices(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    build_fight("bnb", path).close()
    with path.open("ab") as f:
        for _ in range(12):
            f.write(b'{"checkpoint": damaged}\n')

    async def run() -> None:
        app = TrackerApp(open_path=path)
        said: list[str] = []
        notify = app.notify

        def heard(message: str, *, title: str = "", **kw: Any) -> None:
            if title == "Recovered":
                said.append(message)
            notify(message, title=title, **kw)

        app.notify = heard  # type: ignore[method-assign]
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await pilot.pause()
            assert 0 < len(said) <= WARNINGS_SHOWN, said
            assert "more of the kind" in said[-1], said

    asyncio.run(run())
