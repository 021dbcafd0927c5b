"""A game as JSON for the browser.

The browser never applies rules: it receives the moves played (with where each piece came from
and went, so it can draw any earlier position by moving pieces), each side's pieces in hand, and,
for the player to move, the legal moves the rules engine found, to light destinations.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from panal.hive import Color, Game, Move
from panal.hive.codes import PASS_CODE

if TYPE_CHECKING:
    from panal.server.hub import LiveGame
    from panal.server.store import GameRow

__all__ = [
    "board_fields",
    "history_entry",
    "legal_moves_json",
    "public_state_text",
    "settle_result",
]


def history_entry(game: Game, move: Move, ply: int) -> dict[str, Any]:
    """One played move, computed *before* it is pushed (notation is relative to the position)."""
    color = int(game.turn)
    if move.is_pass:
        return {"ply": ply, "color": color, "move": "pass", "piece": None, "to": None}
    origin = game.position_of(move.piece)
    entry: dict[str, Any] = {
        "ply": ply,
        "color": color,
        "move": game.move_string(move),
        "piece": move.piece.name,
        # Tuples of ints (JSON arrays): the garbage collector stops tracking them.
        "from": tuple(origin) if origin is not None else None,
        "to": tuple(move.to),
    }
    if move.carry:
        entry["carry"] = True
    return entry


def legal_moves_json(game: Game) -> list[dict[str, Any]]:
    """The legal moves in the position: MoveString, piece, destination, carry."""
    out: list[dict[str, Any]] = []
    for move in game.legal_moves:
        if move.is_pass:
            out.append({"move": "pass", "piece": None, "to": None})
            continue
        item: dict[str, Any] = {
            "move": game.move_string(move),
            "piece": move.piece.name,
            "to": list(move.to),
        }
        if move.carry:
            item["carry"] = True
        out.append(item)
    return out


def board_fields(game: Game) -> dict[str, Any]:
    """What the position shows, computed once per position (the state adds the game's row)."""
    return {
        "ply": game.ply,
        "turn": int(game.turn),
        "turn_number": game.turn_number,
        "hands": [
            [piece.name for piece in game.in_hand(Color.WHITE)],
            [piece.name for piece in game.in_hand(Color.BLACK)],
        ],
        "must_place_queen": game.must_place_queen(),
        "must_pass": game.legal_move_codes() == [PASS_CODE],
    }


def settle_result(values: dict[str, Any], game: Game) -> None:
    """Put a result decided on the board into ``values`` (the game row's fields)."""
    outcome = game.outcome()
    if outcome is not None:
        values["result"] = outcome.result.value
        values["end_reason"] = outcome.termination.value
        values["draw_offer"] = None


HISTORY_MARK = '"history":0'


def clock_fields(row: GameRow) -> dict[str, Any]:
    """The time control and the clocks: each side's time when its clock last stopped, which one
    runs and since when (server time; each state also says the server's ``now``)."""
    control, clock = row.control, row.clock
    if control is None or clock is None:
        return {"clock": None, "clocks": None}
    return {
        "clock": control.shown(),
        "clocks": {
            "white": round(clock.left[0], 3),
            "black": round(clock.left[1], 3),
            "running": clock.running,
            "since": clock.since,
        },
    }


def public_state_text(live: LiveGame) -> str:
    """What everyone watching the game sees, as JSON text.

    The history is spliced in as text kept by the game (built once, extended by each move):
    serializing thousands of moves again for every message would hold the event loop."""
    row, board = live.row, live.board
    playing = row.result is None and row.mode != "review"
    state = {
        "type": "state",
        "id": row.id,
        "game_type": row.game_type,
        "mode": row.mode,
        "look": row.look,
        "options": row.rules.to_values(),
        "ai": {"level": row.ai_level, "color": row.ai_color} if row.mode == "ai" else None,
        "seats": {
            "white": row.white_token is not None or row.ai_color == 0,
            "black": row.black_token is not None or row.ai_color == 1,
        },
        "ply": board["ply"],
        "turn": board["turn"],
        "turn_number": board["turn_number"],
        "history": 0,
        "hands": board["hands"],
        "must_place_queen": board["must_place_queen"] and row.result is None,
        "must_pass": board["must_pass"] and playing,
        "result": row.result,
        "end_reason": row.end_reason,
        "draw_offer": row.draw_offer,
        "ai_thinking": live.ai_thinking,
        "ai_error": live.ai_error,
        "spectators": live.spectators,
        "headers": row.headers,
        "players": live.players,
        "rated": row.rated,
        "rematch_offer": row.rematch_offer,
        "rematch_game": row.rematch_game,
        **clock_fields(row),
    }
    text = json.dumps(state, separators=(",", ":"), ensure_ascii=False)
    return text.replace(HISTORY_MARK, '"history":' + live.history_text, 1)
