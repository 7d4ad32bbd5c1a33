"""Shared fixtures: the toy system is registered for every test; saves go to a temp folder."""

from __future__ import annotations

import gc
import os
import sys
import tempfile


def _keep_bytecode() -> None:
    """Compiled modules are kept, in a cache folder outside the checkout, even where the environment says
    PYTHONDONTWRITEBYTECODE (this machine's does).  Without them every xdist worker compiled and
    assertion-rewrote every module from source again, and so did every app process a test starts (the
    serve, crash and command-line tests): a tenth of the suite's CPU.  Set before anything of ours is
    imported; the environment carries it to the workers and to the processes the tests start."""
    if not (sys.dont_write_bytecode or os.environ.get("PYTHONDONTWRITEBYTECODE")):
        return
    prefix = sys.pycache_prefix or os.path.join(tempfile.gettempdir(), "gm-combat-tracker-pycache")
    sys.dont_write_bytecode = False
    sys.pycache_prefix = prefix
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = prefix


_keep_bytecode()

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

from tests.support import examples, toy  # noqa: E402
from tracker import registry  # noqa: E402

# shared, noisy machines: no per-example deadline (speed is measured in bench/); TRACKER_EXAMPLES=10 by hand
# runs ten times as many examples (here and where a test sets its own count: tests.support.examples)
settings.register_profile("tracker", deadline=None, max_examples=examples(100))
settings.load_profile("tracker")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: three workers per core. The Pilot tests spend part of their time waiting for the app to
    settle, and the serve and crash tests for the processes they start, so more workers than cores keep the
    cores busy (on this 2-core machine, once the suite's CPU came down to ~135 s: 4 workers 90-91 s,
    6 workers 84 s, 8 workers 85 s with more CPU spent starting them)."""
    return max(2, 3 * (os.cpu_count() or 1))


def pytest_collection_finish(session: pytest.Session) -> None:
    """Less time in the garbage collector (a fifth of the UI tests' time with the defaults): what lives
    after collection (the modules, classes, hypothesis's tables) is frozen out of every later collection,
    and the youngest generation is collected every 20,000 allocations instead of 700 (the app's widgets
    make many short-lived cycles; each collection walked every survivor again).  Explicit ``gc.collect()``
    still collects everything made since."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 10, 10)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """The run's end: one full collection (every finalizer runs, and pytest still reports one that raised),
    then what lives is frozen, so that the five collections pytest makes as it closes (to report exceptions
    raised in finalizers) have nothing left to walk.

    Here, not in ``pytest_unconfigure``: an xdist worker says it has finished only after this hook, and the
    runner waits for that; once it has, a worker still busy 5 s later is interrupted (a KeyboardInterrupt
    warning printed after the last test).  A worker holds 0.9-1.8 million objects at the end, and this
    collection took it 4-7 s (1.4-2.6 s of CPU, six workers on two cores): in ``pytest_unconfigure`` it was
    still running when the 5 s were up, in one run of three."""
    gc.collect()
    gc.freeze()


# The longest tests (seconds of CPU each), longest first: run first, so the workers of ``-n auto`` share them
# and never wait on one that started last.  Everything else keeps its order after them.
SLOW_FIRST = (
    "tests/ui/test_robust.py",
    "tests/test_quality.py::test_mypy_is_clean",  # a cold cache (a fresh clone on a new machine)
    "tests/ui/test_play_systems.py",
    "tests/ui/test_table_jobs.py::test_every_form_starts_on_the_selected_combatant",
    "tests/reliability/test_files.py::test_crafted_files",
    "tests/ui/test_play_toy.py",
    "tests/reliability/test_fuzz.py::test_truncation_at_every_byte",
    "tests/view/test_serve.py::test_stopping_tracker_serve_ends_every_process",
    "tests/ui/test_replay.py::test_replay_each_system_both_ways_and_continue",
    "tests/ui/test_table_jobs.py::test_dialog_focus_and_labels",
    "tests/view/test_browser.py",
    "tests/ui/test_table_view.py::test_the_row_says_dead",
    "tests/core/test_crash.py",
    "tests/reliability/test_writers.py::test_sigkill_during_writes",
    "tests/core/test_checkpoints.py::test_checkpoint_state_is_the_fold_state",
    "tests/core/test_linear_parsing.py::test_any_text_reads_as_the_old_pattern_read_it",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        return next((i for i, prefix in enumerate(SLOW_FIRST) if item.nodeid.startswith(prefix)), len(SLOW_FIRST))

    items.sort(key=rank)  # stable: the same order on every worker


@pytest.fixture(autouse=True, scope="session")
def _toy_system() -> None:
    registry.register(toy.system)


@pytest.fixture(autouse=True)
def _data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Never write into the real user's fights folder."""
    monkeypatch.setenv("TRACKER_DATA_DIR", str(tmp_path_factory.mktemp("data")))
