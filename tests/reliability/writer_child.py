"""A child process that plays a fight forever in one system, printing the log length after each action returned."""

from __future__ import annotations

import sys

import saves
from bench.fights import GM
from tests.support import toy
from tracker import SeededRoller, registry

registry.register(toy.system)
system_id, path, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
fight = saves.new_fight(system_id, path, seed=seed, roller=SeededRoller(seed))
gm = GM(fight, seed)
gm.setup()
print(fight.log.new_seq - 1, flush=True)
while True:
    gm.turn()
    print(fight.log.new_seq - 1, flush=True)  # acknowledged: on disk
