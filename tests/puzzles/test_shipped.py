"""Every shipped puzzle proven again by the independent exhaustive checker (tests/puzzles/
exhaustive.py, not the miner's solver): the solution forces the result against every defence,
no shorter win exists, and every other first move fails.

What runs where (docs/puzzles.md, "Verification"): the quick suite proves a small sample of
surrounds in one and two and defences, with the solver too; the slow suite proves every puzzle on
the compiled build (CI's last stage, where the engine is about twice as fast) and a larger
sample on the pure one. The samples are drawn
with fixed seeds, so every run proves the same puzzles.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import panal
from panal.hive.codes import PASS_CODE
from panal.puzzles import Puzzle, load_puzzles
from panal.puzzles.stats import counts, prove, tables
from tests.puzzles.exhaustive import forces_win, holds_by, wins_by

PUZZLES = load_puzzles()


def _sample(seed: int, short: int, long: int) -> list[Puzzle]:
    """``short`` puzzles of one or two own moves and ``long`` surrounds in three, drawn with a
    fixed seed, in the set's order."""
    draw = random.Random(seed)
    shorter = [p for p in PUZZLES if p.moves < 3]
    three = [p for p in PUZZLES if p.moves == 3]
    chosen = {
        p.id
        for p in draw.sample(shorter, min(short, len(shorter)))
        + draw.sample(three, min(long, len(three)))
    }
    return [p for p in PUZZLES if p.id in chosen]


QUICK_SAMPLE = _sample(21, short=40, long=0)
SLOW_SET = PUZZLES if panal.compiled() else _sample(2121, short=600, long=20)


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


@pytest.mark.parametrize("puzzle", QUICK_SAMPLE, ids=lambda p: p.id)
def test_a_sample_is_proven_independently(puzzle: Puzzle) -> None:
    _check(puzzle)
    assert prove(puzzle) is None


@pytest.mark.slow
@pytest.mark.parametrize("puzzle", SLOW_SET, ids=lambda p: p.id)
def test_every_puzzle_is_proven_independently(puzzle: Puzzle) -> None:
    """Every puzzle on the compiled build; on the pure one, the seeded sample."""
    _check(puzzle)


def test_the_quick_sample_spans_the_kinds() -> None:
    assert len(QUICK_SAMPLE) == 40
    assert {p.moves for p in QUICK_SAMPLE} == {1, 2}
    assert {p.kind for p in QUICK_SAMPLE} == {"surround", "defence"}


def test_the_guide_gives_the_shipped_counts() -> None:
    """docs/puzzles-and-lessons.md's counts are those of the shipped set (`panal puzzles list
    --tables` writes its tables), and so are the README's by kind and game type."""
    guide = (Path(__file__).parents[2] / "docs" / "puzzles-and-lessons.md").read_text()
    assert f"ships {len(PUZZLES):,} Hive puzzles" in guide
    assert tables(PUZZLES) in guide
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    kinds_and_game_types = "\n\n".join(tables(PUZZLES).split("\n\n")[:2])
    assert f"{len(PUZZLES):,} puzzles" in readme and kinds_and_game_types in readme
