"""The ``tracker`` command as installed (and ``python -m screens``).

The command line is read with the cyclic garbage collector held (see :mod:`screens.collector`, a speed trick
kept for launch figures 1 and 2 of bench/bench_speed.py): :mod:`screens.cli` and everything it imports are
imported from :func:`main`, once the collector is held.
"""

from __future__ import annotations

from screens import collector


def main() -> int:
    """The ``tracker`` command."""
    collector.hold()
    from screens import cli  # imported here, with the collector held: most of a launch's objects are made here

    return cli.main()
