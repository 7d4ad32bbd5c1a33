"""Blackjack records: a combatant's stats, injury track, weapons, lead and workings; the fight's morale record.

``data(c)`` is the one typed way to read a combatant's record (the core keeps it
as ``Any``); ``fight(state)`` reads the fight-level record.
"""

from __future__ import annotations

import math

import attrs

from tracker.model import NPC, PC, Combatant, FightState

LEVELS = ("lesser", "moderate", "severe", "grievous")
FATAL = "fatal"
SEVERE = 2  # the index of Severe: "need help or will die"
STATS = ("acc", "body", "ctrl")
# the sheet revision this plug-in writes (the "rev" key of a checked sheet); see BJData.rev
REV = 2
SLOTS_MAX = 9  # a level's injury slots: the sheet's "each level holds 1 to 9 slots" (sheet.parse_slots)
SHOTS_MAX = 99  # a firearm's Shots: the GM's own holds 1 to 99 (sheet._own), the book's 1 to 10


@attrs.frozen(kw_only=True)
class Weapon:
    name: str
    kind: str = "melee"  # firearm | bow | blowgun | thrown | melee | natural | special
    shots: int = 0  # a firearm's Shots
    loaded: int = 0
    ammo: int = -1  # a stack (bow, blowgun); -1: none tracked
    multi: str = ""  # "shots" (revolver, repeater), "blast" (shotgun), "area" (fire breath)
    level: int = 0  # default injury level (index in LEVELS); -1: no injury
    dv: int = 0  # always
    near_dv: int = 0  # at nearby range
    far_dv: int = 0  # at far range
    blast_dv: int = 0  # replaces dv when one blast takes several targets
    jam: int = 0  # jams when the attacker's d20 shows this or more
    jammed: bool = False
    tags: tuple[str, ...] = ()
    stat: str = ""  # a special the PC saves against (BODY/ACC/CTRL)
    condition: str = ""  # a special's condition on a failed save
    injury: str = ""  # what the injury is called
    recharge: int = 0  # n-in-6 recharge
    spent: bool = False
    notes: str = ""
    throwable: bool = False  # a melee weapon that can be thrown at nearby range (hand axe, knife…)
    dropped: bool = False  # thrown and lying on the floor until the GM gives it back

    @property
    def is_firearm(self) -> bool:
        return self.kind == "firearm"

    @property
    def leaves_the_hand(self) -> bool:
        """Thrown beyond close range, it lies on the floor until the GM gives it back: a melee axe or knife
        thrown, or a throwing axe or knife of the table (l.204–205: burden items, "2 to a slot", not a supply)."""
        return self.throwable or self.kind == "thrown"

    @property
    def tracked(self) -> bool:
        """Shots or an ammunition stack the GM can refill."""
        return self.is_firearm or self.ammo >= 0

    @property
    def ready(self) -> bool:
        """Whether it can be used now: a gun loaded and not jammed, ammunition left, a special recharged, in hand."""
        if self.is_firearm and (self.loaded == 0 or self.jammed):
            return False
        return not (self.ammo == 0 or (self.recharge and self.spent) or self.dropped)

    def describe(self) -> str:
        s = self.name
        if self.is_firearm:
            s += f" {self.loaded}/{self.shots}"
        elif self.ammo >= 0:
            s += f" ({self.ammo} ammo)"
        if self.jammed:
            s += " JAMMED"
        if self.spent:
            s += " (spent)"
        if self.dropped:
            s += " (on the floor)"
        return s


@attrs.frozen(kw_only=True)
class Working:
    name: str
    level: int = 1
    cast_today: bool = False
    effect: str = "note"  # note | condition | injury | heal
    condition: str = ""
    value: int = 0
    injury_level: int = 0
    injury: str = ""
    notes: str = ""
    paper: bool = False  # its effect lasts until the paper is destroyed (Hex, Naming)


@attrs.frozen(kw_only=True)
class DvMod:
    """A DV modifier the combatant imposes on attacks with some tags (Ironscales)."""

    label: str
    tags: tuple[str, ...]
    value: int


@attrs.frozen(kw_only=True)
class PaperBond:
    """An effect bound to a paper (Naming's agony, a Hex): only destroying the paper removes it.

    ``level`` is the injury level it holds (index in LEVELS), or -1 for a condition.
    """

    working: str
    caster: str
    level: int
    name: str

    def describe(self) -> str:
        what = f"{LEVELS[self.level]} {self.name}" if self.level >= 0 else self.name
        return f"{what} ({self.working}'s paper)"


@attrs.frozen(kw_only=True, slots=False)  # copied by its dictionary: see tracker.model.changed (bench figure 3)
class BJData:
    kind: str = PC
    acc: int = 10
    body: int = 10
    ctrl: int = 10
    acc_marks: int = 0
    body_marks: int = 0
    ctrl_marks: int = 0
    threat: int = 0
    morale: int = 0
    slots: tuple[int, ...] = (2, 2, 1)
    injuries: tuple[tuple[str, ...], ...] = ((), (), ())
    dead: bool = False
    out: str = ""  # "fled" | "surrendered"
    weapons: tuple[Weapon, ...] = ()
    lead: int = 0
    ingested: int = 0
    pending_sixes: int = 0
    workings: tuple[Working, ...] = ()
    deficiencies: tuple[str, ...] = ()
    resistances: tuple[str, ...] = ()
    weaknesses: tuple[str, ...] = ()
    immunities: tuple[str, ...] = ()
    dv_mods: tuple[DvMod, ...] = ()
    specials: str = ""
    size: str = "medium"
    bound: tuple[PaperBond, ...] = ()  # injuries and conditions only destroying a paper removes
    # the action taken in the combatant's current turn, in words ("ingested lead", "fired the Pistol"); "" none yet.
    # Set by evolve from the action's event when taken in its own turn, cleared when that turn ends (or its next
    # starts, or the fight ends) (rules/common.py ``one_action``); older fight files fold it from their events
    # too (refusing is decide's, never evolve's)
    action: str = ""
    recharge_rolled: tuple[str, ...] = ()  # specials whose recharge was rolled in its current turn
    # 1: added by the plug-in before morale prompts moved into react (an old fight file:
    # its GM adjusts and removals open morale prompts as they did then); 2: added since
    rev: int = 1

    @property
    def is_pc(self) -> bool:
        return self.kind == PC

    @property
    def acted(self) -> bool:
        """Whether it has taken its turn's action (a GM-adjustable value: "no" frees the turn's action)."""
        return bool(self.action)

    @property
    def injury_count(self) -> int:
        return sum(len(x) for x in self.injuries)

    @property
    def fatal_index(self) -> int:
        return len(self.slots)

    @property
    def worst(self) -> int:
        """The index of the worst injury level marked; -1 when unhurt."""
        for i in range(len(self.injuries) - 1, -1, -1):
            if self.injuries[i]:
                return i
        return -1

    @property
    def down(self) -> bool:
        """A Severe (or Grievous) injury: needs help or will die."""
        return self.worst >= SEVERE

    def level_name(self, index: int) -> str:
        if index < 0:
            return "none"
        return LEVELS[index] if index < len(self.slots) else FATAL

    def stat(self, name: str) -> int:
        value: int = getattr(self, name.lower())
        return value

    def marks(self, name: str) -> int:
        value: int = getattr(self, f"{name.lower()}_marks")
        return value

    def npc_limit(self, deficient: bool = False) -> int:
        """An NPC saves ≤ Threat + 8 (⌈Threat ÷ 2⌉ + 8 where deficient)."""
        return (math.ceil(self.threat / 2) if deficient else self.threat) + 8

    @property
    def standing(self) -> bool:
        return not self.dead and not self.out

    def bound_count(self, level: int, name: str | None = None) -> int:
        return sum(1 for b in self.bound if b.level == level and (name is None or b.name == name))

    def free_injuries(self, level: int) -> tuple[str, ...]:
        """The injuries at ``level`` that treatment may clear (not bound to a paper), latest last."""
        row = list(self.injuries[level])
        for b in self.bound:
            if b.level == level and b.name in row:
                del row[len(row) - 1 - row[::-1].index(b.name)]
        return tuple(row)

    @property
    def injury_list(self) -> str:
        """The marked injuries as the GM types them: 'lesser bruised, moderate cut'."""
        return ", ".join(f"{LEVELS[i]} {name}" for i, row in enumerate(self.injuries) for name in row)

    @property
    def shots(self) -> str:
        """Loaded shots and ammunition stacks as the GM types them: 'Revolver 6, Rifle 5, Bow 10'."""
        return ", ".join(f"{w.name} {w.loaded if w.is_firearm else w.ammo}" for w in self.weapons if w.tracked)

    @property
    def cast_today(self) -> str:
        """The workings cast today, as the GM types them: 'Hex, Naming' (a GM-adjustable value: see
        :func:`systems.blackjack.adjust.check`)."""
        return ", ".join(w.name for w in self.workings if w.cast_today)

    @property
    def floor(self) -> str:
        """Thrown weapons lying on the floor, as the GM types them: 'Hand axe, Knife'."""
        return ", ".join(w.name for w in self.weapons if w.dropped)


@attrs.frozen(kw_only=True)
class BJFight:
    """The fight-level record.

    ``morale_seen``: the morale triggers already prompted ("casualty:Gang",
    "half:Gang", "alone:c3"); ``setup_out``: the NPCs already out of the fight
    (removed, dead, fled) when it started: no side's casualties, not in its number.
    """

    morale_seen: tuple[str, ...] = ()
    setup_out: tuple[str, ...] = ()


def check_new(d: BJData) -> None:
    """Raise ValueError naming the first value of a new combatant's record (``make_data``, from the sheet of a
    ``combatant_added`` line) that no sheet the tracker checks can hold.

    Ruling: a sheet in a fight file is the sheet ``check_sheet`` passed (the add form, a preset, a party), and its
    bounds have not changed since the first blackjack file: 1 to 4 levels of 1 to 9 injury slots, injuries that fit
    them, a PC's stats 3 to 19 with 0 to 2 marks, an NPC's Threat 1 to 10 and Morale 2 to 12, lead not negative;
    a weapon's Shots 0 to 99 (a firearm loaded with no more than it holds), its stack -1 (none) or more, its
    injury level -1 (none) to grievous, its jam 0 to 20 (a d20), its recharge 0 to 6 (n-in-6), a working's lead
    0 to 99. A sealed line that says otherwise was edited by hand (one injury track of 10**7 slots
    took a minute and gigabytes to draw), so its event does not apply and the loader names its line
    (``tests/systems/blackjack/test_hostile_values.py``).  Bounds with room above what the forms give (lead, a
    stack) are left open: a GM can type them.
    """

    def bad(what: str, value: object) -> ValueError:
        return ValueError(f"{what} cannot be {value!r}")

    if d.kind not in (PC, NPC):
        raise bad("the kind", d.kind)
    if not 1 <= len(d.slots) <= len(LEVELS):
        raise ValueError(f"the injury track has 1 to {len(LEVELS)} levels, not {len(d.slots)}")
    for n in d.slots:
        if not 1 <= n <= SLOTS_MAX:
            raise bad("a level's injury slots (1 to 9)", n)
    if len(d.injuries) != len(d.slots) or any(len(row) > n for row, n in zip(d.injuries, d.slots, strict=True)):
        raise ValueError("the injuries marked do not fit the injury track")
    if d.is_pc:
        for s in STATS:
            if not 3 <= d.stat(s) <= 19:
                raise bad(f"{s.upper()} (3 to 19)", d.stat(s))
            if not 0 <= d.marks(s) <= 2:
                raise bad(f"{s.upper()} marks (0 to 2)", d.marks(s))
    else:
        if not 1 <= d.threat <= 10:
            raise bad("Threat (1 to 10)", d.threat)
        if not 2 <= d.morale <= 12:
            raise bad("Morale (2 to 12)", d.morale)
    if d.lead < 0:
        raise bad("lead", d.lead)
    for w in d.weapons:
        if not 0 <= w.shots <= SHOTS_MAX or (w.is_firearm and not 0 <= w.loaded <= w.shots):
            raise bad(f"{w.name}'s shots", f"{w.loaded}/{w.shots}")
        if w.ammo < -1:
            raise bad(f"{w.name}'s stack", w.ammo)
        if not -1 <= w.level < len(LEVELS) or not 0 <= w.jam <= 20 or not 0 <= w.recharge <= 6:
            raise bad(f"{w.name}'s injury level, jam or recharge", (w.level, w.jam, w.recharge))
    for wk in d.workings:
        if not 0 <= wk.level <= 99:
            raise bad(f"{wk.name}'s lead", wk.level)


def data(c: Combatant) -> BJData:
    """A combatant's blackjack record."""
    d = c.data
    if not isinstance(d, BJData):
        raise TypeError(f"{c.name} has no blackjack record")
    return d


def fight(state: FightState) -> BJFight:
    """The fight's blackjack record (a fresh one where there is none)."""
    return state.data if isinstance(state.data, BJFight) else BJFight()
