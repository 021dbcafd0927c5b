"""Positions for rule tests, set up with ``Game.from_board`` (every invariant checked).

``position("Base+D", {(0, 0): "wQ", (1, 0): "bA1 wD"}, to_move="w")`` puts wQ at (0, 0) and a
stack of bA1 under wD at (1, 0), at turn 11: well past the opening rules.
"""

from __future__ import annotations

from panal.hive import Color, Game


def position(
    game_type: str, board: dict[tuple[int, int], str], to_move: str = "w", **options: object
) -> Game:
    return Game.from_board(
        {cell: names.split() for cell, names in board.items()},
        game_type=game_type,
        turn=Color.WHITE if to_move == "w" else Color.BLACK,
        turn_number=11,
        **options,
    )


def destinations(game: Game, name: str, carry: bool | None = False) -> set[tuple[int, int]]:
    """Cells the named piece can move to (carries only, none, or both with carry=None)."""
    return {
        (m.to.q, m.to.r)
        for m in game.legal_moves
        if m and m.piece.name == name and (carry is None or m.carry == carry)
    }
