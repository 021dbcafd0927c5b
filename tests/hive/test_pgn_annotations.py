"""Annotated PGN: the reader skips comments, variations, marks and NAGs; the writer writes them."""

from __future__ import annotations

import pytest

from panal.hive import Game
from panal.hive.records import MOVE_MARKS, PlyNote, RecordError, read_pgn, write_pgn
from tests.shared_data import shared

GAME = "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"


def _game() -> Game:
    return Game.from_game_string(GAME)


def test_notes_are_written_and_the_moves_read_back() -> None:
    game = _game()
    notes = [
        None,
        PlyNote("?!", "White 55%. Inaccuracy", ("bQ \\wS1", "wA1 -wQ")),
        PlyNote(comment="a brace { is fine"),
        PlyNote("??"),
    ]
    text = write_pgn(game, {"White": "a"}, notes)
    assert "2. bS1 wS1- ?! {White 55%. Inaccuracy} (2. bQ \\wS1 3. wA1 -wQ)" in text
    assert "4. bQ bS1- ??\n" in text
    (record,) = read_pgn(text)
    assert record.moves == game.move_strings()
    assert record.headers["White"] == "a"


MZINGA_STYLE = """[GameType "Base"]
[Result "InProgress"]

{A comment before the first move,
over two lines, with [brackets] and (parentheses)}
1. wS1 $1
2. bS1 wS1-?! ; the rest of the line is a comment
3. wQ -wS1 {the usual} (3. wQ wS1- {a side line}
   (3. wA1 wS1/) 4. bQ -bS1)
4. bQ bS1-!!

InProgress
"""


def test_foreign_annotations_are_skipped() -> None:
    (record,) = read_pgn(MZINGA_STYLE)
    assert record.moves == _game().move_strings()


@pytest.mark.parametrize(
    ("change", "message", "line"),
    [
        (("4. bQ bS1-!!", "4. bQ bS1- {open"), "the comment is never closed", 10),
        (("4. bQ bS1-!!", "4. bQ bS1- (4. bA1"), "the variation is never closed", 10),
        (("4. bQ bS1-!!", "4. bQ bS1- )"), "a '\\)' closes no variation", 10),
    ],
)
def test_unbalanced_annotations_are_errors(
    change: tuple[str, str], message: str, line: int
) -> None:
    with pytest.raises(RecordError, match=message) as caught:
        read_pgn(MZINGA_STYLE.replace(*change))
    assert caught.value.line == line


@pytest.mark.parametrize(
    ("note", "message"),
    [
        (PlyNote(mark="?!?"), "a move mark is one of"),
        (PlyNote(comment="a } closes"), "a comment is one line"),
        (PlyNote(comment="two\nlines"), "a comment is one line"),
        (PlyNote(variation=("wA1 (x)",)), "not a MoveString"),
    ],
)
def test_notes_that_would_not_read_back_are_refused(note: PlyNote, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        write_pgn(_game(), notes=[note])


def test_more_notes_than_plies_are_refused() -> None:
    with pytest.raises(ValueError, match="5 notes for a game of 4 plies"):
        write_pgn(_game(), notes=[None] * 5)


def test_every_mark_reads_back() -> None:
    game = _game()
    for mark in MOVE_MARKS:
        (record,) = read_pgn(write_pgn(game, notes=[PlyNote(mark)] * 4))
        assert record.moves == game.move_strings()


def test_the_corpus_pgn_files_still_read_the_same() -> None:
    """hivegame.com's and Mzinga's files have no annotations: the reader sees them as before."""
    folder = shared("corpus", "mzinga-boardspace-sgf")
    for path in sorted(folder.glob("*.pgn")):
        (record,) = read_pgn(path.read_text(encoding="utf-8"), str(path))
        assert record.replay().move_strings() == write_pgn_moves(record.replay())


def write_pgn_moves(game: Game) -> list[str]:
    (again,) = read_pgn(write_pgn(game))
    return again.moves
