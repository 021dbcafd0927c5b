"""An SVG picture of a board, drawn from its layout data.

``python -m panal.enjambre.svg docs/enjambre-board.svg`` regenerates the picture used in the docs.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

from panal.hex import Hex

from .board import Board, CellKind, default_board

__all__ = ["board_svg"]

FILL = {
    "orange": ("#f28c28", "#fbd9b4"),
    "blue": ("#2f6fd6", "#bcd2f5"),
    "green": ("#2e9e4f", "#bfe6c9"),
    "red": ("#d33a3a", "#f4c2c2"),
    "purple": ("#8a4fc9", "#dccbf0"),
    "yellow": ("#e0c020", "#f6eeb0"),
}
DARK_FILL = "#5b5b5b"
NEUTRAL_FILL = "#efe8d8"
CENTRE_FILL = "#c8a400"


def _corners(x: float, y: float, size: float) -> str:
    points = []
    for k in range(6):
        angle = math.radians(60 * k - 30)  # pointy-top hexagon
        points.append(f"{x + size * math.cos(angle):.2f},{y + size * math.sin(angle):.2f}")
    return " ".join(points)


def board_svg(board: Board | None = None, size: float = 24.0) -> str:
    """The board as an SVG document: kinds and colours of cells, labels, and a legend."""
    board = board or default_board()
    centres = {cell: cell.to_pixel(size) for cell in board.cells}
    xs = [x for x, _ in centres.values()]
    ys = [y for _, y in centres.values()]
    margin = size * 1.5
    legend_height = 8 * size
    width = max(xs) - min(xs) + 2 * margin
    height = max(ys) - min(ys) + 2 * margin + legend_height
    dx, dy = margin - min(xs), margin - min(ys)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif">',
        f"<title>{_escape(board.name)}</title>",
        '<rect width="100%" height="100%" fill="white"/>',
    ]
    for cell in board.cells:
        x, y = centres[cell]
        x, y = x + dx, y + dy
        fill, text_fill = _cell_style(board, cell)
        out.append(
            f'<polygon points="{_corners(x, y, size * 0.97)}" fill="{fill}" '
            'stroke="#333" stroke-width="1"/>'
        )
        label = "★" if board.kind[cell] is CellKind.CENTRE else board.labels[cell]
        out.append(
            f'<text x="{x:.2f}" y="{y + size * 0.18:.2f}" font-size="{size * 0.5:.1f}" '
            f'text-anchor="middle" fill="{text_fill}">{label}</text>'
        )
    out.extend(_legend(board, size, max(ys) + dy + size * 1.6, margin))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _cell_style(board: Board, cell: Hex) -> tuple[str, str]:
    kind = board.kind[cell]
    if kind is CellKind.CENTRE:
        return CENTRE_FILL, "#000"
    if kind is CellKind.DARK:
        return DARK_FILL, "#fff"
    if kind is CellKind.NEUTRAL:
        return NEUTRAL_FILL, "#333"
    colour = board.colours[board.sector[cell]]
    strong, light = FILL.get(colour, ("#888", "#ddd"))
    if kind is CellKind.COLMENA:
        return strong, "#fff"
    return light, "#333"


def _legend(board: Board, size: float, top: float, left: float) -> list[str]:
    lines = [
        "Dark cells: between two starting zones (no setup there). Light cells: starting zones.",
        "Strong colours around the centre: the colmena cells, one per colour. Beige: neutral.",
        "Cells next to the colmena (ring 2) are linked: one step crosses the colmena.",
        "Play passes clockwise: " + " → ".join(board.colours) + " → " + board.colours[0] + ".",
        "Seats: 2 players "
        + _seat_text(board, 2)
        + "; 3 players "
        + _seat_text(board, 3)
        + "; 4 players "
        + _seat_text(board, 4)
        + "; 5 drawn at random; 6 all.",
        "Labels: row letter (top to bottom) and position in the row (left to right).",
    ]
    return [
        f'<text x="{left:.0f}" y="{top + i * size * 0.9:.1f}" font-size="{size * 0.48:.1f}" '
        f'fill="#222">{_escape(text)}</text>'
        for i, text in enumerate(lines)
    ]


def _seat_text(board: Board, players: int) -> str:
    sectors = board.seats[players]
    assert sectors is not None
    return "/".join(board.colours[s] for s in sectors)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m panal.enjambre.svg OUTPUT.svg", file=sys.stderr)
        return 2
    Path(args[0]).write_text(board_svg(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
