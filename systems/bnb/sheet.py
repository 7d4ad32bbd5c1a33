"""Combatant records, sheet fields and sheet checks for Blood & Bullets.

Rulings made here (the book is silent):
- A Shootist's Sure Shot / a Trailblazer's Close Fighter left blank is the
  first fitting weapon carried; Gamblers choose none.
- Table 12's "1 or 2" / "5 or 6" capacities are the most a gun holds (derringer
  and scattergun 2, belt pistol 6); the sheet can load fewer.
- A PC sheet without a class is a Shootist's; an NPC sheet with a class is
  built from the class tables (a levelled "renowned gunslinger").
- NPC HP are at least 1. (test_npc_hp_at_least_one)
- NPCs without a listed DEX count as DEX 10 (initiative ties, DEX saves).
  (test_gunfighter_outranks_outlaw_on_a_tie_by_hit_dice)
- The HP roll shows every modifier in its expression: the CON modifier a die,
  the HD's plus, a die raised to its least 1, NPC HP raised to 1.
  (test_the_hp_roll_names_every_modifier, test_an_npc_hp_roll_shows_its_plus_and_its_least_1)
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import attrs

from systems.bnb.tables import (
    ATTRIBUTES,
    CLASS_TABLES,
    CLASSES,
    SHOOTIST,
    TRAILBLAZER,
    Carried,
    Hd,
    Natural,
    find_weapon,
    format_natural,
    format_weapons,
    modifier,
    parse_hd,
    parse_natural,
    parse_weapons,
)
from tracker.commands import BOOL, CHOICE, INT, Modifier, Param
from tracker.dice import DiceRequest, Roll, Roller
from tracker.errors import Refused
from tracker.model import NPC, PC, Combatant
from tracker.shapes import sheet_value

OK, DYING, UNCONSCIOUS, KNOCKED_OUT, DEAD = "ok", "dying", "unconscious", "knocked out", "dead"
STATUSES = (OK, DYING, UNCONSCIOUS, KNOCKED_OUT, DEAD)
ONE_HD = Hd(dice=1)  # frozen: one shared default


@attrs.frozen(kw_only=True)
class LastSave:
    """A failed saving throw a Gambler may re-roll with Lucky Streak."""

    against: str
    st: int
    parts: tuple[Modifier, ...] = ()
    damage: int = 0  # a scattergun's save for half: the full damage taken (a success halves it)


@attrs.frozen(kw_only=True, slots=False)  # copied by its dictionary: see tracker.model.changed (bench figure 3)
class BnbData:
    """A combatant's Blood & Bullets record."""

    cls: str = ""  # Shootist, Gambler, Trailblazer; "" for NPCs and critters
    level: int = 1  # class level; an NPC's or critter's HD (for exploding damage)
    hd: Hd = ONE_HD
    scores: tuple[int, ...] = (10, 10, 10, 10, 10, 10)  # STR INT WIS CON DEX CHA
    dc: int = 10
    to_hit: int = 0
    st: int = 16  # Saving Throw number
    max_hp: int = 1
    damage: int = 0  # lethal damage taken
    temp: int = 0  # temporary damage (fists)
    init_mod: int = 0
    favoured: str = ""  # weapon id: Sure Shot, Close Fighter, an NPC's "Pistol +1"
    weapons: tuple[Carried, ...] = ()
    natural: tuple[Natural, ...] = ()
    minor: bool = False
    important: bool = False
    rowdy: bool = False
    status: str = OK
    # the round it went down (dropped_by: who did it), or left the running fight (fled, driven off, captured;
    # dropped_by None); 29 fields at most: a 30th makes every copy's dictionary 1.5 KB, not 0.3 (bench figure 3)
    dropped_round: int | None = None
    dropped_by: str | None = None
    used: tuple[str, ...] = ()  # weapons/attacks used this round, one entry per attack
    gunplay: bool = False  # Gun-play made this round
    reloaded: bool = False  # reloading took this round's action
    lost: int = 0  # lethal HP lost in this fight (binding wounds)
    bound: bool = False
    lucky_used: int = 0
    last_save: LastSave | None = None
    loyalty_next: int = 0
    xp: int = 0  # an NPC's listed XP, gained by the PCs for overcoming it (l.126)

    @property
    def hp(self) -> int:
        return self.max_hp - self.damage - self.temp

    def mod(self, attribute: str) -> int:
        return modifier(self.scores[ATTRIBUTES.index(attribute)])

    def score(self, attribute: str) -> int:
        return self.scores[ATTRIBUTES.index(attribute)]

    def carried(self, name: str) -> Carried | None:
        key = name.strip().lower()
        for c in self.weapons:
            if c.name == key:
                return c
        w = find_weapon(key)
        if w is not None:
            for c in self.weapons:
                if c.weapon == w.id:
                    return c
        return None

    @property
    def firearms(self) -> tuple[Carried, ...]:
        return tuple(c for c in self.weapons if c.spec.firearm)

    @property
    def active(self) -> bool:
        return self.status == OK

    @property
    def acted(self) -> bool:
        """The round's action is taken: an attack, Gun-play or a reload this round."""
        return bool(self.used or self.gunplay or self.reloaded)

    def __getattr__(self, name: str) -> int:
        # a GM adjust reads the old value of "shots:<gun>" by this name, for its log line
        if name.startswith("shots:"):
            gun = self.carried(name.split(":", 1)[1])
            if gun is not None:
                return gun.shots
        raise AttributeError(name)


def data(c: Combatant) -> BnbData:
    """A combatant's Blood & Bullets record, typed (``Combatant.data`` is ``Any`` in the core)."""
    d = c.data
    if not isinstance(d, BnbData):
        raise TypeError(f"{c.name} has no Blood & Bullets record")
    return d


ATTR_FIELDS = tuple(a.lower() for a in ATTRIBUTES)


def sheet_fields(kind: str) -> tuple[Param, ...]:
    if kind == PC:
        return (
            Param(name="cls", kind=CHOICE, choices=CLASSES, label="Class", default=SHOOTIST),
            Param(name="level", kind=INT, label="Level", default=1, help="1–10"),
            *(Param(name=a, kind=INT, label=a.upper(), default=10, help="3–18") for a in ATTR_FIELDS),
            Param(
                name="weapons",
                label="Weapons",
                default="",
                required=False,
                help="carried weapons, loaded shots after a colon: 'heavy pistol:6, knife'",
            ),
            Param(
                name="favoured",
                label="Sure Shot / Close Fighter",
                default="",
                required=False,
                help="Shootist: a firearm; Trailblazer: a non-firearm (empty: the first carried)",
            ),
            Param(name="hp", kind=INT, label="HP", default=0, help="0: roll the class hit dice"),
            Param(name="lucky_used", kind=INT, label="Lucky Streaks used today", default=0),
        )
    return (
        Param(name="dc", kind=INT, label="Defence Class", default=11),
        Param(name="hd", label="Hit Dice", default="1", help="1, 1+1, 1-1, 3+6 or ½"),
        Param(
            name="attacks",
            label="Attacks",
            default="",
            required=False,
            help="natural attacks: 'Claws, Bite', 'Hoof d3'",
        ),
        Param(name="weapons", label="Weapons", default="", required=False, help="'belt pistol:6, knife'"),
        Param(name="favoured", label="+1 weapon", default="", required=False, help="a weapon used at +1 (Pistol +1)"),
        Param(name="init_mod", kind=INT, label="Initiative modifier", default=0),
        Param(
            name="dex",
            kind=INT,
            label="DEX (initiative ties, DEX saves)",
            default=10,
            help="breaks initiative ties and counts in DEX saves, never in attacks (an NPC attacks at its HD); "
            "10 if not listed",
        ),
        Param(name="important", kind=BOOL, label="Important (rolls own initiative)", default=False),
        Param(name="minor", kind=BOOL, label="Minor (dies at 0 HP)", default=False),
        Param(name="rowdy", kind=BOOL, label="Rowdy (fists d6)", default=False),
        Param(name="hp", kind=INT, label="HP", default=0, help="0: roll the hit dice"),
        Param(
            name="xp",
            kind=INT,
            label="XP",
            default=0,
            required=False,
            help="the XP the PCs gain for overcoming it (its stat line's XP; 0 if none)",
        ),
    )


@functools.cache
def _labels() -> dict[str, str]:
    """Each sheet field's label, up to any explanation in brackets."""
    return {p.name: p.label.split(" (")[0] for kind in (PC, NPC) for p in sheet_fields(kind) if p.label}


def _int(sheet: Mapping[str, Any], name: str, default: int) -> int:
    """A whole-number field of the sheet; a refusal names it as the add dialog does ("Level", not "level")."""
    return Param(name=name, kind=INT, label=_labels().get(name, name.upper() if name in ATTR_FIELDS else name)).parse(
        sheet.get(name, default) if sheet.get(name) not in (None, "") else default
    )


def _favoured(text: str, carried: tuple[Carried, ...], cls: str) -> str:
    text = str(text or "").strip()
    if cls == SHOOTIST:
        fits, what, ability = (lambda w: w.firearm), "a firearm", "Sure Shot"
    elif cls == TRAILBLAZER:
        fits, what, ability = (lambda w: not w.firearm), "a non-firearm", "Close Fighter"
    elif cls:
        if text:
            raise Refused(f"only Shootists (Sure Shot) and Trailblazers (Close Fighter) choose a weapon, not a {cls}")
        return ""
    else:
        fits, what, ability = (lambda w: True), "a weapon", "+1 weapon"
    if not text:
        first = next((c.spec for c in carried if fits(c.spec)), None)
        return first.id if first and cls else ""
    w = find_weapon(text)
    if w is None:
        raise Refused(f"{ability}: '{text}' is not a weapon of Tables 10–12")
    if not fits(w):
        raise Refused(f"{ability} is chosen for {what}, and a {w.name} is not one")
    # Ruling: a short name ("pistol" is Table 12's belt pistol) for a type not carried, by one who carries another
    # that fits, is refused naming both: "pistol" for a Shootist with a heavy pistol recorded the belt pistol and
    # his +1 never applied. The full name chooses a type not carried (chosen at outset, bnb l.43).
    carried_fits = [c.spec.name for c in carried if fits(c.spec)]
    named = " ".join(text.lower().replace("_", " ").split())
    if carried_fits and w.id not in {c.weapon for c in carried} and named not in (w.name, w.id.replace("_", " ")):
        raise Refused(
            f"{ability}: '{text}' is the {w.name} (Tables 10–12), which is not carried; write "
            + " or ".join(f"'{n}'" for n in dict.fromkeys(carried_fits))
            + f" for the one carried, or '{w.name}' to choose it anyway"
        )
    return w.id


def check_sheet(kind: str, sheet: Mapping[str, Any], dice: Roller) -> tuple[dict[str, Any], tuple[Roll, ...]]:
    """Check a sheet against the rules and roll its HP; the result is what make_data reads."""
    if "weapon" in sheet:
        raise Refused("a weapon is not a combatant: list it in a combatant's Weapons field")
    if sheet.get("cls") or kind == PC:
        return _check_class({**sheet, "cls": sheet.get("cls") or SHOOTIST}, dice)
    return _check_npc(sheet, dice)


def hp_roll(n: int, faces: tuple[int, ...], hp: int, *, con: int = 0, plus: int = 0, sides: int = 6) -> Roll:
    """The HP roll as the log shows it: every modifier in the expression, so the faces add up.

    ``3d6+3 (CON +1 a die) [3,6,1] = 13``; a die raised to its least 1 HP, or
    NPC HP raised to 1, is named too.
    """
    mod = hp - sum(faces)
    notes: list[str] = []
    if con:
        notes.append(f"CON {con:+d} a die")
    if con < 0 and any(f + con < 1 for f in faces):
        notes.append("at least 1 a die")
    if plus:
        notes.append(f"HD {plus:+d}")
    if not con and sum(faces) + plus < hp:
        notes.append("at least 1 HP")
    if notes == [f"HD {plus:+d}"]:
        notes = []  # the expression's own modifier says it all: 3d6+6
    expr = f"{n}d{sides}" + (f"{mod:+d}" if mod else "") + (f" ({', '.join(notes)})" if notes else "")
    return Roll(expr, "HP", faces, faces, (), mod, hp)


def _check_class(sheet: Mapping[str, Any], dice: Roller) -> tuple[dict[str, Any], tuple[Roll, ...]]:
    cls = Param(name="cls", kind=CHOICE, choices=CLASSES, label="Class").parse(sheet.get("cls"))
    level = _int(sheet, "level", 1)
    if not 1 <= level <= 10:
        raise Refused(f"level {level} is outside 1–10: the {cls} table runs from level 1 to 10")
    scores = {}
    for a in ATTR_FIELDS:
        v = _int(sheet, a, 10)
        if not 3 <= v <= 18:
            raise Refused(f"{a.upper()} {v} is outside 3–18: attributes are rolled on 3d6")
        scores[a] = v
    carried = parse_weapons(sheet.get("weapons", ""))
    favoured = _favoured(sheet.get("favoured", ""), carried, cls)
    lucky = _int(sheet, "lucky_used", 0)
    if lucky < 0:
        raise Refused("Lucky Streaks used today cannot be negative")
    row = CLASS_TABLES[cls][level - 1]
    hd = parse_hd(row.hd)
    hp = _int(sheet, "hp", 0)
    rolls: tuple[Roll, ...] = ()
    if hp < 0:
        raise Refused("HP must be at least 1 (0: roll them)")
    if hp == 0:
        con = modifier(scores["con"])
        faces = dice.faces(DiceRequest(hd.dice, 1, 6, "HP"))
        hp = sum(max(1, f + con) for f in faces) + hd.plus
        rolls = (hp_roll(hd.dice, faces, hp, con=con, plus=hd.plus),)
    out = {
        "cls": cls,
        "level": level,
        **scores,
        "weapons": format_weapons(carried),
        "favoured": favoured,
        "hp": hp,
        "lucky_used": lucky,
        "init_mod": _int(sheet, "init_mod", 0),
        "minor": False,
        "important": True,
    }
    return out, rolls


def _check_npc(sheet: Mapping[str, Any], dice: Roller) -> tuple[dict[str, Any], tuple[Roll, ...]]:
    dc = _int(sheet, "dc", 11)
    if not 0 <= dc <= 30:
        raise Refused(f"Defence Class {dc} is outside 0–30")
    hd = parse_hd(sheet.get("hd", "1"))
    natural = parse_natural(sheet.get("attacks", ""))
    carried = parse_weapons(sheet.get("weapons", ""))
    favoured = _favoured(sheet.get("favoured", ""), carried, "")
    dex = _int(sheet, "dex", 10)
    if not 3 <= dex <= 18:
        raise Refused(f"DEX {dex} is outside 3–18: attributes are rolled on 3d6")
    flags = {k: Param(name=k, kind=BOOL).parse(sheet.get(k, False)) for k in ("important", "minor", "rowdy")}
    xp = _int(sheet, "xp", 0)
    if xp < 0:
        raise Refused(f"XP {xp} cannot be negative: an NPC without XP listed has 0")
    hp = _int(sheet, "hp", 0)
    if hp < 0:
        raise Refused("HP must be at least 1 (0: roll them)")
    rolls: tuple[Roll, ...] = ()
    if hp == 0:
        if hd.half:
            faces = dice.faces(DiceRequest(1, 1, 3, "HP (½ HD)"))
        else:
            faces = dice.faces(DiceRequest(hd.dice, 1, 6, "HP"))
        hp = max(1, sum(faces) + hd.plus)
        rolls = (hp_roll(1 if hd.half else hd.dice, faces, hp, plus=hd.plus, sides=3 if hd.half else 6),)
    out = {
        "dc": dc,
        "hd": str(hd),
        "attacks": format_natural(natural),
        "weapons": format_weapons(carried),
        "favoured": favoured,
        "init_mod": _int(sheet, "init_mod", 0),
        "dex": dex,
        **flags,
        "hp": hp,
        "xp": xp,
    }
    return out, rolls


def make_data(kind: str, sheet: Mapping[str, Any]) -> BnbData:
    """The record for a checked sheet (pure).

    Ruling: the sheet is read as JSON holds it, each value of the type its field declares, nothing coerced: a
    ``combatant_added`` line read from a file whose sheet gives 13.7 or "13" for the DC, true for HP or 1 for
    Minor was edited by hand (``check_sheet`` writes whole numbers, flags and texts), so its event does not apply
    (ValueError) and the loader names its line; a DC of 13.7 was read as 13 and ``tracker check`` called the file
    good.  The GM's own sheets (the add form, a preset, a party) are parsed by ``check_sheet`` before they reach
    here.  Tests: tests/reliability/test_sheet_strict.py::test_a_sheet_value_of_the_wrong_json_type_is_refused_at_its_line.
    """
    carried = parse_weapons(sheet_value(sheet, "weapons", str, ""))
    favoured: str = sheet_value(sheet, "favoured", str, "")
    if sheet.get("cls"):
        cls, level = sheet_value(sheet, "cls", str), sheet_value(sheet, "level", int)
        row = CLASS_TABLES[cls][level - 1]
        scores = tuple(sheet_value(sheet, a, int, 10) for a in ATTR_FIELDS)
        dex = modifier(scores[4])
        return BnbData(
            cls=cls,
            level=level,
            hd=parse_hd(row.hd),
            scores=scores,
            dc=10 + dex + row.defence,
            to_hit=row.to_hit,
            st=row.save,
            max_hp=sheet_value(sheet, "hp", int),
            init_mod=sheet_value(sheet, "init_mod", int, 0),
            favoured=favoured,
            weapons=carried,
            important=True,
            rowdy=cls == TRAILBLAZER,
            lucky_used=sheet_value(sheet, "lucky_used", int, 0),
        )
    hd = parse_hd(sheet_value(sheet, "hd", str, "1"))
    return BnbData(
        level=hd.dice,
        hd=hd,
        scores=(10, 10, 10, 10, sheet_value(sheet, "dex", int, 10), 10),
        dc=sheet_value(sheet, "dc", int, 11),
        to_hit=min(hd.dice, 15),
        st=19 - hd.dice,
        max_hp=sheet_value(sheet, "hp", int),
        init_mod=sheet_value(sheet, "init_mod", int, 0),
        favoured=favoured,
        weapons=carried,
        natural=parse_natural(sheet_value(sheet, "attacks", str, "")),
        minor=sheet_value(sheet, "minor", bool, False),
        important=sheet_value(sheet, "important", bool, False),
        rowdy=sheet_value(sheet, "rowdy", bool, False),
        xp=sheet_value(sheet, "xp", int, 0, null=True),
    )
