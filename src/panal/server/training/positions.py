"""A position of a puzzle or a lesson as JSON for the trainer's board, and a requested move read
against it.

The trainer's positions are drawn from their stacks (a lesson's position has no moves before
it, so there is no history to replay as the game page does): ``stacks`` maps ``"q,r"`` to the
pieces there, bottom first; ``legal`` is the rules engine's list for the side to move, as the
game page gets it (:func:`~panal.server.hive_games.snapshot.legal_moves_json`), to light
destinations. The browser never decides legality: a move to an unlit cell is sent anyway, and
the refusal names the rule it breaks.
"""

from __future__ import annotations

import json
from typing import Any

from panal.hive import Game, GameState, Move
from panal.server.hive_games.actions import checked_move, requested_move
from panal.server.hive_games.snapshot import board_fields, legal_moves_json

__all__ = ["board_json", "read_move"]


def board_json(game: Game, last: Move | None = None, origin: Any = None) -> dict[str, Any]:
    """The position: stacks, hands, whose turn, the legal moves (none once the game is over),
    the result, and the last move's cells when known (``origin``: where its piece came from)."""
    stacks = {
        f"{cell.q},{cell.r}": [p.name for p in pieces] for cell, pieces in game.board().items()
    }
    over = game.state is not GameState.IN_PROGRESS
    fields = board_fields(game)
    return {
        "stacks": stacks,
        "hands": fields["hands"],
        "turn": fields["turn"],
        "ply": fields["ply"],
        "state": game.state.value,
        "legal": [] if over else json.loads(legal_moves_json(game)),
        "last": None
        if last is None or last.is_pass
        else {"from": None if origin is None else tuple(origin), "to": tuple(last.to)},
    }


def read_move(game: Game, message: dict[str, Any]) -> str:
    """The MoveString of a request's move (``{"move"}`` or ``{"piece", "to"}``), legal in
    ``game``; a move that breaks a rule is refused naming the rule (409 ``illegal_move``), as a
    game's move is (:func:`~panal.server.hive_games.actions.checked_move`)."""
    return checked_move(game, requested_move(message))[1]


def push_shown(game: Game, text: str) -> dict[str, Any]:
    """Play the MoveString ``text`` and return the position after it, its move marked."""
    move = game.parse_move(text)
    origin = None if move.is_pass else game.position_of(move.piece)
    game.push(move)
    return board_json(game, move, origin)
