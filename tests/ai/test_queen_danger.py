"""The evaluation's own-queen danger (``queen_danger``): steep in the queen's occupied neighbours
and in the enemy's fillers, the same for both colours, and what it changes in a lost game."""

from __future__ import annotations

import itertools
import random

import pytest

from panal.ai import Searcher
from panal.ai.evaluation import FEATURES, QUEEN_DANGER, evaluate, feature_counts
from panal.ai.search import leaves_queen_one_from_surrounded
from panal.hex import NEIGHBOR_OFFSETS
from panal.hive import Color, Game
from panal.hive.codes import PASS_CODE
from panal.hive.pieces import Piece
from tests.ai.test_ai_search import random_game

DANGER = FEATURES.index("queen_danger")

# Game 4 of the 2026-11-27 device match (benchmarks/results/2026-11-27-device), panal White: its
# 47th move, wG1 wB1-, left White's queen with five neighbours and a black beetle ready to fill
# the sixth; nokamute then surrounded it in three moves.
GAME_4 = (
    "wG1;bL \\wG1;wP wG1\\;bP \\bL;wM /wG1;bQ -bP;wQ wP-;bA1 bQ\\;wA1 wM\\;bA1 wQ/;wA2 -wM;"
    "bG1 bA1/;wL wA1-;bS1 bG1-;wA2 bS1\\;bA2 bQ\\;wM -bQ;bA3 \\bG1;wA1 \\bQ;bA2 /wL;wA3 /wG1;"
    "bA3 -wA3;wB1 -wA1;bB1 -bG1;wM bQ;bM \\bA3;wB2 wB1\\;bB2 bP/;wA1 -bM;bB2 bP;wM bB2;"
    "bS2 /bA2;wB1 \\bQ;bG2 \\bS1;wA2 bS2\\;bG3 -bG2;wG2 wL-;bS1 wG2-;wA1 wB2\\;bM /wA2;"
    "wB2 bQ;bG3 wG1-;wA1 bS1/;bM wA3\\;wL bL-;bG2 bM-"
)
DECISIVE = "wG1 wB1-"


def _game_4(*extra: str) -> Game:
    game = Game("Base+MLP", tournament_opening=True, repetition_draw=False)
    for move in (*GAME_4.split(";"), *extra):
        game.push(move)
    return game


def test_the_danger_rises_faster_than_the_neighbours_and_the_fillers() -> None:
    assert QUEEN_DANGER[:3] == ((), (), ())  # fewer than three neighbours: no danger yet
    for filled in range(3, 7):
        row = QUEEN_DANGER[filled]
        assert len(row) == 7 - filled  # 0 .. the empty cells beside the queen
        steps = [after - before for before, after in itertools.pairwise(row)]
        assert all(step > 0 for step in steps[1:]) and steps == sorted(steps)  # convex
    for fillers in range(4):
        column = [row[fillers] for row in QUEEN_DANGER[3:] if fillers < len(row)]
        assert column == sorted(column)
    # With every empty cell in the enemy's reach, each neighbour more at least doubles it.
    assert QUEEN_DANGER[5][1] >= 2 * QUEEN_DANGER[4][2] >= 4 * QUEEN_DANGER[3][3] > 0


def test_a_queen_one_fill_from_the_end_counts_the_most() -> None:
    game = _game_4(DECISIVE)
    white, black = feature_counts(game)
    assert game.surrounding(Color.WHITE) == 5
    assert white[DANGER] == QUEEN_DANGER[5][1]
    assert black[DANGER] < white[DANGER]


def _colours_swapped(game: Game) -> Game:
    board = {
        cell: [Piece[("b" if str(piece)[0] == "w" else "w") + str(piece)[1:]] for piece in stack]
        for cell, stack in game.board().items()
    }
    return Game.from_board(
        board,
        game_type=game.game_type,
        turn=Color.BLACK if game.turn is Color.WHITE else Color.WHITE,
        turn_number=game.turn_number,
    )


def _set_up(game: Game) -> Game:
    return Game.from_board(
        game.board(), game_type=game.game_type, turn=game.turn, turn_number=game.turn_number
    )


@pytest.mark.parametrize(
    "game",
    [
        _game_4(),
        _game_4(DECISIVE),
        *(random_game(kind, plies, seed) for kind, plies, seed in (("Base+MLP", 70, 1),)),
        *(random_game(kind, plies, seed) for kind, plies, seed in (("Base", 90, 2),)),
    ],
    ids=["game-4", "game-4-decisive", "random-mlp", "random-base"],
)
def test_both_colours_are_scored_alike(game: Game) -> None:
    """The position with every piece's colour swapped and the other side to move scores the
    same for the side to move, with each colour's counts the other's (tempo aside)."""
    original = _set_up(game)
    swapped = _colours_swapped(game)
    assert evaluate(swapped) == evaluate(original)
    white, black = feature_counts(original)
    swapped_white, swapped_black = feature_counts(swapped)
    assert swapped_white[DANGER] == black[DANGER] and swapped_black[DANGER] == white[DANGER]
    tempo = FEATURES.index("tempo")
    for index in range(len(FEATURES)):
        if index != tempo:
            assert (swapped_white[index], swapped_black[index]) == (black[index], white[index])


def _neighbours(game: Game, queen: int) -> int:
    return sum(queen + step in game.stacks for step in NEIGHBOR_OFFSETS)


@pytest.mark.parametrize(("game_type", "plies", "seed"), [("Base+MLP", 60, 3), ("Base", 80, 4)])
def test_the_surround_extension_follows_moves_that_leave_a_queen_one_cell_short(
    game_type: str, plies: int, seed: int
) -> None:
    """Checked against the rules on every legal move along a seeded random game: a move that
    is not a queen's own fills a fifth cell beside a queen that had four."""
    game = Game(game_type, tournament_opening=True)
    rng = random.Random(seed)
    seen = 0
    for _ in range(plies):
        if game.is_over():
            break
        for code in game.legal_move_codes():
            queens = [game.piece_cells[0], game.piece_cells[16]]
            before = [_neighbours(game, queen) if queen >= 0 else 0 for queen in queens]
            game.push_code(code)
            after = [_neighbours(game, queen) if queen >= 0 else 0 for queen in queens]
            game.pop_code()
            moved_queen = code != PASS_CODE and code & 15 == 0
            expected = not moved_queen and any(
                (b, a) == (4, 5) for b, a in zip(before, after, strict=True)
            )
            assert leaves_queen_one_from_surrounded(game, code) == expected, game.move_string(code)
            seen += expected
        game.push_code(rng.choice(sorted(game.legal_move_codes())))
    assert seen  # the game met such moves


# Game 37 of the same match, panal Black: before its 30th move. It played bQ wA1\, which left
# its queen with four neighbours and two white pieces ready; nokamute (depth 5) then proves a
# win (wG2 /bQ first). Main's search at 10,000 nodes plays the same move and scores it -15.
GAME_37 = (
    "wL;bS1 \\wL;wP /wL;bP bS1/;wQ wP\\;bQ bP/;wA1 wP-;bA1 -bP;wA2 -wP;bM /bA1;wA1 -bM;"
    "bA1 /wQ;wA2 bQ/;bA2 -bP;wS1 wA2/;bA3 bA1\\;wS1 bP-;bA3 wQ-;wA3 wS1-;bA2 bA1-;wM wS1\\;"
    "bB1 -bQ;wA1 -bB1;bM -wA1;wG1 wA2-;bL bA1\\;wG1 -wA2;bM wA3/;wG2 \\wA2"
)


def test_a_saved_loss_the_danger_term_avoids() -> None:
    game = Game("Base+MLP")
    for move in GAME_37.split(";"):
        game.push(move)
    result = Searcher().search(game, node_limit=10_000)
    assert game.move_string(result.code) != "bQ wA1\\"
    assert result.score < 0  # the queen's danger is seen
