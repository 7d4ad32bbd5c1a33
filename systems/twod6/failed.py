"""The failed checks a cinematic may reroll, named as the GM picks them in the cinematic form."""

from __future__ import annotations

from systems.twod6.record import Failed, data
from tracker.model import Combatant, FightState

OPPOSED_NAMES = {"sneaks": "Stealth check", "breaks the grapple": "check to break the grapple", "negates": "Negate"}


def failed_name(state: FightState, f: Failed) -> str:
    """A failed check as the GM picks it: "Melee (Heavy) attack on Bob", "defense against Ann's Archery attack"."""
    if f.kind == "attack":
        return f"{f.label} on {state.name(f.target)}"
    if f.kind == "defense":
        return f"defense against {state.name(f.target)}'s {f.skill} attack"
    if f.kind == "resolve":
        return f"resolve check DC {f.dc} against {f.stakes}"
    if f.kind == "check":
        return f"{f.label} DC {f.dc}"
    if f.kind == "contest":
        return f"{f.label} against {state.name(f.target)}"
    what = OPPOSED_NAMES.get(f.skill, f.skill)
    return f"{what} against {', '.join(state.name(t) for t, _ in f.against) or state.name(f.target)}"


def failed_names(state: FightState, c: Combatant) -> tuple[str, ...]:
    """The names of ``c``'s failed checks, in the order kept (oldest first), each told apart from the others."""
    out: list[str] = []
    for f in data(c).failed:
        name = failed_name(state, f)
        n = sum(1 for x in out if x == name or x.startswith(f"{name} ("))
        out.append(f"{name} ({n + 1})" if n else name)
    return tuple(out)
