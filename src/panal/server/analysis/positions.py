"""Positions as the analysis board sends them, read with the rules engine, and shown back.

A position is plain JSON, so that a job can carry it to a worker on another machine::

    {"type": "Base+MLP", "options": {"tournament_opening": true, ...},
     "setup": null | {"stacks": [[q, r, ["bQ", "wB1"]], ...], "turn": 0 | 1,
                      "turn_number": n | null},
     "moves": ["wS1", "bS1 wS1-", ...]}

``setup`` is a board made in the editor (:meth:`panal.hive.Game.from_board`, every invariant
checked); without it the game starts empty. ``moves`` are then played from there. The browser
never decides legality: it gets each position's legal moves from here.

The cache of analyses is keyed by what decides the engine's answer: the game type, the rule
options and the position's board text (the stacks up to translation, the side to move, the turn
number and the last-moved piece), never by the moves that led there.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from panal.hive import Color, Game, GameType, Options
from panal.hive.errors import GameTypeError, IllegalMoveError, InvalidMoveError, PositionError
from panal.hive.options import OptionsError
from panal.server.http.request_error import RequestError

__all__ = ["MAX_MOVES", "Position", "board_json", "read_position"]

#: The longest line the board accepts (a game record is longer only in odd tournaments).
MAX_MOVES = 1000
MAX_STACKS = 64


@dataclass(frozen=True)
class Position:
    """A position read and checked: the game, and its JSON as a job carries it."""

    game: Game
    spec: dict[str, Any]

    @property
    def key(self) -> str:
        """What the cache of analyses is keyed by (see the module's docstring)."""
        text = json.dumps(
            [str(self.game.game_type), self.game.options.to_values(), self.game.board_text()],
            sort_keys=True,
        )
        return hashlib.sha256(text.encode()).hexdigest()[:32]


def _bad(code: str, message: str) -> RequestError:
    return RequestError(code, message, 422)


def read_position(spec: Any) -> Position:
    """The position ``spec`` describes, or a :class:`RequestError` saying what is wrong with it
    (``bad_position`` with the broken invariant, ``illegal_move`` with the ply and the rule)."""
    if not isinstance(spec, dict):
        raise _bad("bad_position", "a position is a JSON object")
    try:
        game_type = GameType.parse(spec.get("type", "Base"))
        options = Options.from_values(dict(spec.get("options") or {}))
    except (GameTypeError, OptionsError, TypeError, ValueError) as exc:
        raise _bad("bad_position", str(exc)) from None
    moves = spec.get("moves") or []
    if not isinstance(moves, list) or len(moves) > MAX_MOVES:
        raise _bad("bad_position", f"moves are a list of at most {MAX_MOVES} MoveStrings")
    setup = spec.get("setup")
    try:
        game = (
            Game(game_type, options=options)
            if setup is None
            else _set_up(setup, game_type, options)
        )
    except PositionError as exc:
        # The broken invariant's key and values: the page says it in the reader's language.
        raise RequestError(
            "bad_setup",
            str(exc),
            422,
            reason=exc.code,
            details=exc.details,
        ) from None
    for ply, move in enumerate(moves):
        if not isinstance(move, str):
            raise _bad("bad_position", "moves are MoveStrings")
        try:
            game.push(move)
        except (IllegalMoveError, InvalidMoveError) as exc:
            rule = exc.rule.key if isinstance(exc, IllegalMoveError) else "invalid"
            details = {"ply": str(ply + 1), "move": move}
            raise RequestError("illegal_move", str(exc), 422, rule=rule, details=details) from None
    clean = {
        "type": str(game_type),
        "options": options.to_values(),
        "setup": setup,
        "moves": list(moves),
    }
    return Position(game, clean)


def _set_up(setup: Any, game_type: GameType, options: Options) -> Game:
    if not isinstance(setup, dict):
        raise PositionError("a set-up position is a JSON object")
    stacks = setup.get("stacks")
    if not isinstance(stacks, list) or len(stacks) > MAX_STACKS:
        raise PositionError(f"the stacks are a list of at most {MAX_STACKS} [q, r, pieces]")
    board: dict[tuple[int, int], list[str]] = {}
    for entry in stacks:
        if (
            not isinstance(entry, list)
            or len(entry) != 3
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in entry[:2])
            or not isinstance(entry[2], list)
            or not all(isinstance(piece, str) for piece in entry[2])
        ):
            raise PositionError("each stack is [q, r, [pieces bottom first]]")
        if (entry[0], entry[1]) in board:
            raise PositionError(f"cell {(entry[0], entry[1])} is given twice")
        board[entry[0], entry[1]] = entry[2]
    turn = setup.get("turn", 0)
    if turn not in (0, 1) or isinstance(turn, bool):
        raise PositionError("the side to move is 0 (White) or 1 (Black)")
    number = setup.get("turn_number")
    if number is not None and (not isinstance(number, int) or isinstance(number, bool)):
        raise PositionError("the turn number is a whole number")
    return Game.from_board(
        board, game_type=game_type, turn=Color(turn), turn_number=number, options=options
    )


def board_json(game: Game) -> dict[str, Any]:
    """What the board page draws: the stacks, the hands, whose turn, the state and, unless the
    game is over, the legal moves (``{"move", "piece", "to", "carry"?}``, as the game page's)."""
    legal: list[dict[str, Any]] = []
    if not game.is_over():
        for move in game.legal_moves:
            if move.is_pass:
                legal.append({"move": "pass", "piece": None, "to": None})
                continue
            entry: dict[str, Any] = {
                "move": game.move_string(move),
                "piece": move.piece.name,
                "to": [move.to.q, move.to.r],
            }
            if move.carry:
                entry["carry"] = True
            legal.append(entry)
    last = game.peek() if game.move_stack else None
    last_move = None
    if last is not None and not last.is_pass:
        game.pop()
        origin = game.position_of(last.piece)
        game.push(last)
        last_move = {"from": list(origin) if origin else None, "to": [last.to.q, last.to.r]}
    outcome = game.outcome()
    return {
        "stacks": [
            [cell.q, cell.r, [piece.name for piece in stack]]
            for cell, stack in sorted(game.board().items())
        ],
        "hands": [
            [piece.name for piece in game.in_hand(Color.WHITE)],
            [piece.name for piece in game.in_hand(Color.BLACK)],
        ],
        "turn": int(game.turn),
        "turn_number": game.turn_number,
        "ply": game.ply,
        "state": str(game.state),
        "result": None if outcome is None else outcome.result.value,
        "legal": legal,
        "last_move": last_move,
    }
