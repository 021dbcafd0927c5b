"""A game as JSON for the browser.

The browser never applies rules: it receives the moves played (with where each piece came from
and went, so it can draw any earlier position by moving pieces), each side's pieces in hand, and,
for the player to move, the legal moves the rules engine found, to light destinations.

A websocket gets the whole ``state`` when it connects (or asks with ``sync``) and, if it asked
for them, ``delta`` messages after: only the fields that changed and the moves added, encoded
once per change for every socket of the game (see
:meth:`panal.server.hive_games.live.LiveGame.changed`).
"""

from __future__ import annotations

import functools
import json
from typing import TYPE_CHECKING, Any

from panal.hive import Color, Game, Move
from panal.hive.codes import PASS_CODE
from panal.hive.notation import format_move

if TYPE_CHECKING:
    from panal.server.hive_games.game_store import GameRow

__all__ = [
    "board_fields",
    "delta_text",
    "history_entry",
    "legal_moves_json",
    "settle_result",
    "state_text",
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


def legal_moves_json(game: Game) -> str:
    """The legal moves in the position as JSON text: a list of ``{"move": MoveString, "piece",
    "to": [q, r], "carry"?}`` (``{"move": "pass", "piece": null, "to": null}`` when forced).

    Built as text, once per position: the moves come from the rules engine's own list, so each
    is formatted without being checked again, and what a move code alone decides (piece,
    destination, carry) is encoded once per code (this was a third of a move's server time)."""
    parts: list[str] = []
    for code in game.legal_move_codes():
        if code == PASS_CODE:
            parts.append(PASS_JSON)
            continue
        text = format_move(game, code).replace("\\", "\\\\")  # a MoveString: only \ to escape
        parts.append(f'{{"move":"{text}",{_move_fields(code)}}}')
    return "[" + ",".join(parts) + "]"


PASS_JSON = '{"move":"pass","piece":null,"to":null}'


@functools.lru_cache(maxsize=1 << 16)
def _move_fields(code: int) -> str:
    """``"piece":…,"to":[q,r]`` (and ``"carry":true``) of a move code, as JSON text."""
    move = Move.from_code(code)
    to = move.to
    carry = ',"carry":true' if move.carry else ""
    return f'"piece":"{move.piece.name}","to":[{to.q},{to.r}]{carry}'


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


def clock_fields(row: GameRow) -> dict[str, Any]:
    """The time control and the clocks: each side's time when its clock last stopped, which one
    runs and since when (server time; each state also says the server's ``now``). Before each
    side's first move no clock runs: ``first_move_deadline`` says when the game is aborted
    unless the side to move moves."""
    control, clock = row.control, row.clock
    if control is None or clock is None:
        return {"clock": None, "clocks": None}
    return {
        "clock": control.shown(),
        "clocks": {
            "white": round(clock.left[0], 3),
            "black": round(clock.left[1], 3),
            "running": None if clock.opening else clock.running,
            "since": clock.since,
            "first_move_deadline": clock.deadline if clock.opening else None,
        },
    }


def state_text(fields: dict[str, Any], history_text: str) -> str:
    """A full ``state`` message: the public fields and the history (JSON text, spliced in:
    serializing thousands of moves again for every message would hold the event loop)."""
    text = json.dumps({"type": "state", **fields}, separators=(",", ":"), ensure_ascii=False)
    return text[:-1] + ',"history":' + history_text + "}"


def delta_text(
    previous: dict[str, Any],
    fields: dict[str, Any],
    history_parts: list[str],
    keep: int | None,
) -> str:
    """A ``delta`` message: the public fields that differ from ``previous`` and, when the
    history changed, ``moves``: keep its first ``keep`` entries, then add the ones after."""
    changed = {name: value for name, value in fields.items() if previous.get(name) != value}
    text = json.dumps({"type": "delta", **changed}, separators=(",", ":"), ensure_ascii=False)
    if keep is None:
        return text
    added = ",".join(history_parts[keep:])
    return f'{text[:-1]},"moves":{{"keep":{keep},"add":[{added}]}}}}'
