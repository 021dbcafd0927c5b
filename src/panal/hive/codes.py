"""Move codes: a move as one plain ``int``, for hot paths (move generation, search, perft).

A code is ``destination_cell << 6 | carry << 5 | piece``: the packed destination cell (see
:mod:`panal.hex`), :data:`CARRY_FLAG` when a Dragonfly carries the piece beneath it, and the
piece's value (``colour << 4 | slot``, as :class:`~panal.hive.pieces.Piece`). A pass is
:data:`PASS_CODE`. Codes of two positions compare equal when they move the same piece to the same
cell, so search tables can key on them. :class:`~panal.hive.move.Move` is the readable value.

>>> from panal.hex import ORIGIN_CELL
>>> from panal.hive.codes import carries, destination_of, encode, piece_of
>>> from panal.hive.pieces import Piece
>>> code = encode(Piece.bA2, ORIGIN_CELL)
>>> piece_of(code) == Piece.bA2, destination_of(code) == ORIGIN_CELL, carries(code)
(True, True, False)
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "CARRY_FLAG",
    "NO_PIECE",
    "OFF_BOARD",
    "PASS_CODE",
    "carries",
    "destination_of",
    "encode",
    "piece_of",
]

PASS_CODE: Final = -1
"""The code of a pass."""
CARRY_FLAG: Final = 32
"""Set in a code when a Dragonfly carries the piece beneath it."""
OFF_BOARD: Final = -1
"""The cell of a piece in hand (in ``Game.piece_cells``)."""
NO_PIECE: Final = -1
"""No piece (no last-moved piece at the start of a game, or after a pass)."""


def encode(piece: int, cell: int, carry: bool = False) -> int:
    """The code of ``piece`` going to packed ``cell`` (``carry``: a Dragonfly's carry)."""
    return cell << 6 | (CARRY_FLAG if carry else 0) | piece


def piece_of(code: int) -> int:
    """The value of the piece a code moves (not for :data:`PASS_CODE`)."""
    return code & 31


def destination_of(code: int) -> int:
    """The packed destination cell of a code (not for :data:`PASS_CODE`)."""
    return code >> 6


def carries(code: int) -> bool:
    """Whether a code is a Dragonfly carrying the piece beneath it."""
    return code != PASS_CODE and bool(code & CARRY_FLAG)
