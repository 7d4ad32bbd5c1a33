"""Chapter 8's critters and NPC types, the weapons of Tables 10–12, and class archetypes.

Rulings on the stat lines (the text lost or left these unclear):
- "Pistol" on an NPC's line is a belt pistol, "rifle" a repeating rifle; an
  "X or Y" line carries both and the GM picks at each attack.
- An NPC type's line of weapons joined by commas ("Spear, tomahawk", "Bow,
  knife", "Carbine, sabre", "Long Rifle, Horse Pistol or Wood Axe") is the
  weapons it carries, one a round at its rate of fire, as a PC's (rule
  one_weapon); a critter's natural attacks ("Claws, Bite") each come every
  round (rule critter_attacks). (test_round4_fixes.py:
  test_an_npc_is_refused_a_second_weapon_in_a_round_and_told_why)
- A "+1" after a weapon (Gunfighter's "Pistol +1", Brave's "tomahawk +1") is
  +1 to hit and damage with it, like Sure Shot.
- The Dandy's attacks are lost in the text: he carries a pocket pistol.
- The Rattler's "Weapon" attack is its bite, 1d6 (venom is the GM's save).
- The NPC Rowdy punches for d3 like everyone but a Trailblazer (l.72: only
  Trailblazers do d6; l.181 lists "Fist or Pistol"); the sheet's "Rowdy
  (fists d6)" box stays for a GM who ticks it.
- The Gunfighter is an important NPC: he rolls his own initiative (d20+1),
  even when several are added as a group.
"""

from __future__ import annotations

from systems.bnb.tables import WEAPONS
from tracker.model import NPC, PC
from tracker.plugin import Preset

CRITTERS = "Critters (chapter 8)"
NPC_TYPES = "NPC types (chapter 8)"
WEAPON_CATEGORY = "Weapons (Tables 10–12)"
CLASS_CATEGORY = "Characters (chapter 2)"


def _npc(pid: str, name: str, category: str, dc: int, hd: str, summary: str, **sheet: object) -> Preset:
    return Preset(
        id=pid,
        name=name,
        kind=NPC,
        category=category,
        summary=f"DC {dc}, HD {hd}; {summary}",
        sheet={"dc": dc, "hd": hd, **sheet},
    )


CHAPTER_8: tuple[Preset, ...] = (
    _npc("black_bear", "Bear, Black", CRITTERS, 13, "3+6", "Claws, Bite; grapple; move 14; XP 150", attacks="Claws, Bite", xp=150),
    _npc("grizzly", "Bear, Grizzly", CRITTERS, 14, "5+6", "Claws, Bite; grapple; move 14; XP 400", attacks="Claws, Bite", xp=400),
    _npc("bison", "Bison", CRITTERS, 12, "6+4", "Horns; trample; move 14; XP 400", attacks="Horns", xp=400),
    _npc("cougar", "Cougar", CRITTERS, 14, "3+1", "Claws, Bite; pounce; move 14; XP 120", attacks="Claws, Bite", xp=120),
    _npc("donkey", "Donkey", CRITTERS, 11, "1+2", "Hoof d3; move 12; no XP listed", attacks="Hoof d3"),
    _npc("riding_horse", "Horse, Riding", CRITTERS, 12, "2+1", "Hoof; move 18; no XP listed", attacks="Hoof"),
    _npc("mule", "Mule", CRITTERS, 11, "3+1", "Hoof; move 12; no XP listed", attacks="Hoof"),
    _npc("pony", "Pony", CRITTERS, 12, "2", "Hoof d3; move 18; no XP listed", attacks="Hoof d3"),
    _npc("rattler", "Snake, Rattler", CRITTERS, 15, "½", "Bite; venom; move 9; XP 15", attacks="Bite", xp=15),
    _npc("wolf", "Wolf", CRITTERS, 13, "1+1", "Bite; scent; move 16; XP 20", attacks="Bite", xp=20),
    _npc("brave", "Brave", NPC_TYPES, 12, "1+1", "Spear, tomahawk +1; trick riding; move 12; XP 20",
         weapons="spear, tomahawk", favoured="tomahawk", xp=20),
    _npc("dandy", "Dandy", NPC_TYPES, 11, "1-1", "pocket pistol; move 9; XP 10", weapons="pocket pistol", xp=10),
    _npc("gunfighter", "Gunfighter", NPC_TYPES, 12, "1+1", "Pistol +1; +1 initiative; move 12; XP 20",
         weapons="belt pistol", favoured="belt pistol", init_mod=1, important=True, xp=20),
    _npc("mountain_man", "Mountain Man", NPC_TYPES, 10, "2", "Long Rifle, Horse Pistol or Wood Axe; conceal; XP 30",
         weapons="long rifle, horse pistol, wood axe", xp=30),
    _npc("outlaw", "Outlaw", NPC_TYPES, 11, "1", "Pistol or rifle; wanted; move 9; XP 15",
         weapons="belt pistol, repeating rifle", xp=15),
    _npc("rowdy", "Rowdy", NPC_TYPES, 10, "1", "Fist or Pistol; move 9; XP 15", weapons="belt pistol", xp=15),
    _npc("soiled_dove", "Soiled Dove", NPC_TYPES, 10, "1-1", "None or derringer; seductive; move 9; XP 10",
         weapons="derringer", xp=10),
    _npc("scout", "Scout", NPC_TYPES, 13, "1", "Bow, knife; stealth, track; move 12; XP 20", weapons="bow, knife", xp=20),
    _npc("cavalry_soldier", "Soldier, Cavalry", NPC_TYPES, 11, "1+1", "Carbine, sabre; move 12; XP 20",
         weapons="carbine, cavalry saber", xp=20),
)  # fmt: skip

WEAPON_PRESETS: tuple[Preset, ...] = tuple(
    Preset(
        id=f"weapon_{w.id}",
        name=w.name.title(),
        kind="weapon",
        category=WEAPON_CATEGORY,
        summary=w.describe(),
        sheet={
            "weapon": w.id,
            "damage": w.damage,
            "rof": w.rof,
            "shots": w.shots,
            "range": w.range,
            "kind": w.kind,
        },
    )
    for w in WEAPONS
)

CLASS_PRESETS: tuple[Preset, ...] = (
    Preset(
        id="shootist",
        name="Shootist",
        kind=PC,
        category=CLASS_CATEGORY,
        summary="level 1 Shootist, heavy pistol (Sure Shot), knife",
        sheet={"cls": "Shootist", "level": 1, "dex": 13, "weapons": "heavy pistol, knife", "favoured": "heavy pistol"},
    ),
    Preset(
        id="gambler",
        name="Gambler",
        kind=PC,
        category=CLASS_CATEGORY,
        summary="level 1 Gambler, derringer, knife",
        sheet={"cls": "Gambler", "level": 1, "cha": 13, "weapons": "derringer, knife"},
    ),
    Preset(
        id="trailblazer",
        name="Trailblazer",
        kind=PC,
        category=CLASS_CATEGORY,
        summary="level 1 Trailblazer, smoothbore musket, wood axe (Close Fighter)",
        sheet={"cls": "Trailblazer", "level": 1, "con": 13, "weapons": "smoothbore musket, wood axe",
               "favoured": "wood axe"},
    ),
)  # fmt: skip

PRESETS: tuple[Preset, ...] = CHAPTER_8 + CLASS_PRESETS + WEAPON_PRESETS
