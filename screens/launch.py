"""The ``tracker`` command as installed (and ``python -m screens``).

The command line is read with the cyclic garbage collector held (see :mod:`screens.collector`, a speed trick
kept for launch figures 1 and 2 of bench/bench_speed.py): :mod:`screens.cli` and everything it imports are
imported from :func:`main`, once the collector is held.

The modules a launch does not need are imported on first use, a second speed trick kept by #43's rule for launch
figure 1 ("1. continue a 2,500-event fight: launch to first frame", <= 1.5x the bare Textual app): the short
commands' (export, check, the players' view's follower, the rules pages: :mod:`screens.cli`), the summary and
its charts (textual-plotext: ``screens.actions.turns.summary``), the Why? view (``FightScreen.action_why``) and
each built-in system's explanations (its plug-in's ``explain``).  Measured 2026-12-07 at 92631a0, the same tree
with and without them, alternated with the bare app (whole process, first frame, medians of 15 and 25 runs):
bnb 1.83x / 1.71x and 1.82x / 1.71x, twod6 1.76x / 1.71x and 1.78x / 1.65x; the CPU time to the first frame
(bnb, 21 runs each) 838 / 744 ms.  The figure still misses its target (see #43's closing note).
"""

from __future__ import annotations

from screens import collector


def main() -> int:
    """The ``tracker`` command."""
    collector.hold()
    from screens import cli  # imported here, with the collector held: most of a launch's objects are made here

    return cli.main()
