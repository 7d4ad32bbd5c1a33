"""The cyclic garbage collector held from the ``tracker`` command's start (:mod:`screens.launch`) until the
first frame.

A speed trick kept by #43's rule, for launch figures 1 and 2 of bench/bench_speed.py ("1. continue a
2,500-event fight" and "2. open a 100,000-event fight": launch to first frame, <= 1.5x the bare Textual app).
Launching makes hundreds of thousands of objects (modules, classes, the fight's state) and no garbage worth a
collection, yet the collector scanned them ~125 times on the way to the first frame: 27 ms of a 290 ms launch
(bnb, in-process, 4 runs).  Measured with the bench, without it / with it, the two runs back to back
(2026-12-06, machine reference 30 ms): bnb 1.90x / 1.79x and 1.95x / 1.77x, zludge 1.93x / 1.76x and
1.88x / 1.71x; both figures still miss their target (see #43's closing note).

Once the first frame is drawn, what launch made is moved out of the collector's way for good (``gc.freeze``):
its later full collections scan only what the session makes.  A full collection falling inside the first
dialog the GM opens took 20 ms of it (blackjack attack form and add dialog, in-process, 3 runs alternated:
136-141 / 154-164 ms and 177-187 / 199-216 ms); the bench's "dialog open, first time" is one opening per
run, too few to show it apart from the machine's noise.

Every app of the command calls :func:`release` when Textual says its first frame is shown (``on_ready``), and
``tracker serve``, which has no frame, calls it before it serves; the short commands that print and end
(``check``, ``export``, ``replay --text``, ``systems``, ``where``) run with the collector held, as loading a
fight does anyway (:func:`saves.load`).
"""

from __future__ import annotations

import gc

_held = False


def hold() -> None:
    """The collector off until :func:`release` (if it is on: an embedding program's choice is kept)."""
    global _held
    if gc.isenabled():
        gc.disable()
        _held = True


def release() -> None:
    """The collector back on, if :func:`hold` held it; what was made until now frozen out of its way."""
    global _held
    if _held:
        _held = False
        gc.freeze()
        gc.enable()
