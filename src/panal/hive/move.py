"""Moves: small immutable values that know nothing of the board.

``Move(piece, to)`` puts or moves ``piece`` onto cell ``to``; ``Move(piece, to, carry=True)`` is a
Dragonfly carrying the piece beneath it; ``Move.null()`` is a pass. Turning a move into UHP
notation needs the position, so it is a game method (``game.move_string(move)``, and back
``game.parse_move("wA1 -wQ")``).

>>> from panal.hex import Hex
>>> from panal.hive import Move, Piece
>>> move = Move(Piece.wA1, Hex(1, -1))
>>> move, move.piece, move.to
(Move(wA1, (1, -1)), Piece.wA1, Hex(q=1, r=-1))
>>> Move.null(), bool(Move.null()), Move.null().is_pass
(Move.null(), False, True)
>>> Move.from_code(move.code) == move
True

A pass moves no piece, so its ``piece`` and ``to`` raise ``ValueError``; check ``is_pass`` (or the
move's truth value) first, as python-chess does with its null move.
"""

from __future__ import annotations

from typing import Any, Final

from panal.hex import Hex, as_pair, pack, unpack
from panal.hive.codes import CARRY_FLAG, PASS_CODE
from panal.hive.pieces import PIECE_BY_VALUE, Piece

__all__ = ["PASS", "Move"]


class Move:
    """A move: ``piece`` goes to cell ``to``; ``carry`` if a Dragonfly takes the piece beneath it.

    Moves compare and hash by value; :attr:`code` is the move as one int
    (:mod:`panal.hive.codes`), and :meth:`from_code` the way back.
    """

    __slots__ = ("_code",)

    def __init__(self, piece: Piece | str, to: Hex | tuple[int, int], carry: bool = False) -> None:
        if isinstance(piece, str):
            piece = Piece.from_name(piece)
        elif not isinstance(piece, Piece):
            raise TypeError(f"a move's piece is a Piece or its name, not {piece!r}")
        pair = as_pair(to)
        if pair is None:
            raise TypeError(f"a move's destination is a Hex or a (q, r) pair, not {to!r}")
        q, r = pair
        if not (abs(q) < _MAX_COORDINATE and abs(r) < _MAX_COORDINATE):
            raise ValueError(f"cell {(q, r)} is too far from the centre of any hive")
        self._code = pack((q, r)) << 6 | (CARRY_FLAG if carry else 0) | piece

    @classmethod
    def null(cls) -> Move:
        """The pass (a null move), played when no other move is legal."""
        return PASS

    @classmethod
    def from_code(cls, code: int) -> Move:
        """The move of a move code (:mod:`panal.hive.codes`)."""
        if code == PASS_CODE:
            return PASS
        move = object.__new__(cls)
        move._code = code
        return move

    @property
    def code(self) -> int:
        """The move as one int: ``destination << 6 | carry << 5 | piece``, or ``PASS_CODE``."""
        return self._code

    @property
    def is_pass(self) -> bool:
        return self._code == PASS_CODE

    @property
    def piece(self) -> Piece:
        """The piece placed or moved (a Dragonfly when it carries). ValueError for a pass."""
        if self._code == PASS_CODE:
            raise ValueError("a pass moves no piece")
        return PIECE_BY_VALUE[self._code & 31]

    @property
    def to(self) -> Hex:
        """The destination cell. ValueError for a pass."""
        if self._code == PASS_CODE:
            raise ValueError("a pass has no destination")
        return unpack(self._code >> 6)

    @property
    def carry(self) -> bool:
        """Whether a Dragonfly carries the piece beneath it (False for a pass)."""
        return self._code != PASS_CODE and bool(self._code & CARRY_FLAG)

    def __bool__(self) -> bool:
        return self._code != PASS_CODE

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Move):
            return self._code == other._code
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._code)

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return (Move.from_code, (self._code,))

    def __repr__(self) -> str:
        if self._code == PASS_CODE:
            return "Move.null()"
        carry = ", carry=True" if self.carry else ""
        return f"Move({self.piece.name}, {tuple(self.to)}{carry})"


_MAX_COORDINATE = 4096  # packed cells stay exact far beyond this; no hive spans more than 28 cells

PASS: Final[Move] = object.__new__(Move)
PASS._code = PASS_CODE
"""The pass: ``Move.null()``."""
