"""The conditions Zludge 1.0 Alpha names, offered when the GM adds a condition (#46).

Only "clipped" is read by the rules as a condition: added by the GM it is −1 to the victim's physical
actions until its next action, which ends it (:mod:`systems.zludge.evolve`).  The wound and fatigue
states are set by the tracks themselves (mark a wound or fatigue for the rules to apply them); as
conditions they are labels only, listed so the GM finds the book's words.
"""

from __future__ import annotations

from tracker.plugin import BookCondition

CONDITIONS: tuple[BookCondition, ...] = (
    BookCondition(
        name="clipped",
        source="zludge l.115",
        effect="−1 to physical actions (not stacking with wound penalties) until the victim's next action ends it",
        automated=True,
    ),
    BookCondition(
        name="flat-footed",
        source="zludge l.103",
        effect="has not acted yet: no defense roll (the tracker knows it by itself)",
    ),
    BookCondition(
        name="prone",
        source="zludge l.118",
        effect="knocked down: most actions not possible (Incapacitated or Exhausted)",
    ),
    BookCondition(
        name="Scratched",
        source="zludge l.115",
        effect="scrapes and bruises: no lasting penalty; on the wound track until a week's rest heals it away",
    ),
    BookCondition(
        name="Hurt", source="zludge l.116", effect="−1 to physical actions (set by a Hurt box on the wound track)"
    ),
    BookCondition(
        name="Very Hurt",
        source="zludge l.117",
        effect="−2 to physical actions (set by a Very Hurt box on the wound track)",
    ),
    BookCondition(
        name="Incapacitated",
        source="zludge l.118",
        effect="prone, most actions impossible, −3 (set by the wound track)",
    ),
    BookCondition(
        name="Comatose", source="zludge l.119", effect="nearly dead and unconscious, −4 (set by the wound track)"
    ),
    BookCondition(name="Winded", source="zludge l.125", effect="short of breath: no penalty (fatigue track)"),
    BookCondition(name="Tired", source="zludge l.126", effect="−1 to every action (set by the fatigue track)"),
    BookCondition(name="Very Tired", source="zludge l.127", effect="−2 to every action (set by the fatigue track)"),
    BookCondition(
        name="Exhausted", source="zludge l.128", effect="prone, most actions impossible, −3 (set by the fatigue track)"
    ),
    BookCondition(name="Unconscious", source="zludge l.129", effect="no actions possible (set by the fatigue track)"),
)


def conditions() -> tuple[BookCondition, ...]:
    return CONDITIONS
