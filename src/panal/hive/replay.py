"""``panal replay FILES…``: replay recorded games with full rules and report what disagrees.

Each file may be boardspace SGF, PGN or UHP GameString lines (see :mod:`panal.hive.records`).
Every illegal move is printed with its file, game, ply and the rule it breaks; every recorded
result the final position contradicts is printed too; a summary ends the report.
"""

from __future__ import annotations

from typing import TextIO

from panal.hive.records import RecordError, load_records

__all__ = ["replay_files"]


def replay_files(paths: list[str], out: TextIO) -> int:
    """Replay every game of every file; 0 when all replay and agree with their results, else 1."""
    games = plies = illegal = mismatches = unreadable = 0
    for path in paths:
        try:
            records = load_records(path)
        except RecordError as exc:
            if exc.ply is None:
                unreadable += 1
                print(f"{_where(exc)}: unreadable: {exc.reason}", file=out)
            else:  # an SGF import replays as it reads, so its illegal moves surface here
                games += 1
                plies += exc.ply - 1
                illegal += 1
                print(f"{_where(exc, 1)}: illegal move: {exc.reason}", file=out)
            continue
        for index, record in enumerate(records, 1):
            games += 1
            try:
                game = record.replay()
            except RecordError as exc:
                plies += (exc.ply or 1) - 1
                illegal += 1
                print(f"{_where(exc, index)}: illegal move: {exc.reason}", file=out)
                continue
            plies += game.ply
            mismatch = record.check_result(game)
            if mismatch is not None:
                mismatches += 1
                print(f"{record.source}: game {index}: result mismatch: {mismatch}", file=out)
    print(f"games: {games}", file=out)
    print(f"plies: {plies}", file=out)
    print(f"illegal moves: {illegal}", file=out)
    print(f"result mismatches: {mismatches}", file=out)
    if unreadable:
        print(f"unreadable files: {unreadable}", file=out)
    return 0 if illegal == mismatches == unreadable == 0 else 1


def _where(exc: RecordError, index: int | None = None) -> str:
    where = exc.source if exc.line is None else f"{exc.source}:{exc.line}"
    if index is not None:
        where += f": game {exc.game or index}"
    if exc.ply is not None:
        where += f", ply {exc.ply}" + (f" ({exc.move})" if exc.move is not None else "")
    return where
