"""UHP notation: MoveStrings and the head of a GameString, parsed and printed.

A MoveString names the moving piece and where it goes relative to a reference piece::

    wS1          the first piece of the game
    bS1 wS1-     east of wS1      (X- E, X\\ SE, /X SW, -X W, \\X NW, X/ NE)
    wB1 bQ       on top of bQ
    pass

The reference is read where it stands *before* the move, so a piece may name itself
(``wQ -wQ``), as nokamute and hivegame.com write. Piece names are accepted in any case.

panal extension: a Dragonfly carrying the piece beneath it is written ``wD+bA1 wQ-`` (the
Dragonfly, ``+``, the carried piece); standard UHP tools never see Dragonfly games.

The functions here work on a game's read-only surface (:class:`~panal.hive.view.GameView`); the
game itself offers them as ``game.move_string(move)``, ``game.parse_move(text)``,
``game.game_string()`` and ``Game.from_game_string(text)``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from panal.hex import NEIGHBOR_OFFSETS, ORIGIN_CELL
from panal.hive.codes import CARRY_FLAG, OFF_BOARD, PASS_CODE
from panal.hive.errors import (
    GameStringError,
    GameTypeError,
    IllegalMoveError,
    InvalidMoveError,
    Rule,
)
from panal.hive.outcome import GameState
from panal.hive.pieces import PIECE_BY_VALUE, Color, GameType, piece_from_name
from panal.hive.view import GameView

__all__ = [
    "DIRECTION_OF_SYMBOLS",
    "DIRECTION_SYMBOLS",
    "GameStringHead",
    "format_move",
    "parse_game_string_head",
    "parse_move",
]

DIRECTION_SYMBOLS: tuple[tuple[str, str], ...] = (
    ("", "-"),
    ("", "\\"),
    ("/", ""),
    ("-", ""),
    ("\\", ""),
    ("", "/"),
)
"""Per direction (clockwise from east, as :data:`panal.hex.DIRECTIONS`): the (prefix, suffix)
written around a reference piece for a cell in that direction of it."""
DIRECTION_OF_SYMBOLS: dict[tuple[str, str], int] = {
    symbols: direction for direction, symbols in enumerate(DIRECTION_SYMBOLS)
}
"""(prefix, suffix) around a reference → direction index."""
_NAME_BY_VALUE: dict[int, str] = {value: piece.name for value, piece in PIECE_BY_VALUE.items()}
"""Piece value → its name (an enum member's ``name`` is slow to read, and a legal-move list
formats hundreds of MoveStrings)."""
_REFERENCE = re.compile(r"^([-/\\]?)([A-Za-z]{2}\d?)([-/\\]?)$")


def format_move(game: GameView, code: int) -> str:
    """The MoveString of move ``code`` in ``game``'s position (the move is not checked)."""
    if code == PASS_CODE:
        return "pass"
    stacks = game.stacks
    cells = game.piece_cells
    piece = code & 31
    dest = code >> 6
    name = _NAME_BY_VALUE[piece]
    origin = cells[piece]
    if code & CARRY_FLAG:
        name += "+" + _NAME_BY_VALUE[stacks[origin][-2]]
    if not stacks:
        return name
    if dest in stacks:
        return f"{name} {_NAME_BY_VALUE[stacks[dest][-1]]}"
    fallback = ""
    for direction, step in enumerate(NEIGHBOR_OFFSETS):
        neighbor = dest - step  # dest lies in `direction` from `neighbor`
        stack = stacks.get(neighbor)
        if not stack:
            continue
        prefix, suffix = DIRECTION_SYMBOLS[direction]
        text = f"{name} {prefix}{_NAME_BY_VALUE[stack[-1]]}{suffix}"
        if neighbor != origin:
            return text
        fallback = fallback or text
    if fallback:
        return fallback
    raise ValueError("destination touches no piece")


def parse_move(game: GameView, text: str, *, lenient: bool = False) -> int:
    """Parse a MoveString into a move code (legality is checked by the caller).

    A directional reference names a cell beside the reference piece; when that cell is occupied
    the move is refused, as Mzinga does, unless ``lenient`` reads it as a climb onto the cell, as
    hivegame.com writes (``wM /wL`` for a mosquito climbing onto the piece south-west of wL).
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"a MoveString must be text, not {type(text).__name__}")
    stacks = game.stacks
    cells = game.piece_cells
    tokens = text.split()
    if len(tokens) == 1 and tokens[0].lower() == "pass":
        return PASS_CODE
    if not 1 <= len(tokens) <= 2:
        raise InvalidMoveError(f"invalid MoveString {text!r}: expected 'piece reference' or 'pass'")
    piece_token, carried_token = tokens[0], None
    if "+" in piece_token:
        piece_token, _, carried_token = piece_token.partition("+")
    piece = piece_from_name(piece_token)
    if piece is None:
        raise InvalidMoveError(
            f"invalid MoveString {text!r}: unknown piece {piece_token!r}",
            "unknown_piece",
            {"name": piece_token},
        )
    flags = 0
    if carried_token is not None:
        carried = piece_from_name(carried_token)
        if carried is None:
            raise InvalidMoveError(
                f"invalid MoveString {text!r}: unknown piece {carried_token!r}",
                "unknown_piece",
                {"name": carried_token},
            )
        stack = stacks.get(cells[piece], ())
        if len(stack) < 2 or stack[-1] != piece or stack[-2] != carried:
            raise IllegalMoveError.breaking(
                Rule.NOT_CARRYING, {"piece": piece.name, "carried": carried.name}
            )
        flags = CARRY_FLAG
    if len(tokens) == 1:
        if stacks:
            raise IllegalMoveError.breaking(Rule.NO_REFERENCE, {"move": text})
        return ORIGIN_CELL << 6 | piece
    match = _REFERENCE.match(tokens[1])
    if match is None or (match.group(1) and match.group(3)):
        raise InvalidMoveError(
            f"invalid MoveString {text!r}: bad reference {tokens[1]!r}",
            "bad_reference",
            {"reference": tokens[1]},
        )
    prefix, reference_name, suffix = match.groups()
    reference = piece_from_name(reference_name)
    if reference is None:
        raise InvalidMoveError(
            f"invalid MoveString {text!r}: unknown piece {reference_name!r}",
            "unknown_piece",
            {"name": reference_name},
        )
    cell = cells[reference]
    if cell == OFF_BOARD:
        raise IllegalMoveError.breaking(Rule.REFERENCE_OFF_BOARD, {"reference": reference.name})
    if prefix or suffix:
        cell += NEIGHBOR_OFFSETS[DIRECTION_OF_SYMBOLS[(prefix, suffix)]]
        if cell in stacks and not lenient:
            if cells[piece] == OFF_BOARD:
                raise IllegalMoveError.breaking(Rule.PLACE_ON_EMPTY)
            top = PIECE_BY_VALUE[stacks[cell][-1]].name
            raise IllegalMoveError.breaking(Rule.OCCUPIED, {"suggestion": f"{tokens[0]} {top}"})
    return cell << 6 | flags | piece


# --- GameStrings ------------------------------------------------------------------------------


class GameStringHead(NamedTuple):
    """The fields of a GameString: ``GameType;GameState;Turn;move;move…``."""

    game_type: GameType
    state: GameState
    turn: Color
    turn_number: int
    moves: list[str]

    @property
    def ply(self) -> int:
        """The ply the turn field names (``White[1]`` is 0, ``Black[1]`` is 1…)."""
        return 2 * (self.turn_number - 1) + int(self.turn)


_TURN = re.compile(r"^(white|black)\[(\d{1,6})\]$", re.IGNORECASE)
_STATES = {state.value.lower(): state for state in GameState}


def parse_game_string_head(text: str) -> GameStringHead:
    """Split a GameString into its fields, each checked for form (not yet against the moves).

    Raises :class:`~panal.hive.errors.GameStringError`; ``GameTypeError``'s message is kept.
    """
    if not isinstance(text, str):
        raise GameStringError(f"a GameString must be text, not {type(text).__name__}")
    fields = [field.strip() for field in text.strip().split(";")]
    if len(fields) < 3:
        raise GameStringError(
            f"invalid GameString {text!r}: expected GameType;GameState;Turn;moves"
        )
    try:
        game_type = GameType.parse(fields[0])
    except GameTypeError as exc:
        raise GameStringError(str(exc)) from None
    state = _STATES.get(fields[1].lower())
    if state is None:
        raise GameStringError(f"invalid GameString: unknown game state {fields[1]!r}")
    turn = _TURN.match(fields[2])
    if turn is None or int(turn.group(2)) < 1:
        raise GameStringError(f"invalid GameString: bad turn {fields[2]!r}, expected White[n]")
    color = Color.WHITE if turn.group(1).lower() == "white" else Color.BLACK
    moves = fields[3:]
    if moves and moves[-1] == "":
        moves.pop()  # a trailing ';'
    return GameStringHead(game_type, state, color, int(turn.group(2)), moves)


def format_head(game_type: GameType, state: GameState, turn: Color, turn_number: int) -> str:
    """``Base+MLP;InProgress;White[3]``."""
    return f"{game_type};{state};{turn.title}[{turn_number}]"
