"""Mzinga's AI cases (jonthysell/Mzinga, MIT): block the winning move, force-win puzzles.

Each case is ``GameString<TAB>depth<TAB>best move``; Mzinga searches to that depth and must play
that move. The positions assume the tournament opening and no draw by repetition (one of them
repeats a position three times). Moves are compared by meaning: both parsed into move codes.
Depth-5 puzzles take seconds each in Python, so they run in the slow suite.
"""

from __future__ import annotations

import pytest

from panal.ai import Searcher
from panal.hive import Game
from tests.hive.oracles import mzinga_cases
from tests.shared_data import shared_cases

MZINGA = ("oracles", "mzinga")
FILES = (
    "GameAI_BlockWinningMoveIsBestMoveTest.csv",
    "PuzzleCandidate_IsOneBestMoveToForceWinPuzzleTest.csv",
)
SLOW_DEPTH = 5


def _cases(slow: bool) -> list:
    cases = []
    for name in FILES:
        for case in shared_cases(mzinga_cases, *MZINGA, name):
            if (int(case.values[1]) >= SLOW_DEPTH) == slow:
                cases.append(case)
    return cases


def _puzzles() -> set[str]:
    cases = shared_cases(mzinga_cases, *MZINGA, FILES[1])
    return {case.values[0] for case in cases}


PUZZLES = _puzzles()


def _check(game_string: str, depth: str, expected: str) -> None:
    game = Game.from_game_string(game_string, tournament_opening=True, repetition_draw=False)
    wanted = game.parse_move_code(expected)
    result = Searcher().search(game, depth=int(depth))
    assert result.code == wanted, (
        f"expected {expected}, chose {game.move_string(result.code)} (score {result.score})"
    )
    if game_string in PUZZLES:
        assert result.is_win, "a force-win puzzle: the search must prove the win"


@pytest.mark.parametrize(("game_string", "depth", "expected"), _cases(slow=False))
def test_mzinga_best_move(game_string: str, depth: str, expected: str) -> None:
    _check(game_string, depth, expected)


@pytest.mark.slow
@pytest.mark.parametrize(("game_string", "depth", "expected"), _cases(slow=True))
def test_mzinga_best_move_deep(game_string: str, depth: str, expected: str) -> None:
    _check(game_string, depth, expected)
