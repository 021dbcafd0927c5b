"""Plain data (JSON-ready) for interfaces: the board, the rule options and an observation.

An interface (the web server, a client) gets what it shows from here and from nothing else, so
what one player is sent is always built from that player's :class:`Observation`:

* :func:`board_data`: the board's cells, kinds, labels, colours, zones and seats (public, fixed);
* :func:`option_fields`: every rule option with its kind, default, choices and description, read
  from the options' own table (``OPTION_SPECS``), so a new option appears in a form without
  changing the form;
* :func:`observation_data`: what a player sees now, for display: every tile with the number the
  viewer may look at (or null), markers, the tile in motion, the round and turn, tiles left,
  eliminations, the result; the events of the current turn with their numbers and the older
  ones without (§14: nobody may review numbers once their turn is over; the record with every
  number is for the finished game); and, on the viewer's turn, every legal step, whole move,
  scout and whether the turn may end.

Cells are ``[q, r]`` axial pairs; tiles are their public ids (an id tells nothing about a number).
"""

from __future__ import annotations

from typing import Any

from panal.hex import Hex

from .actions import (
    Combat,
    Displaced,
    EndTurn,
    Event,
    GameEnded,
    Moved,
    MoveFinished,
    Placed,
    Reason,
    Scouted,
    TurnEnded,
)
from .board import Board
from .observation import Observation
from .options import OPTION_SPECS
from .scoring import GameResult
from .state import Phase

__all__ = [
    "board_data",
    "current_turn_start",
    "event_data",
    "events_data",
    "observation_data",
    "option_fields",
    "reason_data",
    "result_data",
]


def _cell(cell: Hex | None) -> list[int] | None:
    return None if cell is None else [cell.q, cell.r]


def board_data(board: Board) -> dict[str, Any]:
    """The fixed board: every cell with its kind, sector (colour) and label; colmena, seats."""
    return {
        "name": board.name,
        "radius": board.radius,
        "centre": _cell(board.centre),
        "colours": list(board.colours),
        "tiles_per_player": board.tiles_per_player,
        "cells": [
            {
                "cell": _cell(cell),
                "kind": str(board.kind[cell]),
                "sector": board.sector.get(cell),
                "label": board.labels[cell],
            }
            for cell in board.cells
        ],
        "colmena": [_cell(cell) for cell in board.colmena],
        "colmena_adjacent": [_cell(cell) for cell in board.colmena_adjacent_order],
        "zones": [[_cell(cell) for cell in zone] for zone in board.zones],
        "seats": {str(n): None if s is None else list(s) for n, s in sorted(board.seats.items())},
    }


def option_fields() -> list[dict[str, Any]]:
    """Every rule option, as :data:`panal.enjambre.options.OPTION_SPECS` describes it: ``name``,
    ``kind`` (``"bool"``, ``"int"`` or ``"choice"``), ``default``, ``choices``, ``minimum``,
    ``description`` (English; interfaces translate by name where they can), and the rulebook
    ``section`` it reads."""
    return [
        {
            "name": spec.name,
            "kind": spec.kind,
            "default": spec.default,
            "choices": None if spec.choices is None else list(spec.choices),
            "minimum": spec.minimum,
            "description": spec.description,
            "section": spec.section,
        }
        for spec in OPTION_SPECS
    ]


def reason_data(reason: Reason | str) -> dict[str, Any]:
    """A refusal as ``code``, ``details`` and the English ``message``."""
    return {
        "code": getattr(reason, "code", "illegal"),
        "details": dict(getattr(reason, "details", {})),
        "message": str(reason),
    }


def result_data(result: GameResult | None) -> dict[str, Any] | None:
    return None if result is None else result.to_dict()


def event_data(event: Event, *, numbers: bool = True) -> dict[str, Any]:
    """One public event; ``numbers=False`` leaves out the numbers it showed (a past turn's)."""

    def shown(value: int) -> int | None:
        return value if numbers else None

    data: dict[str, Any] = {"round": event.round, "player": event.player}
    match event:
        case Placed():
            data["type"] = "placed"
        case Moved() as moved:
            data.update(
                type="moved",
                tile=moved.tile,
                origin=_cell(moved.origin),
                target=_cell(moved.target),
                via=moved.via,
            )
        case Combat() as combat:
            data.update(
                type="combat",
                cell=_cell(combat.cell),
                attacker=combat.attacker,
                defender=combat.defender,
                attacker_number=shown(combat.attacker_number),
                defender_number=shown(combat.defender_number),
                eliminated=list(combat.eliminated),
                relocated_to=_cell(combat.relocated_to),
            )
        case Scouted() as scouted:
            data.update(
                type="scouted",
                tile=scouted.tile,
                number=shown(scouted.number),
                success=scouted.success,
                revealed=[[tile, shown(number)] for tile, number in scouted.revealed],
            )
        case MoveFinished() as finished:
            data.update(type="finished", tile=finished.tile)
        case Displaced() as displaced:
            data.update(
                type="displaced",
                tile=displaced.tile,
                origin=_cell(displaced.origin),
                target=_cell(displaced.target),
            )
        case TurnEnded():
            data["type"] = "turn_ended"
        case GameEnded() as ended:
            data.update(
                type="game_ended",
                queens=[[player, tile, number] for player, tile, number in ended.queens],
                scores=list(ended.scores),
            )
        case _:
            data["type"] = type(event).__name__.lower()
    return data


def current_turn_start(observation: Observation) -> int:
    """The index of the first event of the turn in progress (after the last ``TurnEnded``)."""
    history = observation.history
    for index in range(len(history) - 1, -1, -1):
        if isinstance(history[index], TurnEnded):
            return index + 1
    return 0


def events_data(observation: Observation, start: int = 0) -> list[dict[str, Any]]:
    """The observation's events from ``start``: with their numbers when they belong to the turn
    in progress or the game is over, without them otherwise."""
    open_from = 0 if observation.phase is Phase.OVER else current_turn_start(observation)
    return [
        event_data(event, numbers=index >= open_from)
        for index, event in enumerate(observation.history[start:], start=start)
    ]


def observation_data(observation: Observation, *, legal: bool = True) -> dict[str, Any]:
    """What the observation's viewer sees now (no history: see :func:`events_data`)."""
    state = observation.state
    board = state.board
    data: dict[str, Any] = {
        "viewer": observation.viewer,
        "phase": str(state.phase),
        "players": state.players,
        "round": state.round,
        "rounds": state.options.rounds,
        "turn": state.turn_player if state.phase is not Phase.OVER else None,
        "first_player": state.first_player,
        "sectors": list(state.sectors),
        "colours": [board.colours[sector] for sector in state.sectors],
        "options": state.options.to_dict(),
        "placed": list(state.placed),
        "tiles": [
            {
                "id": view.id,
                "owner": view.owner,
                "cell": _cell(view.cell),
                "number": view.number,
                "marked": view.marked,
                "shown": view.shown,
            }
            for view in observation.tiles()
        ],
        "active": state.active,
        "active_steps": state.active_steps if state.active is not None else 0,
        "active_start": _cell(state.active_start),
        "scout_used": state.scout_used,
        "displacing": state.displacing,
        "displace_options": [_cell(cell) for cell in state.displace_options],
        "tiles_left": [len(state.tiles_on_board(p)) for p in range(state.players)],
        "eliminations": list(state.eliminations),
        "eliminated": [
            {
                "id": item.id,
                "owner": item.owner,
                "by": item.by,
                "round": item.round,
                "number": item.number,
            }
            for item in observation.eliminated_tiles()
        ],
        "result": result_data(observation.result),
        "events_total": len(observation.history),
    }
    if observation.viewer is not None and state.phase is Phase.SETUP:
        data["zone"] = [_cell(cell) for cell in state.zone(observation.viewer)]
    if legal and observation.viewer is not None and observation.my_turn:
        data["legal"] = _legal_data(observation)
    return data


def _legal_data(observation: Observation) -> dict[str, Any]:
    """On the viewer's turn: single steps and whole moves per tile, scouts, ending the turn."""
    state = observation.state
    me = observation.me
    if state.phase is Phase.SETUP:
        return {"place": True}
    if state.displacing is not None:
        return {"displace": [_cell(cell) for cell in state.displace_options]}
    if state.is_floating() and state.active is not None:
        movers = [state.active]
    else:
        movers = [t for t in state.tiles_on_board(me) if t not in state.marked]
    moves: dict[str, Any] = {}
    for tile in movers:
        steps = state.step_targets(tile)
        if not steps:
            continue
        moves[str(tile)] = {
            "steps": [
                {"cell": _cell(target.cell), "via": target.via, "occupant": target.occupant}
                for target in steps
            ],
            "paths": [
                {
                    "cells": [_cell(cell) for cell in path.cells],
                    "attack": path.attack,
                }
                for path in state.paths(tile)
            ],
        }
    end_problem = state.why_illegal(me, EndTurn())
    return {
        "moves": moves,
        "scout": [] if state.scout_used else list(state.tiles_on_board(me)),
        "end": end_problem is None,
        "end_problem": None if end_problem is None else reason_data(end_problem),
    }
