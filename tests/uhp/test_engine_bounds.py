"""``panal uhp`` bounds every search and perft: depth and time ceilings as engine options, a
clear ``err`` beyond them, validated time strings."""

from __future__ import annotations

import time

import pytest

from panal.hive import Game
from panal.uhp.engine import PanalEngine

MIDGAME = (
    "Base+MLP;InProgress;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bA1 bQ-;wG1 /wQ;"
    "bG1 bQ\\;wB1 \\wQ;bB1 bA1\\;wA1 bA1-;bA1 -wB1"
)


@pytest.fixture
def engine() -> PanalEngine:
    engine = PanalEngine()
    assert engine.handle(f"newgame {MIDGAME}")[0].startswith("Base+MLP;InProgress;White[7];")
    return engine


def test_ceilings_are_typed_options(engine: PanalEngine) -> None:
    reply = engine.handle("options")
    assert "MaxDepth;int;8;8;1;64" in reply
    assert "MaxTime;int;60;60;1;86400" in reply
    assert engine.handle("options set MaxDepth 10")[0] == "MaxDepth;int;10;8;1;64"
    assert engine.handle("options set MaxTime 0")[0].startswith("err")


def test_depths_beyond_the_ceiling_are_refused(engine: PanalEngine) -> None:
    for command in ("bestmove depth 64", "bestmove depth 9", "perft 9", "perft 64"):
        reply = engine.handle(command)
        assert reply[0].startswith("err") and "MaxDepth (8" in reply[0], (command, reply)
        assert reply[-1] == "ok"
    assert engine.handle("bestmove depth 65")[0].startswith("err the depth must be between")


@pytest.mark.parametrize(
    ("budget", "message"),
    [
        ("00:99:00", "minutes and seconds go from 00 to 59"),
        ("00:00:60", "minutes and seconds go from 00 to 59"),
        ("00:00:00", "more than 00:00:00"),
        ("1:2:3", "expected a time as hh:mm:ss"),
        ("00:00:01s", "expected a time as hh:mm:ss"),
        ("-1:00:00", "expected a time as hh:mm:ss"),
        ("02:00:00", "beyond MaxTime (60 s"),
    ],
)
def test_time_strings_are_validated(engine: PanalEngine, budget: str, message: str) -> None:
    reply = engine.handle(f"bestmove time {budget}")
    assert reply[0].startswith("err") and message in reply[0], reply


def test_a_long_perft_is_stopped_at_the_time_ceiling(engine: PanalEngine) -> None:
    engine.handle("options set MaxTime 1")
    started = time.perf_counter()
    reply = engine.handle("perft 8")
    assert time.perf_counter() - started < 3
    assert reply[0].startswith("err perft 8 stopped at depth") and "MaxTime (1 s" in reply[0]
    # Within the ceilings perft answers in full.
    assert [line.split()[0] for line in engine.handle("perft 2")[:-1]] == ["1", "2"]


def test_a_deep_search_answers_a_legal_move_at_the_time_ceiling(engine: PanalEngine) -> None:
    engine.handle("options set MaxTime 1")
    started = time.perf_counter()
    reply = engine.handle("bestmove depth 8")
    assert time.perf_counter() - started < 3
    Game.from_game_string(MIDGAME, tournament_opening=True).parse_move(reply[0])
