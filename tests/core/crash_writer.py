"""A child process for the crash test: plays a fight forever, printing each action once it returned."""

from __future__ import annotations

import sys

import saves
from tests.support import toy
from tracker import AddCombatant, NextTurn, Note, RollInitiative, SeededRoller, StartFight, registry

registry.register(toy.system)
path = sys.argv[1]
fight = saves.new_fight(toy.system, path, seed=11, roller=SeededRoller(11))
script = [
    AddCombatant(name="Alice", kind="pc", sheet={"hp": 30}),
    AddCombatant(name="Goblin", count=3, sheet={"hp": 30}),
    RollInitiative(),
    StartFight(),
]
n = 0
while True:
    cmd = script[n] if n < len(script) else (NextTurn() if n % 3 else Note(text=f"note {n} " + "x" * (n % 50)))
    fight.do(cmd)
    print(fight.entries[-1].seq, flush=True)  # acknowledged: the action is on disk
    n += 1
