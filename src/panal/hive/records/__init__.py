"""Game records: boardspace.net SGF, PGN (Mzinga, hivegame.com) and files of UHP GameStrings.

Every reader returns :class:`GameRecord` values: the game type, the moves as UHP MoveStrings, the
recorded headers, result and :class:`~panal.hive.outcome.Termination`, and the rule options of
the site that recorded the game. ``record.replay()`` replays the moves with full rules and
``record.check_result(game)`` compares the recorded result with the final position::

    for record in iter_records("games.pgn"):      # one game at a time
        game = record.replay()                   # RecordError names the file, line, ply and move
        problem = record.check_result(game)      # None when the result agrees

A file that cannot be read raises :class:`~panal.hive.errors.RecordError` (a ``ValueError``)
naming the file and the line, never an unrelated exception, and never a shorter game. One module
per format: :mod:`~panal.hive.records.sgf`, :mod:`~panal.hive.records.pgn`,
:mod:`~panal.hive.records.gamestrings`; what they share is in :mod:`~panal.hive.records.base`.
The formats are described in docs/rules.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from panal.hive.errors import RecordError
from panal.hive.records.base import (
    BOARD_GAME_ARENA_OPTIONS,
    BOARDSPACE_OPTIONS,
    TERMINATIONS,
    GameRecord,
    read_lines,
    read_text,
    termination_from_word,
)
from panal.hive.records.gamestrings import iter_game_strings, read_game_strings
from panal.hive.records.pgn import MOVE_MARKS, PlyNote, iter_pgn, read_pgn, write_pgn
from panal.hive.records.sgf import read_sgf, read_sgf_file

__all__ = [
    "BOARDSPACE_OPTIONS",
    "BOARD_GAME_ARENA_OPTIONS",
    "MOVE_MARKS",
    "TERMINATIONS",
    "GameRecord",
    "PlyNote",
    "RecordError",
    "iter_game_strings",
    "iter_pgn",
    "iter_records",
    "load_records",
    "read_game_strings",
    "read_pgn",
    "read_sgf",
    "read_sgf_file",
    "termination_from_word",
    "write_pgn",
]


def iter_records(path: str | Path) -> Iterator[GameRecord]:
    """Every game in a file, one at a time: SGF (``.sgf`` or a leading ``(``), PGN (``.pgn`` or
    a leading ``[``) or UHP GameString lines. PGN and GameString files are read line by line,
    never whole (an SGF file holds one game and is read whole)."""
    source = str(path)
    suffix = Path(path).suffix.lower()
    if suffix == ".sgf":
        yield read_sgf(read_text(path), source)
        return
    lines = read_lines(path)
    first = ""
    buffered: list[str] = []
    for line in lines:
        buffered.append(line)
        if line.strip():
            first = line.lstrip()
            break
    if suffix != ".pgn" and first.startswith("("):
        yield read_sgf(read_text(path), source)
        return
    rest = _chain(buffered, lines)
    if suffix == ".pgn" or first.startswith("["):
        yield from iter_pgn(rest, source)
    else:
        yield from iter_game_strings(rest, source)


def load_records(path: str | Path) -> list[GameRecord]:
    """Every game in a file, as a list (see :func:`iter_records`)."""
    return list(iter_records(path))


def _chain(first: list[str], rest: Iterator[str]) -> Iterator[str]:
    yield from first
    yield from rest
