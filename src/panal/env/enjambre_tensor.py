"""A seat's knowledge of an Enjambre Tácticas game as one fixed-shape vector.

The vector has the same length for every seat count (2–6) and every moment, so one network can
play any table. Seats are *relative*: seat offset ``k`` is the seat ``k`` places clockwise from
the viewer (offset 0 is the viewer); offsets beyond the table's seats stay zero. Every entry lies
in [0, 1] (``float32``). Three blocks, in this order:

**Cells** (``CELL_FEATURES`` = 37 per cell, for each of the board's 127 cells in ``Board.cells``
order): the cell's kind one-hot (centre, colmena, dark, neutral, zone; 5); the seat offset whose
starting zone or colmena cell it is (6); the seat offset of the tile standing on it (6) and that
tile's slot (tile id modulo 10; 10); the number the viewer has picked for it in a set-up not yet
sent (10).

**Tiles** (``TILE_FEATURES`` = 24 per tile, for 6 seat offsets × 10 slots): on the board;
eliminated; the seat offset credited with eliminating it (6; none: zeros); its number one-hot if
the viewer knows it (10: a number the viewer may look at now, or one ever shown to all, as the
observation's ``numbers`` and ``revealed`` say, plus any ``extra_known``); face up now; carries a
marker; in motion; flipped by the scout this turn; holds a scout's extra step; waits to be
displaced.

**Globals** (``global_size(…)``): seat count one-hot (2–6; 5); which seat offsets exist (6);
phase one-hot (set-up, play, over; 3); round / rounds; the last two rounds (colmena combat);
the seat offset in turn (6); whether the viewer acts now; steps left to the tile in motion / 3;
scout used; the seats that have placed (6); eliminations each seat offset made / 50 (6); the
viewer's set-up picks so far / 10; then the options: each yes/no option as 0/1, ``rounds`` as
min(rounds, 20) / 20, each choice option one-hot in ``OptionSpec.choices`` order.

The vector is what the seat knows *now*; how each tile walked is not in it (the history is, in
the observation and in the OpenSpiel information-state string).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from panal.enjambre import OPTION_SPECS, Board, CellKind, Options, Phase
from panal.enjambre.observation import Observation
from panal.hex import Hex

from .enjambre_actions import cell_indices

__all__ = [
    "CELL_FEATURES",
    "MAX_SEATS",
    "TILE_FEATURES",
    "encode_observation",
    "encoding_size",
    "global_size",
    "known_numbers",
]

MAX_SEATS = 6
NUMBERS = 10
KINDS = (CellKind.CENTRE, CellKind.COLMENA, CellKind.DARK, CellKind.NEUTRAL, CellKind.ZONE)
CELL_FEATURES = len(KINDS) + MAX_SEATS + MAX_SEATS + NUMBERS + NUMBERS
TILE_FEATURES = 2 + MAX_SEATS + NUMBERS + 6
OPTION_FEATURES = sum(len(s.choices) if s.choices else 1 for s in OPTION_SPECS)
GLOBAL_FEATURES = 5 + MAX_SEATS + 3 + 2 + MAX_SEATS + 3 + MAX_SEATS + MAX_SEATS + 1


def global_size() -> int:
    return GLOBAL_FEATURES + OPTION_FEATURES


def encoding_size(board: Board) -> int:
    tiles = board.tiles_per_player
    return len(board.cells) * CELL_FEATURES + MAX_SEATS * tiles * TILE_FEATURES + global_size()


_OPTIONS: dict[Options, np.ndarray] = {}


def _options_vector(options: Options) -> np.ndarray:
    found = _OPTIONS.get(options)
    if found is None:
        found = _OPTIONS[options] = np.asarray(_option_values(options), dtype=np.float32)
        found.setflags(write=False)
    return found


def _option_values(options: Options) -> list[float]:
    values: list[float] = []
    for spec in OPTION_SPECS:
        value = getattr(options, spec.name)
        if spec.choices:
            values.extend(float(value == choice) for choice in spec.choices)
        elif spec.kind == "int":
            values.append(min(int(value), 20) / 20)
        else:
            values.append(float(bool(value)))
    return values


def encode_observation(
    observation: Observation,
    picks: Sequence[Hex] = (),
    extra_known: Mapping[int, int] | None = None,
) -> np.ndarray:
    """The viewer's vector (see the module's description of the layout).

    ``picks`` are the viewer's set-up picks not yet sent (cells for the numbers 1, 2, …);
    ``extra_known`` adds numbers the viewer knows beyond the observation (its own set-up in
    memory play, for a player with perfect recall).
    """
    state = observation.state
    board = state.board
    viewer = observation.me
    players = state.players
    tiles = board.tiles_per_player
    cells = board.cells
    cell_index = cell_indices(board)

    offsets = [(seat - viewer) % players for seat in range(players)]
    offset = offsets.__getitem__

    # Entries set to 1 are collected as flat indices and written at once (numpy item by item
    # was most of an environment step's time).
    cell_block = np.zeros((len(cells), CELL_FEATURES), dtype=np.float32)
    cell_block[:, : len(KINDS) + MAX_SEATS] = _static_cells(board, state.sectors, viewer)
    ones: list[int] = []
    occupant_at = len(KINDS) + MAX_SEATS
    for tile, cell in enumerate(state.tile_cell):
        if cell is None:
            continue
        if state.occupant.get(cell) not in (None, tile):
            continue  # a tile passing over its own: the cell shows the one that stays
        base = cell_index[cell] * CELL_FEATURES + occupant_at
        ones.append(base + offsets[tile // tiles])
        ones.append(base + MAX_SEATS + tile % tiles)
    pick_at = occupant_at + MAX_SEATS + NUMBERS
    for number, cell in enumerate(picks, start=1):
        ones.append(cell_index[cell] * CELL_FEATURES + pick_at + number - 1)
    cell_block.ravel()[ones] = 1

    known = dict(observation.revealed)
    known.update(observation.numbers)
    if extra_known:
        known.update(extra_known)
    tile_block = np.zeros(MAX_SEATS * tiles * TILE_FEATURES, dtype=np.float32)
    ones = []
    eliminated = {tile: by for tile, by, _ in state.eliminated}
    flags = 2 + MAX_SEATS + NUMBERS
    marked, scouted, bonus = state.marked, state.scouted, state.bonus
    for tile in range(len(state.tile_cell)):
        row = (offsets[tile // tiles] * tiles + tile % tiles) * TILE_FEATURES
        if state.tile_cell[tile] is not None:
            ones.append(row)
        if tile in eliminated:
            ones.append(row + 1)
            by = eliminated[tile]
            if by is not None:
                ones.append(row + 2 + offset(by))
        if tile in known:
            ones.append(row + 2 + MAX_SEATS + known[tile] - 1)
        for flag, on in enumerate(
            (
                tile in observation.shown,
                tile in marked,
                tile == state.active,
                tile in scouted,
                bonus.get(tile, 0) > 0,
                tile == state.displacing,
            )
        ):
            if on:
                ones.append(row + flags + flag)
    tile_block[ones] = 1

    rounds = state.options.rounds
    glob = np.zeros(GLOBAL_FEATURES, dtype=np.float32)
    glob[players - 2] = 1
    at = 5
    glob[at : at + players] = 1
    at += MAX_SEATS
    glob[at + (Phase.SETUP, Phase.PLAY, Phase.OVER).index(state.phase)] = 1
    at += 3
    glob[at] = min(state.round, rounds) / rounds
    glob[at + 1] = state.round >= rounds - 1
    at += 2
    if state.phase is not Phase.OVER:
        glob[at + offset(state.turn_player)] = 1
    at += MAX_SEATS
    glob[at] = observation.my_turn
    glob[at + 1] = min(state.active_steps, 3) / 3
    glob[at + 2] = state.scout_used
    at += 3
    for seat in range(players):
        glob[at + offset(seat)] = state.placed[seat]
        glob[at + MAX_SEATS + offset(seat)] = min(state.eliminations[seat], 50) / 50
    at += 2 * MAX_SEATS
    glob[at] = len(picks) / tiles
    return np.concatenate([cell_block.ravel(), tile_block, glob, _options_vector(state.options)])


_STATIC: dict[tuple[int, tuple[int, ...], int], tuple[Board, np.ndarray]] = {}


def _static_cells(board: Board, sectors: tuple[int, ...], viewer: int) -> np.ndarray:
    """Cell kinds and home seats: fixed for a board, a seating and a viewer."""
    key = (id(board), sectors, viewer)
    found = _STATIC.get(key)
    if found is not None and found[0] is board:
        return found[1]
    players = len(sectors)
    block = np.zeros((len(board.cells), len(KINDS) + MAX_SEATS), dtype=np.float32)
    seat_of_sector = {sector: seat for seat, sector in enumerate(sectors)}
    for row, cell in enumerate(board.cells):
        kind = board.kind[cell]
        block[row, KINDS.index(kind)] = 1
        if kind in (CellKind.ZONE, CellKind.COLMENA):
            sector = board.sector[cell] if kind is CellKind.ZONE else board.colmena_owner[cell]
            seat = seat_of_sector.get(sector)
            if seat is not None:
                block[row, len(KINDS) + (seat - viewer) % players] = 1
    block.setflags(write=False)
    _STATIC[key] = (board, block)
    return block


def known_numbers(vector: np.ndarray, board: Board, viewer: int, players: int) -> dict[int, int]:
    """The numbers a vector says its viewer knows, by engine tile id (reads the tile block)."""
    tiles = board.tiles_per_player
    start = len(board.cells) * CELL_FEATURES
    block = vector[start : start + MAX_SEATS * tiles * TILE_FEATURES]
    block = block.reshape(MAX_SEATS, tiles, TILE_FEATURES)[
        :, :, 2 + MAX_SEATS : 2 + MAX_SEATS + NUMBERS
    ]
    found: dict[int, int] = {}
    for offset, slot in zip(*np.nonzero(block.any(axis=2)), strict=True):
        seat = (viewer + int(offset)) % players
        found[seat * tiles + int(slot)] = int(np.argmax(block[offset, slot])) + 1
    return found
