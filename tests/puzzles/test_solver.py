"""The solver against positions no one here made: Mzinga's force-win and block-the-win cases
(jonthysell/Mzinga, MIT), the independent exhaustive checker, and panal.ai's exact search."""

from __future__ import annotations

import pytest

from panal.ai import think
from panal.hive import Game
from panal.puzzles.solver import NodeLimitReached, Solver
from tests.hive.oracles import mzinga_cases
from tests.puzzles.exhaustive import forces_win, holds_by
from tests.shared_data import shared_cases

FORCE_WIN = ("oracles", "mzinga", "PuzzleCandidate_IsOneBestMoveToForceWinPuzzleTest.csv")
BLOCK = ("oracles", "mzinga", "GameAI_BlockWinningMoveIsBestMoveTest.csv")


def _cases(path: tuple[str, ...], plies: str) -> list:
    return [c for c in shared_cases(mzinga_cases, *path) if c.values[1] == plies]


def _game(game_string: str) -> Game:
    return Game.from_game_string(game_string, tournament_opening=True, repetition_draw=False)


@pytest.mark.parametrize(("game_string", "plies", "expected"), _cases(FORCE_WIN, "1"))
def test_the_only_surround_in_one(game_string: str, plies: str, expected: str) -> None:
    game = _game(game_string)
    solver = Solver(game)
    assert solver.winning_moves(1) == [game.parse_move_code(expected)]
    assert solver.shortest_win(3) == 1


@pytest.mark.parametrize(("game_string", "plies", "expected"), _cases(FORCE_WIN, "3"))
def test_the_only_surround_in_two(game_string: str, plies: str, expected: str) -> None:
    game = _game(game_string)
    solver = Solver(game)
    assert solver.shortest_win(2) == 2
    assert solver.winning_moves(2) == [game.parse_move_code(expected)]
    # The exact alpha-beta search of panal.ai agrees: a win three plies deep, none at one.
    assert think(game, depth=3).is_win
    assert not think(game, depth=1).is_win


@pytest.mark.slow
@pytest.mark.parametrize(("game_string", "plies", "expected"), _cases(FORCE_WIN, "5"))
def test_the_surround_in_three(game_string: str, plies: str, expected: str) -> None:
    game = _game(game_string)
    solver = Solver(game)
    assert not solver.wins_within(2)
    assert solver.wins_after(game.parse_move_code(expected), 3)


@pytest.mark.parametrize(("game_string", "plies", "expected"), _cases(BLOCK, "2"))
def test_the_only_block(game_string: str, plies: str, expected: str) -> None:
    game = _game(game_string)
    solver = Solver(game)
    code = game.parse_move_code(expected)
    assert solver.defends_after(code, 1)
    assert holds_by(game, code, 1)


@pytest.mark.parametrize(("game_string", "plies", "expected"), _cases(FORCE_WIN, "3")[:2])
def test_the_solver_agrees_with_the_independent_checker(
    game_string: str, plies: str, expected: str
) -> None:
    game = _game(game_string)
    solver = Solver(game)
    # One ply earlier the other side was to move: both searches give the same answers there.
    for moves in (1, 2):
        assert solver.wins_within(moves) == forces_win(game, moves)
    game.pop_code()
    earlier = Solver(game)
    assert earlier.wins_within(1) == forces_win(game, 1)


def test_node_limit() -> None:
    (case, *_) = _cases(FORCE_WIN, "3")
    solver = Solver(_game(case.values[0]), node_limit=3)
    with pytest.raises(NodeLimitReached):
        solver.wins_within(2)


def test_bad_depth_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one move"):
        Solver(Game()).wins_within(0)
