"""UHP notation: MoveString and GameString, parsed and printed.

A MoveString names the moving piece and where it goes relative to a reference piece::

    wS1          the first piece of the game
    bS1 wS1-     east of wS1      (X- E, X\\ SE, /X SW, -X W, \\X NW, X/ NE)
    wB1 bQ       on top of bQ
    pass

The reference is read where it stands *before* the move, so a piece may name itself
(``wQ -wQ``), as nokamute and hivegame.com write. Piece names are accepted in any case.

panal extension: a Dragonfly carrying the piece beneath it is written ``wD+bA1 wQ-`` (the
Dragonfly, ``+``, the carried piece); standard UHP tools never see Dragonfly games.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from panal.hex import NEIGHBOR_OFFSETS, ORIGIN_CELL
from panal.hive.options import Options
from panal.hive.pieces import PIECE_BY_VALUE, GameType, GameTypeError, piece_from_name

if TYPE_CHECKING:
    from panal.hive.game import Game

__all__ = ["format_game_string", "format_move", "parse_game_string", "parse_move"]

# Direction index (clockwise from east) -> (prefix, suffix) around the reference piece.
_SYMBOLS = (("", "-"), ("", "\\"), ("/", ""), ("-", ""), ("\\", ""), ("", "/"))
_DIRECTION_OF_SYMBOL = {symbol: d for d, symbol in enumerate(_SYMBOLS)}
_REFERENCE = re.compile(r"^([-/\\]?)([A-Za-z]{2}\d?)([-/\\]?)$")


def format_move(game: Game, code: int) -> str:
    from panal.hive.game import CARRY_FLAG, PASS_CODE

    if code == PASS_CODE:
        return "pass"
    piece = code & 31
    dest = code >> 6
    name = PIECE_BY_VALUE[piece].name  # type: ignore[union-attr]
    if code & CARRY_FLAG:
        origin_stack = game._stacks[game._cell[piece]]
        name += "+" + PIECE_BY_VALUE[origin_stack[-2]].name  # type: ignore[union-attr]
    stacks = game._stacks
    if not stacks:
        return name
    if dest in stacks:
        return f"{name} {PIECE_BY_VALUE[stacks[dest][-1]].name}"  # type: ignore[union-attr]
    origin = game._cell[piece]
    fallback = ""
    for direction, step in enumerate(NEIGHBOR_OFFSETS):
        neighbor = dest - step  # dest lies in `direction` from `neighbor`
        stack = stacks.get(neighbor)
        if not stack:
            continue
        prefix, suffix = _SYMBOLS[direction]
        text = f"{name} {prefix}{PIECE_BY_VALUE[stack[-1]].name}{suffix}"  # type: ignore[union-attr]
        if neighbor != origin:
            return text
        fallback = fallback or text
    if fallback:
        return fallback
    raise ValueError("destination touches no piece")


def parse_move(game: Game, text: str, *, lenient: bool = False) -> int:
    """Parse a MoveString into a move code (legality is checked by the caller).

    A directional reference names a cell beside the reference piece; when that cell is occupied
    the move is refused, as Mzinga does, unless ``lenient`` reads it as a climb onto the cell, as
    hivegame.com writes (``wM /wL`` for a mosquito climbing onto the piece south-west of wL).
    """
    from panal.hive.game import CARRY_FLAG, OFF_BOARD, PASS_CODE, IllegalMoveError, InvalidMoveError

    if not isinstance(text, str):
        raise InvalidMoveError(f"a MoveString must be text, not {type(text).__name__}")
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
        stack = game._stacks.get(game._cell[piece], [])
        if len(stack) < 2 or stack[-1] != piece or stack[-2] != carried:
            raise IllegalMoveError(
                f"{piece.name} is not standing on {carried.name}, so it cannot carry it"
            )
        flags = CARRY_FLAG
    if len(tokens) == 1:
        if game._stacks:
            raise IllegalMoveError(
                f"{text!r} gives no reference piece; only the first piece of the game has none"
            )
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
    cell = game._cell[reference]
    if cell == OFF_BOARD:
        raise IllegalMoveError(f"the reference piece {reference.name} is not on the board")
    if prefix or suffix:
        cell += NEIGHBOR_OFFSETS[_DIRECTION_OF_SYMBOL[(prefix, suffix)]]
        if cell in game._stacks and not lenient:
            from panal.hive.rules import Rule

            if game._cell[piece] == OFF_BOARD:
                raise IllegalMoveError(Rule.PLACE_ON_EMPTY.value, Rule.PLACE_ON_EMPTY)
            top = PIECE_BY_VALUE[game._stacks[cell][-1]].name  # type: ignore[union-attr]
            details = {"suggestion": f"{tokens[0]} {top}"}
            raise IllegalMoveError(Rule.OCCUPIED.value.format(**details), Rule.OCCUPIED, details)
    return cell << 6 | flags | piece


def format_game_string(game: Game) -> str:
    head = f"{game.game_type};{game.state};{game.turn.title}[{game.turn_number}]"
    moves = game.move_strings()
    return ";".join([head, *moves])


_TURN = re.compile(r"^(white|black)\[(\d+)\]$", re.IGNORECASE)
_STATES = {"notstarted", "inprogress", "draw", "whitewins", "blackwins"}


def parse_game_string(
    text: str, *, lenient: bool = False, options: Options | None = None, **rules: Any
) -> Game:
    """Replay a GameString; its state and turn fields are checked for form, then recomputed."""
    from panal.hive.game import Game, GameStringError

    if not isinstance(text, str):
        raise GameStringError("a GameString must be text")
    fields = [field.strip() for field in text.strip().split(";")]
    if len(fields) < 3:
        raise GameStringError(
            f"invalid GameString {text!r}: expected GameType;GameState;Turn;moves"
        )
    try:
        game_type = GameType.parse(fields[0])
    except GameTypeError as exc:
        raise GameStringError(str(exc)) from None
    if fields[1].lower() not in _STATES:
        raise GameStringError(f"invalid GameString: unknown game state {fields[1]!r}")
    if not _TURN.match(fields[2]):
        raise GameStringError(f"invalid GameString: bad turn {fields[2]!r}, expected White[n]")
    game = Game(game_type, options=options, **rules)
    moves = fields[3:]
    if moves and moves[-1] == "":
        moves.pop()  # a trailing ';'
    for number, move in enumerate(moves, 1):
        try:
            game.push(move, lenient=lenient)
        except ValueError as exc:
            raise GameStringError(f"move {number} ({move!r}): {exc}") from exc
    return game
