"""The core's own rules (turn order, rounds, prompts, undo…): what :mod:`tracker.explain` cites for the core's events
and the core's refusals name (a module of its own: the engine refuses with them, and explain reads the log, which
folds through the engine)."""

from __future__ import annotations

from tracker.reasons import Rule


def _core(rule_id: str, name: str, text: str) -> Rule:
    return Rule(id=rule_id, name=name, source="core", text=text)


CORE_RULES: tuple[Rule, ...] = (
    _core(
        "turn-order",
        "Turn order",
        "Turns go down the initiative order one by one; whoever cannot act (out of the fight, removed, "
        "holding the action) is passed over.",
    ),
    _core(
        "round",
        "Rounds",
        "A new round starts when the turn passes the bottom of the order; the surprise round (round 0) is "
        "only for those who surprise.",
    ),
    _core(
        "fight-start",
        "Start of the fight",
        "The fight starts in the order set at setup (anyone without a place joins at its end); the first "
        "turn is the top of the order.",
    ),
    _core(
        "initiative",
        "Initiative",
        "Each combatant's initiative is rolled by the system's rule or set by the GM; the order runs from the highest.",
    ),
    _core(
        "initiative-ties",
        "Initiative ties",
        "Equal initiatives are split by the system's tie-break; those still equal act at the same time.",
    ),
    _core(
        "order-gm",
        "The GM's order",
        "The GM may move a combatant to any place in the order; the others keep theirs and the turn stays.",
    ),
    _core(
        "newcomers",
        "Joining a running fight",
        "Whoever gets an initiative during the fight takes its place by it; the others keep their places "
        "and the turn stays with whoever has it.",
    ),
    _core(
        "reroll",
        "New order next round",
        "When the GM asks for the whole order to be rolled again mid-fight, everyone rolls at the start of "
        "the next round.",
    ),
    _core(
        "held-action",
        "Held action",
        "The combatant whose turn it is may hold the action: the turn passes on, and a hold not used lapses "
        "when the next round starts or the fight ends.",
    ),
    _core(
        "act-now",
        "Acting on a held action",
        "A held combatant steps in before whoever is up and takes that place in the order; the interrupted "
        "turn goes on afterwards.",
    ),
    _core(
        "condition",
        "Conditions",
        "A condition lasts until removed, or N rounds: to the start or end of a chosen combatant's turn N "
        "rounds on (by default the turn it was put on in).",
    ),
    _core(
        "condition-expiry",
        "Condition expiry",
        "A timed condition ends as soon as the fight reaches its end point, whether or not anyone acts then.",
    ),
    _core(
        "condition-removed",
        "Condition removed",
        "A condition ends when the GM takes it off, or when the system's rules end it.",
    ),
    _core(
        "roster",
        "Combatants",
        "The GM adds, renames and removes combatants; one removed leaves the order (the turn passes on if it was up).",
    ),
    _core(
        "hidden",
        "Hidden from the players",
        "A hidden combatant is left out of the players' view until revealed; the rules treat it as any other.",
    ),
    _core(
        "gm-adjust",
        "GM adjustment",
        "The GM sets a value directly; the tracker applies it as given (the GM's call, not a rule's).",
    ),
    _core(
        "prompt",
        "Prompt",
        "The rules stop for the GM: a prompt stays open until resolved by the command it names or settled by a ruling.",
    ),
    _core(
        "gm-ruling",
        "GM's ruling",
        "The GM settles a prompt by ruling: the outcome picked is applied as the GM's, with the GM's note.",
    ),
    _core(
        "quick-harm",
        "Quick damage and healing",
        "The GM's direct harm or healing: the amount (a number, a sum or dice) goes through the system's own "
        "harm path.",
    ),
    _core(
        "one-roll",
        "One roll for all",
        "Quick damage in dice dealt to several combatants at once (an area: dynamite, a breath, a falling roof) "
        "is rolled once; each of them takes that total through its own rules (armor, thresholds, prompts).",
    ),
    _core(
        "rest",
        "Rest",
        "Before or after a fight the GM lets hours or days pass; the system's rules say what recovers.",
    ),
    _core("note", "Notes", "The GM's note is logged as written; it changes nothing in the fight."),
    _core("fight-end", "End of the fight", "The GM ends the fight; what is logged after it is aftermath."),
    _core(
        "settings",
        "Fight settings",
        "The fight's name, whether dice are rolled or typed in and what the players' view shows are the GM's choices.",
    ),
    _core(
        "undo",
        "Undo",
        "Undo takes back one whole GM action, every event of it: the fight is as it was before that action.",
    ),
    _core("redo", "Redo", "Redo does again the last action undone, with the same dice."),
)
_BY_ID = {r.id: r for r in CORE_RULES}


def core_rule(rule_id: str) -> Rule:
    """The core's rule ``rule_id`` (KeyError if there is none)."""
    return _BY_ID[rule_id]
