"""A fight log as a readable Markdown recap: who fought, each round's actions with their rolls, the outcome."""

from __future__ import annotations

from saves.store import Loaded
from tracker.events import FightEnded, Redone, RoundStarted, TurnEnded, TurnStarted, Undone
from tracker.replay import Timeline


def recap(loaded: Loaded) -> str:
    system = loaded.system
    timeline = Timeline(system, loaded.entries)
    final = timeline.state_at(len(timeline))
    h = loaded.header
    out: list[str] = []
    title = h.title or loaded.path.stem
    out.append(f"# Fight recap: {title}")
    out.append("")
    out.append(f"- System: {system.name} (`{h.system}` {h.system_version})")
    out.append(f"- Started: {h.created}")
    out.append(f"- Rounds: {final.round}")
    out.append(f"- Log: {len(loaded.entries)} events")
    for w in loaded.warnings:
        out.append(f"- Warning: {w}")
    out.append("")
    out.append("## Combatants")
    out.append("")
    out.append("| Name | Side | Group | Initiative | Condition at the end |")
    out.append("|---|---|---|---|---|")
    for c in final.combatants:
        status = "left the fight" if c.removed else (system.status(final, c) or "-")
        conds = ", ".join(x.describe() for x in c.conditions)
        if conds:
            status += f"; {conds}"
        init = "-" if c.initiative is None else str(c.initiative)
        out.append(f"| {_cell(c.name)} | {c.kind.upper()} | {_cell(c.group or '-')} | {init} | {_cell(status)} |")
    out.append("")
    out.append("## The fight")
    out.append("")
    for i, entry in enumerate(timeline.entries):
        ev = entry.event
        if isinstance(ev, (TurnEnded,)):
            continue
        line = timeline.describe(i)
        if isinstance(ev, RoundStarted):
            out.append("")
            out.append(f"### {line}")
            out.append("")
            continue
        if isinstance(ev, TurnStarted):
            out.append(f"- **{line}**")
            continue
        if isinstance(ev, (Undone, Redone)):
            out.append(f"  - _{line}_")
            continue
        if timeline.is_undone(i):
            out.append(f"  - ~~{line}~~ (undone)")
        else:
            out.append(f"  - {line}")
        if isinstance(ev, FightEnded):
            break
    out.append("")
    out.append("## Outcome")
    out.append("")
    for c in final.present:
        out.append(f"- {c.name}: {system.status(final, c) or '-'}")
    if final.prompts:
        out.append("")
        out.append("Still open: " + "; ".join(p.text for p in final.prompts))
    out.append("")
    return "\n".join(out)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
