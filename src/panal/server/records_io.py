"""Import and export of game records for the web platform, through :mod:`panal.hive.records`.

Imports accept a UHP GameString, PGN (Mzinga, hivegame.com) or boardspace.net SGF; every move is
replayed by the rules engine before a game is created from it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from panal.hive import Game, Options

__all__ = ["ImportedGame", "detect_format", "export_pgn", "parse_record"]

FORMATS = ("auto", "gamestring", "pgn", "sgf")


class RecordImportError(ValueError):
    """A record that cannot be read or replayed; the message says where."""


@dataclass
class ImportedGame:
    game_type: str
    moves: list[str]
    options: Options
    headers: dict[str, str] = field(default_factory=dict)
    result: str | None = None
    termination: str | None = None  # a Termination value, for endings off the board


def detect_format(text: str) -> str:
    head = text.lstrip()[:2000]
    if head.startswith("(") or re.search(r"\(\s*;", head):
        return "sgf"
    if head.startswith("[") or re.match(r"^\s*1\.", head):
        return "pgn"
    if re.match(r"^base", head, re.IGNORECASE):
        return "gamestring"
    raise RecordImportError(
        "this does not look like a GameString (Base…;InProgress;White[1];…), PGN ([Event …]) "
        "or SGF ((;GM[…]…)): choose the format"
    )


def parse_record(
    text: str, fmt: str = "auto", index: int = 1, tournament_opening: bool | None = None
) -> ImportedGame:
    """Read game number ``index`` (1-based) of a record and replay it with full rules."""
    from panal.hive import records

    if fmt == "auto":
        fmt = detect_format(text)
    try:
        if fmt == "gamestring":
            found = records.read_game_strings(text, source="GameString")
        elif fmt == "sgf":
            found = [records.read_sgf(text, source="SGF")]
        elif fmt == "pgn":
            found = list(records.read_pgn(text, source="PGN"))
        else:
            raise RecordImportError(f"unknown format {fmt!r}")
    except RecordImportError:
        raise
    except ValueError as exc:  # GameStringError, RecordError: both name the bad move
        raise RecordImportError(str(exc)) from None
    if not 1 <= index <= len(found):
        raise RecordImportError(f"there is no game {index}: the record holds {len(found)}")
    record = found[index - 1]
    options = record.options
    if tournament_opening is not None:
        options = replace(options, tournament_opening=tournament_opening)
        record.options = options
    try:
        game = record.replay()
    except ValueError as exc:
        raise RecordImportError(str(exc)) from None
    result = record.result.value if record.result is not None else None
    return ImportedGame(
        str(game.game_type),
        game.move_strings(),
        options,
        dict(record.headers),
        result,
        record.termination.value if record.termination is not None else None,
    )


def export_pgn(game: Game, headers: dict[str, str]) -> str:
    """PGN as Mzinga writes it; tags an imported record brought that PGN cannot hold are
    dropped rather than refused."""
    from panal.hive import records

    usable = {
        name: value
        for name, value in headers.items()
        if re.fullmatch(r"[A-Za-z0-9_]+", name) and "\n" not in value and "\r" not in value
    }
    try:
        return records.write_pgn(game, usable)
    except ValueError as exc:
        raise RecordImportError(f"cannot write this game as PGN: {exc}") from None
