"""Import and export of game records for the web platform, through :mod:`panal.hive.records`.

Imports accept a UHP GameString, PGN (Mzinga, hivegame.com) or boardspace.net SGF; every move is
replayed by the rules engine before a game is created from it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from panal.hive import Game, IllegalMoveError, InvalidMoveError, Options, OptionsError, RecordError
from panal.server.runtime.jobs import JobInputError

__all__ = ["ImportedGame", "detect_format", "export_pgn", "parse_record"]

FORMATS = ("auto", "gamestring", "pgn", "sgf")


class RecordImportError(JobInputError):
    """A record that cannot be read or replayed; the message says where (a ValueError; in a
    job, its error is of kind ``bad_input``). A move that breaks a rule or does not parse also
    gives, in ``details``, the rule's key (or the parser's reason code) and where it is, so
    that a page says it in its own language (the library's typed errors, never their text)."""

    @classmethod
    def of_move(
        cls, exc: ValueError, *, ply: int | None = None, move: str | None = None
    ) -> RecordImportError:
        """The error for a record that failed with ``exc``: where a move broke a rule or did
        not parse (an :class:`IllegalMoveError` or :class:`InvalidMoveError`, raised or behind
        the :class:`RecordError` or GameString error that located it), its code and place."""
        where: dict[str, str] = {}
        if isinstance(exc, RecordError):
            ply, move = exc.ply, exc.move
            if exc.game is not None:
                where["game"] = str(exc.game)
        if ply is not None:
            where["ply"] = str(ply)
        if move is not None:
            where["move"] = move
        cause: BaseException | None = exc
        while cause is not None and not isinstance(cause, IllegalMoveError | InvalidMoveError):
            cause = cause.__cause__ or cause.__context__
        if isinstance(cause, IllegalMoveError):
            code = {"rule": cause.rule.key}
        elif isinstance(cause, InvalidMoveError):
            code = {"reason": cause.reason}
        else:
            return cls(str(exc))
        return cls(str(exc), {**code, "details": {**cause.details, **where}})


@dataclass
class ImportedGame:
    game_type: str
    moves: list[str]
    options: Options
    headers: dict[str, str] = field(default_factory=dict)
    result: str | None = None
    termination: str | None = None  # a Termination value, for endings off the board
    game: Game | None = None  # the replayed game (kept in the worker, never sent back)


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
    text: str, fmt: str = "auto", index: int = 1, rules: dict[str, bool | str] | None = None
) -> ImportedGame:
    """Read game number ``index`` (1-based) of a record and replay it with full rules.

    The rule options are the record's own (a PGN's option tags, see
    :data:`panal.hive.OPTION_SPECS`), with ``rules`` (``{name: value}``) set over them: the
    options a record was played with when it does not say them itself.
    """
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
        raise RecordImportError.of_move(exc) from None
    if not 1 <= index <= len(found):
        raise RecordImportError(f"there is no game {index}: the record holds {len(found)}")
    record = found[index - 1]
    try:
        options = record.options.with_values(**(rules or {}))
    except OptionsError as exc:
        raise RecordImportError(str(exc)) from None
    record.options = options
    try:
        game = record.replay()
    except ValueError as exc:
        raise RecordImportError.of_move(exc) from None
    result = record.result.value if record.result is not None else None
    return ImportedGame(
        str(game.game_type),
        game.move_strings(),
        options,
        dict(record.headers),
        result,
        record.termination.value if record.termination is not None else None,
        game,
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


# --- jobs: heavy record work, run in a worker process (see panal.server.runtime.jobs) -----------


def replay_with_history(
    game_type: str, options: Options, moves: list[str]
) -> tuple[Game, list[str]]:
    """Replay ``moves`` with every rule checked; the game and its history, one JSON text per
    move (see ``snapshot.history_entry``)."""
    game = Game(game_type, options=options)
    parts = []
    for ply, text in enumerate(moves, 1):
        try:
            move = game.parse_move(text, lenient=True)
        except ValueError as exc:
            error = RecordImportError.of_move(exc, ply=ply, move=text)
            raise RecordImportError(f"move {ply} ({text!r}): {exc}", error.details) from None
        parts.append(_entry_text(game, move, ply))
        game.push_code(move.code)
    return game, parts


def history_of(checked: Game) -> tuple[Game, list[str]]:
    """The history of a game already replayed with its rules checked (replayed again without
    the checks, which cost most of a replay)."""
    from panal.hive import Move

    game = Game(checked.game_type, options=checked.options)
    parts = []
    for ply, code in enumerate(checked.move_codes, 1):
        parts.append(_entry_text(game, Move.from_code(code), ply))
        game.push_code(code)
    return game, parts


def _entry_text(game: Game, move: Any, ply: int) -> str:
    import json

    from panal.server.hive_games.snapshot import history_entry

    return json.dumps(history_entry(game, move, ply), separators=(",", ":"), ensure_ascii=False)


def rebuild_job(payload: dict[str, Any]) -> dict[str, Any]:
    """A stored game rebuilt: its history text, its board fields and (to play on) the game."""
    options = Options.from_values(payload["options"])
    game, history = replay_with_history(payload["game_type"], options, payload["moves"])
    return _rebuilt(game, history, payload["playable"])


def _rebuilt(game: Game, history: list[str], playable: bool) -> dict[str, Any]:
    from panal.server.hive_games.snapshot import board_fields, settle_result

    settled: dict[str, Any] = {}
    settle_result(settled, game)
    return {
        "history": history,
        "board": board_fields(game),
        "game": game if playable else None,
        "settled": settled,
    }


def import_job(payload: dict[str, Any]) -> dict[str, Any]:
    """A record read and replayed (see ``parse_record``), with what ``rebuild_job`` gives."""
    imported = parse_record(payload["text"], payload["format"], payload["index"], payload["rules"])
    if len(imported.moves) > payload["max_plies"]:
        raise RecordImportError(
            f"the record has {len(imported.moves)} moves; at most {payload['max_plies']} "
            "can be imported" + (" to play on" if payload["playable"] else "")
        )
    assert imported.game is not None
    game, history = history_of(imported.game)
    imported.game = None
    rebuilt = _rebuilt(game, history, payload["playable"])
    return {"imported": imported, **rebuilt}


def export_job(payload: dict[str, Any]) -> str:
    """A stored game as a GameString or PGN."""
    options = Options.from_values(payload["options"])
    game = Game(payload["game_type"], options=options)
    for text in payload["moves"]:
        game.push(game.parse_move(text, lenient=True))
    if payload["format"] == "gamestring":
        return game.game_string() + "\n"
    return export_pgn(game, payload["headers"])
