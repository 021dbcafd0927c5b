"""A client for any Universal Hive Protocol engine (Mzinga, nokamute, ``panal uhp``…).

Modelled on python-chess's ``chess.engine``: an asyncio core and a blocking wrapper for scripts.

Asynchronous::

    engine = await UhpClient.popen("panal uhp")
    await engine.newgame("Base+MLP")
    move = await engine.bestmove(time=1.0)
    await engine.play(move)
    await engine.quit()

Blocking::

    with SimpleEngine.popen(["panal", "uhp"]) as engine:
        engine.newgame("Base")
        print(engine.bestmove(depth=2))

Every command waits for the engine's closing ``ok``. Problems raise one of:

* :class:`EngineTimeoutError`: no complete reply in time. The engine is then stopped, since its
  late reply would be taken for the answer to the next command.
* :class:`EngineTerminatedError`: the process exited (or closed its output); the message quotes
  the end of its stderr.
* :class:`EngineInvalidMoveError`: the engine answered ``invalidmove …``.
* :class:`EngineCommandError`: the engine answered ``err …``.
* :class:`EngineProtocolError`: anything else that breaks the protocol (no banner, a reply that
  does not fit the command, an over-long line).

All derive from :class:`EngineError`.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import os
import shlex
import sys
import threading
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from panal.uhp.duration import format_duration

__all__ = [
    "EngineCommandError",
    "EngineError",
    "EngineInvalidMoveError",
    "EngineOption",
    "EngineProtocolError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "SimpleEngine",
    "UhpClient",
    "format_duration",
]

DEFAULT_TIMEOUT = 30.0  # seconds for a command that does not think
STARTUP_TIMEOUT = 30.0
QUIT_TIMEOUT = 5.0
MAX_LINE = 1 << 20  # a validmoves line of a huge hive is long, but not this long
STDERR_LINES_KEPT = 50

T = TypeVar("T")


class EngineError(Exception):
    """Any failure of a UHP engine or of the conversation with it."""


class EngineTimeoutError(EngineError, TimeoutError):
    """The engine did not finish its reply in time (it has been stopped)."""


class EngineTerminatedError(EngineError):
    """The engine process exited or closed its output."""


class EngineProtocolError(EngineError):
    """The engine said something the protocol does not allow."""


class EngineCommandError(EngineProtocolError):
    """The engine refused a command with ``err <message>``."""


class EngineInvalidMoveError(EngineCommandError):
    """The engine refused a move with ``invalidmove <reason>``."""


@dataclass(frozen=True)
class EngineOption:
    """One line of the ``options`` reply: ``Name;Type;Value;Default[;Min;Max | ;A;B;…]``."""

    name: str
    type: str
    value: str
    default: str
    extra: tuple[str, ...] = ()

    @classmethod
    def parse(cls, line: str) -> EngineOption:
        fields = line.split(";")
        if len(fields) < 4 or not fields[0]:
            raise EngineProtocolError(f"malformed option line {line!r}")
        return cls(fields[0], fields[1], fields[2], fields[3], tuple(fields[4:]))

    @property
    def choices(self) -> tuple[str, ...]:
        return self.extra if self.type.lower() == "enum" else ()


class _LineReader(Protocol):
    async def readline(self) -> bytes: ...


class _LineWriter(Protocol):
    def write(self, data: bytes) -> None: ...

    async def drain(self) -> None: ...

    def close(self) -> None: ...


class UhpClient:
    """The client side of UHP: an asynchronous conversation with one engine (any program that
    speaks UHP, panal's own :class:`~panal.uhp.engine.PanalEngine` included).

    Build it with :meth:`popen` (a process) or directly from a reader and writer (tests, sockets);
    then ``await engine.start()`` reads the banner.
    """

    def __init__(
        self,
        reader: _LineReader,
        writer: _LineWriter,
        *,
        process: asyncio.subprocess.Process | None = None,
        name: str | None = None,
    ) -> None:
        self._reader = reader
        self._writer = writer
        self.process = process
        self.name = name or "engine"
        self.id = ""
        self.capabilities: frozenset[str] = frozenset()
        self._lock = asyncio.Lock()
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES_KEPT)
        self._stderr_task: asyncio.Task[None] | None = None
        self._closed = False

    # --- starting and stopping --------------------------------------------------------------

    @classmethod
    async def popen(
        cls,
        command: str | Sequence[str],
        *,
        timeout: float | None = STARTUP_TIMEOUT,
        cwd: str | os.PathLike[str] | None = None,
        env: dict[str, str] | None = None,
        name: str | None = None,
    ) -> UhpClient:
        """Start ``command`` (a shell-style string or an argument list) and read its banner."""
        argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
        if not argv:
            raise ValueError("empty engine command")
        if argv[0] == "panal":
            # The engine may be this very package; run it with this interpreter.
            argv = [sys.executable, "-m", "panal.cli", *argv[1:]]
        try:
            process = await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                cwd=cwd,
                env=env,
                limit=MAX_LINE,
            )
        except OSError as exc:
            raise EngineTerminatedError(f"cannot start {shlex.join(argv)}: {exc}") from exc
        assert process.stdin is not None and process.stdout is not None
        engine = cls(
            process.stdout,
            process.stdin,
            process=process,
            name=name or (command if isinstance(command, str) else shlex.join(argv)),
        )
        if process.stderr is not None:
            engine._stderr_task = asyncio.create_task(engine._collect_stderr(process.stderr))
        try:
            await engine.start(timeout=timeout)
        except BaseException:
            await engine.kill()
            raise
        return engine

    async def start(self, *, timeout: float | None = STARTUP_TIMEOUT) -> None:
        """Read the banner: ``id <name>``, an optional capabilities line, ``ok``."""
        lines = await self._read_reply(timeout, "the banner")
        if not lines or not lines[0].startswith("id "):
            raise EngineProtocolError(f"{self.name}: expected 'id …' in the banner, got {lines!r}")
        self._parse_info(lines)

    async def quit(self, timeout: float = QUIT_TIMEOUT) -> int | None:
        """Say ``exit`` and wait for the process; kill it when it lingers. Returns its status."""
        if self._closed:
            return self.process.returncode if self.process else None
        self._closed = True
        with contextlib.suppress(OSError, RuntimeError, ConnectionError):
            self._writer.write(b"exit\n")
            await self._writer.drain()
        if self.process is None:
            self._writer.close()
            return None
        try:
            code = await asyncio.wait_for(self.process.wait(), timeout)
        except TimeoutError:
            return await self.kill()
        await self._stop_stderr()
        self._close_transport()
        return code

    async def kill(self) -> int | None:
        """Stop the engine at once."""
        self._closed = True
        if self.process is None:
            self._writer.close()
            return None
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
        code = await self.process.wait()
        await self._stop_stderr()
        self._close_transport()
        return code

    def _close_transport(self) -> None:
        with contextlib.suppress(Exception):
            self._writer.close()
        transport = getattr(self.process, "_transport", None)
        if transport is not None:
            transport.close()

    @property
    def returncode(self) -> int | None:
        return self.process.returncode if self.process else None

    @property
    def closed(self) -> bool:
        """True once the engine has been stopped, has exited or has broken the conversation."""
        return self._closed or self.returncode is not None

    # --- commands ---------------------------------------------------------------------------

    async def command(self, line: str, *, timeout: float | None = DEFAULT_TIMEOUT) -> list[str]:
        """Send one command line; return the reply lines before ``ok``.

        ``err`` and ``invalidmove`` replies raise :class:`EngineCommandError` and
        :class:`EngineInvalidMoveError`.
        """
        if "\n" in line or "\r" in line:
            raise ValueError("a UHP command is a single line")
        async with self._lock:
            if self._closed:
                raise EngineTerminatedError(f"{self.name} has been stopped")
            try:
                self._writer.write(line.encode() + b"\n")
                await self._writer.drain()
            except (ConnectionError, RuntimeError, OSError) as exc:
                raise self._terminated(f"while sending {line!r}") from exc
            lines = await self._read_reply(timeout, repr(line))
        for reply in lines:
            if reply.startswith("invalidmove"):
                raise EngineInvalidMoveError(f"{self.name}: {reply} (after {line!r})")
            if reply == "err" or reply.startswith("err "):
                raise EngineCommandError(f"{self.name}: {reply} (after {line!r})")
        return lines

    async def info(self) -> str:
        lines = await self.command("info")
        self._parse_info(lines)
        return self.id

    async def newgame(self, game: str = "Base") -> str:
        """Start a game from a GameTypeString or a whole GameString; returns the GameString."""
        return self._single(await self.command(f"newgame {game}".strip()), "newgame")

    async def play(self, move: str) -> str:
        """Play a MoveString (``pass`` included); returns the new GameString."""
        return self._single(await self.command(f"play {move}"), "play")

    async def pass_move(self) -> str:
        return self._single(await self.command("pass"), "pass")

    async def validmoves(self) -> list[str]:
        """The legal moves (``["pass"]`` when forced; empty once the game is over)."""
        lines = await self.command("validmoves")
        if not lines:
            return []
        line = self._single(lines, "validmoves")
        return [move for move in line.split(";") if move]

    async def bestmove(
        self,
        *,
        time: float | None = None,
        depth: int | None = None,
        timeout: float | None = None,
    ) -> str:
        """Ask for the best move by ``time`` (seconds) or ``depth`` (plies), or plain.

        ``timeout`` defaults to the time budget plus slack (no limit for depth searches).
        """
        if time is not None and depth is not None:
            raise ValueError("bestmove takes a time or a depth, not both")
        if time is not None:
            line = f"bestmove time {format_duration(time)}"
            if timeout is None:
                timeout = time * 1.5 + 5.0
        elif depth is not None:
            line = f"bestmove depth {int(depth)}"
        else:
            line = "bestmove"
        return self._single(await self.command(line, timeout=timeout), "bestmove")

    async def undo(self, count: int = 1) -> str:
        return self._single(await self.command(f"undo {int(count)}"), "undo")

    async def options(self) -> dict[str, EngineOption]:
        lines = await self.command("options")
        return {option.name: option for option in map(EngineOption.parse, lines)}

    async def get_option(self, name: str) -> EngineOption:
        return EngineOption.parse(self._single(await self.command(f"options get {name}"), "get"))

    async def set_option(self, name: str, value: object) -> EngineOption:
        text = str(value)
        line = self._single(await self.command(f"options set {name} {text}"), "options set")
        return EngineOption.parse(line)

    # --- internals --------------------------------------------------------------------------

    def _parse_info(self, lines: list[str]) -> None:
        if lines and lines[0].startswith("id "):
            self.id = lines[0][3:].strip()
        if len(lines) > 1:
            self.capabilities = frozenset(c for c in lines[1].split(";") if c)

    def _single(self, lines: list[str], what: str) -> str:
        if len(lines) != 1:
            raise EngineProtocolError(f"{self.name}: {what} expected one line, got {lines!r}")
        return lines[0]

    async def _read_reply(self, timeout: float | None, what: str) -> list[str]:
        try:
            return await asyncio.wait_for(self._read_until_ok(what), timeout)
        except TimeoutError:
            await self.kill()
            raise EngineTimeoutError(
                f"{self.name}: no complete reply to {what} within {timeout:g} s; engine stopped"
            ) from None

    async def _read_until_ok(self, what: str) -> list[str]:
        lines: list[str] = []
        while True:
            try:
                raw = await self._reader.readline()
            except (ValueError, asyncio.LimitOverrunError) as exc:
                raise EngineProtocolError(f"{self.name}: over-long line after {what}") from exc
            except (ConnectionError, OSError) as exc:
                raise self._terminated(f"while reading the reply to {what}") from exc
            if not raw:
                raise self._terminated(f"before finishing its reply to {what}")
            text = raw.decode("utf-8", errors="replace").rstrip("\r\n")
            if text.strip() == "ok":
                return lines
            if text.strip():
                lines.append(text.strip())

    def _terminated(self, when: str) -> EngineTerminatedError:
        self._closed = True
        status = ""
        if self.process is not None and self.process.returncode is not None:
            status = f" (exit status {self.process.returncode})"
        tail = "; stderr: " + " | ".join(list(self._stderr)[-5:]) if self._stderr else ""
        return EngineTerminatedError(f"{self.name} terminated{status} {when}{tail}")

    async def _collect_stderr(self, stream: asyncio.StreamReader) -> None:
        with contextlib.suppress(Exception):
            while True:
                raw = await stream.readline()
                if not raw:
                    return
                self._stderr.append(raw.decode("utf-8", errors="replace").rstrip())

    async def _stop_stderr(self) -> None:
        task = self._stderr_task
        if task is not None and not task.done():
            try:
                await asyncio.wait_for(asyncio.shield(task), 1.0)
            except (TimeoutError, asyncio.CancelledError):
                task.cancel()

    @property
    def stderr_tail(self) -> list[str]:
        """The last lines the engine wrote to stderr."""
        return list(self._stderr)


class SimpleEngine:
    """A blocking wrapper: each method runs the :class:`UhpClient` coroutine on a private event
    loop thread and waits for it. Use as a context manager, or call :meth:`quit`."""

    def __init__(
        self, engine: UhpClient, loop: asyncio.AbstractEventLoop, thread: threading.Thread
    ):
        self.engine = engine
        self._loop = loop
        self._thread = thread

    @classmethod
    def popen(cls, command: str | Sequence[str], **kwargs: Any) -> SimpleEngine:
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, name="uhp-engine", daemon=True)
        thread.start()
        try:
            future = asyncio.run_coroutine_threadsafe(UhpClient.popen(command, **kwargs), loop)
            engine = future.result()
        except BaseException:
            _stop_loop(loop, thread)
            raise
        return cls(engine, loop, thread)

    def _run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        if self._loop.is_closed():
            coroutine.close()
            raise EngineTerminatedError(f"{self.engine.name} has been closed")
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    @property
    def id(self) -> str:
        return self.engine.id

    @property
    def capabilities(self) -> frozenset[str]:
        return self.engine.capabilities

    def command(self, line: str, *, timeout: float | None = DEFAULT_TIMEOUT) -> list[str]:
        return self._run(self.engine.command(line, timeout=timeout))

    def info(self) -> str:
        return self._run(self.engine.info())

    def newgame(self, game: str = "Base") -> str:
        return self._run(self.engine.newgame(game))

    def play(self, move: str) -> str:
        return self._run(self.engine.play(move))

    def pass_move(self) -> str:
        return self._run(self.engine.pass_move())

    def validmoves(self) -> list[str]:
        return self._run(self.engine.validmoves())

    def bestmove(
        self, *, time: float | None = None, depth: int | None = None, timeout: float | None = None
    ) -> str:
        return self._run(self.engine.bestmove(time=time, depth=depth, timeout=timeout))

    def undo(self, count: int = 1) -> str:
        return self._run(self.engine.undo(count))

    def options(self) -> dict[str, EngineOption]:
        return self._run(self.engine.options())

    def get_option(self, name: str) -> EngineOption:
        return self._run(self.engine.get_option(name))

    def set_option(self, name: str, value: object) -> EngineOption:
        return self._run(self.engine.set_option(name, value))

    def quit(self) -> int | None:
        """Stop the engine and the helper thread."""
        if self._loop.is_closed():
            return self.engine.returncode
        try:
            return self._run(self.engine.quit())
        finally:
            _stop_loop(self._loop, self._thread)

    close = quit

    def __enter__(self) -> SimpleEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()


def _stop_loop(loop: asyncio.AbstractEventLoop, thread: threading.Thread) -> None:
    """Let pending transport callbacks run, then stop and close the helper loop."""
    with contextlib.suppress(Exception):
        asyncio.run_coroutine_threadsafe(asyncio.sleep(0.01), loop).result(timeout=5)
    loop.call_soon_threadsafe(loop.stop)
    thread.join()
    loop.close()
