"""Helpers shared by the server tests."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

# A real game (BoardGameArena) where Black has no legal move after 11 plies and must pass.
FORCED_PASS = (
    "Base+MLP;InProgress;Black[6];wL;bB1 wL/;wQ wL\\;bQ \\bB1;wA1 -wL;bQ -bB1;wA1 bB1/;"
    "bQ -wL;wA2 wQ-;bQ -wQ;wA2 /bQ"
)


def hello(token: str | None) -> str:
    """The first message of a game's or table's websocket: the seat token (None: a spectator)."""
    return json.dumps({"type": "hello", "token": token})


@contextlib.contextmanager
def game_socket(
    client: Any, game_id: str, token: str | None = None, *, deltas: bool = False, **kwargs: Any
) -> Iterator[Any]:
    """A test client's websocket on a game that has said hello with ``token``; ``deltas``: it
    takes deltas after the first state."""
    query = "?deltas=1" if deltas else ""
    with client.websocket_connect(f"/ws/games/{game_id}{query}", **kwargs) as ws:
        ws.send_text(hello(token))
        yield ws


# websockets 17 warns when a connection is opened outside ``with connect(…)`` unless asked to
# by ``legacy=True`` (earlier versions have no such argument).
_LEGACY = "legacy" in connect.__code__.co_varnames


def open_websocket(url: str, headers: dict[str, str] | None = None) -> ClientConnection:
    """A websocket that may be used outside a ``with`` block (and closed by one), sending
    ``headers`` (a session cookie, an origin) with its handshake."""
    extra: dict[str, Any] = {"additional_headers": headers} if headers else {}
    return connect(url, legacy=True, **extra) if _LEGACY else connect(url, **extra)


def connect_game(
    ws_url: str,
    game_id: str,
    token: str | None = None,
    opener: Callable[[str], ClientConnection] = open_websocket,
) -> ClientConnection:
    """A websocket on a real server's game (``ws_url``: ``ws://host:port``), opened by
    ``opener``, that has said hello with ``token``; a ``with`` block closes it."""
    ws = opener(f"{ws_url}/ws/games/{game_id}")
    ws.send(hello(token))
    return ws


def receive_state(ws: Any, until: Callable[[dict[str, Any]], bool] = lambda s: True) -> dict:
    """The next ``state`` message satisfying ``until`` (errors fail the test)."""
    for _ in range(50):
        message = ws.receive_json()
        if message["type"] == "error":
            raise AssertionError(f"unexpected error: {message}")
        if message["type"] == "state" and until(message):
            return message
    raise AssertionError("no matching state")


def receive_error(ws: Any) -> dict[str, Any]:
    """The next ``error`` message (states in between are skipped)."""
    for _ in range(50):
        message = ws.receive_json()
        if message["type"] == "error":
            return message
    raise AssertionError("no error message")


def game_shown(state: dict[str, Any]) -> dict[str, Any]:
    """What a test's failure shows of a game's state: where it is, how it ended, its clocks."""
    return {k: state.get(k) for k in ("id", "ply", "turn", "result", "end_reason", "clocks")}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def descendants(pid: int) -> set[int]:
    """The processes below ``pid`` (children, grandchildren…), read from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped, counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


class ServerProcess:
    """A real ``panal serve`` (uvicorn) in a subprocess, on a free port. ``db_path`` is an SQLite
    file or a database URL; ``prelude``: Python run in the server's process before it starts
    (to count what it does)."""

    def __init__(
        self,
        db_path: Path | str,
        log_path: Path,
        extra_args: tuple[str, ...] = (),
        prelude: str = "",
    ) -> None:
        self.db_path = db_path
        self.log_path = log_path
        self.extra_args = extra_args
        self.prelude = prelude
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> None:
        log = self.log_path.open("ab")
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-c",
                self.prelude + "\nimport sys; from panal.cli import main; sys.exit(main())",
                "serve",
                "--port",
                str(self.port),
                "--db",
                str(self.db_path),
                *self.extra_args,
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"panal serve exited: {self.log_path.read_text()}")
            try:
                if httpx.get(f"{self.url}/api/config", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()  # a server that never answered is not left running
        raise RuntimeError(f"panal serve did not start: {self.log_path.read_text()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, as in a crash."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


@contextlib.contextmanager
def backend_servers(
    backend: str, folder: Path, args: tuple[str, ...] = ()
) -> Iterator[list[ServerProcess]]:
    """Real ``panal serve`` processes on one back-end, started and stopped: one on SQLite
    (``backend`` "sqlite"), or two sharing a fresh PostgreSQL and a Redis ("postgres")."""
    from tests.server.conftest import fresh_postgres, scale_out_services

    if backend == "sqlite":
        started = [ServerProcess(folder / "games.sqlite3", folder / "serve.log", args)]
    else:
        postgres, redis = scale_out_services()
        shared = (*args, "--redis", redis, "--redis-prefix", f"test-{secrets.token_hex(4)}")
        db = fresh_postgres(postgres)
        started = [ServerProcess(db, folder / f"serve-{n}.log", shared) for n in "ab"]
    try:
        for server in started:
            server.start()
        yield started
    finally:
        for server in started:
            server.stop()
