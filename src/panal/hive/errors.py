"""Every error the Hive library raises, and the rules an illegal move can break.

All are ``ValueError`` subclasses: bad input is a value problem, and a caller that only wants to
refuse it can catch ``ValueError``. After any of them the game (or record) is unchanged.

* :class:`InvalidMoveError`: a MoveString that does not parse (``"wQ -"``);
* :class:`IllegalMoveError`: a well-formed move the rules forbid; ``rule`` says which;
* :class:`GameStringError`: a UHP GameString that does not parse, replay or agree with itself;
* :class:`GameTypeError`: a GameTypeString that does not parse (``"Base+X"``);
* :class:`PositionError`: a board that no game can reach (set-up and board text);
* :class:`RecordError`: a game record (SGF, PGN, GameString lines) that cannot be read or
  replayed; it names the file, line, game and ply.
"""

from __future__ import annotations

from enum import Enum

__all__ = [
    "GameStringError",
    "GameTypeError",
    "IllegalMoveError",
    "InvalidMoveError",
    "PositionError",
    "RecordError",
    "Rule",
]


class Rule(Enum):
    """A rule a move can break: ``key`` for translations, ``value`` the English message (a
    format string over the error's ``details``)."""

    GAME_OVER = "the game is over"
    PASS_WITH_MOVES = "you can't pass while you have a legal move"
    NOT_IN_GAME = "{piece} is not in this game ({game_type})"
    NOT_YOUR_TURN = "it is {turn}'s turn"
    ORDER = "pieces of one kind are placed in number order: place {expected} first"
    QUEEN_FIRST_TURN = "the queen may not be placed on a player's first turn (tournament opening)"
    QUEEN_BY_FOURTH = "the queen must be placed by the fourth turn"
    FIRST_AT_CENTRE = "the first piece of the game is placed without a reference"
    SECOND_TOUCHES_FIRST = "the second piece of the game must touch the first"
    PLACE_ON_EMPTY = "a new piece must be placed on an empty cell, never on top of the hive"
    PLACE_TOUCH_OWN = "a new piece must touch one of your own pieces"
    PLACE_NOT_ENEMY = "a new piece may not touch your opponent's pieces"
    NO_CARRY = "only a Dragonfly standing on a piece can carry it"
    CARRY_NEXT_TURN = (
        "under this game's rules a Dragonfly carries the piece beneath it only on the turn right "
        "after it landed there"
    )
    QUEEN_BEFORE_MOVING = "you can't move a piece until your queen is placed"
    COVERED = "{piece} is under another piece and can't move"
    FROZEN = "{piece} was moved by the pillbug last turn and can't move this turn"
    SAME_CELL = "a move must end on a different cell"
    OCCUPIED = "a piece already stands there; to climb onto it, name it: '{suggestion}'"
    SPLITS_HIVE = "that move would split the hive"
    OPPONENT_PIECE = "you can't move your opponent's pieces, except with a pillbug's power"
    THROW_LAST_MOVED = "a pillbug can't move the piece that was moved last turn"
    THROW_STACK = "a pillbug can't move a piece that is part of a stack"
    THROW_GATE = "freedom to move: the piece can't pass over the pillbug through that gap"
    GATE = "freedom to move: the gap is too narrow to pass through"
    LOSES_CONTACT = "the piece would lose contact with the hive while moving"
    ONE_STEP = "{bug} moves exactly one cell"
    NO_CLIMB = "{bug} can't climb onto the hive"
    GRASSHOPPER = (
        "a grasshopper jumps in a straight line over one or more pieces to the first empty cell"
    )
    SPIDER = "a spider moves exactly three cells around the hive without going back"
    ANT = "the ant can't slide around the hive to that cell"
    LADYBUG = "a ladybug moves exactly two cells on top of the hive, then one down"
    MOSQUITO_ALONE = "a mosquito touching only mosquitoes can't move"
    MOSQUITO = "no bug the mosquito touches can reach that cell"
    DRAGONFLY = "a dragonfly jumps like a grasshopper, then steps one cell to the side of its jump"
    NOT_CARRYING = "{piece} is not standing on {carried}, so it cannot carry it"
    NO_REFERENCE = "{move!r} gives no reference piece; only the first piece of the game has none"
    REFERENCE_OFF_BOARD = "the reference piece {reference} is not on the board"
    ILLEGAL = "that move is not legal here"

    @property
    def key(self) -> str:
        """A stable identifier for translations (``queen_by_fourth``)."""
        return self.name.lower()

    def message(self, details: dict[str, str] | None = None) -> str:
        """The English message with ``details`` filled in."""
        return self.value.format(**(details or {}))


class InvalidMoveError(ValueError):
    """A MoveString that does not parse.

    ``reason`` is a stable code for user interfaces to show the problem in another language:
    ``"syntax"`` (not "piece reference" or "pass"), ``"unknown_piece"`` (``details["name"]``: the
    word that names no piece) or ``"bad_reference"`` (``details["reference"]``: the reference
    that is not a piece with an optional direction mark).
    """

    def __init__(
        self, message: str, reason: str = "syntax", details: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.details = dict(details or {})


class IllegalMoveError(ValueError):
    """A well-formed move that the rules forbid; the message names the rule.

    ``rule`` and ``details`` let a user interface say the reason in another language
    (``rule.key`` and the values the message was filled with).
    """

    def __init__(
        self, message: str, rule: Rule = Rule.ILLEGAL, details: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.rule = rule
        self.details = dict(details or {})

    @classmethod
    def breaking(cls, rule: Rule, details: dict[str, str] | None = None) -> IllegalMoveError:
        """The error for a move that breaks ``rule``, with its English message."""
        return cls(rule.message(details), rule, details)


class GameStringError(ValueError):
    """A GameString that does not parse, does not replay, or contradicts itself (a turn or
    state field that the moves do not give)."""


class GameTypeError(ValueError):
    """A GameTypeString that does not parse."""


class PositionError(ValueError):
    """A board no game of Hive can reach: a split hive, a piece twice, an ant on top of the
    hive, more pieces than turns… The message says which invariant fails.

    ``code`` names the invariant for a user interface to say it in another language, and
    ``details`` the values the message was filled with (piece names, ``White``/``Black``,
    numbers as text): ``not_in_game`` (piece, game_type), ``twice`` (piece), ``number_order``
    (piece), ``cannot_climb`` (piece), ``split``, ``too_many`` (color, pieces, turns),
    ``no_piece`` (color), ``no_queen`` (color, turns); ``position`` for any other.
    """

    def __init__(
        self, message: str, code: str = "position", details: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.details = details or {}


class RecordError(ValueError):
    """A game record that cannot be read, or whose moves do not replay.

    ``source``, ``line``, ``game`` (1-based index in a file of several games), ``ply`` (1-based)
    and ``move`` locate the problem; ``reason`` is the message without the location, and
    :meth:`location` the location without the message.
    """

    def __init__(
        self,
        reason: str,
        *,
        source: str = "<string>",
        line: int | None = None,
        game: int | None = None,
        ply: int | None = None,
        move: str | None = None,
    ) -> None:
        self.reason = reason
        self.source = source
        self.line = line
        self.game = game
        self.ply = ply
        self.move = move
        super().__init__(f"{self.location()}: {reason}")

    def location(self, game: int | None = None) -> str:
        """``file:line: game N, ply P (move)``; ``game`` stands in when the error has none."""
        where = self.source if self.line is None else f"{self.source}:{self.line}"
        parts = []
        index = self.game if self.game is not None else game
        if index is not None:
            parts.append(f"game {index}")
        if self.ply is not None:
            parts.append(f"ply {self.ply}" + (f" ({self.move})" if self.move is not None else ""))
        return f"{where}: {', '.join(parts)}" if parts else where
