"""Saves asked for by the GM, and Arguin' (the social contest).

Rulings made here (beyond the rules table: ``social_pass``, ``arguin_lost``), each named in a test:
- A save marked social (negotiatin', hobnobbin', keeping face) whose DV before
  the floor at 0 is negative passes with no roll, logged as such: "-4 to the
  DV. If it goes negative, the check passes automatically"
  (``test_a_negotiation_whose_dv_goes_negative_passes_with_no_roll``). Other
  saves floor the DV at 0 and roll as usual. Arguin's keep-face saves are social.
- Arguin': when both sides' lose-face injuries land at moderate or above in the
  same round, the side with less to lose (the GM's pick, default the NPC) wins
  (``test_arguin_both_shamed_goes_to_the_side_with_less_to_lose``).
"""

from __future__ import annotations

from tracker.dice import Roller
from tracker.errors import Refused
from tracker.kit import Draft, need

from ..checks import auto_pass, blackjack_save
from ..commands import Argue, MakeSave
from ..events import ArguinLost, ArguinRound, DvPart, SaveRolled
from ..records import data
from ..sheet import level_index
from ..table import R, applies
from .common import able, rules
from .harm import impact_shift, injury


@rules.on(MakeSave)
@applies(R.SAVE, R.AGAINST_NPC, R.SOCIAL, R.SOCIAL_PASS, R.IMPACT)
def _save(d: Draft, cmd: MakeSave, dice: Roller) -> None:
    a = able(d.state, cmd.actor)
    parts = []
    if cmd.against:
        o = need(d.state, cmd.against)
        if not data(o).is_pc:
            parts.append(DvPart(label=f"{o.name}'s Threat", value=data(o).threat))
    if cmd.dv:
        parts.append(DvPart(label="DV", value=cmd.dv))
    parts += [DvPart(label=m.label, value=m.value) for m in cmd.modifiers]
    ad = data(a)
    level = -1 if cmd.fail_level == "none" else level_index(cmd.fail_level, len(ad.slots))
    passed = auto_pass(a, cmd.stat, parts, cmd.purpose) if cmd.social else None
    if passed is not None:
        d.add(passed)
        return
    tested = (cmd.purpose, "social") if cmd.social else (cmd.purpose,)
    save = blackjack_save(dice, a, cmd.stat, parts, cmd.purpose or "save", cmd.deficient, tested)
    d.add(SaveRolled(actor=a.id, save=save, purpose=cmd.purpose))
    if not save.success and level >= 0:
        shifted, how = impact_shift(level, ad.fatal_index, cmd.impact, -1)
        steps = (ad.level_name(level), *how, ad.level_name(shifted)) if how else ()
        d.add(injury(d.state, a.id, shifted, cmd.injury or cmd.purpose or "injury", (), steps))


KEEP_FACE = ("keep face", "social", "arguin", "arguin'")  # what Arguin's keep-face save tests (``deficient_in``)
_BEATS = {"defend": "attack", "attack": "flourish", "flourish": "defend"}


@rules.on(Argue)
@applies(R.ARGUIN, R.ARGUIN_LOST, R.METAPHYSICAL)
def _argue(d: Draft, cmd: Argue, dice: Roller) -> None:
    pc = able(d.state, cmd.actor, "PC")
    npc = able(d.state, cmd.npc, "NPC")
    if not data(pc).is_pc or data(npc).is_pc:
        raise Refused("Arguin' puts one PC against one NPC, each speaking for a side", rule=R.ARGUIN)
    for m in (cmd.pc_move, cmd.npc_move):
        if m not in _BEATS:
            raise Refused(f"'{m}' is not a move: attack, defend or flourish", rule=R.ARGUIN)
    if cmd.pc_move == cmd.npc_move:
        losers: tuple[str, ...] = (pc.id, npc.id)
    elif _BEATS[cmd.pc_move] == cmd.npc_move:
        losers = (npc.id,)
    else:
        losers = (pc.id,)
    d.add(ArguinRound(pc=pc.id, npc=npc.id, pc_move=cmd.pc_move, npc_move=cmd.npc_move, losers=losers))
    shamed = []
    for lid in losers:
        c = d.get(lid)
        passed = auto_pass(c, "CTRL", [], "keep face")
        if passed is not None:
            d.add(passed)
            continue
        save = blackjack_save(dice, c, "CTRL", [], "keeps face", tested=KEEP_FACE)
        d.add(SaveRolled(actor=lid, save=save, purpose="keep face"))
        if not save.success:
            inj = injury(d.state, lid, 0, "lose face", ("social",))
            d.add(inj)
            if inj is not None and inj.index >= 1:
                shamed.append(lid)
    if len(shamed) == 2:
        loser = pc.id if cmd.less_to_lose == "npc" else npc.id
        d.add(
            ArguinLost(
                loser=loser,
                winner=npc.id if loser == pc.id else pc.id,
                note="both shamed: ties favour the side with less to lose",
            )
        )
    elif shamed:
        d.add(ArguinLost(loser=shamed[0], winner=npc.id if shamed[0] == pc.id else pc.id))
