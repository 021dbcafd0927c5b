"""UHP GameStrings written by other programs: files of them, one game a line (the
BoardGameArena corpus, panal arena's ``games.txt``: ``iter_game_strings(handle)`` reads one game
at a time, ``read_game_strings`` a string), and the GameString a referee sends to an engine
(``replay_refereed``: the referee's word stands where panal's own rules would say otherwise).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from panal.hive.errors import GameStringError, RecordError
from panal.hive.game import Game
from panal.hive.notation import parse_game_string_head
from panal.hive.options import Options
from panal.hive.outcome import GameState, Termination
from panal.hive.records.base import BOARD_GAME_ARENA_OPTIONS, GameRecord, ending_off_the_board

__all__ = ["iter_game_strings", "overrule_repetition", "read_game_strings", "replay_refereed"]


def replay_refereed(text: str, options: Options | None = None) -> Game:
    """Replay a GameString sent by the program that referees the game (a UHP GUI, a match
    runner, hivegame.com's bot bridge), under ``options`` except where the referee has spoken.

    * The moves are replayed with full rules, read leniently (hivegame.com's climbs written with
      a direction); an illegal move, or any move after a queen is surrounded, raises
      :class:`GameStringError`, as does a GameString that does not parse.
    * Draws by repetition are the referee's: where panal's repetition rule ends the game but the
      referee played on (it sent more moves, or a state field other than ``Draw``), the game
      goes on without that rule (the returned game's ``options.repetition_draw`` is then False).
      Where the state field says ``Draw`` too, the game is over.
    * The turn field, and a state field that only mislabels the position (``NotStarted`` or
      ``InProgress`` for a finished game, a result the moves do not reach), are recomputed from
      the moves, as nokamute recomputes them.
    """
    head = parse_game_string_head(text)
    game = Game(head.game_type, options=options)
    for number, move in enumerate(head.moves, 1):
        game = overrule_repetition(game)
        try:
            game.push(move, lenient=True)
        except ValueError as exc:
            raise GameStringError(f"move {number} ({move!r}): {exc}") from exc
    if head.state is GameState.DRAW:
        return game
    return overrule_repetition(game)


def overrule_repetition(game: Game) -> Game:
    """``game`` itself, or, when panal's repetition rule has just ended it, the same moves
    replayed without that rule: the referee plays on, so the game goes on."""
    outcome = game.outcome()
    if outcome is None or outcome.termination is not Termination.REPETITION:
        return game
    replayed = Game(game.game_type, options=game.options.with_values(repetition_draw=False))
    for code in game.move_codes:
        replayed.push_code(code)
    return replayed


def iter_game_strings(lines: Iterable[str], source: str = "<string>") -> Iterator[GameRecord]:
    """Read UHP GameStrings one game a line (blank lines and ``#`` comments skipped) from a file
    object or any iterable of lines, one game at a time.

    Each line's head is read by the same parser as ``Game.from_game_string``
    (:func:`panal.hive.notation.parse_game_string_head`). The GameState field is the recorded
    result; the turn field is not read (the moves say whose turn it is: exports that leave it at
    ``White[1]`` read as their moves say). These files have no headers, so
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
