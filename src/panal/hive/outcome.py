r"""How a game stands and how it ended: :class:`GameState`, :class:`Termination`, :class:`Outcome`.

``Game.outcome()`` says why a finished position is finished (a surrounded queen, both queens,
a repetition); records, the web platform and its translations add the endings that happen off
the board (resignation, agreement, time, forfeit) with the same values, so every part of panal
names an ending the same way.

>>> from panal.hive import Game
>>> game = Game.from_game_string(
...     r"Base;WhiteWins;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \bQ;wG1 bQ\;"
...     r"bG2 bQ/;wA1 wQ\;bA1 bG2/;wA1 bG2\;bA1 \bG2;wQ \wS1;bA1 bG2/;wQ /bG1")
>>> game.outcome()
Outcome(termination=Termination.SURROUNDED, winner=Color.WHITE)
>>> game.outcome().result
GameState.WHITE_WINS
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from panal.hive.pieces import Color

__all__ = ["GameState", "Outcome", "Termination"]


class GameState(Enum):
    """UHP's GameState: whether a game has started, goes on, or how it ended."""

    NOT_STARTED = "NotStarted"
    IN_PROGRESS = "InProgress"
    DRAW = "Draw"
    WHITE_WINS = "WhiteWins"
    BLACK_WINS = "BlackWins"

    @property
    def is_over(self) -> bool:
        return self in (GameState.DRAW, GameState.WHITE_WINS, GameState.BLACK_WINS)

    @property
    def winner(self) -> Color | None:
        """The winning colour of a won state; None otherwise."""
        if self is GameState.WHITE_WINS:
            return Color.WHITE
        if self is GameState.BLACK_WINS:
            return Color.BLACK
        return None

    @classmethod
    def won_by(cls, winner: Color | None) -> GameState:
        """The finished state with this winner (``None``: a draw)."""
        if winner is None:
            return cls.DRAW
        return cls.WHITE_WINS if winner is Color.WHITE else cls.BLACK_WINS

    def __repr__(self) -> str:
        return f"GameState.{self.name}"

    def __str__(self) -> str:
        return self.value


class Termination(Enum):
    """Why a game ended. The value is a stable key (stored by the server, written in PGN
    ``[Termination]`` tags, translated by the web UI as ``reason.<value>``)."""

    SURROUNDED = "surrounded"
    """A queen is surrounded on all six sides: its owner loses."""
    BOTH_SURROUNDED = "both_surrounded"
    """One move surrounded both queens: a draw."""
    REPETITION = "repetition"
    """The same position occurred a third time (when the ``repetition_draw`` option is on)."""
    RESIGNATION = "resignation"
    AGREEMENT = "agreement"
    """A draw both players agreed to."""
    TIME = "time"
    """A player ran out of time."""
    FORFEIT = "forfeit"
    """A player left or was absent; also a record's win on an unfinished board with no
    resignation (boardspace's records do not say whether time or absence decided it)."""

    @property
    def on_board(self) -> bool:
        """Whether the position itself decides this ending (``Game.outcome()`` gives these)."""
        return self in _ON_BOARD

    @property
    def is_draw(self) -> bool:
        """Whether this ending is always a draw (``TIME`` and ``FORFEIT`` always have a
        winner, as do ``SURROUNDED`` and ``RESIGNATION``)."""
        return self in _DRAWS

    def __repr__(self) -> str:
        return f"Termination.{self.name}"

    def __str__(self) -> str:
        return self.value


_ON_BOARD = frozenset({Termination.SURROUNDED, Termination.BOTH_SURROUNDED, Termination.REPETITION})
_DRAWS = frozenset({Termination.BOTH_SURROUNDED, Termination.REPETITION, Termination.AGREEMENT})


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the :class:`Termination` and the winner (``None`` for a draw).

    The pair must make sense: draws (``BOTH_SURROUNDED``, ``REPETITION``, ``AGREEMENT``) have no
    winner and every other ending has one; ``ValueError`` otherwise.
    """

    termination: Termination
    winner: Color | None

    def __post_init__(self) -> None:
        if not isinstance(self.termination, Termination):
            raise TypeError(f"termination must be a Termination, not {self.termination!r}")
        if self.winner is not None and not isinstance(self.winner, Color):
            raise TypeError(f"winner must be a Color or None, not {self.winner!r}")
        if self.termination.is_draw and self.winner is not None:
            raise ValueError(f"a game ended by {self.termination.value} is a draw: no winner")
        if not self.termination.is_draw and self.winner is None:
            raise ValueError(f"a game ended by {self.termination.value} has a winner")

    @property
    def result(self) -> GameState:
        """``WHITE_WINS``, ``BLACK_WINS`` or ``DRAW``."""
        return GameState.won_by(self.winner)

    def __repr__(self) -> str:
        winner = None if self.winner is None else f"Color.{self.winner.name}"
        return f"Outcome(termination={self.termination!r}, winner={winner})"
