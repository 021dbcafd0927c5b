"""A board as text: what ``print(game)`` shows, and what ``Game.from_board_text`` reads back.

The first line is the head of a GameString (game type, state, turn), with the piece moved last
when there is one; then one line per row of the hive, each piece written by its UHP name at its
place on the hexagonal grid (every cell is four characters wide and each row is shifted half a
cell to the right of the row above, as the cells ``(q, r)`` and ``(q, r + 1)`` are); then one
line per stack, top piece first::

    Base+MLP;InProgress;White[5];last bB1
      wQ  bB1 bQ
    wS1 wA1 bA1
    bB1 on wS2

Reading ignores dots (``.`` may mark an empty cell), trailing spaces and the picture's
indentation; the piece first in reading order lands on ``(0, 0)`` (a hive has no fixed origin,
and MoveStrings name cells relative to pieces).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from panal.hex import Hex
from panal.hive.errors import GameStringError, PositionError
from panal.hive.notation import format_head, parse_game_string_head
from panal.hive.outcome import GameState
from panal.hive.pieces import Color, GameType, Piece, piece_from_name
from panal.hive.view import GameView

__all__ = ["BoardText", "format_board", "parse_board_text"]

CELL_WIDTH = 4  # characters per cell; a piece name has at most three


class BoardText(NamedTuple):
    """A board read from text (see the module's documentation for the form)."""

    game_type: GameType
    state: GameState
    turn: Color
    turn_number: int
    last_moved: Piece | None
    board: dict[Hex, list[Piece]]


def format_board(game: GameView) -> str:
    """The text form of ``game``'s position."""
    head = format_head(game.game_type, game.state, game.turn, game.turn_number)
    if game.last_moved is not None:
        head += f";last {game.last_moved.name}"
    board = game.board()
    if not board:
        return head
    left = min(2 * cell.q + cell.r for cell in board)
    rows: dict[int, list[Hex]] = {}
    for cell in board:
        rows.setdefault(cell.r, []).append(cell)
    lines = [head]
    for r in range(min(rows), max(rows) + 1):
        line = ""
        for cell in sorted(rows.get(r, ()), key=lambda h: h.q):
            column = (2 * cell.q + cell.r - left) * CELL_WIDTH // 2
            line = line.ljust(column) + board[cell][-1].name
        lines.append(line)
    for cell in sorted(board, key=lambda h: (h.r, h.q)):
        stack = board[cell]
        if len(stack) > 1:
            lines.append(" on ".join(piece.name for piece in reversed(stack)))
    return "\n".join(lines)


_LAST = re.compile(r"^last\s+(\S+)$", re.IGNORECASE)
_TOKEN = re.compile(r"\S+")


def parse_board_text(text: str) -> BoardText:
    """Read the text form of a board; :class:`PositionError` names the line at fault.

    Only the form is checked here; ``Game.from_board_text`` checks that a game can reach it.
    """
    if not isinstance(text, str):
        raise PositionError(f"a board text is a str, not {type(text).__name__}")
    lines = [line.rstrip() for line in text.strip("\n").splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    if not lines or not lines[0].strip():
        raise PositionError("a board text starts with a head such as Base;InProgress;White[3]")
    head_fields = lines[0].strip().split(";")
    last_moved: Piece | None = None
    if len(head_fields) == 4:
        found = _LAST.match(head_fields[3].strip())
        piece = piece_from_name(found.group(1)) if found else None
        if piece is None:
            raise PositionError(
                f"line 1: expected 'last <piece>' after the turn, not {head_fields[3]!r}"
            )
        last_moved = piece
    elif len(head_fields) != 3:
        raise PositionError(
            "line 1: expected GameType;GameState;Turn, then optionally ';last <piece>'"
        )
    try:
        head = parse_game_string_head(";".join(head_fields[:3]))
    except GameStringError as exc:
        raise PositionError(f"line 1: {exc}") from None
    picture: list[tuple[int, int, str]] = []  # (line index, column, token)
    stacks: list[tuple[int, list[Piece]]] = []
    for index, line in enumerate(lines[1:], 1):
        if " on " in line:
            stacks.append((index, [_read_piece(name, index + 1) for name in line.split(" on ")]))
            continue
        if stacks and line.strip():
            raise PositionError(f"line {index + 1}: the picture comes before the stacks")
        for token in _TOKEN.finditer(line):
            picture.append((index, token.start(), token.group()))
    board = _place(picture)
    for index, stack in stacks:
        top = stack[0]
        cell = next((c for c, pieces in board.items() if pieces[-1] == top), None)
        if cell is None:
            raise PositionError(f"line {index + 1}: {top.name} is not drawn in the picture")
        if len(board[cell]) > 1:
            raise PositionError(f"line {index + 1}: the stack of {top.name} is given twice")
        board[cell] = list(reversed(stack))
    return BoardText(head.game_type, head.state, head.turn, head.turn_number, last_moved, board)


def _read_piece(name: str, line: int) -> Piece:
    piece = piece_from_name(name)
    if piece is None:
        raise PositionError(f"line {line}: unknown piece {name.strip()!r}")
    return piece


def _place(picture: list[tuple[int, int, str]]) -> dict[Hex, list[Piece]]:
    """Cells of the picture's tokens; the first piece in reading order at (0, 0)."""
    if not picture:
        return {}
    half = CELL_WIDTH // 2
    left = min(column for _, column, _ in picture)
    parity: int | None = None
    placed: dict[Hex, list[Piece]] = {}
    anchor: tuple[int, int] | None = None
    for row, column, token in picture:
        offset = column - left
        x = offset // half
        if offset % half or (parity is not None and (x - row) % 2 != parity):
            raise PositionError(
                f"line {row + 1}, column {column + 1}: {token!r} is not on the grid (cells are "
                f"{CELL_WIDTH} characters wide and each row is shifted by half a cell)"
            )
        parity = (x - row) % 2
        if token == ".":
            continue
        piece = _read_piece(token, row + 1)
        q, r = (x - row - parity) // 2, row
        if anchor is None:
            anchor = (q, r)
        placed[Hex(q - anchor[0], r - anchor[1])] = [piece]
    return placed
