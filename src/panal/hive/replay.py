"""``panal replay FILES…``: replay recorded games with full rules and report what disagrees.

Each file may be boardspace SGF, PGN or UHP GameString lines (see :mod:`panal.hive.records`),
read one game at a time. Every illegal move is printed with its file, line, game, ply and the
rule it breaks; every recorded result the final position contradicts is printed too; a summary
ends the report.
"""

from __future__ import annotations

from typing import TextIO

from panal.hive.errors import RecordError
from panal.hive.records import GameRecord, iter_records

__all__ = ["replay_files"]


def replay_files(paths: list[str], out: TextIO) -> int:
    """Replay every game of every file; 0 when all replay and agree with their results, else 1."""
    games = plies = illegal = mismatches = unreadable = 0
    for path in paths:
        records = iter_records(path)
        index = 0
        while True:
            try:
                record: GameRecord | None = next(records, None)
            except RecordError as exc:
                if exc.ply is None:
                    unreadable += 1
                    print(f"{exc.location()}: unreadable: {exc.reason}", file=out)
                else:  # an SGF import replays as it reads, so its illegal moves surface here
                    games += 1
                    plies += exc.ply - 1
                    illegal += 1
                    print(f"{exc.location(index + 1)}: illegal move: {exc.reason}", file=out)
                break
            if record is None:
                break
            index += 1
            games += 1
            try:
                game = record.replay()
            except RecordError as exc:
                plies += (exc.ply or 1) - 1
                illegal += 1
                print(f"{exc.location(index)}: illegal move: {exc.reason}", file=out)
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
