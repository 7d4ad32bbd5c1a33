"""The ``tracker`` command: the app, and replay/export/check/systems for saved fights.

This is the composition root, in the top layer: it composes the core, the
saves and the screens.  Every error is one clear line on stderr and a non-zero
exit, never a traceback.

The short commands' modules (export and its recap, check, the players' view's follower, the rules pages) are
imported in their own branches, not at the top: ``tracker --save FILE`` needs none of them.  A speed trick kept
by #43's rule, for launch figure 1 of bench/bench_speed.py ("1. continue a 2,500-event fight: launch to first
frame"), with the Why? and summary modules imported on first use (screens.fight, screens.actions.turns, each
plug-in's ``explain``); screens/launch.py says what they buy together.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

import saves
from saves.format import LoadError
from screens import collector
from tracker import registry
from tracker.errors import TrackerError
from tracker.events import TurnEnded
from tracker.text import visible, visible_lines


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tracker", description="A keyboard-first combat tracker for tabletop GMs.")
    p.add_argument(
        "--save",
        metavar="PATH",
        help="a fight file to continue (or create), or a folder to keep fights in instead of the default",
    )
    sub = p.add_subparsers(dest="cmd", metavar="COMMAND")
    r = sub.add_parser("replay", help="replay a saved fight step by step")
    r.add_argument("file", type=Path)
    r.add_argument("--text", action="store_true", help="print the fight turn by turn instead of opening the app")
    r.add_argument("--why", action="store_true", help="with --text: the rules behind each line, under it")
    e = sub.add_parser("export", help="write a Markdown recap of a saved fight")
    e.add_argument("file", type=Path)
    e.add_argument("-o", "--output", help="recap file (default, or -: print to standard output)")
    e.add_argument("--force", action="store_true", help="replace the output file if it exists")
    e.add_argument("--why", action="store_true", help="the rules behind each line of the fight, under it")
    c = sub.add_parser("check", help="check a saved fight and say what is wrong (exit 0 good, 1 bad)")
    c.add_argument("file", type=Path)
    t = sub.add_parser("table", help="the players' view: follow a fight live, read-only (a second terminal)")
    _view_options(t)
    t.add_argument("--served", action="store_true", help=argparse.SUPPRESS)  # one browser's copy (tracker serve)
    s = sub.add_parser("serve", help="serve the players' view to browsers (textual-serve; loopback by default)")
    _view_options(s)
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0: the local network)")
    s.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    s.add_argument("--public-url", help="the address the players' devices reach (default: this machine's)")
    s.add_argument("--max-viewers", type=int, default=24, help="browsers served at once (default 24)")
    ru = sub.add_parser("rules", help="print the rules as the tracker reads them (a system's, or the core's)")
    ru.add_argument(
        "system", nargs="?", default="", help="a system's id (tracker systems lists them); none: the core's"
    )
    sub.add_parser("systems", help="list the installed game systems")
    sub.add_parser("where", help="show the folder where fights are saved")
    return p


def _view_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", type=Path, help="the fight file (it may not exist yet: the view waits for it)")
    p.add_argument("--light", action="store_true", help="light theme (t switches)")
    p.add_argument("--large", action="store_true", help="large type (l switches)")


def say(text: str, file: TextIO | None = None) -> None:
    """Print a line that may quote a file's name or content: control characters shown as escapes (an Escape in
    a file's name reached the terminal)."""
    print(visible_lines(text), file=file or sys.stdout)


def main(argv: Sequence[str] | None = None) -> int:
    # a name that is no UTF-8 (a lone surrogate in a str path) is written as an escape, not an error on a good file
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    args = _parser().parse_args(argv)
    try:
        return _run(args)
    except TrackerError as e:
        print(f"tracker: {visible(str(e))}", file=sys.stderr)  # a message may quote the file
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # (tracker replay --text FILE | head: the reader went; nothing more to say)
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115  (the interpreter's last flush goes nowhere)
        return 0
    except OSError as e:
        say(f"tracker: {e.strerror or e}: {getattr(e, 'filename', '') or ''}", file=sys.stderr)
        return 1
    except (RecursionError, MemoryError) as e:
        print(f"tracker: the file is too deeply nested or too big to handle ({type(e).__name__})", file=sys.stderr)
        return 1
    except Exception as e:  # a plug-in failing on what a file holds: still one line, never a traceback
        text = visible(" ".join(str(e).split())[:200])
        print(f"tracker: {type(e).__name__} while working on the fight{': ' + text if text else ''}", file=sys.stderr)
        return 1


def _run(args: argparse.Namespace) -> int:
    if args.cmd == "systems":
        return _systems()
    if args.cmd == "rules":  # (the help's docs/rules pages: pip install . ships no docs folder)
        from tracker import rules_doc  # (imported here: see the module's docstring)

        say(rules_doc.system_page(registry.load(args.system)) if args.system else rules_doc.core_page())
        return 0
    if args.cmd == "where":
        say(str(saves.default_dir()))
        return 0
    if args.cmd == "check":
        return _check(args.file)
    if args.cmd == "export":
        return _export(args.file, args.output, force=args.force, why=args.why)
    if args.cmd == "table":
        from saves.follow import refusal  # (imported here: see the module's docstring)
        from screens import table  # (see _app)

        problem = refusal(args.file)  # a FIFO or a device is never opened (it would block or never end)
        if problem:
            raise TrackerError(problem)
        table.run(args.file, light=args.light, large=args.large, served=args.served)
        return 0
    if args.cmd == "serve":
        # imported here for launch figures 1 and 2 of bench/bench_speed.py (continue a 2,500-event fight, open a
        # 100,000-event fight: launch to first frame, <= 1.5x the bare Textual app), which ``tracker --save``
        # is: screens.serve brings in aiohttp and textual-serve, 40% of that launch again (and see _app)
        from screens import serve

        collector.release()  # a server runs for hours: the collector held for launch runs again
        return serve.serve_forever(
            args.file,
            args.host,
            args.port,
            args.public_url,
            light=args.light,
            large=args.large,
            max_viewers=args.max_viewers,
        )
    if args.cmd == "replay":
        loaded = saves.load(args.file)  # refuse a bad file before any screen opens
        if args.text or args.why or not sys.stdout.isatty():
            return _print_replay(loaded, why=args.why)
        return _app(replay_path=args.file)
    open_path = None
    fights_dir = None
    if args.save:
        target = Path(args.save).expanduser()
        saves.files.check_save_path(target)  # a FIFO, a device, a link: said now, before any screen opens
        if target.is_dir():
            fights_dir = target
        elif target.suffix == ".jsonl" or target.is_file():
            open_path = target  # (the data folder stays: parties and presets are where they were)
        else:
            fights_dir = target
    return _app(open_path=open_path, fights_dir=fights_dir)


def _export(path: Path, output: str | None, *, force: bool = False, why: bool = False) -> int:
    """``tracker export FILE [-o OUT]``: the Markdown recap to ``OUT``, or to standard output.

    Ruling: ``-o -`` is standard output, as ``-`` is for most commands (it wrote a file named ``-`` and said
    "recap written to -"); a file of that name is still written with ``-o ./-``
    (tests/test_cli_round3.py ``test_export_to_a_dash_prints_the_recap``)."""
    from saves import export  # (imported here: see the module's docstring)

    loaded = saves.load(path)
    text = export.recap(loaded, why=why)
    if output is not None and output != "-":  # (as typed: a Path makes "./-" "-")
        written = export.write_recap(text, Path(output), source=loaded.path, force=force)
        say(f"recap written to {written}")
    else:
        sys.stdout.write(text)
    return 0


def _rescued_words(path: Path) -> str:
    """Where the fight at ``path`` was saved on after the file was lost under the app (``saves.rescued_in``, as
    the app's ``offer_where_it_went_on`` and the players' view find it), in words; empty when it was not."""
    try:
        rescued = saves.rescued_in(path)
    except OSError:  # (a folder that cannot be listed: nothing to say of it)
        return ""
    if rescued is None:
        return ""
    return (
        f"the fight was saved on in {rescued} after {path.name} was lost under the app (another program replaced, "
        f"moved or changed it) or could not be written: what was done there is not in this file"
    )


def _check(path: Path) -> int:
    """``tracker check FILE``: what is wrong, and what replay, export and continuing do about it.

    Ruling: a file whose fight was saved on in ``FILE-rescued.jsonl`` (``saves.rescue``, found by
    ``saves.rescued_in`` as the app and the players' view find it) is said to be where the fight went on, as a
    ``-continued`` one is: check said "good" of the stale file and nothing more.  The exit stays 0 for a file that
    reads well (the code says the file's health; the line says where the fight is), and the "continuing it …"
    words give way to where the fight goes on; a damaged one says it on a line of its own after the verdict
    (tests/test_cli_round3.py ``test_check_names_where_a_rescued_fight_goes_on``,
    ``test_check_of_a_damaged_rescued_file_names_where_it_goes_on``).
    """
    from saves.checker import check  # (imported here: see the module's docstring)

    try:
        report = check(path)
    except LoadError as e:
        say(f"tracker: {e}", file=sys.stderr)
        if isinstance(e, saves.NewerVersion):
            say(saves.loading.damaged_words(path, e))
            _say_rescued(path)
            return 1
        went_on = saves.continuation_of(path) if e.line is not None and e.line > 1 else None
        if went_on is not None:
            say(f"{path}: damaged at line {e.line}; the fight goes on in {went_on} ({path.name} is not changed)")
        elif e.line is not None and e.line > 1:
            say(
                f"{path}: damaged at line {e.line}; the fight up to the action before it can go on in a new file: "
                f"open it in the app (tracker --save {path}) and it offers to ({path.name} is not changed)"
            )
        _say_rescued(path)
        return 1
    loaded, final = report.loaded, report.final
    for w in loaded.warnings:
        say(f"warning: {w}")
    for p in report.problems:
        say(f"problem: {p}")
    for p in report.checkpoints:
        say(f"problem: {p}")
    for p in report.stale:
        say(f"note: {p}; the next checkpoint written replaces it")
    if report.problems:
        say(f"{path}: bad — {len(report.problems)} problem(s); replay, export or continuing would fail")
        _say_rescued(path)
        return 1
    what = f"{loaded.system.name}, {len(loaded.entries)} events, round {final.round}, {len(final.present)} combatants"
    if report.checkpoints:
        say(
            f"{path}: a checkpoint disagrees with the events; the events win; replay, export and continuing use "
            f"the events ({what}; the next checkpoint written replaces it)"
        )
        _say_rescued(path)
        return 1
    rescued = _rescued_words(path)
    then = rescued or report.on_continuing.replace("FILE", str(path))
    if loaded.torn and not loaded.no_line_end:  # a whole last line that does not read: damage, not a crash
        say(f"{path}: damaged — its last line is whole but damaged; replay and export leave it out ({what}); {then}")
        return 1
    say(f"{path}: good — {what}" + (f"; but {then}" if rescued else f"; {then}" if then else ""))
    return 0


def _say_rescued(path: Path) -> None:
    """The line saying where the fight went on, after a damaged file's verdict (see :func:`_check`)."""
    rescued = _rescued_words(path)
    if rescued:
        say(f"{path}: {rescued}")


def _systems() -> int:
    """The installed systems from their entry points' metadata: no plug-in is imported."""
    entries = registry.available()
    if not entries:
        print("no game systems are installed")
        return 1
    width = max(len(e.id) for e in entries)
    for e in entries:
        where = f"{e.distribution} {e.version}".strip() if e.distribution else "(not packaged)"
        print(f"{e.id:<{width}}  {where} — {e.target}")
    return 0


def _print_replay(loaded: saves.Loaded, why: bool = False) -> int:
    from saves import export  # (imported here: see the module's docstring)

    timeline = loaded.timeline()
    for w in loaded.warnings:
        print(f"warning: {visible(w)}")
    for i, entry in enumerate(timeline.entries):
        if isinstance(entry.event, TurnEnded):
            continue
        mark = " (undone)" if timeline.is_undone(i) else ""
        print(f"{entry.seq:>5}  {export.describe_safely(timeline, i)}{mark}")
        if why:
            print("\n".join(export.why_lines(timeline, i)))
    return 0


def _app(open_path: Path | None = None, replay_path: Path | None = None, fights_dir: Path | None = None) -> int:
    # Textual is imported only when an app starts, for the suite's time (issue #43: under 90 s on this 2-core
    # machine; it was 172 s): the tests run ``tracker check``, ``replay --text`` and ``export`` in fresh
    # processes; with the app imported at the top, tests/reliability, tests/test_cli.py and
    # tests/view/test_view_files.py took 61 s of CPU instead of 42 s (of the suite's ~260 s)
    from screens import app

    return app.run(open_path=open_path, replay_path=replay_path, fights_dir=fights_dir)


if __name__ == "__main__":
    raise SystemExit(main())
