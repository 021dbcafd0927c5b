"""The Game API as a new user meets it: python-chess's comforts, and a clear error for every
misuse (issue 12's list)."""

from __future__ import annotations

import pickle
import random

import pytest

from panal import compiled
from panal.hex import Hex
from panal.hive import (
    PASS,
    Bug,
    Color,
    Game,
    GameStringError,
    GameTypeError,
    IllegalMoveError,
    LegalMoves,
    Move,
    Options,
    Outcome,
    Piece,
    PositionError,
    Termination,
)
from panal.hive.names import bug_name

OPENING = "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"


def wrong_type(message: str, given: str) -> str:
    """What a wrongly typed argument's TypeError says: panal's own ``message``, or on the compiled
    build mypyc's check of the annotation, which comes first (``panal.compiled()``)."""
    return f"object expected; got {given}$" if compiled() else message


def test_options_one_way_or_the_other() -> None:
    assert Game(tournament_opening=True).options == Options(tournament_opening=True)
    assert Game(options=Options(repetition_draw=False)).options.repetition_draw is False
    with pytest.raises(TypeError, match="not both"):
        Game("Base", tournament_opening=True, options=Options())
    with pytest.raises(TypeError, match="unknown rule option tournament; the options are"):
        Game("Base", tournament=True)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="must be an Options"):
        Game(options={"tournament_opening": True})  # type: ignore[arg-type]
    game = Game.from_game_string(OPENING, options=Options(tournament_opening=True))
    assert game.options.tournament_opening


def test_bad_game_types() -> None:
    with pytest.raises(GameTypeError, match="bad expansion 'X'"):
        Game("Base+X")
    with pytest.raises(TypeError, match=wrong_type("GameTypeString", "int")):
        Game(5)  # type: ignore[arg-type]


def test_legal_moves_is_a_lazy_view() -> None:
    game = Game.from_game_string(OPENING)
    moves = game.legal_moves
    assert isinstance(moves, LegalMoves) and bool(moves)
    assert len(moves) == len(list(moves)) == len(game.legal_move_codes())
    assert all(isinstance(move, Move) for move in moves)
    assert "wA1 -wQ" in moves and game.parse_move("wA1 -wQ") in moves
    assert "wA1 -bQ" not in moves  # touches the opponent
    assert "nonsense" not in moves and 42 not in moves  # never raises
    assert repr(moves).startswith(f"<LegalMoves ({len(moves)}): ")
    game.push("wA1 -wQ")
    assert "wA1 -wQ" not in moves  # the view follows the game
    assert PASS not in moves


def test_peek_pop_and_the_move_stack() -> None:
    game = Game()
    with pytest.raises(IndexError, match="no move has been played"):
        game.peek()
    with pytest.raises(IndexError):
        game.pop()
    first = game.push("wS1")
    assert game.peek() == first and game.move_stack == [first]
    assert game.pop() == first and game.move_stack == []


def test_equality_is_rules_start_and_moves() -> None:
    assert Game("Base") == Game("Base")
    assert Game("Base") != Game("Base+M")
    assert Game("Base") != Game("Base", tournament_opening=True)
    one, other = Game.from_game_string(OPENING), Game.from_game_string(OPENING)
    assert one == other
    other.push("wA1 -wQ")
    assert one != other
    other.pop()
    assert one == other
    set_up = Game.from_board(
        one.board(), turn=one.turn, turn_number=one.turn_number, last_moved=one.last_moved
    )
    assert set_up != one  # the same position, another history
    assert set_up.board_text() == one.board_text()
    with pytest.raises(TypeError):
        hash(one)  # a game changes: not a dict key


def test_print_draws_the_board_and_repr_rebuilds_the_game() -> None:
    game = Game.from_game_string(OPENING)
    assert str(game) == "Base;InProgress;White[3];last bQ\nwQ  wS1 bS1 bQ"
    assert game.game_string() == OPENING
    assert eval(repr(game), {"Game": Game}) == game
    set_up = Game.from_board_text(str(game))
    assert eval(repr(set_up), {"Game": Game}).board_text() == set_up.board_text()


def test_clear_errors_for_pieces_and_names() -> None:
    game = Game.from_game_string(OPENING)
    assert game.position_of("wQ") == game.position_of(Piece.wQ) == Hex(-1, 0)
    assert game.position_of("wA1") is None
    with pytest.raises(ValueError, match="unknown piece 'xQ'"):
        game.position_of("xQ")
    with pytest.raises(TypeError, match=wrong_type("a Piece or a piece name", "float")):
        game.position_of(3.5)  # type: ignore[arg-type]
    assert game.stack_at((-1, 0)) == game.stack_at(Hex(-1, 0)) == [Piece.wQ]
    with pytest.raises(TypeError, match=wrong_type(r"a Hex or a \(q, r\) pair", "str")):
        game.stack_at("wQ")  # type: ignore[arg-type]
    assert Piece("wQ") is Piece["wQ"] is Piece.from_name("WQ") is Piece.wQ
    with pytest.raises(ValueError, match="unknown piece 'zz'"):
        Piece("zz")
    assert bug_name("Q", "es") == bug_name(Bug.QUEEN, "es") == bug_name(0, "es")
    with pytest.raises(ValueError, match="the letters are QSBGAMLPD"):
        bug_name("Z")
    with pytest.raises(ValueError, match="its UHP letter"):
        bug_name(42)


def test_moves_are_values() -> None:
    move = Move("wA1", (1, -1))
    assert move == Move(Piece.wA1, Hex(1, -1)) and hash(move) == hash(Move.from_code(move.code))
    assert pickle.loads(pickle.dumps(move)) == move
    assert Move.null() is PASS and not PASS and PASS.is_pass and not PASS.carry
    with pytest.raises(ValueError, match="a pass moves no piece"):
        PASS.piece  # noqa: B018
    with pytest.raises(ValueError, match="no destination"):
        PASS.to  # noqa: B018
    with pytest.raises(TypeError, match="a Piece or its name"):
        Move(3, (0, 0))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="destination"):
        Move(Piece.wQ, "east")  # type: ignore[arg-type]
    moved = (0, 1) + Hex(1, 0)  # noqa: RUF005 (a Hex adds as a vector, even on the right)
    assert moved == Hex(1, 1) and isinstance(moved, Hex)


def test_push_and_move_string_refuse_what_is_not_a_legal_move() -> None:
    game = Game.from_game_string(OPENING)
    with pytest.raises(TypeError, match="a Move or a MoveString"):
        game.push(42)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="may not touch your opponent"):
        game.move_string(Move(Piece.wA1, Hex(3, 0)))
    with pytest.raises(TypeError):
        game.move_string("wA1 -wQ")  # type: ignore[arg-type]
    assert game.game_string() == OPENING


def test_set_up_games_have_no_game_string() -> None:
    game = Game.from_board({(0, 0): "wQ", (1, 0): "bQ"}, turn=Color.WHITE)
    with pytest.raises(ValueError, match="board_text"):
        game.game_string()
    game.push("wS1 -wQ")
    assert game.move_strings() == ["wS1 -wQ"]
    game.pop()
    with pytest.raises(IndexError):
        game.pop()  # the set-up position is the start


def test_outcome_says_why() -> None:
    assert Game().outcome() is None
    # A queen surrounded: its owner loses.
    won = Game.from_game_string(
        "Base;WhiteWins;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;"
        "bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bA1 bG2/;wQ /bG1"
    )
    assert won.outcome() == Outcome(Termination.SURROUNDED, Color.WHITE)
    # The third occurrence of a position, with the rule on.
    game = Game.from_game_string(OPENING)
    for _ in range(2):
        for text in ("wQ \\wS1", "bQ bS1\\", "wQ -wS1", "bQ bS1-"):
            game.push(text)
    assert game.outcome() == Outcome(Termination.REPETITION, None)
    assert game.outcome() is not None and game.outcome().result is game.state  # type: ignore[union-attr]
    with pytest.raises(GameStringError):
        Game.from_game_string(OPENING.replace("InProgress", "Draw"))


@pytest.mark.parametrize(
    ("board", "kwargs", "message"),
    [
        ({(0, 0): "wQ", (2, 0): "bQ"}, {}, "the hive is split"),
        ({(0, 0): "wQ", (1, 0): ["bQ", "wA1"]}, {}, "only a beetle, a mosquito or a dragonfly"),
        ({(0, 0): "wQ", (1, 0): "wQ"}, {}, "wQ stands on the board twice"),
        ({(0, 0): "wQ", (1, 0): "bA2"}, {}, "bA1 is in hand while a higher number"),
        ({(0, 0): "wQ", (1, 0): "bM"}, {}, r"bM is not in this game \(Base\)"),
        ({(0, 0): "wQ", (1, 0): []}, {}, "empty stack"),
        (
            {(0, 0): "wQ", (1, 0): "bQ"},
            {"turn_number": 1},
            "White has 1 pieces on the board after 0 turns",
        ),
        ({(0, 0): "wA1", (1, 0): "bA1"}, {"turn_number": 5}, "without placing the queen"),
        ({(0, 0): "wQ", (1, 0): "bQ"}, {"last_moved": "wA1"}, "not on the board"),
        ({(0, 0): "wQ", (1, 0): ["bQ", "bB1"]}, {"last_moved": "bQ"}, "is covered"),
        ({(0, 0): "wQ", (1, 0): "bQ"}, {"turn_number": 0}, "the turn number starts at 1"),
        ({(0, 0): "wQ", (9000, 0): "bQ"}, {}, "too far from the centre"),
        ({"a1": "wQ"}, {}, r"a Hex or a \(q, r\) pair"),
        ({(0, 0): "wX"}, {}, "unknown piece 'wX'"),
    ],
)
def test_set_up_checks_every_invariant(board: dict, kwargs: dict, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        Game.from_board(board, **kwargs)


@pytest.mark.parametrize(
    ("board", "kwargs", "code", "details"),
    [
        ({(0, 0): "wQ", (2, 0): "bQ"}, {}, "split", {}),
        ({(0, 0): "wQ", (1, 0): ["bQ", "wA1"]}, {}, "cannot_climb", {"piece": "wA1"}),
        ({(0, 0): "wQ", (1, 0): "bA2"}, {}, "number_order", {"piece": "bA1"}),
        ({(0, 0): "wQ", (1, 0): "bM"}, {}, "not_in_game", {"piece": "bM", "game_type": "Base"}),
        (
            {(0, 0): "wQ", (1, 0): "bQ"},
            {"turn_number": 1},
            "too_many",
            {"color": "White", "pieces": "1", "turns": "0"},
        ),
        (
            {(0, 0): "wA1", (1, 0): "bA1"},
            {"turn_number": 5},
            "no_queen",
            {"color": "White", "turns": "4"},
        ),
        ({}, {"turn": Color.BLACK}, "no_piece", {"color": "White"}),
        ({(0, 0): "wQ", (9000, 0): "bQ"}, {}, "position", {}),
    ],
)
def test_set_up_errors_name_their_invariant(
    board: dict, kwargs: dict, code: str, details: dict
) -> None:
    """A user interface says the broken invariant in its own language from ``code`` and
    ``details`` (the analysis board's editor does)."""
    with pytest.raises(PositionError) as caught:
        Game.from_board(board, **kwargs)
    assert (caught.value.code, caught.value.details) == (code, details)


def test_set_up_positions_play_on() -> None:
    # A pillbug threw wA1 last turn: white may not move it now.
    board = {(0, 0): "wQ", (1, 0): "bP", (2, 0): "bQ", (1, 1): "wA1"}
    game = Game.from_board(board, game_type="Base+P", turn=Color.WHITE, last_moved="wA1")
    assert game.turn_number == 3 and game.last_moved is Piece.wA1
    assert not any(
        m and m.piece is Piece.wA1 and game.position_of(m.piece) for m in game.legal_moves
    )
    again = Game.from_board_text(game.board_text(), game_type_check := None) if False else None  # noqa: F841
    text = game.board_text()
    assert text.splitlines()[0] == "Base+P;InProgress;White[3];last wA1"
    assert Game.from_board_text(text).board_text() == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "starts with a head"),
        ("Base;InProgress", "expected GameType;GameState;Turn"),
        ("Base;InProgress;White[2];first wQ\nwQ", "expected 'last <piece>'"),
        ("Base;InProgress;White[2]\nwQ bQ", "not on the grid"),
        ("Base;InProgress;White[2]\nwQ  bZ", "unknown piece 'bZ'"),
        ("Base;InProgress;White[2]\nwQ  bQ\nwB1 on bA1", "wB1 is not drawn"),
        ("Base;Draw;White[2]\nwQ  bQ", "the text says Draw but the board is InProgress"),
        ("Base;InProgress;White[2]\nwQ      bQ", "the hive is split"),
    ],
)
def test_board_text_errors(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        Game.from_board_text(text)


@pytest.mark.parametrize("game_type", ["Base", "Base+MLP", "Base+MLPD"])
def test_perft_counts_the_last_ply_as_the_legal_moves(game_type: str) -> None:
    """perft(1) counts without building the placements' codes: it must equal the moves' number
    in every position of random games, and be 0 once a game is over."""
    rng = random.Random(7)
    for _ in range(6):
        game = Game(game_type)
        while game.ply < 120 and not game.is_over():
            count = game.perft(1)  # before legal_move_codes() caches the list it would read
            assert count == len(game.legal_move_codes()) > 0, game.game_string()
            game.push_code(rng.choice(game.legal_move_codes()))
    around = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)]
    pieces = ["bQ", "bA1", "bA2", "bA3", "bS1", "bS2"]
    over = Game.from_board({(0, 0): "wQ", **dict(zip(around, pieces, strict=True))})
    assert over.is_over() and over.perft(1) == 0 == len(over.legal_move_codes())
