"""panal.ai.game_review on a real game: marks by the thresholds, accuracy, determinism."""

from __future__ import annotations

import doctest
import json
from functools import cache
from pathlib import Path

import pytest

from panal.ai import Review, review
from panal.ai.game_review import BLUNDER, INACCURACY, MARKS, MISTAKE, judgement, move_accuracy
from panal.hive import Color, Game, GameState
from panal.hive.records import BOARD_GAME_ARENA_OPTIONS, GameRecord, read_game_strings
from tests.shared_data import read_lines, shared

BGA = ("corpus", "alpha-hive-bga-uhp", "bga_base_mlp_renumbered.uhp.txt")
NODES = 1_000  # per ply: enough to see the surround coming, quick enough for every run


@cache
def corpus_game() -> Game:
    """The first BoardGameArena game of 30 plies or more that ends with a surround."""
    for line in read_lines(shared(*BGA)):
        fields = line.strip().rstrip(";").split(";")
        if fields[1] == "WhiteWins" and len(fields) - 3 >= 30:
            game = Game("Base+MLP", options=BOARD_GAME_ARENA_OPTIONS)
            for text in fields[3:]:
                game.push(text, lenient=True)
            if game.state is GameState.WHITE_WINS:
                return game
    raise AssertionError("no such game in the corpus")


@cache
def corpus_review() -> Review:
    return review(corpus_game(), nodes_per_ply=NODES)


def test_every_move_is_reviewed_in_order() -> None:
    game = corpus_game()
    result = corpus_review()
    assert [p.move for p in result.plies] == game.move_strings()
    assert [p.ply for p in result.plies] == list(range(1, game.ply + 1))
    assert [p.color for p in result.plies] == [Color(i & 1) for i in range(game.ply)]


def test_the_winning_move_is_the_best_and_is_seen_as_a_surround() -> None:
    last = corpus_review().plies[-1]
    assert last.color is Color.WHITE
    assert last.best.surround_in == 1
    assert last.best_move == last.move
    assert last.win_chance_before == last.win_chance_after == 1.0
    assert (last.loss, last.judgement, last.mark, last.accuracy) == (0.0, None, "", 100.0)
    assert corpus_review().white_win_chances[-1] == 1.0


def test_marks_follow_the_documented_thresholds() -> None:
    result = corpus_review()
    for ply in result.plies:
        assert 0.0 <= ply.loss <= 1.0
        assert ply.loss == pytest.approx(
            0.0
            if ply.move == ply.best_move
            else max(0.0, ply.win_chance_before - ply.win_chance_after)
        )
        assert ply.judgement == (None if ply.forced else judgement(ply.loss))
        assert ply.mark == (MARKS[ply.judgement] if ply.judgement else "")
        assert 0.0 <= ply.accuracy <= 100.0
    for color in Color:
        accuracy = result.accuracy(color)
        assert accuracy is not None and 0.0 <= accuracy <= 100.0
    for ply in result.turning_points:
        point = result.plies[ply - 1]
        assert point.win_chance_before >= 0.5 > point.win_chance_after
        assert point.judgement in ("mistake", "blunder")


@pytest.mark.parametrize(
    ("loss", "expected"),
    [
        (0.0, None),
        (INACCURACY - 0.001, None),
        (INACCURACY, "inaccuracy"),
        (MISTAKE, "mistake"),
        (BLUNDER, "blunder"),
        (0.9, "blunder"),
    ],
)
def test_judgement_thresholds(loss: float, expected: str | None) -> None:
    assert judgement(loss) == expected


def test_move_accuracy_is_lichess_fit() -> None:
    assert move_accuracy(0.6, 0.6) == pytest.approx(100.0, abs=0.01)
    assert move_accuracy(0.6, 0.7) == pytest.approx(100.0, abs=0.01)  # a gain loses nothing
    assert move_accuracy(0.6, 0.55) == pytest.approx(79.8, abs=0.1)
    assert move_accuracy(0.6, 0.5) == pytest.approx(63.6, abs=0.1)
    assert move_accuracy(1.0, 0.0) == 0.0


def test_the_review_is_the_same_for_a_game_a_record_and_moves() -> None:
    game = corpus_game()
    moves = game.move_strings()[:12]
    as_moves = review(moves, game_type="Base+MLP", nodes_per_ply=300)
    record = GameRecord(game_type=game.game_type, moves=moves)
    as_record = review(record, nodes_per_ply=300)
    played = Game("Base+MLP")
    for text in moves:
        played.push(text)
    as_game = review(played, nodes_per_ply=300)
    assert as_moves.to_json() == as_record.to_json() == as_game.to_json()


def test_the_same_budget_gives_the_same_review_and_plain_json() -> None:
    game = corpus_game()
    first = corpus_review().to_json()
    again = review(game, nodes_per_ply=NODES).to_json()
    assert first == again
    text = json.dumps(first)
    assert json.loads(text)["sides"]["white"]["accuracy"] == corpus_review().accuracy(Color.WHITE)
    assert len(first["white_win_chances"]) == game.ply + 1


def test_progress_counts_the_moves() -> None:
    seen: list[tuple[int, int]] = []
    review(
        ["wS1", "bS1 wS1-", "wQ -wS1"],
        game_type="Base",
        nodes_per_ply=200,
        on_progress=lambda d, t: seen.append((d, t)),
    )
    assert seen == [(1, 3), (2, 3), (3, 3)]


def test_a_set_up_position_is_reviewed_from_its_start() -> None:
    game = Game.from_board_text(
        """
        Base;InProgress;White[5]
          bS1 bQ  bA1
        wQ  wS1 wB1
        """
    )
    game.push("wA1 -wQ")
    game.push("bA2 bA1-")
    result = review(game, nodes_per_ply=300)
    assert [p.move for p in result.plies] == ["wA1 -wQ", "bA2 bA1-"]


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="move 2"):
        review(["wS1", "wS2 wS1-"], game_type="Base", nodes_per_ply=100)
    with pytest.raises(TypeError, match="not a str"):
        review("wS1", nodes_per_ply=100)


def test_a_game_of_game_strings_reads_and_reviews() -> None:
    records = read_game_strings("Base;InProgress;White[2];wS1;bS1 wS1-\n")
    assert len(review(records[0], nodes_per_ply=100).plies) == 2


def test_the_documentation_examples_run() -> None:
    root = Path(__file__).resolve().parents[2]
    result = doctest.testfile(str(root / "docs" / "analysis.md"), module_relative=False)
    assert result.attempted > 0 and result.failed == 0
