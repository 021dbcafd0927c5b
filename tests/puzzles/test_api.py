"""panal.puzzles: loading, filtering, playing a puzzle move by move, hints and bad input."""

from __future__ import annotations

import doctest
import gzip
import importlib
import json
from pathlib import Path

import pytest

from panal.hive import GameState
from panal.puzzles import Attempt, PuzzleError, load_puzzles, select, verify
from panal.puzzles.rating import initial_rating
from panal.puzzles.solver import Solver

PUZZLES = load_puzzles()
TWO = select(PUZZLES, kind="surround", moves=2)
DEFENCE = select(PUZZLES, kind="defence")


@pytest.mark.parametrize(
    "module",
    ["panal.puzzles", "panal.puzzles.symmetry", "panal.puzzles.solver", "panal.puzzles.lessons"],
)
def test_docstring_examples(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0


def test_filters() -> None:
    assert all(p.kind == "surround" and p.moves == 2 for p in TWO)
    themed = select(PUZZLES, theme="beetle_drop")
    assert themed and all("beetle_drop" in p.themes for p in themed)
    rated = select(PUZZLES, min_rating=1200, max_rating=1300)
    assert all(1200 <= p.rating.rating <= 1300 for p in rated)
    assert select(PUZZLES, game_type="Base+MLP")
    with pytest.raises(ValueError, match="unknown theme"):
        select(PUZZLES, theme="nonsense")
    with pytest.raises(ValueError, match="unknown kind"):
        select(PUZZLES, kind="mate")


def test_the_main_line_solves_a_surround_in_two() -> None:
    puzzle = TWO[0]
    assert verify(puzzle, [puzzle.solution[0], puzzle.solution[2]])
    attempt = Attempt(puzzle)
    step = attempt.play(puzzle.solution[0])
    assert step.correct and step.reply == puzzle.solution[1] and not step.solved
    step = attempt.play(puzzle.solution[2])
    assert step.correct and step.solved
    assert attempt.game.state is (
        GameState.WHITE_WINS if puzzle.side == "white" else GameState.BLACK_WINS
    )


def test_every_stored_defence_is_answered() -> None:
    """The opponent may choose any reply; the stored answer to each one wins."""
    puzzle = TWO[0]
    for reply, answer in puzzle.replies.items():
        attempt = Attempt(puzzle)
        step = attempt.play(puzzle.solution[0], reply=reply)
        assert step.correct and step.reply == reply
        assert attempt.play(answer).solved


def test_a_wrong_first_move_fails() -> None:
    puzzle = TWO[0]
    game = puzzle.game()
    wrong = next(
        game.move_string(c)
        for c in game.legal_move_codes()
        if game.move_string(c) != puzzle.solution[0]
    )
    attempt = Attempt(puzzle)
    step = attempt.play(wrong)
    assert not step.correct and step.reply is None
    with pytest.raises(PuzzleError, match="over"):
        attempt.play(puzzle.solution[0])
    assert not verify(puzzle, [wrong])


def test_a_defence() -> None:
    puzzle = DEFENCE[0]
    assert verify(puzzle, list(puzzle.solution))
    attempt = Attempt(puzzle)
    assert attempt.hint() == puzzle.solution[0].split()[0]
    assert attempt.play(puzzle.solution[0]).solved


def test_bad_moves_are_refused_and_change_nothing() -> None:
    attempt = Attempt(TWO[0])
    before = attempt.game.game_string()
    with pytest.raises(PuzzleError):
        attempt.play("wQ nonsense")
    with pytest.raises(PuzzleError):
        attempt.play("wQ")  # placed already, or not a legal move here
    assert attempt.game.game_string() == before and attempt.played == 0
    assert not verify(TWO[0], ["garbage"])


def test_a_file_with_a_bad_line_names_it(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl.gz"
    with gzip.open(path, "wt") as out:
        out.write(json.dumps(PUZZLES[0].to_json()) + "\n")
        out.write(json.dumps({"id": "x", "kind": "mate"}) + "\n")
    with pytest.raises(ValueError, match="line 2"):
        load_puzzles(path)


def test_ratings_grow_with_length_and_choices() -> None:
    assert initial_rating("surround", 1, 30).rating == 920
    assert initial_rating("surround", 3, 100).rating == 1900
    assert initial_rating("defence", 1, 30).rating > initial_rating("surround", 1, 30).rating
    puzzle = PUZZLES[0]
    assert puzzle.rating == initial_rating(puzzle.kind, puzzle.moves, puzzle.choices)


def test_off_the_line_the_solver_answers() -> None:
    """A surround in two played with the stored answer to another defence: the opponent's
    choice is the caller's, the answer is checked by the solver, the puzzle is solved."""
    puzzle = TWO[-1]
    others = [r for r in puzzle.replies if r != puzzle.solution[1]]
    if not others:
        pytest.skip("a single defence")
    attempt = Attempt(puzzle)
    attempt.play(puzzle.solution[0], reply=others[0])
    game = attempt.game
    winning = Solver(game).winning_moves(attempt.moves_left)
    assert attempt.hint() in {game.move_string(code).split()[0] for code in winning}
    assert attempt.play(puzzle.replies[others[0]]).solved


def test_a_surround_in_three_off_the_line() -> None:
    threes = select(PUZZLES, kind="surround", moves=3)
    if not threes:
        pytest.skip("no surround in three in this set")
    puzzle = threes[0]
    attempt = Attempt(puzzle)
    attempt.play(puzzle.solution[0])
    game = attempt.game
    answers = [game.move_string(c) for c in Solver(game).winning_moves(2)]
    other = [a for a in answers if a != puzzle.solution[2]]
    step = attempt.play(other[0] if other else answers[0])
    assert step.correct and step.reply is not None
    (last,) = Solver(attempt.game).winning_moves(1)[:1]
    assert attempt.play(attempt.game.move_string(last)).solved
