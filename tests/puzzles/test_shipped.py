"""Every shipped puzzle proven again by the independent exhaustive checker (tests/puzzles/
exhaustive.py, not the miner's solver): the solution forces the result against every defence,
no shorter win exists, and every other first move fails. A sample runs in the quick suite, the
whole set in the slow one."""

from __future__ import annotations

import pytest

from panal.hive.codes import PASS_CODE
from panal.puzzles import Puzzle, load_puzzles
from panal.puzzles.stats import counts, prove
from tests.puzzles.exhaustive import forces_win, holds_by, wins_by

PUZZLES = load_puzzles()
SAMPLE_STEP = 60


def _check(puzzle: Puzzle) -> None:
    game = puzzle.game()
    first = game.parse_move_code(puzzle.solution[0])
    others = [code for code in game.legal_move_codes() if code != first]
    if puzzle.kind == "defence":
        game.push_code(PASS_CODE)  # the threat: what the opponent would do if left alone
        assert forces_win(game, puzzle.moves), "no threat"
        game.pop_code()
        assert holds_by(game, first, puzzle.moves), "the solution does not defend"
        for code in others:
            assert not holds_by(game, code, puzzle.moves), game.move_string(code)
        return
    assert wins_by(game, first, puzzle.moves), "the solution does not force the surround"
    if puzzle.moves > 1:
        assert not forces_win(game, puzzle.moves - 1), "a shorter win exists"
    for code in others:
        assert not wins_by(game, code, puzzle.moves), f"{game.move_string(code)} also wins"


def test_the_set_is_large_and_unique() -> None:
    assert len(PUZZLES) >= 1000
    assert len({p.id for p in PUZZLES}) == len(PUZZLES)
    assert len({p.position for p in PUZZLES}) == len(PUZZLES)
    kinds = counts(PUZZLES)["kind"]
    assert {"surround in 1", "surround in 2", "surround in 3", "defence in 1"} <= set(kinds)


@pytest.mark.parametrize("puzzle", PUZZLES[::SAMPLE_STEP], ids=lambda p: p.id)
def test_a_sample_is_proven_independently(puzzle: Puzzle) -> None:
    _check(puzzle)
    assert prove(puzzle) is None


@pytest.mark.slow
@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda p: p.id)
def test_every_puzzle_is_proven_independently(puzzle: Puzzle) -> None:
    _check(puzzle)
