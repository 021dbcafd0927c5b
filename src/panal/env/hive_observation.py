"""What a seat sees: board planes recentred on the hive, pieces in hand, and a text view.

**Planes** (``int8``, shape ``(4 * B + 3, S, S)``), seen from the observing side ("mine" and
"theirs", so one network plays both colours), with ``B`` the bug kinds in play in
``game_type.bugs`` order (Q S B G A, then M L P D as the game has them):

=================  ==========================================================================
planes             value at a cell
=================  ==========================================================================
``0 .. B-1``       1 where the top piece is mine and of bug ``b``
``B .. 2B-1``      1 where the top piece is theirs and of bug ``b``
``2B .. 3B-1``     how many of my pieces of bug ``b`` lie covered under the top
``3B .. 4B-1``     how many of theirs lie covered
``4B``             the height of the stack (0 for an empty cell)
``4B + 1``         1 on the piece that moved last (no one may move or throw it now)
``4B + 2``         all 1 when I play White (who moves first), all 0 when I play Black
=================  ==========================================================================

The grid is axial: plane ``[k, r - r0 + H, q - q0 + H]`` holds cell ``(q, r)``, where
``(q0, r0)`` is the middle of the hive's bounding box (rounded down) and ``H = S // 2``. For a
game type of ``N`` pieces ``H = N // 2`` and ``S = 2 * H + 1`` (23 for Base, 29 for Base+MLP, 31
for Base+MLPD): a hive of ``N`` pieces spans at most ``N - 1`` columns and rows, so every
position fits and none is cut, however stretched (OpenSpiel's fixed 17 x 17 grid instead ends
such games in a draw).

**Pieces in hand**: ``int8`` of shape ``(2, B)``, mine then theirs, per bug.

**Text view** (:func:`text_view`): the board as ``print(game)`` draws it, the side to move and,
optionally, the legal moves in UHP notation: what a language model reads.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from panal.hex import STRIDE
from panal.hive.codes import OFF_BOARD
from panal.hive.game import Game
from panal.hive.pieces import BUG_OF, Color, GameType

__all__ = ["HiveObserver", "text_view"]


class HiveObserver:
    """Builds the observation arrays of one game type (see the module's table)."""

    def __init__(self, game_type: GameType) -> None:
        self.game_type = game_type
        bugs = [int(b) for b in game_type.bugs]
        self.bugs = len(bugs)
        pieces = [int(p) for color in Color for p in game_type.pieces(color)]
        self.half = len(pieces) // 2
        self.side = 2 * self.half + 1
        self.planes = 4 * self.bugs + 3
        self.shape = (self.planes, self.side, self.side)
        self._bug_index = [-1] * 16
        for index, bug in enumerate(bugs):
            self._bug_index[bug] = index
        self._bug_of_piece = [self._bug_index[BUG_OF[p]] for p in range(32)]
        self._pieces = pieces
        self._owner_and_bug = [(p >> 4, self._bug_of_piece[p]) for p in pieces]

    def planes_of(self, game: Game, color: int) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The board planes of ``game`` seen by ``color`` (0 White, 1 Black)."""
        out = np.zeros(self.shape, dtype=np.int8)
        if color == 0:
            out[-1] = 1
        stacks = game.stacks
        if not stacks:
            return out
        # Packed cells are (q + BIAS) * STRIDE + (r + BIAS): biased q and r, fine for offsets.
        qs = [cell // STRIDE for cell in stacks]
        rs = [cell % STRIDE for cell in stacks]
        q0 = (min(qs) + max(qs)) // 2
        r0 = (min(rs) + max(rs)) // 2
        half = self.half
        bugs = self.bugs
        bug_of = self._bug_of_piece
        height = 4 * bugs
        last = game.last_moved
        last_cell = game.piece_cells[last] if last is not None else OFF_BOARD
        for stack, q, r, cell in zip(stacks.values(), qs, rs, stacks, strict=True):
            row = r - r0 + half
            col = q - q0 + half
            top = stack[-1]
            out[((top >> 4) != color) * bugs + bug_of[top], row, col] = 1
            out[height, row, col] = len(stack)
            for piece in stack[:-1]:
                out[2 * bugs + ((piece >> 4) != color) * bugs + bug_of[piece], row, col] += 1
            if cell == last_cell:
                out[height + 1, row, col] = 1
        return out

    def in_hand_of(self, game: Game, color: int) -> np.ndarray[Any, np.dtype[np.int8]]:
        """Pieces in hand per bug, ``color``'s row first."""
        out = np.zeros((2, self.bugs), dtype=np.int8)
        cells = game.piece_cells
        for piece, (owner, bug) in zip(self._pieces, self._owner_and_bug, strict=True):
            if cells[piece] == OFF_BOARD:
                out[int(owner != color), bug] += 1
        return out


def text_view(game: Game, *, legal_moves: bool = True) -> str:
    """A seat's observation as text: the board panal prints, who moves, the legal moves.

    >>> from panal.hive import Game
    >>> game = Game("Base", tournament_opening=True)
    >>> _ = game.push("wS1"); _ = game.push("bS1 wS1-")
    >>> print(text_view(game, legal_moves=False))
    Base;InProgress;White[2];last bS1
    wS1 bS1
    <BLANKLINE>
    You play White; it is your turn 2 (ply 3).
    """
    lines = [str(game), ""]
    if game.is_over():
        lines.append(f"The game is over: {game.state}.")
        return "\n".join(lines)
    lines.append(
        f"You play {game.turn.title}; it is your turn {game.turn_number} (ply {game.ply + 1})."
    )
    if game.must_place_queen():
        lines.append("You must place your queen (wQ/bQ) this turn.")
    if legal_moves:
        moves = sorted(game.move_string(code) for code in game.legal_move_codes())
        lines.append(f"Legal moves ({len(moves)}): " + ", ".join(moves))
    return "\n".join(lines)
