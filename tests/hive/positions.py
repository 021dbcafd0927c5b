"""Build a Hive position directly from a drawing of the board, for rule tests.

``position("Base+D", {(0, 0): "wQ", (1, 0): "bA1 wD"}, to_move="w")`` puts wQ at (0, 0) and a
stack of bA1 under wD at (1, 0). Only for tests of movement geometry: the game has no history,
so its GameString is not meaningful.
"""

from __future__ import annotations

from panal.hex import Hex, pack
from panal.hive import Game
from panal.hive.game import SIDE_KEY, GameState, _zobrist
from panal.hive.pieces import BUG_OF, piece_from_name


def position(
    game_type: str, board: dict[tuple[int, int], str], to_move: str = "w", **options: bool
) -> Game:
    game = Game(game_type, **options)
    for (q, r), names in board.items():
        cell = pack(Hex(q, r))
        stack = []
        for name in names.split():
            piece = piece_from_name(name)
            assert piece is not None and BUG_OF[piece] in game._bugs, name
            assert game._cell[piece] == -1, f"{name} placed twice"
            game._cell[piece] = cell
            stack.append(int(piece))
        game._stacks[cell] = stack
    for piece, cell in enumerate(game._cell):
        if cell != -1:
            game._placed[piece & 16 | BUG_OF[piece]] += 1
    game._ply = 20 + (to_move == "b")  # well past the opening rules
    h = 0
    for cell, stack in game._stacks.items():
        for level, piece in enumerate(stack):
            h ^= _zobrist(piece, cell, level)
    game._hash = h ^ (SIDE_KEY if game._ply % 2 else 0)
    game._seen = {game._hash: 1}
    game._state = GameState.IN_PROGRESS
    return game


def destinations(game: Game, name: str, carry: bool | None = False) -> set[tuple[int, int]]:
    """Cells the named piece can move to (carries only, none, or both with carry=None)."""
    piece = piece_from_name(name)
    return {
        tuple(m.to)  # type: ignore[arg-type, misc]
        for m in game.legal_moves()
        if m.piece == piece and (carry is None or m.carry == carry)
    }
