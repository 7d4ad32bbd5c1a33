"""Serving the players' view to browsers, with textual-serve.

Each browser that opens the page gets its own copy of the read-only view
(``tracker table --served FILE``), started by textual-serve.  The server runs
in a process of its own, in a new session, so that it and every copy it
started form one process group: :meth:`Serving.stop` ends the whole group
(SIGTERM, then SIGKILL for anything left), and so do Ctrl+C, SIGTERM or SIGHUP
to ``tracker serve``, the exit of the program that called
:func:`start_serving` (atexit), and, if that program is killed outright, the
server itself, which watches its parent.  A copy whose server is gone ends by
itself too (it watches its parent).

For the fight screen::

    serving = start_serving(path, host="127.0.0.1", port=0)   # port 0: any free port
    serving.url     # the address to show
    serving.stop()  # when the screen quits (also done at exit)
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import ipaddress
import logging
import os
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import IO, Any

from aiohttp import web
from textual_serve.server import Server

from saves.follow import Follower, refusal
from tracker.errors import TrackerError
from tracker.text import visible

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
MAX_VIEWERS = 24  # browsers served at once: each one is an app process
WILDCARDS = ("0.0.0.0", "::", "")
VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">'


class ServeError(TrackerError):
    """The players' view could not be served; the message says why."""


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def lan_address() -> str | None:
    """This machine's IPv4 address on the local network (no traffic is sent to find it), or None."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    for info in infos:
        addr = str(info[4][0])
        if not addr.startswith("127."):
            return addr
    try:  # here, not at the top: fcntl exists on Linux and Unix only, and this is the only use of it
        import fcntl
        import struct
    except ImportError:  # not on Linux/Unix
        return None
    for _index, name in socket.if_nameindex():
        if name == "lo":
            continue
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                packed = fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", name.encode()[:15]))  # SIOCGIFADDR
            except OSError:
                continue
        addr = socket.inet_ntoa(packed[20:24])
        if not addr.startswith("127."):
            return addr
    return None


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def public_url_for(host: str, port: int, public_url: str | None = None) -> str:
    """The address the players' browsers use; textual-serve writes it into the page for its assets and websocket."""
    if public_url:
        url = public_url.rstrip("/")
        if not url.startswith(("http://", "https://")):
            raise ServeError(f"--public-url must start with http:// or https://, not {public_url!r}")
        return url
    if host in WILDCARDS:
        addr = lan_address()
        if addr is None:
            raise ServeError(
                "cannot tell this machine's address on the network: give it with --public-url http://ADDRESS:PORT"
            )
        return f"http://{addr}:{port}"
    return f"http://{_url_host(host)}:{port}"


def fight_name(path: Path) -> str:
    """The fight's name as the file says now ("" if it has none, or no file yet), control characters escaped."""
    follower = Follower(path)
    follower.poll()
    snap = follower.snapshot
    if snap.fight is not None and snap.fight.state.title:
        return visible(snap.fight.state.title)
    return visible(snap.header.title) if snap.header is not None else ""


def page_title(name: str) -> str:
    """The served page's title: the fight's name, never a local path or the command line."""
    return f"{name} — players' view" if name else "Players' view"


def app_command(path: Path, *, light: bool = False, large: bool = False) -> str:
    """The shell command textual-serve runs for each browser (``exec``: the copy is the server's own child)."""
    args = [sys.executable, "-m", "screens", "table", "--served", str(path.resolve())]
    if light:
        args.append("--light")
    if large:
        args.append("--large")
    return "exec " + shlex.join(args)


def _free_port(host: str) -> int:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.bind((host if host not in WILDCARDS else "", 0))
        return int(s.getsockname()[1])


def _check_port(host: str, port: int) -> None:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host if host not in WILDCARDS else "", port))
        except OSError as e:
            raise ServeError(f"cannot serve on {host} port {port}: {e.strerror or e}") from None


def _answers(host: str, port: int) -> bool:
    target = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}.get(host, host)
    try:
        with socket.create_connection((target, port), timeout=0.2):
            return True
    except OSError:
        return False


class Serving:
    """A running server of the players' view: ``url``, ``stop()``; every process it started ends with it."""

    def __init__(self, process: subprocess.Popen[bytes], url: str, host: str, port: int, name: str) -> None:
        self.process = process
        self.url = url
        self.host = host
        self.port = port
        self.name = name  # the fight's name when serving started
        self.log: IO[Any] | None = None  # the server's messages, when they go to a temporary file
        self.pgid = process.pid  # the server leads a new session, so its group id is its pid
        self._lock = threading.Lock()
        atexit.register(self.stop)

    @property
    def running(self) -> bool:
        return not _exited(self.process.pid)

    @property
    def warning(self) -> str:
        """A one-line warning when the view is reachable from the network (empty on loopback)."""
        if is_loopback(self.host):
            return ""
        return f"warning: anyone on this network can watch this fight at {self.url}"

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the server ends (True) or ``timeout`` passes (False).

        The server is not reaped here: while it is a zombie its group id
        cannot be taken by another process, so :meth:`stop` can still end
        what is left of its group.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while not _exited(self.process.pid):
            if deadline is not None and time.monotonic() >= deadline:
                return False
            time.sleep(0.05)
        return True

    def stop(self, grace: float = 3.0) -> None:
        """End the server and every browser's copy of the view: SIGTERM to the group, then SIGKILL."""
        with self._lock:
            atexit.unregister(self.stop)
            if self.process.returncode is None:
                _signal_group(self.pgid, signal.SIGTERM)
                self.wait(grace)
                _signal_group(self.pgid, signal.SIGKILL)  # anything left (the server is not reaped yet)
                self.process.wait()
            if self.log is not None:
                self.log.close()
                self.log = None


def _exited(pid: int) -> bool:
    """Has this child ended? (Without reaping it.)"""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def _signal_group(pgid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def start_serving(
    path: str | Path,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    public_url: str | None = None,
    *,
    light: bool = False,
    large: bool = False,
    max_viewers: int = MAX_VIEWERS,
    output: IO[Any] | int | None = None,
    timeout: float = 15.0,
) -> Serving:
    """Serve the players' view of the fight in ``path`` and return once the server answers.

    ``port`` 0 takes any free port.  ``output`` is where the server's own
    messages go: a file or a file descriptor (default: a temporary file, read
    for the reason if the server fails to start, so nothing is written to a
    terminal a Textual app is drawing on).  Raises :class:`ServeError` with a
    clear reason.
    """
    path = Path(path)
    problem = refusal(path)  # a FIFO or a device is never opened (it would block or never end)
    if problem:
        raise ServeError(problem)
    if port == 0:
        port = _free_port(host)
    elif not 0 < port < 65536:
        raise ServeError(f"port must be 1 to 65535, not {port}")
    url = public_url_for(host, port, public_url)
    _check_port(host, port)
    name = fight_name(path)
    log = output if output is not None else tempfile.TemporaryFile()  # noqa: SIM115 (closed by stop())
    args = [
        sys.executable,
        "-m",
        "screens.serve",
        str(path.resolve()),
        "--host",
        host,
        "--port",
        str(port),
        "--public-url",
        url,
        "--title",
        page_title(name),
        "--parent",
        str(os.getpid()),
        "--max-viewers",
        str(max_viewers),
    ]
    if light:
        args.append("--light")
    if large:
        args.append("--large")
    process = subprocess.Popen(
        args, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    serving = Serving(process, url, host, port, name)
    if output is None:
        serving.log = log  # type: ignore[assignment]
    deadline = time.monotonic() + timeout
    while not _answers(host, port):
        if _exited(process.pid) or time.monotonic() > deadline:
            reason = _last_line(log)
            serving.stop()
            raise ServeError(f"the server did not start{reason}")
        time.sleep(0.05)
    return serving


def _last_line(log: IO[Any] | int) -> str:
    if isinstance(log, int) or not hasattr(log, "seek"):
        return ""
    try:
        log.seek(0)
        lines = [x for x in log.read().decode("utf-8", "replace").splitlines() if x.strip()]
    except (OSError, ValueError):
        return ""
    return f": {lines[-1].strip()}" if lines else ""


def serve_forever(
    path: Path,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    public_url: str | None = None,
    *,
    light: bool = False,
    large: bool = False,
    max_viewers: int = MAX_VIEWERS,
) -> int:
    """``tracker serve``: serve until Ctrl+C, SIGTERM or SIGHUP; then end every process it started."""

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    old = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGHUP)}
    serving: Serving | None = None
    try:
        serving = start_serving(
            path, host, port, public_url, light=light, large=large, max_viewers=max_viewers, output=2
        )
        what = f"the players' view of {serving.name}" if serving.name else "the players' view"
        print(f"Serving {what} at {serving.url}")
        if serving.warning:
            print(serving.warning)
        print("Ctrl+C stops it.", flush=True)
        serving.wait()
        return 1  # the server ended by itself
    except KeyboardInterrupt:
        return 130
    finally:
        if serving is not None:
            serving.stop()
        for s, handler in old.items():
            signal.signal(s, handler)


# ---------------------------------------------------------------------------
# the server process (python -m screens.serve ...), started by start_serving


def _watch_parent(parent: int) -> None:
    """If whoever started the server is gone (killed outright), end the server and all it started."""
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            os.killpg(os.getpgrp(), signal.SIGKILL)


def _server_main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m screens.serve")
    p.add_argument("file", type=Path)
    p.add_argument("--host", default=DEFAULT_HOST)
    p.add_argument("--port", type=int, default=DEFAULT_PORT)
    p.add_argument("--public-url", required=True)
    p.add_argument("--title", default="Players' view")
    p.add_argument("--parent", type=int, default=0)
    p.add_argument("--max-viewers", type=int, default=MAX_VIEWERS)
    p.add_argument("--light", action="store_true")
    p.add_argument("--large", action="store_true")
    args = p.parse_args(argv)

    class TableServer(Server):
        """textual-serve's server: no banner, and at most ``max_viewers`` browsers at once."""

        sessions = 0
        max_viewers = args.max_viewers

        def initialize_logging(self) -> None:
            logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")

        async def on_startup(self, app: web.Application) -> None:
            pass

        async def handle_index(self, request: web.Request) -> web.StreamResponse:
            """textual-serve's page, laid out at the device's width: a phone gets a view it can read.

            (Without a viewport tag a phone lays the page out 980 px wide and shrinks it to fit.)
            """
            page = await super().handle_index(request)
            if isinstance(page, web.Response) and page.text:
                page.text = page.text.replace("<head>", "<head>\n" + VIEWPORT, 1)
            return page

        async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
            if self.sessions >= self.max_viewers:
                raise web.HTTPServiceUnavailable(text="too many viewers at once")
            self.sessions += 1
            try:
                return await super().handle_websocket(request)
            finally:
                self.sessions -= 1

    if args.parent:
        if os.getppid() != args.parent:
            return 1
        threading.Thread(target=_watch_parent, args=(args.parent,), daemon=True).start()
    command = app_command(args.file, light=args.light, large=args.large)
    server = TableServer(command, host=args.host, port=args.port, title=args.title, public_url=args.public_url)
    server.serve()
    return 0


if __name__ == "__main__":
    raise SystemExit(_server_main())
