"""A Hive position as an RGB image, rasterised with numpy alone.

panal draws boards as SVG (:mod:`panal.hive.svg`), which needs a rasteriser to become pixels
(cairosvg and its C libraries). An RL environment's ``render("rgb_array")`` wants an array, so
this module paints one directly: every pixel finds its hexagon by cube rounding, pieces are
hexagons in their side's colour with a disc in their bug's colour and the bug's letter in a
5 x 7 pixel font, and a stack shows its height as a digit in the corner. Pointy-top hexagons,
east to the right, as panal's SVG and the text board draw them.

>>> from panal.hive import Game
>>> from panal.env.hive_render import board_image
>>> game = Game("Base")
>>> _ = game.push("wQ"); _ = game.push("bQ wQ-")
>>> image = board_image(game, cell_size=20)
>>> image.dtype, image.shape[2], image.shape[1] > image.shape[0]
(dtype('uint8'), 3, True)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from panal.hive.game import Game
from panal.hive.pieces import Bug

__all__ = ["board_image"]

_BACKGROUND = (214, 200, 160)  # a table's colour
_SIDE = ((246, 240, 226), (46, 44, 42))  # White's pieces, Black's pieces
_INK = ((30, 30, 30), (245, 245, 245))  # letters on White's and Black's pieces
_BUG_COLOURS = {
    Bug.QUEEN: (228, 178, 38),
    Bug.SPIDER: (140, 80, 40),
    Bug.BEETLE: (130, 90, 190),
    Bug.GRASSHOPPER: (70, 160, 70),
    Bug.ANT: (50, 120, 210),
    Bug.MOSQUITO: (150, 150, 150),
    Bug.LADYBUG: (210, 50, 50),
    Bug.PILLBUG: (40, 170, 170),
    Bug.DRAGONFLY: (235, 120, 40),
}
_GLYPHS = {
    "Q": ("01110", "10001", "10001", "10001", "10101", "10010", "01101"),
    "S": ("01111", "10000", "10000", "01110", "00001", "00001", "11110"),
    "B": ("11110", "10001", "10001", "11110", "10001", "10001", "11110"),
    "G": ("01110", "10001", "10000", "10111", "10001", "10001", "01111"),
    "A": ("01110", "10001", "10001", "11111", "10001", "10001", "10001"),
    "M": ("10001", "11011", "10101", "10101", "10001", "10001", "10001"),
    "L": ("10000", "10000", "10000", "10000", "10000", "10000", "11111"),
    "P": ("11110", "10001", "10001", "11110", "10000", "10000", "10000"),
    "D": ("11110", "10001", "10001", "10001", "10001", "10001", "11110"),
    "2": ("01110", "10001", "00001", "00010", "00100", "01000", "11111"),
    "3": ("11111", "00010", "00100", "00010", "00001", "10001", "01110"),
    "4": ("00010", "00110", "01010", "10010", "11111", "00010", "00010"),
    "5": ("11111", "10000", "11110", "00001", "00001", "10001", "01110"),
    "6": ("00110", "01000", "10000", "11110", "10001", "10001", "01110"),
    "7": ("11111", "00001", "00010", "00100", "01000", "01000", "01000"),
    "8": ("01110", "10001", "10001", "01110", "10001", "10001", "01110"),
    "9": ("01110", "10001", "10001", "01111", "00001", "00010", "01100"),
}
_GLYPH_MASKS = {
    key: np.array([[c == "1" for c in row] for row in rows], dtype=bool)
    for key, rows in _GLYPHS.items()
}
_SQRT3 = math.sqrt(3.0)


def board_image(game: Game, *, cell_size: int = 24) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """The position as an ``(height, width, 3)`` ``uint8`` array; ``cell_size`` is the hexagons'
    circumradius in pixels (at least 8). The image frames the hive with one cell of margin; an
    empty board is one empty cell's worth of table."""
    if not isinstance(cell_size, int) or cell_size < 8:
        raise ValueError(f"cell_size is an int of at least 8 pixels, not {cell_size!r}")
    board = game.board()
    cells = list(board) or []
    size = float(cell_size)
    centres = [(size * _SQRT3 * (q + r / 2), size * 1.5 * r) for q, r in cells] or [(0.0, 0.0)]
    xs = [x for x, _ in centres]
    ys = [y for _, y in centres]
    margin = size * 2
    left, top = min(xs) - margin, min(ys) - margin
    width = math.ceil(max(xs) - left + margin)
    height = math.ceil(max(ys) - top + margin)
    image = np.empty((height, width, 3), dtype=np.uint8)
    image[:] = _BACKGROUND
    if not cells:
        return image
    # Each pixel's hexagon: axial coordinates of its centre, cube-rounded.
    py, px = np.mgrid[0:height, 0:width].astype(np.float64)
    x = px + 0.5 + left
    y = py + 0.5 + top
    fq = (_SQRT3 / 3 * x - y / 3) / size
    fr = (2 / 3 * y) / size
    fs = -fq - fr
    rq, rr, rs = np.round(fq), np.round(fr), np.round(fs)
    dq, dr, ds = np.abs(rq - fq), np.abs(rr - fr), np.abs(rs - fs)
    fix_q = (dq > dr) & (dq > ds)
    fix_r = ~fix_q & (dr > ds)
    rq = np.where(fix_q, -rr - rs, rq)
    rr = np.where(fix_r, -rq - rs, rr)
    # How far each pixel lies from its hexagon's centre, in the hexagon's own norm (1 = edge).
    ex = np.abs(x - size * _SQRT3 * (rq + rr / 2)) / size
    ey = np.abs(y - size * 1.5 * rr) / size
    norm = np.maximum(ex * 2 / _SQRT3, ex / _SQRT3 + ey)
    radius = np.hypot(ex, ey)
    for (q, r), stack in board.items():
        inside = (rq == q) & (rr == r)
        top_piece = stack[-1]
        side = int(top_piece.color)
        image[inside & (norm < 0.9)] = _SIDE[side]
        image[inside & (radius < 0.55)] = _BUG_COLOURS[top_piece.bug]
        cx, cy = size * _SQRT3 * (q + r / 2) - left, size * 1.5 * r - top
        scale = max(1, cell_size // 10)
        _paint(image, top_piece.bug.letter, cx, cy, scale, _INK[0])
        if len(stack) > 1:
            _paint(image, str(len(stack)), cx + size * 0.55, cy - size * 0.5, scale, _INK[side])
    return image


def _paint(
    image: np.ndarray[Any, np.dtype[np.uint8]],
    glyph: str,
    cx: float,
    cy: float,
    scale: int,
    colour: tuple[int, int, int],
) -> None:
    """Paint ``glyph`` centred on pixel ``(cx, cy)``, each font pixel ``scale`` wide."""
    mask = np.kron(_GLYPH_MASKS[glyph], np.ones((scale, scale), dtype=bool))
    h, w = mask.shape
    y0, x0 = round(cy - h / 2), round(cx - w / 2)
    y1, x1 = max(y0, 0), max(x0, 0)
    y2, x2 = min(y0 + h, image.shape[0]), min(x0 + w, image.shape[1])
    if y2 <= y1 or x2 <= x1:
        return
    region = image[y1:y2, x1:x2]
    region[mask[y1 - y0 : y2 - y0, x1 - x0 : x2 - x0]] = colour
