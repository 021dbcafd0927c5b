"""MoveString, GameTypeString and GameString: parse, print, round trip, and precise errors."""

from __future__ import annotations

import pytest

from panal.hex import Hex
from panal.hive import (
    PASS,
    Game,
    GameState,
    GameStringError,
    GameType,
    GameTypeError,
    IllegalMoveError,
    InvalidMoveError,
    Piece,
)
from panal.hive.rules import Rule

OPENING = "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"


@pytest.mark.parametrize(
    "text",
    [
        "Base",
        "Base+M",
        "Base+L",
        "Base+P",
        "Base+ML",
        "Base+MP",
        "Base+LP",
        "Base+MLP",
        "Base+MLPD",
        "Base+D",
    ],
)
def test_game_type_round_trip(text: str) -> None:
    assert str(GameType.parse(text)) == text


@pytest.mark.parametrize("text", ["", "base+", "Base+X", "Base+MM", "Hive", "Base+Q", "Base MLP"])
def test_bad_game_type(text: str) -> None:
    with pytest.raises(GameTypeError):
        GameType.parse(text)


def test_game_type_accepts_any_order_and_case_and_prints_canonically() -> None:
    assert str(GameType.parse("base+plm")) == "Base+MLP"


def test_game_string_round_trip_and_recomputed_fields() -> None:
    game = Game.from_game_string(OPENING)
    assert game.game_string() == OPENING
    # State and turn fields must agree with the moves: nothing is silently corrected.
    with pytest.raises(
        GameStringError, match=r"says Black\[9\] but after 4 moves it is White\[3\]"
    ):
        Game.from_game_string("Base;InProgress;Black[9];wS1;bS1 wS1-;wQ -wS1;bQ bS1-")
    with pytest.raises(GameStringError, match="says WhiteWins but the position is InProgress"):
        Game.from_game_string("Base;WhiteWins;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-")
    with pytest.raises(GameStringError, match=r"White\[2\] but after 1 moves it is Black"):
        Game.from_game_string("Base;InProgress;White[2];wS1")
    with pytest.raises(GameStringError, match="says InProgress but the position is NotStarted"):
        Game.from_game_string("Base;InProgress;White[1]")


def test_accepts_what_other_engines_write() -> None:
    sloppy = "base ; inprogress ; white[3] ; WS1 ; bs1 ws1- ; wq -WS1 ; BQ bS1-"
    assert Game.from_game_string(sloppy).game_string() == OPENING
    game = Game.from_game_string(OPENING)
    # A moving piece named as its own reference, relative to where it stands now.
    game.push("wA1 -wQ")
    game.push("bA1 bQ-")
    moved = game.push("wA1 wA1\\")
    assert moved.to == Hex(-2, 1)


def test_hivegame_climb_written_with_a_direction_needs_lenient() -> None:
    text = "Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 -wQ;bB1 bQ-"
    game = Game.from_game_string(text)
    # -wS1 is the cell where wQ stands: Mzinga refuses the directional form of a climb.
    with pytest.raises(IllegalMoveError, match="name it: 'wB1 wQ'") as caught:
        game.push("wB1 -wS1")
    assert caught.value.rule is Rule.OCCUPIED
    assert game.push("wB1 -wS1", lenient=True).to == game.position_of(Piece.wQ)
    game.pop()
    assert game.push("wB1 wQ").to == game.position_of(Piece.wQ)


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", InvalidMoveError),
        ("wX1 wS1-", InvalidMoveError),
        ("wA1 wS1-x", InvalidMoveError),
        ("wA1 -wS1-", InvalidMoveError),
        ("wA1 wS1- extra", InvalidMoveError),
        ("wA1", IllegalMoveError),
        ("wA1 bA3-", IllegalMoveError),
        ("wM wS1/", IllegalMoveError),
    ],
)
def test_bad_move_strings(text: str, error: type[Exception]) -> None:
    game = Game.from_game_string(OPENING)
    with pytest.raises(error):
        game.push(text)
    assert game.game_string() == OPENING


@pytest.mark.parametrize(
    ("text", "reason", "details"),
    [
        ("", "syntax", {}),
        ("hola", "unknown_piece", {"name": "hola"}),
        ("wX1 wS1-", "unknown_piece", {"name": "wX1"}),
        ("wB1+bZ wS1", "unknown_piece", {"name": "bZ"}),
        ("wA1 -wQ9", "unknown_piece", {"name": "wQ9"}),
        ("wA1 wS1-x", "bad_reference", {"reference": "wS1-x"}),
        ("wA1 -wS1-", "bad_reference", {"reference": "-wS1-"}),
        ("wA1 wS1- extra", "syntax", {}),
    ],
)
def test_unparsable_move_strings_say_why_with_a_stable_code(
    text: str, reason: str, details: dict[str, str]
) -> None:
    game = Game.from_game_string(OPENING)
    with pytest.raises(InvalidMoveError) as caught:
        game.push(text)
    assert (caught.value.reason, caught.value.details) == (reason, details)


@pytest.mark.parametrize(
    ("game_string", "move", "rule"),
    [
        ("Base;NotStarted;White[1]", "bA1", Rule.NOT_YOUR_TURN),
        ("Base;InProgress;White[2];wS1;bS1 wS1-", "wA2 -wS1", Rule.ORDER),
        ("Base;InProgress;White[2];wS1;bS1 wS1-", "wA1 bS1-", Rule.PLACE_NOT_ENEMY),
        ("Base;InProgress;White[2];wS1;bS1 wS1-", "wB1 wS1", Rule.PLACE_ON_EMPTY),
        ("Base;InProgress;White[2];wS1;bS1 wS1-", "wS1 -wS1", Rule.QUEEN_BEFORE_MOVING),
        ("Base;InProgress;Black[1];wS1", "bQ wS1", Rule.PLACE_ON_EMPTY),
        (
            "Base;InProgress;White[4];wS1;bS1 wS1-;wA1 -wS1;bA1 bS1-;wA2 -wA1;bA2 bA1-",
            "wA3 -wA2",
            Rule.QUEEN_BY_FOURTH,
        ),
        (OPENING, "wQ \\wQ", Rule.LOSES_CONTACT),
        (OPENING, "wS1 -wQ", Rule.SPLITS_HIVE),
        (OPENING, "bQ bS1\\", Rule.OPPONENT_PIECE),
        (OPENING, "pass", Rule.PASS_WITH_MOVES),
    ],
)
def test_illegal_moves_name_the_rule(game_string: str, move: str, rule: Rule) -> None:
    game = Game.from_game_string(game_string)
    before = (game.game_string(), game.hash)
    with pytest.raises(IllegalMoveError) as caught:
        game.push(move)
    assert caught.value.rule is rule, str(caught.value)
    assert str(caught.value) == rule.value.format(**caught.value.details)
    assert (game.game_string(), game.hash) == before


def test_tournament_opening_message() -> None:
    game = Game(tournament_opening=True)
    with pytest.raises(IllegalMoveError, match="first turn"):
        game.push("wQ")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "Base",
        "Base;InProgress",
        "Nope;InProgress;White[1]",
        "Base;Winning;White[1]",
        "Base;InProgress;Red[1]",
        "Base;InProgress;White[1];wS1;wS2",
        "Base;InProgress;White[1];wS1;bS1 wS1-;;",
    ],
)
def test_bad_game_strings(text: str) -> None:
    with pytest.raises(GameStringError):
        Game.from_game_string(text)


def test_game_string_error_names_the_move() -> None:
    with pytest.raises(GameStringError, match=r"move 3 \('wQ wS1'\)"):
        Game.from_game_string("Base;InProgress;White[1];wS1;bS1 wS1-;wQ wS1")


def test_pass_is_only_legal_without_other_moves_and_round_trips() -> None:
    # nokamute's "Pass" position: white's queen is boxed in and every piece pinned.
    text = (
        "Base;InProgress;White[7];wA1;bS1 wA1-;wQ -wA1;bQ bS1/;wQ \\wA1;bA1 bS1\\;wQ -wA1;"
        "bA2 bQ\\;wQ \\wA1;bA1 \\wQ;wG1 /wQ;bA2 /wG1"
    )
    game = Game.from_game_string(text)
    assert list(game.legal_moves) == [PASS]
    game.push("pass")
    assert game.game_string().endswith(";pass")
    assert Game.from_game_string(game.game_string()).game_string() == game.game_string()
    assert game.state is GameState.IN_PROGRESS
