"""A fight log as a readable Markdown recap: who fought, each round's actions with their rolls, the outcome.

Every line of a recap is text, whatever the file says: a control character in
a name, a note or a plug-in's words is shown as an escape (``\\x1b``), never
written to a terminal or a file (:func:`recap` escapes each line it returns).

:func:`write_recap` writes it safely: never onto a fight file (the one it came
from or any other, told by its first line), never through a symlink, never
over an existing file unless asked.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from saves.files import write_whole
from saves.format import SaveError, parse
from saves.loading import Loaded
from tracker.events import FightEnded, Redone, RoundStarted, TurnEnded, TurnStarted, Undone
from tracker.explain import explain
from tracker.model import Combatant, FightState
from tracker.plugin import System
from tracker.reasons import Reason
from tracker.replay import Timeline
from tracker.summary import SIDE_NAMES, Summary, end_state, fall_line, summarize
from tracker.text import visible


def describe_safely(timeline: Timeline, i: int) -> str:
    """Line ``i`` in words, control characters escaped; a plug-in failing to describe its event gives a
    placeholder, not a crash."""
    try:
        return visible(timeline.describe(i))
    except Exception as e:
        return f"{type(timeline.entries[i].event).__name__} ({type(e).__name__} while describing it)"


def reasons_safely(timeline: Timeline, i: int) -> tuple[Reason, ...] | str:
    """The reasons behind line ``i`` (:func:`tracker.explain`), or a sentence saying why there are none: a
    plug-in failing to explain its event gives that sentence, not a crash."""
    try:
        return explain(timeline, timeline.entries[i].seq)
    except Exception as e:
        return f"the system could not explain it ({type(e).__name__})"


def why_lines(timeline: Timeline, i: int, indent: str = "       ") -> list[str]:
    """Line ``i``'s reasons as plain text, one line per reason and one for its terms (``replay --why``)."""
    reasons = reasons_safely(timeline, i)
    if isinstance(reasons, str):
        return [f"{indent}why: {reasons}"]
    out: list[str] = []
    for r in reasons:
        out.append(visible(f"{indent}why: {r.rule} ({r.source}): {r.text}"))
        if r.terms:
            out.append(visible(f"{indent}     " + "; ".join(r.terms)))
    return out


def _why_bullets(timeline: Timeline, i: int, depth: str) -> list[str]:
    reasons = reasons_safely(timeline, i)
    if isinstance(reasons, str):
        return [f"{depth}- _Why:_ {_md(reasons)}"]
    out = []
    for r in reasons:
        terms = f" — {_md('; '.join(r.terms))}" if r.terms else ""
        out.append(f"{depth}- _Why:_ **{_md(r.rule)}** ({_md(r.source)}): {_md(r.text)}{terms}")
    return out


def _md(text: str) -> str:
    """Text a recap shows as it is, never as Markdown emphasis, code, strikethrough, HTML, a table cell's end or
    a link: those characters escaped.  A bracket only where a link or an image could start (``](``): the dice
    faces, "1d20 [15]", stay as the log shows them."""
    return "".join("\\" + ch if ch in "\\`*_~<>|#" else ch for ch in text).replace("](", "\\](")


def recap(loaded: Loaded, timeline: Timeline | None = None, *, why: bool = False) -> str:
    """The Markdown recap; with ``why``, each line of the fight is followed by the reasons behind it."""
    system = loaded.system
    timeline = timeline if timeline is not None else loaded.timeline()
    final = timeline.state_at(len(timeline))
    h = loaded.header
    out: list[str] = []
    title = final.title or h.title or loaded.path.stem
    out.append(f"# Fight recap: {_md(title)}")
    out.append("")
    out.append(f"- System: {_md(system.name)} (`{h.system}` {h.system_version})")
    out.append(f"- Started: {h.created}")
    out.append(f"- Rounds: {final.round}")
    out.append(f"- Log: {len(timeline)} events")
    for w in loaded.warnings:
        out.append(f"- Warning: {_md(w)}")
    out.append("")
    out.append("## Combatants")
    out.append("")
    out.append("| Name | Side | Group | Initiative | Condition at the end |")
    out.append("|---|---|---|---|---|")
    for c in final.combatants:
        status = _at_the_end(system, final, c)
        init = "-" if c.initiative is None else str(c.initiative)
        out.append(f"| {_cell(c.name)} | {c.kind.upper()} | {_cell(c.group or '-')} | {init} | {_cell(status)} |")
    out.append("")
    out.append("## The fight")
    out.append("")
    for i, entry in enumerate(timeline.entries):
        ev = entry.event
        if isinstance(ev, (TurnEnded,)):
            continue
        line = _md(describe_safely(timeline, i))  # names and notes as typed, never as Markdown or HTML
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
        elif isinstance(ev, FightEnded):
            out.append(f"- **{line}**")  # what the GM logs after it (binding wounds, say) follows
        else:
            out.append(f"  - {line}")
        if why:
            out.extend(_why_bullets(timeline, i, "    "))
    out.append("")
    out.append("## Outcome")
    out.append("")
    for c in final.present:  # (its conditions too: the table had them and the outcome did not)
        out.append(f"- {_md(c.name)}: {_md(_at_the_end(system, final, c))}")
    if final.prompts:
        out.append("")
        out.append("Still open: " + "; ".join(_md(p.text) for p in final.prompts))
    out.append("")
    out.extend(_figures(timeline))
    return "\n".join(visible(line) for line in out)


def _at_the_end(system: System, final: FightState, c: Combatant) -> str:
    """A combatant at the end of the fight: its state and status, then its conditions."""
    status = end_state(system, final, c)
    conds = ", ".join(x.describe() for x in c.conditions)
    return f"{status}; {conds}" if conds else status


def _figures(timeline: Timeline) -> list[str]:
    """Who fell when, and harm per round per side as a plain-text table (the summary screen's chart)."""
    try:
        s = summarize(timeline)
    except Exception as e:  # a plug-in failing on its own log: the recap still comes out
        return ["## Who fell", "", f"(the summary failed: {type(e).__name__})", ""]
    out = ["## Who fell", ""]
    if not s.falls:
        out.append("No one fell.")
    for f in s.falls:
        out.append(f"- {_md(fall_line(f))}")
    if s.awards:
        out += ["", "## Experience", ""]
        out += [f"- {_md(part)}" for line in s.awards for part in line.splitlines()]  # (a system may break one)
    out.append("")
    out.append("## Harm per round")
    out.append("")
    out.extend(harm_table(s))
    out.append("")
    return out


def harm_table(s: Summary) -> list[str]:
    """Harm dealt per round by each side, with the falls of the round, as a Markdown table with text bars."""
    sides = s.sides
    if not sides:
        return ["No harm was dealt."]
    falls: dict[int, int] = {}
    for f in s.falls:
        falls[f.round] = falls.get(f.round, 0) + 1
    rows = [(r, by) for r, by in s.harm_by_round if any(by.values()) or falls.get(r)]
    top = max((v for _r, by in rows for v in by.values()), default=0)
    head = " | ".join(SIDE_NAMES[x] for x in sides)
    out = [f"| Round | {head} | Falls |", "|---" * (len(sides) + 2) + "|"]
    for r, by in rows:
        cells = " | ".join(_cell_bar(by.get(x, 0), top) for x in sides)
        fell = falls.get(r, 0)
        out.append(
            f"| {'surprise' if r == 0 else r} | {cells} | {'✝' * min(fell, 5) + (f' {fell}' if fell > 5 else '') or '-'} |"
        )
    total = " | ".join(str(sum(by.get(x, 0) for _r, by in s.harm_by_round)) for x in sides)
    out.append(f"| **total** | {total} | {len(s.falls)} |")
    return out


def _cell_bar(value: int, top: int, width: int = 10) -> str:
    """``7 ███████``: the figure, then a bar of up to ``width`` blocks (in a fixed-width font it reads as a chart)."""
    if not value:
        return "0"
    return f"{value} " + "█" * max(1, round(value / top * width))


def _cell(text: str) -> str:
    return _md(text).replace("\n", " ")


def write_recap(text: str, target: Path, *, source: Path, force: bool = False) -> Path:
    """Write a recap to ``target``; SaveError (the file untouched) if that would harm anything.

    Never onto ``source`` (the fight), never through a symlink, never over an
    existing file unless ``force`` (then the old file, or link, is replaced
    whole, never written through).
    """
    if target.is_symlink():
        raise SaveError(f"{target} is a symbolic link; a recap is never written through one")
    if target.suffix == FIGHT_SUFFIX:
        raise SaveError(f"{target} is named like a fight file (.jsonl); give the recap a name ending in .md")
    if target.exists():
        with contextlib.suppress(OSError):
            if os.path.samefile(target, source):
                raise SaveError(f"{target} is the fight file itself; choose another name for the recap")
        if is_fight_file(target):
            raise SaveError(
                f"{target} is a fight file; a recap never replaces one (--force or not): choose another name"
            )
        if not force:
            raise SaveError(f"{target} already exists; use --force to replace it")
        if not target.is_file():
            raise SaveError(f"{target} is not a regular file")
    try:
        write_whole(target, text.encode("utf-8"), replace=force)
    except FileExistsError:
        raise SaveError(f"{target} already exists; use --force to replace it") from None
    except OSError as e:
        raise SaveError(f"cannot write {target}: {e.strerror or e}") from None
    return target


FIGHT_SUFFIX = ".jsonl"
HEAD_READ = 1 << 16  # a fight's first line (its header) is far shorter


def is_fight_file(path: Path) -> bool:
    """Whether ``path`` is a regular file whose first line is a fight header (whatever its name)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        first = os.read(fd, HEAD_READ).partition(b"\n")[0]
    except OSError:
        return False
    finally:
        os.close(fd)
    try:
        head = parse(first)  # a sealed line is JSON too (its checksum one more key): a damaged header still counts
    except (ValueError, RecursionError):
        return False
    return type(head) is dict and "format" in head and "system" in head


def fresh_recap_path(fight: Path) -> Path:
    """``<stem>-recap.md`` beside the fight, or ``-recap-2.md``… if that is taken (never overwritten)."""
    n = 1
    while True:
        candidate = fight.with_name(f"{fight.stem}-recap{'' if n == 1 else f'-{n}'}.md")
        if not candidate.exists() and not candidate.is_symlink():
            return candidate
        n += 1
