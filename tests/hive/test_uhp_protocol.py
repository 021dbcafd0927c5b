"""``panal uhp`` as a viewer drives it: every command of issue 2 (bestmove is the AI's)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from panal.uhp.engine import PanalEngine

OPENING = "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"


@pytest.fixture
def engine() -> PanalEngine:
    return PanalEngine()


def test_every_reply_ends_with_ok(engine: PanalEngine) -> None:
    for line in ["info", "newgame", "play wS1", "validmoves", "undo", "options", "nonsense", ""]:
        assert engine.handle(line)[-1] == "ok"


def test_info(engine: PanalEngine) -> None:
    reply = engine.handle("info")
    assert reply[0].startswith("id panal v")
    assert "Mosquito;Ladybug;Pillbug" in reply[1]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ("", "Base;NotStarted;White[1]"),
        ("Base+MLP", "Base+MLP;NotStarted;White[1]"),
        (OPENING, OPENING),
    ],
)
def test_newgame(engine: PanalEngine, args: str, expected: str) -> None:
    assert engine.handle(f"newgame {args}".strip()) == [expected, "ok"]


def test_newgame_recomputes_a_turn_field_the_moves_contradict(engine: PanalEngine) -> None:
    # The referee's moves decide, as nokamute reads them (tests/uhp/test_referee.py has more).
    reply = engine.handle("newgame Base;BlackWins;Black[9];wS1;bS1 wS1-;wQ -wS1;bQ bS1-")
    assert reply == [OPENING, "ok"]


def test_play_pass_undo(engine: PanalEngine) -> None:
    engine.handle(f"newgame {OPENING}")
    after = "Base;InProgress;Black[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ"
    assert engine.handle("play wA1 -wQ") == [after, "ok"]
    assert engine.handle("undo") == [OPENING, "ok"]
    assert engine.handle("undo 2") == ["Base;InProgress;White[2];wS1;bS1 wS1-", "ok"]
    assert engine.handle("undo 3")[0].startswith("err")
    assert engine.handle("undo x")[0].startswith("err")
    assert engine.handle("pass")[0] == "invalidmove you can't pass while you have a legal move"


def test_refusals_change_nothing(engine: PanalEngine) -> None:
    engine.handle(f"newgame {OPENING}")
    for line in [
        "play wQ",
        "play wA2 -wQ",
        "play bogus",
        "play wA1 -wQ extra",
        "play",
        "play wS1 -wQ",
    ]:
        reply = engine.handle(line)
        assert reply[0].startswith("invalidmove "), (line, reply)
        assert engine.game is not None
        assert engine.handle("newgame " + engine.game.game_string())[0] == OPENING


def test_validmoves_prints_pass_when_forced(engine: PanalEngine) -> None:
    forced = (
        "Base;InProgress;White[7];wA1;bS1 wA1-;wQ -wA1;bQ bS1/;wQ \\wA1;bA1 bS1\\;wQ -wA1;"
        "bA2 bQ\\;wQ \\wA1;bA1 \\wQ;wG1 /wQ;bA2 /wG1"
    )
    engine.handle(f"newgame {forced}")
    assert engine.handle("validmoves") == ["pass", "ok"]
    assert engine.handle("pass")[0].endswith(";pass")


def test_validmoves_round_trip(engine: PanalEngine) -> None:
    engine.handle(f"newgame {OPENING}")
    moves = engine.handle("validmoves")[0].split(";")
    assert len(moves) == 22
    for move in moves:
        assert not engine.handle(f"play {move}")[0].startswith(("err", "invalidmove"))
        engine.handle("undo")


def test_commands_before_newgame_are_errors(engine: PanalEngine) -> None:
    for line in ["play wS1", "validmoves", "undo", "pass"]:
        assert engine.handle(line)[0].startswith("err")


def test_options(engine: PanalEngine) -> None:
    reply = engine.handle("options")
    assert "TournamentOpening;bool;True;True" in reply
    assert "RepetitionDraw;bool;True;True" in reply
    assert "DragonflySidestep;enum;Forward;Forward;Forward;Backward;Either" in reply
    assert "DragonflyCarry;enum;Later;Later;Later;NextTurn" in reply
    engine.handle("newgame")
    assert engine.handle("play wQ")[0].startswith("invalidmove")
    assert engine.handle("options set TournamentOpening False") == [
        "TournamentOpening;bool;False;True",
        "ok",
    ]
    assert engine.handle("play wQ") == ["Base;InProgress;Black[1];wQ", "ok"]
    # The game in progress would break the rule again: refused, options unchanged.
    assert engine.handle("options set TournamentOpening True")[0].startswith("err")
    assert engine.handle("options get tournamentopening")[0] == "TournamentOpening;bool;False;True"
    assert engine.handle("options set Nope 1")[0].startswith("err")
    assert engine.handle("options set RepetitionDraw maybe")[0].startswith("err")


def test_bad_newgame(engine: PanalEngine) -> None:
    for args in ["Chess", "Base+X", "Base;InProgress;White[1];wQ;bQ wQ", "Base;Nope;White[1]"]:
        assert engine.handle(f"newgame {args}")[0].startswith("err")


def test_process_banner_and_exit() -> None:
    result = subprocess.run(
        [sys.executable, "-c", "from panal.cli import main; main(['uhp'])"],
        input="newgame Base\nplay wS1\n\xff\xfe garbage \x00\nexit\nplay bS1 wS1-\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    lines = result.stdout.splitlines()
    assert lines[0].startswith("id panal")
    assert lines[2] == "ok"
    assert "Base;InProgress;Black[1];wS1" in lines
    assert lines[-1] == "ok"
    assert lines[-2].startswith("err")  # the garbage line; nothing after exit
