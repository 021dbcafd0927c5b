"""Files of UHP GameStrings, one game a line (the BoardGameArena corpus, panal arena's
``games.txt``): ``iter_game_strings(handle)`` reads one game at a time, ``read_game_strings``
a string.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from panal.hive.errors import GameStringError, RecordError
from panal.hive.notation import parse_game_string_head
from panal.hive.records.base import BOARD_GAME_ARENA_OPTIONS, GameRecord, ending_off_the_board

__all__ = ["iter_game_strings", "read_game_strings"]


def iter_game_strings(lines: Iterable[str], source: str = "<string>") -> Iterator[GameRecord]:
    """Read UHP GameStrings one game a line (blank lines and ``#`` comments skipped) from a file
    object or any iterable of lines, one game at a time.

    Each line's head is read by the same parser as ``Game.from_game_string``
    (:func:`panal.hive.notation.parse_game_string_head`). The GameState field is the recorded
    result; the turn field must agree with the number of moves. These files have no headers, so
    a recorded ``Draw`` on an unfinished final position is read as an agreed draw and a recorded
    win on an unfinished position as a resignation (``termination``); the moves are replayed
    without rule checks to see whether the position is finished. The options are
    BoardGameArena's: queen allowed on the first turn, no draw by repetition.
    """
    index = 0
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        index += 1
        try:
            head = parse_game_string_head(line)
        except GameStringError as exc:
            raise RecordError(str(exc), source=source, line=number, game=index) from None
        if head.ply != len(head.moves):
            raise RecordError(
                f"the turn field says {head.turn.title}[{head.turn_number}] but "
                f"{len(head.moves)} moves were played",
                source=source,
                line=number,
                game=index,
            )
        record = GameRecord(
            game_type=head.game_type,
            moves=head.moves,
            result=head.state,
            source=source,
            options=BOARD_GAME_ARENA_OPTIONS,
            game=index,
            move_lines=[number] * len(head.moves),
        )
        record.termination = ending_off_the_board(record)
        yield record


def read_game_strings(text: str, source: str = "<string>") -> list[GameRecord]:
    """Every game of a text of GameString lines (see :func:`iter_game_strings`)."""
    return list(iter_game_strings(text.splitlines(), source))
