"""The Blood & Bullets rules table: every rule the plug-in applies, by id, with the book's place.

``R.<id>`` is one :class:`~tracker.reasons.Rule`; :data:`RULES` is the table (``system.rules()``, from which
``docs/rules/bnb.md`` is made).  A source ``"bnb l.N"`` is line N of the book (the seed text
``000_00251cf030a050f8.txt``); ``"ruling on bnb l.N"`` is the project's reading of that place where the book
is unclear or silent (the rulings of the plug-in's docstrings, each with its test).  Each text is the
project's own one-line statement, never the book's sentences.

The deciders name the rules they apply: a refusal passes ``rule=R.<id>``, and each decider module lists the
rules it applies in its ``APPLIES``; :mod:`systems.bnb.rules.why` explains every event with them.
This module is a leaf (it imports only the core's records).
"""

from __future__ import annotations

from tracker.reasons import Rule


def _rule(rid: str, name: str, source: str, text: str) -> Rule:
    return Rule(id=rid, name=name, source=source, text=text)


class R:
    """The rules, one attribute each (its name is the rule's id)."""

    # -- sheets ------------------------------------------------------------
    attribute_modifier = _rule(
        "attribute_modifier",
        "Attribute modifier",
        "bnb l.16–18",
        "An attribute gives −3 at 3, −2 at 4–5, −1 at 6–8, 0 at 9–12, +1 at 13–15, +2 at 16–17, +3 at 18.",
    )
    class_tables = _rule(
        "class_tables",
        "Class tables",
        "bnb l.36–70",
        "A class level sets the Hit Dice, To Hit Bonus, Defence Bonus and Saving Throw number (Tables 4–6).",
    )
    hit_points = _rule(
        "hit_points",
        "Hit points",
        "bnb l.24",
        "HP are the class Hit Dice in d6 plus their +N, with the CON modifier on each die (at least 1 a die).",
    )
    defence_class = _rule(
        "defence_class",
        "Defence Class",
        "bnb l.24",
        "A character's DC is 10 + the DEX modifier + the class Defence Bonus.",
    )
    npc_hit_dice = _rule(
        "npc_hit_dice",
        "Critter Hit Dice",
        "bnb l.172",
        "A critter or NPC has HD d6 HP, plus or minus the listed number once; its DC is the listed one.",
    )
    half_hd = _rule(
        "half_hd",
        "Half a Hit Die",
        "ruling on bnb l.177",
        "A ½ HD critter has 1d3 HP and counts as 0 HD for its to-hit bonus and Saving Throw.",
    )
    # -- initiative and turns ----------------------------------------------
    initiative = _rule(
        "initiative",
        "Initiative",
        "bnb l.137",
        "Each side rolls d20 plus its modifiers at the start of the fight; the highest acts first.",
    )
    group_initiative = _rule(
        "group_initiative",
        "Group initiative",
        "bnb l.134",
        "Each PC and each important NPC rolls alone; a group of NPCs rolls once and shares the roll.",
    )
    initiative_ties = _rule(
        "initiative_ties",
        "Initiative ties",
        "bnb l.137",
        "A tie goes to the higher DEX, then the higher level; still tied, they act at the same time.",
    )
    simultaneous = _rule(
        "simultaneous",
        "Simultaneous actions",
        "bnb l.137",
        "Damage dealt by combatants acting at the same time lands even if one of them drops.",
    )
    keep_order = _rule(
        "keep_order",
        "Turn order kept",
        "bnb l.136",
        "The order rolled in the first round is kept for the later rounds.",
    )
    hold = _rule(
        "hold",
        "Holding the action",
        "ruling on bnb l.134",
        "A PC may hold its action and act at any later moment of the round once its place has come; NPCs may not.",
    )
    surprise = _rule(
        "surprise",
        "Surprise",
        "bnb l.134",
        "A side the Referee grants surprise acts in a free round before the others.",
    )
    # -- the attack --------------------------------------------------------
    to_hit = _rule(
        "to_hit",
        "Attack roll",
        "bnb l.137",
        "d20 plus the to-hit bonuses, minus the penalties, hits when the total is at least the target's DC.",
    )
    natural = _rule(
        "natural",
        "Natural 20 and 1",
        "bnb l.137",
        "A natural 20 always hits for maximum damage (its first die counts as a 6); a natural 1 always misses.",
    )
    npc_to_hit = _rule(
        "npc_to_hit",
        "Critter to-hit",
        "bnb l.172",
        "A critter or NPC without a class attacks at a bonus equal to its HD, at most +15.",
    )
    npc_no_dex = _rule(
        "npc_no_dex",
        "Critters attack at HD alone",
        "ruling on bnb l.172",
        "An NPC without a class adds no STR or DEX to its attacks; its DEX breaks ties and counts in DEX saves.",
    )
    melee = _rule(
        "melee",
        "Melee attack",
        "bnb l.138",
        "A hand-held weapon attacks within 5 ft; a character adds the STR modifier to hit and to damage.",
    )
    missile = _rule(
        "missile",
        "Missile attack",
        "bnb l.140",
        "Guns, bows and thrown weapons are missile attacks: a character adds the DEX modifier to hit.",
    )
    range = _rule(
        "range",
        "Range",
        "bnb l.121",
        "Missiles get +2 to hit up to the listed range, +1 up to twice it, +0 up to three times; no farther.",
    )
    cover = _rule(
        "cover",
        "Cover",
        "bnb l.138",
        "A target in cover gives the attacker −1 to −4 to hit, as the Referee sets.",
    )
    cover_condition = _rule(
        "cover_condition",
        "Cover (condition)",
        "ruling on bnb l.138",
        "A target marked with the Cover condition gives its value (1–4; 2 when none is set) as the cover penalty "
        "of any attack that sets none.",
    )
    sure_shot = _rule(
        "sure_shot",
        "Sure Shot",
        "bnb l.43",
        "A Shootist's chosen firearm gets +1 to hit and +1 damage.",
    )
    close_fighter = _rule(
        "close_fighter",
        "Close Fighter",
        "bnb l.72",
        "A Trailblazer's chosen non-firearm gets +1 to hit and +1 damage.",
    )
    npc_weapon_bonus = _rule(
        "npc_weapon_bonus",
        "An NPC's +1 weapon",
        "ruling on bnb l.179",
        "A +1 after a weapon on an NPC's line (Pistol +1) is +1 to hit and damage with it, like Sure Shot.",
    )
    two_hands = _rule(
        "two_hands",
        "Two-handed spear",
        "bnb l.88",
        "A spear used with both hands deals +1 damage; no other weapon gains by it.",
    )
    into_melee = _rule(
        "into_melee",
        "Firing into melee",
        "bnb l.140",
        "A missile fired into a melee strikes one of those in it at random, friend or foe (the roll is logged).",
    )
    # -- damage ------------------------------------------------------------
    damage = _rule(
        "damage",
        "Damage",
        "bnb l.137",
        "A hit deals the weapon's dice and its ±, plus STR in melee, off the target's HP.",
    )
    exploding = _rule(
        "exploding",
        "Exploding damage",
        "bnb l.138",
        "A damage die showing 6 rolls one more d6 (no modifiers) and adds it, at most level ÷ 2 extra dice.",
    )
    critter_level = _rule(
        "critter_level",
        "A critter's level",
        "ruling on bnb l.138",
        "A critter or NPC without a class explodes its damage as if its level were its HD.",
    )
    keep_highest = _rule(
        "keep_highest",
        "Keep the highest",
        "bnb l.121",
        "A weapon marked * rolls 2d6 and keeps the higher die before adding its +1 or +2; that die explodes.",
    )
    small_dice = _rule(
        "small_dice",
        "d3 dice do not explode",
        "ruling on bnb l.138",
        "Damage dice of d3 (fists, a donkey's hoof) never explode; a natural 20 makes them 3.",
    )
    at_least_one = _rule(
        "at_least_one",
        "A hit deals at least 1",
        "ruling on bnb l.137",
        "A hit always takes at least 1 HP, whatever the weapon's minus.",
    )
    sneak_attack = _rule(
        "sneak_attack",
        "Sneak attack",
        "bnb l.59",
        "A Gambler's hit by surprise with a knife, derringer or pocket pistol deals double damage.",
    )
    fists = _rule(
        "fists",
        "Fists: temporary damage",
        "bnb l.88",
        "Fists deal 1d3 temporary damage, kept apart from lethal damage.",
    )
    rowdy = _rule(
        "rowdy",
        "Rowdy",
        "bnb l.72",
        "A Trailblazer hits with the fists for d6 temporary damage instead of d3.",
    )
    # -- weapons, rate and shots -------------------------------------------
    rate_of_fire = _rule(
        "rate_of_fire",
        "Rate of fire",
        "bnb l.97",
        "A missile weapon or gun attacks as many times a round as its rate of fire; a melee weapon once.",
    )
    every_other_round = _rule(
        "every_other_round",
        "Rate of fire ½",
        "ruling on bnb l.102",
        "A gun of rate ½ fires once every other round.",
    )
    one_weapon = _rule(
        "one_weapon",
        "One weapon a round",
        "ruling on bnb l.97",
        "A combatant attacks with one weapon a round, at its rate of fire. An NPC's line of weapons ('Spear, "
        "tomahawk', 'Bow, knife', 'Carbine, sabre') is the weapons it carries: one a round, as a PC's; a critter's "
        "natural attacks ('Claws, Bite') each come every round.",
    )
    critter_attacks = _rule(
        "critter_attacks",
        "A critter's attacks",
        "ruling on bnb l.172",
        "A critter makes every attack its line lists each round, 1d6 each unless the line gives a die.",
    )
    critter_held = _rule(
        "critter_held",
        "A critter's attacks at the fallen",
        "ruling on bnb l.172",
        "The attacks a critter's line lists go at one target; once an earlier one drops it, the rest are not made "
        "(the critter mauls no one down: the GM turns it to a standing foe next round).",
    )
    shots = _rule(
        "shots",
        "Shots",
        "bnb l.98–106",
        "Each gun holds its capacity of Table 12; each shot spends one, and an empty gun does not fire.",
    )
    reload = _rule(
        "reload",
        "Reload",
        "ruling on bnb l.98–106",
        "Reloading fills one gun and takes the round's action: no attack before or after it that round.",
    )
    gunplay = _rule(
        "gunplay",
        "Gun-play",
        "bnb l.43",
        "A Shootist with a firearm makes one attack per level a round at foes of 1 HD or fewer, "
        "never more than the shots loaded.",
    )
    gunplay_targets = _rule(
        "gunplay_targets",
        "Gun-play targets",
        "ruling on bnb l.43",
        "Gun-play attacks may be spread over any foes of 1, 1−1 or ½ HD (not 1+1); each spends a shot and its "
        "own rolls, and it takes the Shootist's round.",
    )
    held_fire = _rule(
        "held_fire",
        "Holding fire at the fallen",
        "ruling on bnb l.43",
        "An attack planned at a foe who dropped earlier in the same action is not made and spends no shot.",
    )
    scattergun = _rule(
        "scattergun",
        "Scattergun spread",
        "bnb l.121",
        "One scattergun shot attacks everyone within 5 ft either side of the point aimed at.",
    )
    scattergun_save = _rule(
        "scattergun_save",
        "Scattergun: save for half",
        "bnb l.121",
        "Beyond 30 ft each target struck by a scattergun saves (DEX modifier applies) for half damage.",
    )
    # -- falling, death and saves ------------------------------------------
    death = _rule(
        "death",
        "Death at 0 HP",
        "bnb l.138",
        "A combatant at 0 HP or below from lethal damage falls and makes a saving throw vs death.",
    )
    death_save = _rule(
        "death_save",
        "Saving throw vs death",
        "bnb l.138",
        "d20 + CON − 1 for each HP below 0 at least the Saving Throw number: unconscious and in need of help; "
        "else dead.",
    )
    minor_npc = _rule(
        "minor_npc",
        "Minor NPCs",
        "ruling on bnb l.138",
        "An NPC the GM marks as minor dies at 0 HP, with no death save.",
    )
    knocked_out = _rule(
        "knocked_out",
        "Knocked out",
        "ruling on bnb l.138",
        "Temporary damage that brings HP to 0 or below knocks the combatant out, with no death save.",
    )
    death_by_ruling = _rule(
        "death_by_ruling",
        "A death save settled by the GM",
        "ruling on bnb l.138",
        "The GM may settle a death save without the roll: dies (dead) or lives (unconscious).",
    )
    saving_throw = _rule(
        "saving_throw",
        "Saving throw",
        "bnb l.143",
        "d20 at least the Saving Throw number avoids the danger or lessens it.",
    )
    save_attribute = _rule(
        "save_attribute",
        "Saving throw attribute",
        "bnb l.26",
        "A save adds the modifier of the attribute the danger calls for (Table 3: CON vs poison, DEX vs a fall…).",
    )
    critter_save = _rule(
        "critter_save",
        "A critter's Saving Throw",
        "bnb l.173",
        "A critter or NPC without a class saves at 19 − its HD.",
    )
    shootist_save = _rule(
        "shootist_save",
        "Shootist vs death",
        "bnb l.43",
        "A Shootist adds +2 to saving throws vs death.",
    )
    gambler_save = _rule(
        "gambler_save",
        "Gambler vs deceit",
        "bnb l.57",
        "A Gambler adds +2 to saving throws vs deceit.",
    )
    trailblazer_save = _rule(
        "trailblazer_save",
        "Trailblazer vs poison and rockfall",
        "bnb l.72",
        "A Trailblazer adds +2 to saving throws vs poison, alcohol and rockfall.",
    )
    lucky_streak = _rule(
        "lucky_streak",
        "Lucky Streak",
        "bnb l.57",
        "A Gambler re-rolls a failed saving throw once a day per 3 levels (1, 2, 3, 4 at levels 1–3, 4–6, 7–9, 10).",
    )
    lucky_any_save = _rule(
        "lucky_any_save",
        "Lucky Streak on any save",
        "ruling on bnb l.57",
        "Lucky Streak re-rolls any failed save (death, a scattergun's for half, any other); the re-roll replaces "
        "the first.",
    )
    loyalty = _rule(
        "loyalty",
        "Loyalty check",
        "bnb l.140–141",
        "3d6 plus the leader's CHA loyalty modifier, read on Table 15: traitor at 3, loyal at 18, and a modifier "
        "for the next check between.",
    )
    loyalty_modifier = _rule(
        "loyalty_modifier",
        "Charisma and loyalty",
        "bnb l.21–23",
        "The leader's CHA gives the loyalty modifier of Table 2.",
    )
    # -- after the fight ---------------------------------------------------
    binding_wounds = _rule(
        "binding_wounds",
        "Binding wounds",
        "bnb l.138",
        "After a battle a character binds 1d3 HP of wounds, only HP lost in that battle, never above the maximum; "
        "once per battle.",
    )
    rest = _rule(
        "rest",
        "Healing by rest",
        "bnb l.138",
        "Lethal damage heals 1 HP per level per full day of uninterrupted rest.",
    )
    temporary_healing = _rule(
        "temporary_healing",
        "Temporary damage heals by the hour",
        "bnb l.138",
        "Temporary (fist) damage heals at the same rate per hour; a knocked-out combatant above 0 HP comes to.",
    )
    npc_rest = _rule(
        "npc_rest",
        "An NPC's healing",
        "ruling on bnb l.138",
        "An NPC or critter heals as if its level were its HD (at least 1 HP a day: a level under 1 heals as 1).",
    )
    interrupted_rest = _rule(
        "interrupted_rest",
        "Interrupted rest",
        "ruling on bnb l.138",
        "Days of interrupted rest heal no lethal damage; their hours still heal temporary damage.",
    )
    quick_damage = _rule(
        "quick_damage",
        "HP lost",
        "bnb l.138",
        "Damage the GM deals comes off the HP like a blow's, and a fall to 0 HP or below runs as for a blow.",
    )
    quick_healing = _rule(
        "quick_healing",
        "HP regained",
        "ruling on bnb l.138",
        "HP the GM gives back heal temporary damage first, then lethal, never above the maximum; back above 0 HP "
        "the fallen are on their feet.",
    )
    experience = _rule(
        "experience",
        "Experience for foes overcome",
        "bnb l.126",
        "The PCs gain an NPC's listed XP for overcoming it: killing, capturing or driving it off.",
    )
    experience_bonus = _rule(
        "experience_bonus",
        "Experience bonus",
        "bnb l.18–19",
        "A PC's XP rises 5% for each of its prime attribute, WIS and CHA with a bonus (falls 5% for each with a "
        "penalty), at most +15%.",
    )
    experience_share = _rule(
        "experience_share",
        "An even share",
        "bnb l.146",
        "The XP earned may be pooled and divided evenly among the PCs.",
    )


RULES: tuple[Rule, ...] = tuple(v for v in vars(R).values() if isinstance(v, Rule))
BY_ID: dict[str, Rule] = {r.id: r for r in RULES}

__all__ = ["BY_ID", "RULES", "R"]
