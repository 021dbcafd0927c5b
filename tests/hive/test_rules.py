"""Rule options and end-of-game rules that the reference data covers only in part."""

from __future__ import annotations

from panal.hive import Color, Game, GameState, Outcome, Piece, Termination
from tests.hive.positions import destinations, position

# After the queens are placed, each cycle of four moves returns to the same position.
PLACE_QUEENS = ["wQ \\wS1", "bQ bB1\\"]
CYCLE = ["wQ -wS1", "bQ bB1-", "wQ \\wS1", "bQ bB1\\"]
START = "Base;InProgress;White[2];wS1;bB1 wS1-"


def test_threefold_repetition_is_a_draw_by_default() -> None:
    game = Game.from_game_string(START)
    for move in PLACE_QUEENS + CYCLE * 2:
        assert game.state is GameState.IN_PROGRESS
        game.push(move)
    assert game.repetitions() == 3
    assert game.state is GameState.DRAW
    assert not game.legal_moves and len(game.legal_moves) == 0
    game.pop()
    assert game.state is GameState.IN_PROGRESS


def test_repetition_draw_can_be_switched_off() -> None:
    game = Game.from_game_string(START, repetition_draw=False)
    for move in PLACE_QUEENS + CYCLE * 3:
        game.push(move)
    assert game.repetitions() == 4
    assert game.state is GameState.IN_PROGRESS


def test_the_frozen_piece_is_part_of_the_position_in_pillbug_games() -> None:
    # Both orders reach the same pieces with white to move, but black's last-moved piece (which
    # a pillbug may not throw) differs: distinct positions with the pillbug, equal without it.
    first = "wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bA1 bS1\\"
    second = "wS1;bS1 wS1-;wQ -wS1;bA1 bS1\\;wA1 -wQ;bQ bS1-"
    for game_type, same in (("Base+P", False), ("Base", True)):
        a = Game.from_game_string(f"{game_type};InProgress;White[4];{first}")
        b = Game.from_game_string(f"{game_type};InProgress;White[4];{second}")
        assert a.board() == b.board()
        assert (a.hash == b.hash) is same


def test_a_thrown_piece_cannot_move_next_turn() -> None:
    # White's pillbug at (0,0) throws bA1 from (1,0) to (1,-1); black may not move bA1 next turn.
    board = {(0, 0): "wP", (1, 0): "bA1", (-1, 0): "wQ", (0, 1): "bQ", (-1, 1): "bA2"}
    game = position("Base+P", board)
    throw = next(m for m in game.legal_moves if m.piece == Piece.bA1 and m.to == (1, -1))
    game.push(throw)
    assert destinations(game, "bA1") == set()
    assert destinations(game, "bA2")  # other pieces move as usual
    assert game.last_moved == Piece.bA1


def test_surrounding_both_queens_at_once_is_a_draw() -> None:
    # nokamute's "Draw" game ends with one move closing both rings.
    text = (
        "Base;Draw;White[11];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;"
        "wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bG1 wA1/;wQ -bQ;bA1 \\wQ;wB1 -wS1;bG3 bG1-;"
        "wB1 /bA1;bG3 -bG2"
    )
    game = Game.from_game_string(text)
    assert game.state is GameState.DRAW
    assert game.outcome() == Outcome(Termination.BOTH_SURROUNDED, None)
    assert game.surrounding(Color.WHITE) == 6 and game.surrounding(Color.BLACK) == 6


def test_pieces_of_one_kind_are_interchangeable_for_repetition() -> None:
    # White's two ants swap cells in three moves while a black ant walks round and back: the
    # same kinds of pieces stand on the same cells with the same side to move. That is the same
    # position (nokamute and the rulebooks do not number pieces), so it counts as a repetition.
    opening = (
        "wS1;bS1 wS1/;wS2 -wS1;bG1 bS1/;wG1 /wS2;bB1 bS1-;wQ -wS2;bQ bG1-;wA1 /wG1;bA1 bQ-;"
        "wA2 -wQ;bA2 bB1\\"
    )
    swap = "wA1 wA2\\;bA1 /wA2;wA2 wA1\\;bA1 /wA1;wA1 -wQ;bA1 bQ-"
    before = Game.from_game_string(f"Base;InProgress;White[7];{opening}")
    after = Game.from_game_string(f"Base;InProgress;White[10];{opening};{swap}")
    assert before.position_of(Piece.wA1) == after.position_of(Piece.wA2)
    assert before.position_of(Piece.wA2) == after.position_of(Piece.wA1)
    assert after.hash == before.hash
    assert after.repetitions() == 2
