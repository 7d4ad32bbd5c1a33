"""The book's tables: attribute modifiers, the class tables, weapons (Tables 10–12), saves, loyalty;
and the sheet's text read against them: carried weapons, a critter's listed attacks, Hit Dice."""

from __future__ import annotations

import re

import attrs

from tracker.errors import Refused
from tracker.text import counted, whole_number

ATTRIBUTES = ("STR", "INT", "WIS", "CON", "DEX", "CHA")
CLASSES = ("Shootist", "Gambler", "Trailblazer")
SHOOTIST, GAMBLER, TRAILBLAZER = CLASSES


def modifier(score: int) -> int:
    """Table 1 (and Table 2's loyalty column): 3 → -3 … 18 → +3."""
    if score <= 3:
        return -3
    if score <= 5:
        return -2
    if score <= 8:
        return -1
    if score <= 12:
        return 0
    if score <= 15:
        return 1
    if score <= 17:
        return 2
    return 3


@attrs.frozen
class Level:
    hd: str  # "3+1"
    to_hit: int
    defence: int
    save: int


def _table(hd: str, to_hit: str, defence: str, save: str) -> tuple[Level, ...]:
    cols = [c.split() for c in (hd, to_hit, defence, save)]
    return tuple(Level(h, int(t), int(d), int(s)) for h, t, d, s in zip(*cols, strict=True))


# Tables 4, 5 and 6, levels 1..10
CLASS_TABLES: dict[str, tuple[Level, ...]] = {
    SHOOTIST: _table(
        "1 2 3 3+1 4 5 6 6+1 7 8", "0 1 2 2 3 4 4 5 6 6", "0 1 1 2 2 3 3 4 4 5", "16 15 14 13 12 11 10 9 8 7"
    ),
    GAMBLER: _table(
        "1 1+1 2 2+1 3 3+1 4 4+1 5 5+1", "0 0 1 1 2 2 3 3 4 4", "0 1 2 2 3 4 4 5 6 6", "15 14 13 12 11 10 9 8 7 6"
    ),
    TRAILBLAZER: _table(
        "1+1 2 3 4 5 6 7 8 9 10", "0 1 1 2 2 3 3 4 4 5", "0 0 1 1 2 2 3 3 4 4", "16 15 14 13 12 11 10 9 8 7"
    ),
}


def lucky_streaks(level: int) -> int:
    """Gambler's Lucky Streak re-rolls a day: 1/2/3/4 at levels 1–3/4–6/7–9/10."""
    return min(4, (level - 1) // 3 + 1)


MELEE = "melee"
MISSILE = "missile"
FIREARM = "firearm"


@attrs.frozen
class Weapon:
    """One weapon of Tables 10–12.

    ``range`` is the short range in feet (0: hand-held only); a melee weapon
    with a range can also be thrown (‡).  ``rof`` is shots/projectiles per round
    as the table gives it ("1/2" = one every other round); ``shots`` the
    capacity of a firearm.  ``keep_high``: the * weapons roll 2d6 and keep the
    highest.
    """

    id: str
    name: str
    kind: str
    dice: int
    sides: int
    plus: int = 0
    keep_high: bool = False
    rof: str = "1"
    shots: int = 0
    range: int = 0
    temporary: bool = False
    two_handed: bool = False
    versatile: bool = False  # † one- or two-handed (+1 damage two-handed)
    scatter: bool = False
    sneak: bool = False  # a Gambler's sneak attack weapon
    aliases: tuple[str, ...] = ()

    @property
    def damage(self) -> str:
        s = f"{self.dice}d{self.sides}"
        if self.plus:
            s += f"{self.plus:+d}"
        return s + ("*" if self.keep_high else "")

    @property
    def firearm(self) -> bool:
        return self.kind == FIREARM

    @property
    def throwable(self) -> bool:
        return self.kind == MELEE and self.range > 0

    @property
    def per_round(self) -> int:
        return 1 if self.rof == "1/2" else int(self.rof)

    def describe(self) -> str:
        parts = [self.damage + (" temporary" if self.temporary else "")]
        if self.kind == MELEE:
            parts.append("melee" + (f", thrown RoF {self.rof} range {self.range} ft" if self.range else ""))
        else:
            parts.append(f"RoF {'½' if self.rof == '1/2' else self.rof}, range {self.range} ft")
        if self.shots:
            parts.append(counted(self.shots, "shot"))
        if self.two_handed:
            parts.append("two-handed")
        if self.versatile:
            parts.append("+1 damage two-handed")
        if self.scatter:
            parts.append("spread: hits all within 5 ft of the aimed point, DEX save for half beyond 30 ft")
        return "; ".join(parts)


WEAPONS: tuple[Weapon, ...] = (
    # Table 10: melee weapons (‡ also thrown, Table 11)
    Weapon("wood_axe", "wood axe", MELEE, 1, 6, 1, two_handed=True, aliases=("axe", "axe, wood")),
    Weapon("tomahawk", "tomahawk", MELEE, 1, 6, range=10, rof="1", aliases=("axe, tomahawk",)),
    Weapon("cavalry_saber", "cavalry saber", MELEE, 1, 6, aliases=("saber", "sabre", "cavalry sabre")),
    Weapon("club", "club", MELEE, 1, 6),
    Weapon("fists", "fists", MELEE, 1, 3, temporary=True, aliases=("fist", "punch", "unarmed")),
    Weapon("knife", "knife", MELEE, 1, 6, -1, range=10, rof="1", sneak=True),
    Weapon("bowie_knife", "bowie knife", MELEE, 1, 6, aliases=("bowie",)),
    Weapon("spear", "spear", MELEE, 1, 6, range=20, rof="1", versatile=True),
    # Table 11: missile weapons
    Weapon("bow", "bow", MISSILE, 1, 6, rof="2", range=50),
    # Table 12: firearms
    Weapon("derringer", "derringer", FIREARM, 1, 6, -1, rof="2", shots=2, range=10, sneak=True,
           aliases=("pistol, derringer", "derringer pistol")),
    Weapon("pocket_pistol", "pocket pistol", FIREARM, 1, 6, -1, rof="2", shots=5, range=30, sneak=True,
           aliases=("pistol, pocket",)),
    Weapon("belt_pistol", "belt pistol", FIREARM, 1, 6, rof="2", shots=6, range=50,
           aliases=("pistol, belt", "pistol", "six-shooter", "revolver")),
    Weapon("heavy_pistol", "heavy pistol", FIREARM, 1, 6, 1, rof="2", shots=6, range=75, aliases=("pistol, heavy",)),
    Weapon("horse_pistol", "horse pistol", FIREARM, 1, 6, rof="1/2", shots=1, range=25, aliases=('"horse" pistol',)),
    Weapon("carbine", "carbine", FIREARM, 1, 6, 1, rof="2", shots=7, range=200),
    Weapon("repeating_rifle", "repeating rifle", FIREARM, 2, 6, keep_high=True, rof="2", shots=15, range=300,
           aliases=("rifle", "repeater", "winchester")),
    Weapon("long_rifle", "long rifle", FIREARM, 2, 6, 1, keep_high=True, rof="1/2", shots=1, range=400),
    Weapon("buffalo_rifle", "buffalo rifle", FIREARM, 2, 6, 2, keep_high=True, rof="1/2", shots=1, range=500,
           aliases=("sharps",)),
    Weapon("smoothbore_musket", "smoothbore musket", FIREARM, 1, 6, rof="1/2", shots=1, range=80,
           aliases=("musket",)),
    Weapon("scattergun", "scattergun", FIREARM, 2, 6, rof="1", shots=2, range=30, scatter=True,
           aliases=("shotgun",)),
)  # fmt: skip

WEAPON_BY_ID = {w.id: w for w in WEAPONS}


def find_weapon(name: str) -> Weapon | None:
    key = " ".join(name.strip().lower().replace("_", " ").split())
    for w in WEAPONS:
        if key in (w.id.replace("_", " "), w.name, *w.aliases):
            return w
    return None


# ---------------------------------------------------------------------------
# what a combatant carries and its Hit Dice, read from a sheet's text


@attrs.frozen(kw_only=True)
class Carried:
    """A weapon a combatant carries; a firearm keeps its loaded shots."""

    name: str  # unique on the combatant: "belt pistol", "belt pistol 2"
    weapon: str  # id in Tables 10–12
    shots: int = 0
    last_round: int | None = None  # the round it last fired (RoF ½)

    @property
    def spec(self) -> Weapon:
        return WEAPON_BY_ID[self.weapon]


@attrs.frozen(kw_only=True)
class Natural:
    """A critter's listed attack ("Claws", "Hoof, d3")."""

    name: str
    sides: int = 6


@attrs.frozen(kw_only=True)
class Hd:
    dice: int
    plus: int = 0
    half: bool = False

    def __str__(self) -> str:
        if self.half:
            return "½"
        return f"{self.dice}{self.plus:+d}" if self.plus else str(self.dice)

    @property
    def at_most_one(self) -> bool:
        """Gun-play's "1 HD or fewer": ½, 1−1 or 1 HD; 1+1 is above (Ruling)."""
        return self.half or self.dice < 1 or (self.dice == 1 and self.plus <= 0)

    @property
    def rank(self) -> int:
        """For initiative ties (higher level/HD first)."""
        return 50 if self.half else self.dice * 100 + self.plus


def parse_hd(text: str) -> Hd:
    src = str(text).strip().replace(" ", "").replace("−", "-")
    if src in ("½", "1/2", "0.5", ".5"):
        return Hd(dice=0, half=True)
    m = re.fullmatch(r"(\d+)([+-]\d+)?", src)
    if not m:
        raise Refused(f"Hit Dice '{text}' should read like 1, 1+1, 1-1, 3+6 or ½")
    dice = int(m[1])
    if not 1 <= dice <= 30:
        raise Refused(f"Hit Dice '{text}': 1 to 30 dice (or ½)")
    return Hd(dice=dice, plus=int(m[2] or 0))


def parse_weapons(text: str) -> tuple[Carried, ...]:
    """'belt pistol:6, belt pistol:4, knife' → carried weapons (shots default full)."""
    out: list[Carried] = []
    names: dict[str, int] = {}
    for part in str(text or "").split(","):
        part = part.strip()
        if not part:
            continue
        name, _, shots_text = part.partition(":")
        w = find_weapon(name)
        if w is None:
            raise Refused(f"'{name.strip()}' is not a weapon of Tables 10–12")
        if shots_text.strip():
            try:
                shots = whole_number(shots_text)
            except ValueError:
                raise Refused(f"'{part}': the loaded shots after the colon must be a number") from None
        else:
            shots = w.shots
        if not w.firearm and shots:
            raise Refused(f"a {w.name} is not a firearm and holds no shots")
        if not 0 <= shots <= w.shots:
            raise Refused(f"a {w.name} holds 0 to {w.shots} shots (Table 12), not {shots}")
        names[w.name] = names.get(w.name, 0) + 1
        label = w.name if names[w.name] == 1 else f"{w.name} {names[w.name]}"
        out.append(Carried(name=label, weapon=w.id, shots=shots))
    return tuple(out)


def format_weapons(carried: tuple[Carried, ...]) -> str:
    return ", ".join(f"{c.spec.name}:{c.shots}" if c.spec.firearm else c.spec.name for c in carried)


_DIE = re.compile(r"^(?:1)?d(\d+)$")


def parse_natural(text: str) -> tuple[Natural, ...]:
    """'Claws, Bite' → two 1d6 attacks; 'Hoof, d3' or 'Hoof d3' → one 1d3 attack (Ruling)."""
    out: list[Natural] = []
    for part in str(text or "").split(","):
        words = part.strip().lower().split()
        if not words:
            continue
        if len(words) == 1 and _DIE.match(words[0]):
            if not out:
                raise Refused(f"'{part.strip()}' gives a die but no attack before it")
            out[-1] = attrs.evolve(out[-1], sides=int(_DIE.match(words[0])[1]))  # type: ignore[index]
            continue
        sides = 6
        if len(words) > 1 and _DIE.match(words[-1]):
            sides = int(_DIE.match(words[-1])[1])  # type: ignore[index]
            words = words[:-1]
        if sides not in (3, 4, 6, 8, 10, 12):
            raise Refused(f"'{part.strip()}': an attack's die is d3, d4, d6, d8, d10 or d12")
        out.append(Natural(name=" ".join(words), sides=sides))
    return tuple(out)


def format_natural(natural: tuple[Natural, ...]) -> str:
    return ", ".join(n.name if n.sides == 6 else f"{n.name} d{n.sides}" for n in natural)


# Table 3: saving throw examples → the attribute whose modifier applies
SAVES: dict[str, str] = {
    "alcohol or poison": "CON",
    "ambush": "WIS",
    "death": "CON",
    "deception": "WIS",
    "drowning": "CON",
    "explosion": "DEX",
    "falling": "DEX",
    "grappled": "STR",
    "remembering facts": "INT",
    "rockfall": "DEX",
    "other": "",
}

# class bonuses on saving throws (+2)
CLASS_SAVE_BONUS: dict[str, tuple[str, ...]] = {
    SHOOTIST: ("death",),
    GAMBLER: ("deception",),
    TRAILBLAZER: ("alcohol or poison", "rockfall"),
}


def loyalty_result(total: int) -> tuple[str, int]:
    """Table 15: the result and the modifier it leaves for the next loyalty check."""
    if total <= 3:
        return "Traitor", 0
    if total <= 5:
        return "-2 on next loyalty check", -2
    if total <= 8:
        return "-1 on next loyalty check", -1
    if total <= 12:
        return "Average", 0
    if total <= 15:
        return "+1 on next loyalty check", 1
    if total <= 17:
        return "+2 on next loyalty check", 2
    return "Loyal", 0
