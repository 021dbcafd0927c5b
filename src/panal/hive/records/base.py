"""What every record format shares: :class:`GameRecord`, the rule options of the sites, result
words, endings off the board, and reading text from files."""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from panal.hive.errors import RecordError
from panal.hive.game import Game
from panal.hive.notation import parse_move
from panal.hive.options import Options
from panal.hive.outcome import GameState, Outcome, Termination
from panal.hive.pieces import GameType

__all__ = [
    "BOARDSPACE_OPTIONS",
    "BOARD_GAME_ARENA_OPTIONS",
    "RESULT_WORDS",
    "TERMINATIONS",
    "GameRecord",
    "ending_off_the_board",
    "read_lines",
    "read_text",
    "termination_from_word",
]


# boardspace.net allows the queen on the first turn. It does end games drawn by repetition, but
# by its own rule (the third arrival at a position by the same move), which fires later than
# ours: its records replay with our rule off, and a recorded draw says how the game ended.
BOARDSPACE_OPTIONS = Options(tournament_opening=False, repetition_draw=False)
# BoardGameArena allows the queen on the first turn and never ends a game by repetition.
BOARD_GAME_ARENA_OPTIONS = Options(tournament_opening=False, repetition_draw=False)

# How a game can end off the board: the Termination values a record can carry. A "forfeit" is a
# recorded win without a resignation on an unfinished position (the loser ran out of time or
# left; only boardspace's RE tells), a "repetition" boardspace's own draw by repetition.
TERMINATIONS = tuple(t for t in Termination if not t.on_board or t is Termination.REPETITION)
# Words older files (panal before Termination) wrote in [Termination] tags.
_LEGACY_TERMINATIONS = {"agreed_draw": Termination.AGREEMENT, "timeout": Termination.TIME}


def termination_from_word(word: str) -> Termination | None:
    """A ``[Termination]`` tag's value → :class:`Termination` (None for free text)."""
    key = word.strip().lower().replace(" ", "_")
    try:
        return Termination(key)
    except ValueError:
        return _LEGACY_TERMINATIONS.get(key)


@dataclass
class GameRecord:
    """One recorded game.

    ``moves`` are UHP MoveStrings as they are replayed (``lenient``: hivegame.com's climbs written
    with a direction are accepted). ``result`` is what the record says (``None`` when it says
    nothing usable); ``termination`` says how the game ended off the board (one of
    :data:`TERMINATIONS`) or is ``None``. ``options`` are the rules of the site that recorded it.
    ``game`` is the 1-based index of the game in its file and ``move_lines`` the source line of
    each move, when known, for error messages.
    """

    game_type: GameType
    moves: list[str] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    result: GameState | None = None
    termination: Termination | None = None
    source: str = "<string>"
    options: Options = field(default_factory=Options)
    game: int | None = None
    move_lines: list[int] = field(default_factory=list)

    def replay(self) -> Game:
        """Replay every move with full rules; raises :class:`RecordError` at the first bad one."""
        game = Game(self.game_type, options=self.options)
        for ply, text in enumerate(self.moves, 1):
            try:
                game.push(text, lenient=True)
            except ValueError as exc:
                raise self.error(str(exc), ply) from exc
        return game

    def error(self, reason: str, ply: int | None = None) -> RecordError:
        """A :class:`RecordError` located at ``ply`` (1-based) of this record."""
        line = None
        move = None
        if ply is not None and 0 < ply <= len(self.moves):
            move = self.moves[ply - 1]
            if ply <= len(self.move_lines):
                line = self.move_lines[ply - 1]
        return RecordError(
            reason, source=self.source, line=line, game=self.game, ply=ply, move=move
        )

    @property
    def outcome(self) -> Outcome | None:
        """The recorded ending off the board (result and termination), when the record says
        both; a game that ended on the board says it by ``replay().outcome()``."""
        if self.result is None or not self.result.is_over or self.termination is None:
            return None
        try:
            return Outcome(self.termination, self.result.winner)
        except ValueError:
            return None  # a contradiction check_result reports

    def check_result(self, game: Game) -> str | None:
        """How the recorded result disagrees with ``game`` (the replayed final position), or None.

        A finished position must show the recorded result. An unfinished one agrees with a
        recorded win or draw only when the record says how the game ended off the board
        (``termination``), and a record of an unfinished game needs an unfinished position.
        """
        recorded = self.result
        final = game.state
        if recorded is None:
            return None
        if final.is_over:
            if recorded is final:
                return None
            return f"the record says {recorded} but the final position is {final}"
        if not recorded.is_over:
            return None
        if self.termination is None:
            return (
                f"the record says {recorded} but the final position is still in progress "
                "and the record does not say how the game ended"
            )
        if self.termination in (Termination.SURROUNDED, Termination.BOTH_SURROUNDED):
            return (
                f"the record says {recorded} by {self.termination.value}, but the final position "
                "is still in progress"
            )
        if self.termination.is_draw != (recorded is GameState.DRAW):
            return f"the record says {recorded}, which a {self.termination.value} cannot give"
        return None


def _decode(data: bytes) -> str:
    """UTF-8 (with or without a byte-order mark), else Latin-1 as old boardspace files are."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_text(path: str | Path) -> str:
    """A whole record file as text (UTF-8, or Latin-1 as old boardspace files are)."""
    try:
        return _decode(Path(path).read_bytes())
    except OSError as exc:
        raise RecordError(f"cannot read the file: {exc.strerror or exc}", source=str(path)) from exc


def read_lines(path: str | Path) -> Iterator[str]:
    """A record file line by line, without reading it whole: each line UTF-8 (a byte-order mark
    first is skipped), else Latin-1. Unreadable files raise :class:`RecordError`."""
    try:
        handle = Path(path).open("rb")  # noqa: SIM115 (closed by the with below, in the generator)
    except OSError as exc:
        raise RecordError(f"cannot read the file: {exc.strerror or exc}", source=str(path)) from exc
    with handle:
        first = True
        for raw in handle:
            if first and raw.startswith(codecs.BOM_UTF8):
                raw = raw[len(codecs.BOM_UTF8) :]
            first = False
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError:
                yield raw.decode("latin-1")


# Result words: UHP's GameState names (Mzinga) and chess-style scores (hivegame.com).
# Result words: UHP's GameState names (Mzinga) and chess-style scores (hivegame.com).
RESULT_WORDS: dict[str, GameState | None] = {
    "whitewins": GameState.WHITE_WINS,
    "blackwins": GameState.BLACK_WINS,
    "draw": GameState.DRAW,
    "inprogress": GameState.IN_PROGRESS,
    "notstarted": GameState.NOT_STARTED,
    "1-0": GameState.WHITE_WINS,
    "0-1": GameState.BLACK_WINS,
    "1/2-1/2": GameState.DRAW,
    "*": None,
    "?": None,
    "": None,
    "error parsing result": None,  # hivegame.com's converter writes this when it gave up
}


def ending_off_the_board(record: GameRecord) -> Termination | None:
    """For records that cannot say how a game ended: a recorded draw on an unfinished position
    was agreed, a recorded win on an unfinished position was a resignation (or a loss on time)."""
    if record.result is None or not record.result.is_over or not _ends_unfinished(record):
        return None
    if record.result is GameState.DRAW:
        return Termination.AGREEMENT
    return Termination.RESIGNATION


def _ends_unfinished(record: GameRecord) -> bool:
    """Whether the moves, played without rule checks, leave the game unfinished.

    Only the geometry matters here; ``replay`` judges legality. Moves that do not even parse
    count as unfinished: the record will fail to replay anyway.
    """
    game = Game(record.game_type, options=record.options)
    try:
        for text in record.moves:
            game.push_code(parse_move(game, text, lenient=True))
    except (ValueError, KeyError, IndexError):
        # Unchecked moves can leave a nonsensical position; replay() reports the real error.
        return True
    return not game.state.is_over
