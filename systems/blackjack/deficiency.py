"""An NPC's "Deficient in", read as a GM writes it (book l.239: "If an NPC would be deficient in something").

A save tests some words: its stat, what the attack is (shooting, throwing, fighting), the weapon, its kind and
tags, "working" and the working, the save form's purpose. :data:`SAYS` is the one table of the other words a GM
uses for each of them; a sheet phrase matches a save when every one of its words is among the save's words or
their table words (``tests/systems/blackjack/test_deficient_words.py``).

Rulings made here, each named in a test of ``test_deficient_words.py``:
- Words match in their simple forms: case, a plural "s" ("guns"), "-ves" for "-fe" ("knives"), "-ing" and a
  final "e" ("dodge" matches a purpose "dodging"); "save(s)", "check(s)", "a", "the", "with", "at", "against"
  and "of" in a phrase are ignored ("ACC saves" is "ACC"); "and"/"or" join alternatives ("guns or knives"),
  each matched on its own; brackets and stops are not part of a word ("firearms (rifles)" is "firearms
  rifles": a rifle shot) (``test_the_gms_words_match``, ``test_phrases_that_must_not_match``).
- Synonyms belong to what is tested, never to every save: "shooting"/"shots"/"ranged" to an NPC's own shot
  (firearm, bow, blowgun; "gunplay", "marksmanship" too), "throwing" to its throw at range,
  "fighting"/"melee"/"hand-to-hand" to its own blow at close range, "combat" to any of the three ("ranged
  combat", "hand-to-hand combat"), "fisticuffs"/"boxing" to fists, "guns" to a firearm, "pistols" to a revolver, "blades" to a knife, machete, cleaver or sword,
  "magic"/"spells" to resisting a working (``test_the_gms_words_match``). An NPC target saving against another's
  attack is not the one shooting: only the attack's weapon, kind and tags count ("guns" does, "shooting" does not)
  (``test_a_target_saving_against_a_shot_is_not_shooting``).
- A phrase no attack, weapon, working or stat the tracker knows ever tests (the book's catalogue and the fight's
  combatants) counts only where a save form's purpose says it; the detail pane says so under the list, and a
  phrase of ignored words only ("saves") says it matches nothing. It is not refused: the book lets an NPC be
  deficient in anything ("swimming"), the save form's purpose is free text, and fight files hold sheets
  checked before (``test_the_detail_pane_warns_of_a_phrase_no_save_tests``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .presets import WEAPONS, WORKINGS
from .records import BJData

# Each key a word a save tests (a stat, the attack the NPC makes, a weapon's kind, name or tag, "working"); its row,
# the other words a GM writes for that thing. A word not here is matched as itself.
SAYS: dict[str, tuple[str, ...]] = {
    # the stats
    "acc": ("accuracy",),
    "ctrl": ("control",),
    # the attack the NPC makes (rules/attacks.py names it)
    "shooting": ("shoot", "shot", "ranged", "gunplay", "gunfighting", "marksmanship", "attack", "weapon", "combat"),
    "throwing": ("throw", "thrown", "ranged", "attack", "weapon", "combat"),
    "fighting": ("fight", "melee", "hand-to-hand", "close-combat", "brawling", "attack", "weapon", "combat"),
    # the weapon's kind and its own kind words
    "firearm": ("gun",),
    "revolver": ("pistol", "handgun"),
    "pistol": ("handgun",),
    "repeater": ("rifle",),
    "bow": ("archery",),
    "knife": ("blade",),
    "machete": ("blade",),
    "cleaver": ("blade",),
    "sword": ("blade",),
    "fists": ("unarmed", "punch", "fisticuffs", "boxing"),
    # resisting a working
    "working": ("magic", "spell", "sorcery"),
}
# the sheet field's help: what a phrase may name, the first words the ones the add form's field shows
HELP = (
    "CTRL, shooting (guns, ranged), throwing, fighting (melee, hand-to-hand), a weapon, its kind or tag "
    "(Revolver, pistols, knives, piercing), magic or a working (Hex), social, a save's purpose words: "
    "saves at ⌈Threat/2⌉+8 ('saves' is ignored)"
)
# the attack words rules/attacks.py gives an NPC's own attack
SHOOTING, THROWING, FIGHTING = "shooting", "throwing", "fighting"
IGNORED = ("save", "saving", "check", "a", "an", "the", "with", "at", "against", "of")
JOINED = ("hand to hand", "close combat")  # written with hyphens before the words are split
_OR = re.compile(r"\s+(?:and|or|&)\s+", re.IGNORECASE)
_SPLIT = re.compile(r"[\s,;:/()\[\]{}.!?\"]+")


def stem(word: str) -> str:
    """A word's simple form: lower case, a plural "s", "-ing", a final "e" dropped, "-ve" as "-f"
    ("Knives", "knife" → "knif"; "dodging", "dodge" → "dodg"; "guns" → "gun")."""
    w = word.strip().strip("'’").lower()
    if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
        w = w[:-1]
    if len(w) > 5 and w.endswith("ing"):
        w = w[:-3]
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    if len(w) > 3 and w.endswith("v"):
        w = w[:-1] + "f"
    return w


_IGNORED = frozenset(stem(w) for w in IGNORED)
_SAYS = {stem(k): frozenset(stem(w) for w in (k, *v)) for k, v in SAYS.items()}


def words(text: str) -> tuple[str, ...]:
    """The stems of a text's words, the ignored ones left out."""
    low = text.lower()
    for joined in JOINED:
        low = low.replace(joined, joined.replace(" ", "-"))
    return tuple(s for s in (stem(w) for w in _SPLIT.split(low) if w.strip("'’")) if s and s not in _IGNORED)


def alternatives(phrase: str) -> list[tuple[str, ...]]:
    """A sheet phrase's alternatives ("guns or knives"), each as its words; none when it has no word."""
    return [ws for part in _OR.split(phrase) if (ws := words(part))]


def said(tested: Iterable[str]) -> frozenset[str]:
    """The words a save says: those of what it tests and their synonyms (:data:`SAYS`)."""
    out: set[str] = set()
    for text in tested:
        for w in words(text):
            out |= _SAYS.get(w, {w})
    return frozenset(out)


def matching(phrases: Iterable[str], tested: Iterable[str]) -> str:
    """The first phrase one of whose alternatives has all its words said by a save testing ``tested``
    ('' if none)."""
    have = said(tested)
    for p in phrases:
        if any(all(w in have for w in ws) for ws in alternatives(p)):
            return p
    return ""


def _known() -> frozenset[str]:
    """Every word a save of the tracker's own (an attack, a special, a working, keeping face, a stat) may say."""
    things = [*SAYS, "body", "melee", "natural", "special", "blowgun", "social", "keep face", "arguin'"]
    things += [" ".join((w.name, w.kind, *w.tags)) for w in WEAPONS.values()]
    things += [w.name for w in WORKINGS.values()]
    return said(things)


KNOWN = _known()


def untested(d: BJData, others: Iterable[BJData] = ()) -> list[tuple[str, bool]]:
    """The phrases of an NPC's "Deficient in" no save the tracker makes ever tests, each with whether it has a
    word at all: those that count only where a save form's purpose says them (``others``: the fight's
    combatants, whose weapons and workings this NPC may face)."""
    own = [" ".join((w.name, w.kind, *w.tags)) for x in (d, *others) for w in x.weapons]
    own += [w.name for x in (d, *others) for w in x.workings]
    known = KNOWN | said(own)
    out = []
    for p in d.deficiencies:
        alts = alternatives(p)
        if not any(all(w in known for w in ws) for ws in alts):
            out.append((p, bool(alts)))
    return out
