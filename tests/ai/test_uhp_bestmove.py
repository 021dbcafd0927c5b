"""``panal uhp``'s AI side: bestmove, typed options, fuzzing, the time budget."""

from __future__ import annotations

import random
import subprocess
import sys
import time

import pytest

from panal.hive import Game
from panal.uhp.engine import PanalEngine

MIDGAME = (
    "Base;InProgress;White[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wG1 /wQ;bG1 bQ\\;wA1 \\wQ;"
    "bA1 bQ/;wB1 /wS1;bB1 bS1\\;wA2 -wG1;bA2 bG1\\;wS2 \\wA1;bS2 bA1-"
)


@pytest.fixture
def engine() -> PanalEngine:
    return PanalEngine()


def test_options_are_typed_uhp_lines(engine: PanalEngine) -> None:
    reply = engine.handle("options")
    assert reply[-1] == "ok"
    assert "Level;enum;strongest;strongest;beginner;easy;medium;hard;expert;strongest" in reply
    assert "HashSizeMB;int;64;64;1;4096" in reply
    assert "Seed;int;0;0;0;2147483647" in reply
    assert engine.handle("options set level Easy") == [
        "Level;enum;easy;strongest;beginner;easy;medium;hard;expert;strongest",
        "ok",
    ]
    assert engine.handle("options set HashSizeMB 8")[0] == "HashSizeMB;int;8;64;1;4096"
    for bad in ["Level grandmaster", "HashSizeMB 0", "HashSizeMB lots", "Seed -1"]:
        assert engine.handle(f"options set {bad}")[0].startswith("err"), bad
    assert engine.handle("options get hashsizemb")[0] == "HashSizeMB;int;8;64;1;4096"


def test_bestmove_depth_returns_a_legal_move(engine: PanalEngine) -> None:
    before = engine.handle(f"newgame {MIDGAME}")[0]
    reply = engine.handle("bestmove depth 2")
    assert reply[-1] == "ok" and len(reply) == 2
    game = Game.from_game_string(MIDGAME, tournament_opening=True)
    game.parse_move(reply[0])  # raises if illegal
    assert (
        engine.game is not None and engine.game.game_string() == before
    )  # bestmove does not play the move


def test_bestmove_is_deterministic_with_a_seed(engine: PanalEngine) -> None:
    engine.handle(f"newgame {MIDGAME}")
    engine.handle("options set Seed 7")
    engine.handle("options set Level medium")
    first = engine.handle("bestmove depth 2")
    assert all(engine.handle("bestmove depth 2") == first for _ in range(2))


def test_bestmove_time_and_plain(engine: PanalEngine) -> None:
    engine.handle("newgame Base+MLP")
    engine.handle("options set Level easy")
    assert engine.handle("bestmove")[0] != ""
    started = time.perf_counter()
    reply = engine.handle("bestmove time 00:00:00.3")
    assert time.perf_counter() - started < 1.0
    assert not reply[0].startswith("err")


def test_bestmove_errors(engine: PanalEngine) -> None:
    assert engine.handle("bestmove depth 1")[0].startswith("err")  # no game
    engine.handle("newgame Base")
    for args in [
        "depth 0",
        "depth x",
        "time 1",
        "time aa:bb:cc",
        "depth",
        "sideways 3",
        "depth 99",
    ]:
        assert engine.handle(f"bestmove {args}")[0].startswith("err"), args
    won = (
        "Base;WhiteWins;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;"
        "bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bA1 bG2/;wQ /bG1"
    )
    engine.handle(f"newgame {won}")
    assert engine.handle("bestmove depth 1")[0].startswith("err")


def test_bestmove_passes_when_forced(engine: PanalEngine) -> None:
    forced = (
        "Base;InProgress;White[7];wA1;bS1 wA1-;wQ -wA1;bQ bS1/;wQ \\wA1;bA1 bS1\\;wQ -wA1;"
        "bA2 bQ\\;wQ \\wA1;bA1 \\wQ;wG1 /wQ;bA2 /wG1"
    )
    engine.handle(f"newgame {forced}")
    assert engine.handle("bestmove depth 3") == ["pass", "ok"]
    assert engine.handle("bestmove time 00:00:01") == ["pass", "ok"]


def test_perft_command(engine: PanalEngine) -> None:
    engine.handle("newgame Base")
    counts = [line.split()[:2] for line in engine.handle("perft 3")[:-1]]
    assert counts == [["1", "4"], ["2", "96"], ["3", "1440"]]
    assert engine.handle("perft 99")[0].startswith("err")


def _fuzz_line(rng: random.Random, engine: PanalEngine) -> str:
    """A line a confused or hostile viewer might send."""
    game = engine.game
    moves: list[str] = []
    if game is not None and not game.is_over():
        moves = [game.move_string(c) for c in game.legal_move_codes()]
    pieces = ["wQ", "bQ", "wA1", "bS2", "wB1", "bG3", "wM", "bL", "wP", "wD", "xZ9", ""]
    symbols = ["", "-", "/", "\\"]
    choice = rng.randrange(14)
    if choice < 4 and moves:
        return f"play {rng.choice(moves)}"
    if choice == 4:
        ref = rng.choice(symbols) + rng.choice(pieces) + rng.choice(symbols)
        return f"play {rng.choice(pieces)} {ref}"
    if choice == 5:
        return rng.choice(["newgame", "newgame Base+MLP", "newgame Base+P", "newgame Base+X"])
    if choice == 6:
        return f"undo {rng.choice(['', '1', '3', '-2', 'x', '999999999999999999'])}"
    if choice == 7:
        return rng.choice(["validmoves", "info", "options", "pass", "exit now", "ok"])
    if choice == 8:
        return rng.choice(["bestmove depth 1", "bestmove time 00:00:00.02", "bestmove x y z"])
    if choice == 9:
        name = rng.choice(["Level", "HashSizeMB", "Seed", "TournamentOpening", "Nope", ""])
        value = rng.choice(["easy", "0", "-5", "True", "false", "1e9", "", "99999999999999"])
        return f"options {rng.choice(['set', 'get', 'frob'])} {name} {value}"
    if choice == 10 and game is not None:
        text = game.game_string()
        cut = rng.randrange(len(text) + 1)
        return "newgame " + text[:cut] + rng.choice(["", ";", ";;", "wQ", ";bogus", "\t"])
    if choice == 11:
        return "".join(chr(rng.randrange(0x20, 0x2FF)) for _ in range(rng.randrange(40)))
    if choice == 12:
        return rng.choice(["PLAY WS1", "Play wS1", "  validmoves  ", "\tinfo", "bestmove depth"])
    return " ".join(rng.choice(["play", "undo", "newgame", ";", "Base", "wS1", "9"]) for _ in "ab")


def test_fuzz_never_crashes() -> None:
    rng = random.Random(2024)
    engine = PanalEngine()
    for _ in range(3000):
        line = _fuzz_line(rng, engine)
        reply = engine.handle(line)
        assert reply[-1] == "ok", (line, reply)
        assert not any("internal error" in r for r in reply), (line, reply)
        assert all("\n" not in r for r in reply)
        if engine.game is not None:
            # The engine's game is always a consistent, replayable position.
            Game.from_game_string(engine.game.game_string(), options=engine.game.options)


def test_fuzz_over_the_process() -> None:
    rng = random.Random(7)
    engine = PanalEngine()  # only to generate plausible lines
    lines = []
    for _ in range(300):
        line = _fuzz_line(rng, engine)
        engine.handle(line)
        if line.strip().lower().split(" ")[:1] != ["exit"]:
            lines.append(line)
    lines.append("info")
    result = subprocess.run(
        [sys.executable, "-m", "panal.cli", "uhp"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    out = result.stdout.splitlines()
    assert out.count("ok") == len(lines) + 1  # banner + one reply per line
    assert out[-2] == "Mosquito;Ladybug;Pillbug"
    assert "Traceback" not in result.stderr


def test_bestmove_time_budget_over_the_process() -> None:
    """A loose sanity bound; benchmarks/ai_timing.py measures the real margin."""
    process = subprocess.Popen(
        [sys.executable, "-m", "panal.cli", "uhp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None

    def ask(line: str) -> list[str]:
        process.stdin.write(line + "\n")  # type: ignore[union-attr]
        process.stdin.flush()  # type: ignore[union-attr]
        reply = []
        while (text := process.stdout.readline().rstrip("\n")) != "ok":  # type: ignore[union-attr]
            reply.append(text)
        return reply

    try:
        ask("info")
        ask(f"newgame {MIDGAME}")
        started = time.perf_counter()
        reply = ask("bestmove time 00:00:01")
        elapsed = time.perf_counter() - started
        assert not reply[0].startswith("err")
        assert elapsed < 1.0 * 1.05 + 0.05 + 0.3
    finally:
        process.stdin.close()
        process.wait(timeout=30)


@pytest.mark.parametrize("game_type", ["Base+MLP", "Base+D", "Base+MLPD"])
def test_bestmove_in_every_game_type(engine: PanalEngine, game_type: str) -> None:
    engine.handle(f"newgame {game_type}")
    for _ in range(12):
        reply = engine.handle("bestmove depth 1")
        assert len(reply) == 2 and not reply[0].startswith("err"), reply
        played = engine.handle(f"play {reply[0]}")
        assert not played[0].startswith(("err", "invalidmove")), played
        if engine.game is not None and engine.game.is_over():
            break


def test_bestmove_nodes_is_repeatable() -> None:
    replies = []
    for _ in range(2):
        engine = PanalEngine()
        engine.handle(f"newgame {MIDGAME}")
        replies.append(engine.handle("bestmove nodes 500"))
    assert replies[0] == replies[1]
    assert replies[0][-1] == "ok" and Game.from_game_string(MIDGAME).is_legal(replies[0][0])
    engine = PanalEngine()
    engine.handle(f"newgame {MIDGAME}")
    assert engine.handle("bestmove nodes x")[0].startswith("err usage: bestmove")
