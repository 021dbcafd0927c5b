"""panal.uhp.client: scripted conversations, a fake misbehaving engine, and ``panal uhp``."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from panal.uhp.client import (
    EngineCommandError,
    EngineInvalidMoveError,
    EngineOption,
    EngineProtocolError,
    EngineTerminatedError,
    EngineTimeoutError,
    SimpleEngine,
    UhpClient,
    format_duration,
)

FAKE = str(Path(__file__).with_name("fake_engine.py"))
PANAL = [sys.executable, "-m", "panal.cli", "uhp"]


class ScriptedWriter:
    """A transport that answers each written command from a script of replies."""

    def __init__(self, reader: asyncio.StreamReader, replies: dict[str, str]) -> None:
        self.reader = reader
        self.replies = replies
        self.sent: list[str] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        line = data.decode().rstrip("\n")
        self.sent.append(line)
        reply = self.replies.get(line)
        if reply is None:
            self.reader.feed_eof()
        else:
            self.reader.feed_data(reply.encode())

    async def drain(self) -> None:
        return None

    def close(self) -> None:
        self.closed = True


async def _scripted(replies: dict[str, str]) -> tuple[UhpClient, ScriptedWriter]:
    reader = asyncio.StreamReader()
    reader.feed_data(b"id mock 1.0\nMosquito;Ladybug\nok\n")
    writer = ScriptedWriter(reader, replies)
    engine = UhpClient(reader, writer, name="mock")
    await engine.start(timeout=1)
    return engine, writer


def test_scripted_conversation() -> None:
    async def scenario() -> None:
        engine, writer = await _scripted(
            {
                "newgame Base": "Base;NotStarted;White[1]\nok\n",
                "validmoves": "wS1;wB1;wG1;wA1\nok\n",
                "bestmove time 00:00:00.5": "\nwG1\nok\n",
                "bestmove depth 2": "wA1\nok\n",
                "play wG1": "Base;InProgress;Black[1];wG1\nok\n",
                "play wQ wQ": "invalidmove nope\nok\n",
                "options": "Level;enum;easy;medium;easy;medium\nDepth;int;2;2;1;9\nok\n",
                "options set Level easy": "Level;enum;easy;medium;easy;medium\nok\n",
                "undo 1": "err cannot\nok\n",
                "info": "id mock 1.1\nMosquito\nok\n",
                "bestmove": "a\nb\nok\n",
            }
        )
        assert engine.id == "mock 1.0"
        assert engine.capabilities == {"Mosquito", "Ladybug"}
        assert await engine.newgame("Base") == "Base;NotStarted;White[1]"
        assert await engine.validmoves() == ["wS1", "wB1", "wG1", "wA1"]
        assert await engine.bestmove(time=0.5) == "wG1"
        assert await engine.bestmove(depth=2) == "wA1"
        assert await engine.play("wG1") == "Base;InProgress;Black[1];wG1"
        with pytest.raises(EngineInvalidMoveError, match="nope"):
            await engine.play("wQ wQ")
        options = await engine.options()
        assert options["Level"].choices == ("easy", "medium")
        assert options["Depth"] == EngineOption("Depth", "int", "2", "2", ("1", "9"))
        assert (await engine.set_option("Level", "easy")).value == "easy"
        with pytest.raises(EngineCommandError, match="cannot"):
            await engine.undo(1)
        assert await engine.info() == "mock 1.1"
        with pytest.raises(EngineProtocolError, match="one line"):
            await engine.bestmove()
        with pytest.raises(ValueError):
            await engine.bestmove(time=1, depth=1)
        with pytest.raises(EngineTerminatedError):
            await engine.command("unknown")  # the mock hangs up
        assert writer.sent[-1] == "unknown"
        with pytest.raises(EngineTerminatedError):
            await engine.command("info")  # already closed

    asyncio.run(scenario())


def test_scripted_bad_banner_and_timeout() -> None:
    async def scenario() -> None:
        reader = asyncio.StreamReader()
        reader.feed_data(b"hello\nok\n")
        engine = UhpClient(reader, ScriptedWriter(reader, {}), name="mock")
        with pytest.raises(EngineProtocolError, match="id"):
            await engine.start(timeout=1)
        silent = asyncio.StreamReader()
        engine = UhpClient(silent, ScriptedWriter(silent, {"info": ""}), name="mock")
        with pytest.raises(EngineTimeoutError, match="banner"):
            await engine.start(timeout=0.1)

    asyncio.run(scenario())


def test_format_duration() -> None:
    assert format_duration(1) == "00:00:01"
    assert format_duration(0.5) == "00:00:00.5"
    assert format_duration(3725.25) == "01:02:05.25"
    # A share of a clock in floating point: never "24." nor a 60th second (panal bot, issue 22)
    assert format_duration(24.0000001) == "00:00:24"
    assert format_duration(59.9999) == "00:01:00"
    assert format_duration(60 / 25 + 0.1) == "00:00:02.5"
    from panal.uhp.duration import parse_duration

    for seconds in (0.05, 2.4, 23.9999999, 24.0000001, 3599.9999, 7.123456):
        assert parse_duration(format_duration(seconds)) == pytest.approx(seconds, abs=0.0006)
    with pytest.raises(ValueError):
        format_duration(-1)


def test_real_panal_engine() -> None:
    with SimpleEngine.popen(PANAL) as engine:
        assert engine.id.startswith("panal")
        assert "Pillbug" in engine.capabilities
        assert engine.newgame("Base+MLP") == "Base+MLP;NotStarted;White[1]"
        assert engine.options()["Level"].value == "strongest"
        engine.set_option("Level", "easy")
        move = engine.bestmove(time=0.3)
        assert move in engine.validmoves()
        assert engine.play(move).endswith(move)
        with pytest.raises(EngineInvalidMoveError):
            engine.play("bQ bQ")
        assert engine.bestmove(depth=1) in engine.validmoves()
        assert engine.undo() == "Base+MLP;NotStarted;White[1]"


def test_async_popen_of_a_command_string() -> None:
    async def scenario() -> int | None:
        engine = await UhpClient.popen("panal uhp")
        await engine.newgame("Base")
        moves = await engine.validmoves()
        assert moves == ["wS1", "wB1", "wG1", "wA1"] or len(moves) == 4
        return await engine.quit()

    assert asyncio.run(scenario()) == 0


def test_crash_is_reported_with_stderr() -> None:
    with SimpleEngine.popen([sys.executable, FAKE, "crash"]) as engine:
        engine.newgame("Base")
        with pytest.raises(EngineTerminatedError, match="simulated crash"):
            engine.bestmove(depth=1)


def test_timeout_stops_the_engine() -> None:
    with SimpleEngine.popen([sys.executable, FAKE, "hang"]) as engine:
        engine.newgame("Base")
        with pytest.raises(EngineTimeoutError):
            engine.bestmove(time=0.1, timeout=0.5)
        with pytest.raises(EngineTerminatedError):
            engine.validmoves()


def test_startup_failures() -> None:
    with pytest.raises(EngineProtocolError, match="banner"):
        SimpleEngine.popen([sys.executable, FAKE, "nobanner"])
    with pytest.raises(EngineTimeoutError):
        SimpleEngine.popen([sys.executable, FAKE, "slowstart"], timeout=0.5)
    with pytest.raises(EngineTerminatedError, match="cannot start"):
        SimpleEngine.popen(["/nonexistent/engine"])
    with pytest.raises(EngineTerminatedError):
        SimpleEngine.popen([sys.executable, "-c", "print('id x')"])
