"""What every family of blackjack rules shares: the registry, who can act, weapons and workings by name, sides.

Rulings made here (beyond the rules table: ``fists``, ``casualty``), each named in a test:
- Anyone can fight with Fists (lesser, bludgeoning) even when the sheet lists
  none: "Fists" (or "unarmed") names them, and a combatant with no weapons
  on the sheet attacks with them (``test_anyone_can_punch_with_fists_for_a_lesser_injury``).
- A side is the NPCs sharing a group; ungrouped NPCs are one side
  (``test_morale_sides_are_groups_and_ungrouped_npcs_are_one_side``).
"""

from __future__ import annotations

from tracker.errors import Refused
from tracker.kit import Rules, need
from tracker.model import Combatant, FightState

from ..presets import WEAPONS
from ..records import Weapon, Working, data
from ..table import R, applies

rules = Rules()

FISTS = WEAPONS["fists"]
BARE_HANDS = ("fists", "fist", "unarmed", "punch", "bare hands")


def able(state: FightState, cid: str | None, what: str = "combatant") -> Combatant:
    """A combatant who can still act: not dead (Fatal), not fled or surrendered."""
    c = need(state, cid, what)
    d = data(c)
    if d.dead:
        raise Refused(f"{c.name} is dead (a Fatal injury) and cannot act", rule=R.FATAL)
    if d.out:
        raise Refused(f"{c.name} has {d.out} and is out of the fight", rule=R.MORALE)
    return c


@applies(R.FISTS)
def find_weapon(c: Combatant, name: str) -> tuple[int, Weapon]:
    """The named weapon (exact, then by prefix: of two alike, the one not lying on the floor); empty: the first ready one; Fists are always at hand (index -1)."""
    ws = data(c).weapons
    key = name.strip().lower()
    if key:
        exact = [(i, w) for i, w in enumerate(ws) if w.name.lower() == key]
        found = exact + [(i, w) for i, w in enumerate(ws) if w.name.lower().startswith(key) and (i, w) not in exact]
        if found:  # of two alike ("Throwing knife x2": "Throwing knife", "Throwing knife 2"), one still in hand
            return next(((i, w) for i, w in found if not w.dropped), found[0])
        if key in BARE_HANDS:
            return -1, FISTS
        have = ", ".join(w.name for w in ws) or "nothing"
        raise Refused(f"{c.name} has no weapon '{name}' (has: {have}; anyone can use Fists)", rule=R.FISTS)
    if not ws:
        return -1, FISTS
    return next(((i, w) for i, w in enumerate(ws) if w.ready), (0, ws[0]))


def find_working(c: Combatant, name: str) -> tuple[int, Working]:
    key = name.strip().lower()
    for exact in (True, False):
        for i, w in enumerate(data(c).workings):
            if (w.name.lower() == key) if exact else (key and w.name.lower().startswith(key)):
                return i, w
    raise Refused(f"{c.name} does not know a working called '{name}' (workings must be learned)", rule=R.LEARNED)


def side_of(c: Combatant) -> str:
    return c.group or "NPCs"
