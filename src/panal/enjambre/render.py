"""Text drawing of the board and of events, with optional ANSI colours.

Every cell is four characters wide, so the board reads the same with or without colour:

* an empty cell shows a kind mark and its label: ``·G5`` neutral, ``#G8`` dark (between zones),
  ``oK8`` a starting zone (lower-case colour letter), ``<O>`` a colmena cell, ``(*)`` the centre;
* a tile shows its colour letter, its number (``?`` when face down to you) and a flag: ``*`` face
  up for everyone this turn, ``'`` moved this turn (marker), ``+`` moving now.

Colours follow the NO_COLOR convention: none when ``NO_COLOR`` is set or the output is not a
terminal.
"""

from __future__ import annotations

import os
from typing import TextIO

from panal.hex import Hex

from .actions import (
    Combat,
    Displaced,
    Event,
    GameEnded,
    Moved,
    Placed,
    Scouted,
    TurnEnded,
)
from .board import Board, CellKind
from .observation import Observation
from .state import PublicState

__all__ = ["colour_enabled", "describe_event", "render_board", "render_status"]

# 256-colour foreground codes per colour name.
ANSI_COLOURS = {
    "orange": 208,
    "blue": 33,
    "green": 40,
    "red": 196,
    "purple": 135,
    "yellow": 226,
}
GREY_DARK = 240
GREY_LIGHT = 248
RESET = "\x1b[0m"


def colour_enabled(stream: TextIO) -> bool:
    """ANSI colours only for a terminal, and never when NO_COLOR is set (no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _paint(text: str, colour: int | None, *, bold: bool = False, reverse: bool = False,
           dim: bool = False, enabled: bool) -> str:  # fmt: skip
    if not enabled:
        return text
    codes = []
    if bold:
        codes.append("1")
    if dim:
        codes.append("2")
    if reverse:
        codes.append("7")
    if colour is not None:
        codes.append(f"38;5;{colour}")
    return f"\x1b[{';'.join(codes)}m{text}{RESET}"


def letter(board: Board, sector: int) -> str:
    return board.colours[sector][0].upper()


def player_name(state: PublicState, player: int) -> str:
    return state.colour(player)


def render_board(observation: Observation, *, colour: bool = False) -> str:
    """The board as seen by the observation's player, one text row per board row."""
    board = observation.board
    left = min(2 * c.q + c.r for c in board.cells)  # x of the leftmost cell, in half cells
    lines = []
    for r in sorted({cell.r for cell in board.cells}):
        row = sorted((c for c in board.cells if c.r == r), key=lambda c: c.q)
        indent = (2 * row[0].q + r - left) * 3  # cells are 6 characters apart
        lines.append(" " * indent + "  ".join(_cell_text(observation, c, colour) for c in row))
    return "\n".join(line.rstrip() for line in lines)


def _cell_text(observation: Observation, cell: Hex, colour: bool) -> str:
    state = observation.state
    board = state.board
    tile = state.occupant.get(cell)
    if state.active is not None and state.tile_cell[state.active] == cell:
        tile = state.active  # a tile passing over another is drawn on top
    if tile is not None:
        sector = state.sectors[state.owner(tile)]
        number = observation.numbers.get(tile)
        shown = tile in observation.shown
        marked = tile in state.marked
        flag = "+" if tile == state.active else "*" if shown else "'" if marked else " "
        text = f"{letter(board, sector)}{'?' if number is None else number:>2}{flag}"
        return _paint(
            text,
            ANSI_COLOURS.get(board.colours[sector]),
            bold=True,
            reverse=shown,
            dim=marked,
            enabled=colour,
        )
    kind = board.kind[cell]
    label = board.labels[cell]
    if kind is CellKind.CENTRE:
        return _paint("(*) ", 220, enabled=colour)
    if kind is CellKind.COLMENA:
        sector = board.colmena_owner[cell]
        text = f"<{letter(board, sector)}> "
        return _paint(text, ANSI_COLOURS.get(board.colours[sector]), bold=True, enabled=colour)
    if kind is CellKind.DARK:
        return _paint(f"#{label:<3}", GREY_DARK, enabled=colour)
    if kind is CellKind.ZONE:
        sector = board.sector[cell]
        text = f"{letter(board, sector).lower()}{label:<3}"
        return _paint(text, ANSI_COLOURS.get(board.colours[sector]), dim=True, enabled=colour)
    return _paint(f"·{label:<3}", GREY_LIGHT, enabled=colour)


def render_status(observation: Observation, *, colour: bool = False) -> str:
    """Round, turn, players, your tiles and the eliminated tiles."""
    state = observation.state
    board = state.board
    me = observation.me
    lines = []
    names = []
    for player in range(state.players):
        sector = state.sectors[player]
        name = f"{letter(board, sector)}={state.colour(player)}"
        if player == me:
            name += " (you)"
        names.append(_paint(name, ANSI_COLOURS.get(board.colours[sector]), enabled=colour))
    lines.append("players clockwise: " + ", ".join(names))
    turn = state.turn_player
    status = "game over" if observation.result else f"{state.colour(turn)} to play"
    scout = ", scout used" if state.scout_used else ""
    lines.append(f"round {state.round}/{state.options.rounds}, {status}{scout}")
    mine = []
    for tile in state.tiles_on_board(me):
        cell = state.tile_cell[tile]
        assert cell is not None
        number = observation.numbers.get(tile)
        mine.append(f"{board.label(cell)}={'?' if number is None else number}")
    lines.append("your tiles: " + (", ".join(mine) if mine else "none"))
    eliminated = observation.eliminated_tiles()
    if eliminated:
        parts = []
        for item in eliminated:
            shown = "?" if item.number is None else str(item.number)
            parts.append(f"{letter(board, state.sectors[item.owner])}{shown}")
        lines.append("eliminated: " + " ".join(parts))
    lines.append(
        "eliminations: "
        + ", ".join(f"{state.colour(p)} {n}" for p, n in enumerate(state.eliminations))
    )
    if observation.result is not None:
        result = observation.result
        lines.append(
            "final scores: "
            + ", ".join(
                f"{state.colour(p)} {s} (place {result.places[p]})"
                for p, s in enumerate(result.scores)
            )
        )
    return "\n".join(lines)


def describe_event(event: Event, state: PublicState) -> str | None:
    """One line for an event, or None for bookkeeping events not worth printing."""
    board = state.board
    who = state.colour(event.player)

    def where(cell: Hex | None) -> str:
        return "?" if cell is None else board.labels.get(cell, str(tuple(cell)))

    def tile_name(tile: int, number: int | None = None) -> str:
        owner = state.colour(state.owner(tile))
        return owner if number is None else f"{owner} {number}"

    match event:
        case Placed():
            return f"{who} has placed their tiles"
        case Moved(origin=origin, target=target, via=via):
            how = {"colmena": " across the colmena", "dark": " along the dark cells"}.get(via, "")
            return f"{who} moves {where(origin)} -> {where(target)}{how}"
        case Combat() as c:
            attacker = tile_name(c.attacker, c.attacker_number)
            defender = tile_name(c.defender, c.defender_number)
            if len(c.eliminated) == 2:
                outcome = "equal numbers: both are eliminated"
            elif c.eliminated[0] == c.defender:
                outcome = f"{defender} is eliminated"
            else:
                outcome = f"{attacker} is eliminated"
            extra = f"; the winner goes to {where(c.relocated_to)}" if c.relocated_to else ""
            return f"combat at {where(c.cell)}: {attacker} attacks {defender}, {outcome}{extra}"
        case Scouted() as s:
            if not s.success:
                return f"{who} flips a tile to scout: it is a {s.number}, not the 1"
            shown = ", ".join(
                f"{tile_name(t, n)} at {where(state.tile_cell[t])}" for t, n in s.revealed
            )
            return f"{who}'s scout (the 1) shows: {shown or 'no enemy tile'}"
        case Displaced() as d:
            return f"{who}'s tile pushed out of the colmena goes to {where(d.target)}"
        case TurnEnded():
            return f"{who} ends the turn"
        case GameEnded() as g:
            queens = (
                ", ".join(f"{state.colour(p)} queen {n}" for p, _, n in g.queens)
                or "no queen at home"
            )
            return f"game over ({queens})"
    return None
