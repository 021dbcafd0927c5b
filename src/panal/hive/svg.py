"""A Hive position as an SVG string: nothing to install, and notebooks show games as pictures.

    >>> from panal.hive import Game
    >>> svg = board_svg(Game.from_game_string("Base;InProgress;Black[1];wQ"))
    >>> svg.startswith("<svg") and "wQ" in svg
    True

Each top piece is drawn as a hexagon in its colour with its UHP name (``wA1``) and the bug's name
in the chosen language and look as a tooltip; a stack shows its height; the last piece moved is
outlined. The browser UI has richer drawings; this one is for notebooks, docs and reports.
"""

from __future__ import annotations

import math
from html import escape

from panal.hex import Hex
from panal.hive.names import bug_name, color_name
from panal.hive.pieces import BUG_OF
from panal.hive.view import GameView

__all__ = ["board_svg"]

# Fill and text colours per look and colour (white, black).
_PALETTE = {
    "classic": (("#f7f3e8", "#222222"), ("#222222", "#f7f3e8")),
    "football": (("#7a1f2b", "#ffffff"), ("#ffffff", "#7a1f2b")),
}
_LAST_MOVED = "#e07b00"


def _corners(x: float, y: float, radius: float) -> str:
    """The six corners of a pointy-top hexagon centred on (x, y)."""
    return " ".join(
        f"{x + radius * math.cos(math.radians(60 * i - 30)):.1f},"
        f"{y + radius * math.sin(math.radians(60 * i - 30)):.1f}"
        for i in range(6)
    )


def board_svg(
    game: GameView, *, size: float = 28.0, language: str = "en", look: str = "classic"
) -> str:
    """The board of ``game`` as a standalone SVG document (hexagons of circumradius ``size``)."""
    board = game.board()
    if not board:
        board_cells: list[Hex] = [Hex(0, 0)]
    else:
        board_cells = list(board)
    centres = {cell: cell.to_pixel(size) for cell in board_cells}
    margin = size * 1.2
    min_x = min(x for x, _ in centres.values()) - margin
    min_y = min(y for _, y in centres.values()) - margin
    width = max(x for x, _ in centres.values()) - min_x + margin
    height = max(y for _, y in centres.values()) - min_y + margin
    last = game.last_moved
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{min_x:.1f} {min_y:.1f} '
        f'{width:.1f} {height:.1f}" width="{width:.0f}" height="{height:.0f}" '
        f'font-family="sans-serif" role="img" aria-label="Hive board">'
    ]
    for cell in sorted(board, key=lambda h: (h.r, h.q)):
        stack = board[cell]
        top = stack[-1]
        x, y = centres[cell]
        fill, ink = _PALETTE[look][top >> 4]
        stroke = _LAST_MOVED if top == last else "#888888"
        title = escape(
            f"{bug_name(BUG_OF[top], language, look)} ({color_name(top >> 4, language, look)})"
        )
        parts.append(
            f'<g class="piece" data-piece="{top.name}"><title>{title}</title>'
            f'<polygon points="{_corners(x, y, size * 0.95)}" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="{3 if top == last else 1.5}"/>'
            f'<text x="{x:.1f}" y="{y + size * 0.15:.1f}" text-anchor="middle" '
            f'font-size="{size * 0.5:.1f}" fill="{ink}">{top.name}</text>'
        )
        if len(stack) > 1:
            parts.append(
                f'<text x="{x + size * 0.45:.1f}" y="{y - size * 0.35:.1f}" text-anchor="middle" '
                f'font-size="{size * 0.35:.1f}" fill="{ink}">×{len(stack)}</text>'
            )
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)
