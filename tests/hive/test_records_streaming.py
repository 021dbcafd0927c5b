"""Records read one game at a time, malformed records refused at their place, and endings as
:class:`Termination` values."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from panal.hive import Game, GameState, Outcome, Termination
from panal.hive.errors import RecordError
from panal.hive.records import (
    iter_game_strings,
    iter_pgn,
    iter_records,
    read_pgn,
    read_sgf,
    read_sgf_file,
    write_pgn,
)
from tests.hive.record_samples import CHUCKQ, OPENING, sgf
from tests.shared_data import shared

CORPUS_SGF = ("corpus", "mzinga-boardspace-sgf")


def test_a_stray_parenthesis_is_an_error_at_its_line_not_a_shorter_game(tmp_path: Path) -> None:
    path = shared(*CORPUS_SGF, "HV-blue1224-Dumbot-2016-04-02-1915.sgf")
    whole = read_sgf_file(path)
    assert len(whole.moves) >= 31
    lines = path.read_text(encoding="utf-8").splitlines()
    # Close the tree right after the fourth committed move.
    done = [i for i, line in enumerate(lines) if line.lower().endswith("done]")]
    lines.insert(done[3] + 1, ")")
    broken = tmp_path / path.name
    broken.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(RecordError, match="stray '\\)'") as caught:
        read_sgf_file(broken)
    assert caught.value.line == done[3] + 3  # the first line after the stray ')'
    assert "closed" in str(caught.value)
    with pytest.raises(RecordError):
        list(iter_records(broken))


def test_a_repeated_game_tree_is_read_once_and_another_game_is_refused() -> None:
    one = sgf(*OPENING)
    assert read_sgf(one + one).moves == read_sgf(one).moves
    other = one.replace("GN[HV-alice-bob-2020-03-29-2246]", "GN[HV-carol-dave-2021-01-01-0000]")
    with pytest.raises(RecordError, match="another game") as caught:
        read_sgf(one + other)
    assert caught.value.line == one.count("\n") + 1


class _CountingLines:
    """Lines of a text, counting how many were taken (to prove a reader streams)."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines(keepends=True)
        self.taken = 0

    def __iter__(self) -> Iterator[str]:
        for line in self.lines:
            self.taken += 1
            yield line


def test_pgn_is_read_one_game_at_a_time() -> None:
    game = '[GameType "Base"]\n[Result "InProgress"]\n\n1. wS1\n2. bS1 wS1-\n\n'
    lines = _CountingLines(game * 100)
    games = iter_pgn(lines, "many.pgn")
    first = next(games)
    assert first.moves == ["wS1", "bS1 wS1-"] and first.game == 1
    assert lines.taken < 20  # the other 99 games are still unread
    assert sum(1 for _ in games) == 99


def test_a_broken_game_raises_after_the_good_ones() -> None:
    text = '[GameType "Base"]\n\n1. wS1\n\n[GameType "Base+Q"]\n\n1. wS1\n'
    games = iter_pgn(io.StringIO(text), "two.pgn")
    assert next(games).moves == ["wS1"]
    with pytest.raises(RecordError, match="bad expansion") as caught:
        next(games)
    assert (caught.value.line, caught.value.game) == (5, 2)


def test_game_strings_are_read_one_line_at_a_time(tmp_path: Path) -> None:
    lines = _CountingLines(f"{CHUCKQ}\n" * 50)
    games = iter_game_strings(lines)
    assert next(games).result is GameState.WHITE_WINS
    assert lines.taken == 1
    path = tmp_path / "games.txt"
    path.write_text(f"# BGA\n{CHUCKQ}\n\n{CHUCKQ}\n", encoding="utf-8")
    found = list(iter_records(path))
    assert [r.move_lines[0] for r in found] == [2, 4]


def test_corpus_file_streams(tmp_path: Path) -> None:
    path = shared("corpus", "alpha-hive-bga-uhp", "bga_base_mlp_renumbered.uhp.txt")
    games = iter_records(path)
    first = next(games)
    assert first.replay().ply == len(first.moves)


def test_record_endings_are_terminations() -> None:
    # A recorded win on an unfinished board, by resignation (PGN written by panal).
    game = Game.from_game_string("Base;InProgress;White[2];wS1;bS1 wS1-")
    text = write_pgn(game, {"Result": "BlackWins", "Termination": Termination.RESIGNATION.value})
    (record,) = read_pgn(text)
    assert record.termination is Termination.RESIGNATION
    assert record.outcome == Outcome(Termination.RESIGNATION, game.turn.other)
    assert record.check_result(record.replay()) is None
    # Older files wrote "agreed_draw": it is read as an agreement.
    old = text.replace("BlackWins", "Draw").replace('"resignation"', '"agreed_draw"')
    assert read_pgn(old)[0].termination is Termination.AGREEMENT
    # A surround that the board does not show is a contradiction.
    claimed = text.replace('"resignation"', '"surrounded"')
    (record,) = read_pgn(claimed)
    assert "surrounded" in (record.check_result(record.replay()) or "")


def test_outcome_must_make_sense() -> None:
    with pytest.raises(ValueError, match="draw"):
        Outcome(Termination.AGREEMENT, Game().turn)
    with pytest.raises(ValueError, match="has a winner"):
        Outcome(Termination.RESIGNATION, None)
    assert {t.value for t in Termination if t.on_board} == {
        "surrounded",
        "both_surrounded",
        "repetition",
    }
