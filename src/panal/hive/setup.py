"""Setting up a position without replaying moves: the board read and every invariant checked.

``Game.from_board`` and ``Game.from_board_text`` use these functions; a board that no game of
Hive can reach raises :class:`~panal.hive.errors.PositionError` naming the broken invariant:

* each piece of the game type at most once, on a non-empty stack;
* pieces of one kind placed in number order (``wA2`` on the board means ``wA1`` is too);
* one hive: every occupied cell connected to every other;
* only a beetle, a mosquito or a dragonfly stands on top of another piece;
* no more pieces than turns played, at least one piece per player that has moved, and the queen
  on the board once its owner has played four turns;
* the last-moved piece on top of its stack, alone on its cell when it belongs to the side to
  move (only a pillbug's throw moves an opponent's piece, and a throw ends on the ground).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import cast

from panal.hex import NEIGHBOR_OFFSETS, Hex, as_pair, pack
from panal.hive.errors import PositionError
from panal.hive.pieces import (
    BUG_COUNTS,
    BUG_OF,
    FIRST_SLOT,
    NUMBER_OF,
    Bug,
    Color,
    GameType,
    Piece,
)

__all__ = ["BoardInput", "StackInput", "board_stacks", "check_position", "smallest_ply"]

StackInput = Sequence[Piece | str] | Piece | str
BoardInput = Mapping[Hex, StackInput] | Mapping[tuple[int, int], StackInput]
"""A board as users write it: cell → stack bottom first (or a single piece); names allowed."""

_MAX_COORDINATE = 4096
_CLIMBERS = frozenset({Bug.BEETLE, Bug.MOSQUITO, Bug.DRAGONFLY})


def _piece(value: object) -> Piece:
    if isinstance(value, Piece):
        return value
    if isinstance(value, str):
        try:
            return Piece.from_name(value)
        except ValueError as exc:
            raise PositionError(str(exc)) from None
    raise PositionError(f"a board holds Pieces or their names, not {value!r}")


def board_stacks(board: BoardInput, game_type: GameType) -> dict[int, list[int]]:
    """The board as packed cell → piece values, bottom first; each piece checked once."""
    if not isinstance(board, Mapping):
        raise PositionError(f"a board maps cells to stacks, not {type(board).__name__}")
    stacks: dict[int, list[int]] = {}
    seen: set[Piece] = set()
    # Read as objects: a wrong key or value gets the PositionError below, also in the compiled
    # build, which would otherwise check the loop's types itself.
    entries: Iterable[tuple[object, object]] = board.items()
    for where, content in entries:
        pair = as_pair(where)
        if pair is None:
            raise PositionError(f"a cell is a Hex or a (q, r) pair, not {where!r}")
        q, r = pair
        if abs(q) >= _MAX_COORDINATE or abs(r) >= _MAX_COORDINATE:
            raise PositionError(f"cell {(q, r)} is too far from the centre")
        items = (
            [content]
            if isinstance(content, (Piece, str))
            else list(cast(Iterable[object], content))
        )
        if not items:
            raise PositionError(f"cell {(q, r)} has an empty stack; leave empty cells out")
        stack = []
        for item in items:
            piece = _piece(item)
            if piece.bug not in game_type.bugs:
                raise PositionError(
                    f"{piece.name} is not in this game ({game_type})",
                    "not_in_game",
                    {"piece": piece.name, "game_type": str(game_type)},
                )
            if piece in seen:
                raise PositionError(
                    f"{piece.name} stands on the board twice", "twice", {"piece": piece.name}
                )
            seen.add(piece)
            stack.append(int(piece))
        cell = pack((q, r))
        if cell in stacks:
            raise PositionError(f"cell {(q, r)} is given twice")
        stacks[cell] = stack
    return stacks


def smallest_ply(stacks: Mapping[int, Sequence[int]], turn: Color) -> int:
    """The first ply with ``turn`` to move at which each side can have placed its pieces."""
    counts = _counts(stacks)
    ply = int(turn)
    # White has played (ply + 1) // 2 turns, black ply // 2.
    while (ply + 1) // 2 < counts[Color.WHITE] or ply // 2 < counts[Color.BLACK]:
        ply += 2
    return ply


def _counts(stacks: Mapping[int, Sequence[int]]) -> dict[Color, int]:
    counts = {Color.WHITE: 0, Color.BLACK: 0}
    for stack in stacks.values():
        for piece in stack:
            counts[Color(piece >> 4)] += 1
    return counts


def check_position(
    stacks: Mapping[int, Sequence[int]],
    game_type: GameType,
    ply: int,
    last_moved: Piece | None,
) -> None:
    """Raise :class:`PositionError` unless a game of ``game_type`` can reach this board with
    ``ply`` plies played and ``last_moved`` moved by the last of them."""
    if ply < 0:
        raise PositionError("the turn number starts at 1")
    on_board = {piece for stack in stacks.values() for piece in stack}
    for color in Color:
        for bug in game_type.bugs:
            numbers = sorted(NUMBER_OF[p] for p in on_board if p >> 4 == color and BUG_OF[p] == bug)
            if numbers != list(range(1, len(numbers) + 1)):
                first_missing = next(n for n in range(1, BUG_COUNTS[bug] + 1) if n not in numbers)
                name = Piece(color << 4 | FIRST_SLOT[bug] + first_missing - 1).name
                raise PositionError(
                    f"pieces of one kind are placed in number order, but {name} is in hand "
                    "while a higher number is on the board",
                    "number_order",
                    {"piece": name},
                )
    for stack in stacks.values():
        for piece in stack[1:]:
            if Bug(BUG_OF[piece]) not in _CLIMBERS:
                raise PositionError(
                    f"{Piece(piece).name} stands on top of another piece; only a beetle, a "
                    "mosquito or a dragonfly can climb",
                    "cannot_climb",
                    {"piece": Piece(piece).name},
                )
    if not _connected(stacks):
        raise PositionError("the hive is split: every piece must touch the others", "split")
    counts = _counts(stacks)
    turns = {Color.WHITE: (ply + 1) // 2, Color.BLACK: ply // 2}
    for color in Color:
        if counts[color] > turns[color]:
            raise PositionError(
                f"{color.title} has {counts[color]} pieces on the board after {turns[color]} turns",
                "too_many",
                {"color": color.title, "pieces": str(counts[color]), "turns": str(turns[color])},
            )
        if turns[color] and not counts[color]:
            raise PositionError(
                f"{color.title} has played but has no piece on the board",
                "no_piece",
                {"color": color.title},
            )
        if turns[color] >= 4 and (color << 4) not in on_board:
            raise PositionError(
                f"{color.title} has played {turns[color]} turns without placing the queen "
                "(it must be placed by the fourth turn)",
                "no_queen",
                {"color": color.title, "turns": str(turns[color])},
            )
    if last_moved is not None:
        if ply == 0:
            raise PositionError("no piece has moved before the first turn")
        cell = next((c for c, stack in stacks.items() if last_moved in stack), None)
        if cell is None:
            raise PositionError(f"the last-moved piece {last_moved.name} is not on the board")
        stack = stacks[cell]
        if stack[-1] != last_moved:
            raise PositionError(f"the last-moved piece {last_moved.name} is covered")
        side_to_move = ply & 1
        if last_moved >> 4 == side_to_move and len(stack) > 1:
            raise PositionError(
                f"{last_moved.name} belongs to the side to move, so a pillbug threw it, but a "
                "throw ends on the ground"
            )


def _connected(stacks: Mapping[int, Sequence[int]]) -> bool:
    if not stacks:
        return True
    start = next(iter(stacks))
    seen = {start}
    frontier = [start]
    while frontier:
        cell = frontier.pop()
        for step in NEIGHBOR_OFFSETS:
            neighbor = cell + step
            if neighbor in stacks and neighbor not in seen:
                seen.add(neighbor)
                frontier.append(neighbor)
    return len(seen) == len(stacks)
