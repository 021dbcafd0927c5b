"""A position as an SVG string: nothing to install, and notebooks show games as pictures.

    >>> from panal.hive import Game
    >>> from panal.hive.svg import board_svg
    >>> svg = board_svg(Game.from_game_string("Base;InProgress;Black[1];wQ"), language="es")
    >>> svg.startswith("<svg") and 'aria-label="Abeja Reina (Blancas)"' in svg
    True

Each top piece is drawn as its tile and figure in the chosen look (the same drawings as the web
UI: coloured bugs on ivory and black tiles, or the football look's crests, walls and balls on
Blanco and Grana tiles), labelled with its name in the chosen language for tooltips and screen
readers (``aria-label`` and ``<title>``); the picture's own label is translated too. A stack shows
its height; the last piece moved is outlined. The browser UI is richer; this one is for
notebooks, docs and reports.
"""

from __future__ import annotations

import math
from html import escape

from panal.hex import Hex
from panal.hive.drawings import TILE_COLORS, TILE_SIZE, figure
from panal.hive.names import board_title, piece_name
from panal.hive.pieces import BUG_COUNTS, BUG_OF, NUMBER_OF, Bug
from panal.hive.view import GameView

__all__ = ["board_svg"]

_LAST_MOVED = "#e07b00"
# The small piece number and stack height, per look and colour (white, black).
_NUMBER_INK = {"classic": ("#6d6455", "#c9c2b2"), "football": ("#7b1e34", "#f2c14e")}


def _corners(radius: float) -> str:
    """The six corners of a pointy-top hexagon centred on (0, 0)."""
    return " ".join(
        f"{radius * math.cos(math.radians(60 * i - 90)):.2f},"
        f"{radius * math.sin(math.radians(60 * i - 90)):.2f}"
        for i in range(6)
    )


_TILE = _corners(TILE_SIZE - 1.5)


def board_svg(
    game: GameView, *, size: float = 28.0, language: str = "en", look: str = "classic"
) -> str:
    """The board of ``game`` as a standalone SVG document (hexagons of circumradius ``size``).

    ``language`` is one of :data:`panal.hive.names.LANGUAGES` and ``look`` one of
    :data:`panal.hive.names.LOOKS`; anything else raises ``ValueError``.
    """
    title = escape(board_title(language))  # checks the language
    if look not in TILE_COLORS:
        raise ValueError(f"unknown look {look!r}; choose one of {', '.join(TILE_COLORS)}")
    board = game.board()
    cells: list[Hex] = list(board) or [Hex(0, 0)]
    centres = {cell: cell.to_pixel(size) for cell in cells}
    margin = size * 1.2
    min_x = min(x for x, _ in centres.values()) - margin
    min_y = min(y for _, y in centres.values()) - margin
    width = max(x for x, _ in centres.values()) - min_x + margin
    height = max(y for _, y in centres.values()) - min_y + margin
    scale = size / TILE_SIZE
    last = game.last_moved
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{min_x:.1f} {min_y:.1f} '
        f'{width:.1f} {height:.1f}" width="{width:.0f}" height="{height:.0f}" '
        f'font-family="sans-serif" role="img" aria-label="{title}"><title>{title}</title>'
    ]
    for cell in sorted(board, key=lambda h: (h.r, h.q)):
        stack = board[cell]
        top = stack[-1]
        color = top >> 4
        x, y = centres[cell]
        fill, stroke = TILE_COLORS[look][color]
        label = escape(piece_name(top, language, look))
        if top == last:
            stroke, stroke_width = _LAST_MOVED, 4.0
        else:
            stroke_width = 2.0
        ink = _NUMBER_INK[look][color]
        parts.append(
            f'<g class="piece" data-piece="{top.name}" role="img" aria-label="{label}" '
            f'transform="translate({x:.1f} {y:.1f}) scale({scale:.3f})"><title>{label}</title>'
            f'<polygon class="tile" points="{_TILE}" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="{stroke_width}"/>'
            f'<g class="figure" transform="scale(0.92)">'
            f"{figure(Bug(BUG_OF[top]).letter, color, look)}</g>"
        )
        if BUG_COUNTS[Bug(BUG_OF[top])] > 1:
            parts.append(
                f'<text class="number" x="14" y="21" font-size="11" fill="{ink}">'
                f"{NUMBER_OF[top]}</text>"
            )
        if len(stack) > 1:
            parts.append(
                f'<text class="height" x="13" y="-13" font-size="11" fill="{ink}">'
                f"×{len(stack)}</text>"
            )
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)
