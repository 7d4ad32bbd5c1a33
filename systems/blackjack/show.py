"""What the GM and the players see of a blackjack combatant.

- :func:`standing`: the one word never to miss: dead (a Fatal injury), fled,
  surrendered (broken by morale), gone (removed), dying (a Severe injury: "need
  help or will die"). Ruling: the book does not stop a Severe-injured combatant
  from acting, so dying is not out of the fight; the GM rules what it can still
  do (``test_standing_word_for_each_out_state``);
- :func:`status`: one narrow line: the injury track and the DV it adds (when any) first,
  then the stats (NPC Threat and Morale), short flags, equipment last;
- :func:`detail`: everything, once (the core pane adds the name and conditions);
- :func:`public`: the players' view: the worst injury's name, never a number.
"""

from __future__ import annotations

from tracker.model import Combatant, FightState
from tracker.plugin import FIT, Standing
from tracker.text import counted

from .checks import encumbered, own_parts
from .deficiency import untested
from .records import SLOTS_MAX, STATS, BJData, data

OUT_WORDS = {"fled": "fled", "surrendered": "surrendered"}


def track(d: BJData, burden: int = 0) -> str:
    """Injury boxes, e.g. ■□|□□|□; ``burden``: lesser slots Encumbered takes, drawn ▣ (■▣|□□|□: the slot it takes
    was not drawn, and a lesser injury that went to moderate read as a free box).

    At most :data:`SLOTS_MAX` boxes a level: a record that holds more (a checkpoint edited by hand: a fight
    opened from it is not folded) is drawn as if full, never as millions of boxes
    (``test_the_track_draws_at_most_nine_boxes_a_level``)."""
    boxes = []
    for i, n in enumerate(d.slots):
        n = min(n, SLOTS_MAX)
        taken = min(burden, n - len(d.injuries[i])) if i == 0 else 0
        boxes.append("■" * len(d.injuries[i]) + "▣" * taken + "□" * (n - len(d.injuries[i]) - taken))
    return "|".join(boxes)


def burden(c: Combatant) -> int:
    return 1 if encumbered(c) else 0


def standing(state: FightState, c: Combatant) -> Standing:
    d = data(c)
    if c.removed:
        return Standing(word="gone", out=True)
    if d.dead:
        return Standing(word="dead", out=True)
    if d.out:
        return Standing(word=OUT_WORDS.get(d.out, d.out), out=True)
    if d.down:
        return Standing(word="dying", out=False)  # Severe: "needs help or will die"; it can still act
    return FIT


def own_dv(c: Combatant) -> int:
    return sum(p.value for p in own_parts(c))


def status(state: FightState, c: Combatant) -> str:
    """Ruling: one who has taken its turn's one action (an attack, a reload, ingesting lead, casting, or the GM's
    "Has acted this turn") reads "acted" among the short flags, before the equipment (the part cut first at 80
    columns: one who has acted has nothing left to spend lead on this turn, so the mark matters more than the lead
    a narrow row cuts after it).  The record is its current turn's and is cleared as that turn ends, so the mark
    is on the one whose turn it is (and on one whose turn a held action interrupted, its turn still to resume),
    never on those whose turns are over; only in the running fight
    (tests/systems/blackjack/test_acted_mark.py::test_acted_shows_only_in_the_turn_it_was_taken,
    tests/ui/test_acted_mark_rows.py)."""
    d = data(c)
    dv = own_dv(c)
    boxes = track(d, burden(c))
    parts = [f"{boxes} DV+{dv}" if dv else boxes]
    if d.is_pc:
        parts.append(" ".join(f"{s.upper()}{d.stat(s)}" for s in STATS))
    else:
        parts.append(f"T{d.threat} ML{d.morale}")
    if d.pending_sixes:
        parts.append(f"{counted(d.pending_sixes, 'six', 'sixes')} to resolve")
    if d.acted and state.started and not state.ended:
        parts.append("acted")
    gear = []
    # first: what reloads and workings spend, never the part cut off at 80 columns (but after "acted": no action left)
    if d.lead or d.ingested or d.is_pc:
        gear.append(f"lead {d.lead}" + (f" ({d.ingested} ingested)" if d.ingested else ""))
    gear += [w.describe() for w in d.weapons if w.tracked or w.jammed or w.spent or w.dropped]
    if gear:
        parts.append(", ".join(gear))
    return " · ".join(parts)


def detail(state: FightState, c: Combatant) -> str:
    """Everything about the combatant, once.

    Ruling: under an NPC's "Deficient in", each phrase no attack, weapon, working or stat the tracker tests ever
    says (the book's catalogue and this fight's combatants: :func:`.deficiency.untested`) is named with where it
    still counts (a save form whose purpose says it), and a phrase of ignored words only ("saves") as naming
    nothing; the sheet is not refused (tests/systems/blackjack/test_deficient_words.py::
    test_the_detail_pane_warns_of_a_phrase_no_save_tests)."""
    d = data(c)
    dv = ", ".join(p.describe() for p in own_parts(c))
    lines = [f"Injuries {track(d, burden(c))}: +{own_dv(c)} DV to every save" + (f" ({dv})" if dv else "")]
    for i, names in enumerate(d.injuries):
        shown = [*names, *(["encumbered"] * burden(c) if i == 0 else [])]
        lines.append(f"  {d.level_name(i).capitalize()} ({len(shown)}/{d.slots[i]}): {', '.join(shown) or '-'}")
    if d.down:
        lines.append("  Severe: needs help or will die")
    for b in d.bound:
        lines.append(f"Bound: {b.describe()}, until the paper is destroyed")
    if d.is_pc:
        lines.append("Stats: " + ", ".join(f"{s.upper()} {d.stat(s)} ({d.marks(s)}/3 marks)" for s in STATS))
    else:
        lines.append(
            f"Threat {d.threat}, Morale {d.morale}: saves ≤ {d.npc_limit()} (deficient ≤ {d.npc_limit(True)}); "
            f"size {d.size}"
        )
    lines.append("Weapons: " + (", ".join(w.describe() for w in d.weapons) or "Fists"))
    lead = f"Lead {d.lead}" + (f", {d.ingested} ingested" if d.ingested else "")
    if d.pending_sixes:
        lead += f"; {counted(d.pending_sixes, 'six', 'sixes')} to resolve (powderburn or catastrophe)"
    lines.append(lead)
    if d.action:
        lines.append(f"This turn: {d.action} (its one action)")
    for w in d.workings:
        lines.append(f"Working: {w.name} (lead {w.level}){' — cast today' if w.cast_today else ''}")
    if d.deficiencies and not d.is_pc:
        lines.append(f"Deficient in: {', '.join(d.deficiencies)} (a save testing one: ≤ {d.npc_limit(True)})")
        others = [data(o) for o in state.combatants if o.id != c.id]
        for phrase, said in untested(d, others):
            if said:
                lines.append(f"  '{phrase}': no attack, working or stat says it; only a save whose purpose does")
            else:
                lines.append(f"  '{phrase}' names nothing a save tests: write what, like CTRL, shooting, knives")
    for label, vals in (
        ("Resists", d.resistances),
        ("Weak", d.weaknesses),
        ("Immune", d.immunities),
    ):
        if vals:
            lines.append(f"{label}: {', '.join(vals)}")
    for m in d.dv_mods:
        lines.append(f"{m.label}: {m.value:+d} DV against {' '.join(m.tags)}")
    if d.specials:
        lines.append(f"Specials: {d.specials}")
    return "\n".join(lines)


def public(state: FightState, c: Combatant) -> str:
    """Out words first (dead, fled, surrendered, gone), else the worst injury's level name, or unhurt.

    Ruling: the players' descriptor of an NPC stays the one word of how hurt it is, without the "acted" of the
    GM's status: no system's public word carries a turn's marks, and the players see the NPC act at the table; a
    PC's row on the players' view is its status, "acted" and all
    (tests/systems/blackjack/test_acted_mark.py::test_the_players_descriptor_stays_one_word)."""
    word = standing(state, c)
    if word.out:
        return word.word
    d = data(c)
    return d.level_name(d.worst) if d.worst >= 0 else "unhurt"
