"""The board built from its declarative layout: cell kinds, zones, colmena, seats and labels."""

from __future__ import annotations

import random
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from panal.hex import DIRECTIONS, Hex, hexagon

from .layout import DEFAULT_LAYOUT

__all__ = ["Board", "CellKind", "LayoutError", "default_board"]

SECTORS = 6


class LayoutError(ValueError):
    """The layout description is inconsistent."""


class CellKind(StrEnum):
    CENTRE = "centre"
    COLMENA = "colmena"
    DARK = "dark"
    NEUTRAL = "neutral"
    ZONE = "zone"


@dataclass(frozen=True, eq=False)
class Board:
    """Immutable lookup tables for one layout. Build it with :meth:`from_layout`."""

    name: str
    radius: int
    centre: Hex
    cells: tuple[Hex, ...]
    kind: Mapping[Hex, CellKind]
    sector: Mapping[Hex, int]
    colours: tuple[str, ...]
    zones: tuple[tuple[Hex, ...], ...]
    colmena: tuple[Hex, ...]
    colmena_adjacent: frozenset[Hex]
    colmena_adjacent_order: tuple[Hex, ...]
    dark: frozenset[Hex]
    dark_order: tuple[Hex, ...]
    neighbours: Mapping[Hex, tuple[Hex, ...]]
    clockwise: int
    seats: Mapping[int, tuple[int, ...] | None]
    tiles_per_player: int
    zone_sets: tuple[frozenset[Hex], ...]
    colmena_owner: Mapping[Hex, int]
    labels: Mapping[Hex, str]
    cells_by_label: Mapping[str, Hex]

    @classmethod
    def from_layout(cls, layout: Mapping[str, Any]) -> Board:
        try:
            return cls._build(layout)
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, LayoutError):
                raise
            raise LayoutError(f"malformed layout: {exc!r}") from exc

    @classmethod
    def _build(cls, layout: Mapping[str, Any]) -> Board:
        radius = int(layout["radius"])
        centre = Hex(*layout["centre"])
        every_cell = set(hexagon(radius))
        if centre not in every_cell:
            raise LayoutError(f"centre {tuple(centre)} is outside the board")
        kind: dict[Hex, CellKind] = {centre: CellKind.CENTRE}
        sector_of: dict[Hex, int] = {}
        zones: list[tuple[Hex, ...]] = []
        colmena: list[Hex] = []
        for index in range(SECTORS):
            first, second = DIRECTIONS[index], DIRECTIONS[(index + 1) % SECTORS]
            for kind_name, local_cells in layout["sector"].items():
                cell_kind = CellKind(kind_name)
                placed = []
                for a, b in local_cells:
                    cell = centre + first * a + second * b
                    if cell not in every_cell:
                        raise LayoutError(f"sector cell {[a, b]} lies outside the board")
                    if cell in kind:
                        raise LayoutError(f"cell {tuple(cell)} is described twice")
                    kind[cell] = cell_kind
                    sector_of[cell] = index
                    placed.append(cell)
                if cell_kind is CellKind.ZONE:
                    zones.append(tuple(placed))
                elif cell_kind is CellKind.COLMENA:
                    if len(placed) != 1:
                        raise LayoutError("each sector needs exactly one colmena cell")
                    colmena.append(placed[0])
        missing = every_cell - kind.keys()
        if missing:
            raise LayoutError(f"{len(missing)} cells have no kind, e.g. {tuple(min(missing))}")
        tiles = int(layout.get("tiles_per_player", 10))
        if any(len(zone) < tiles for zone in zones):
            raise LayoutError(f"every starting zone needs at least {tiles} cells")
        if any(centre.distance(cell) != 1 for cell in colmena):
            raise LayoutError("the colmena cells must surround the centre")

        colours = tuple(str(c) for c in layout["colours"])
        if len(colours) != SECTORS or len(set(colours)) != SECTORS:
            raise LayoutError("the layout needs six distinct colours")
        clockwise = int(layout["clockwise"])
        if clockwise not in (1, -1):
            raise LayoutError("clockwise must be 1 or -1")
        seats: dict[int, tuple[int, ...] | None] = {}
        for count_text, sectors in layout["seats"].items():
            count = int(count_text)
            if sectors == "draw":
                seats[count] = None
                continue
            chosen = tuple(int(s) for s in sectors)
            if len(chosen) != count or len(set(chosen)) != count:
                raise LayoutError(f"seats for {count} players must list {count} sectors")
            if any(not 0 <= s < SECTORS for s in chosen):
                raise LayoutError(f"seats for {count} players name a sector outside 0-5")
            if _clockwise_sorted(chosen, chosen[0], clockwise) != chosen:
                raise LayoutError(f"seats for {count} players are not listed clockwise")
            seats[count] = chosen
        if sorted(seats) != [2, 3, 4, 5, 6]:
            raise LayoutError("seats must be given for 2 to 6 players")

        colmena_set = set(colmena) | {centre}
        adjacent = {n for c in colmena for n in c.neighbors() if n in every_cell} - colmena_set
        dark = {c for c, k in kind.items() if k is CellKind.DARK}
        ordered = tuple(sorted(every_cell, key=lambda h: (h.r, h.q)))
        neighbours = {
            cell: tuple(n for n in cell.neighbors() if n in every_cell) for cell in ordered
        }
        labels = _labels(ordered)
        return cls(
            name=str(layout.get("name", "")),
            radius=radius,
            centre=centre,
            cells=ordered,
            kind=MappingProxyType(kind),
            sector=MappingProxyType(sector_of),
            colours=colours,
            zones=tuple(zones),
            colmena=tuple(colmena),
            colmena_adjacent=frozenset(adjacent),
            colmena_adjacent_order=tuple(sorted(adjacent)),
            dark=frozenset(dark),
            dark_order=tuple(sorted(dark)),
            neighbours=MappingProxyType(neighbours),
            clockwise=clockwise,
            seats=MappingProxyType(seats),
            tiles_per_player=tiles,
            zone_sets=tuple(frozenset(z) for z in zones),
            colmena_owner=MappingProxyType({c: i for i, c in enumerate(colmena)}),
            labels=MappingProxyType(labels),
            cells_by_label=MappingProxyType({v: k for k, v in labels.items()}),
        )

    def seats_for(self, players: int, rng: random.Random) -> tuple[int, ...]:
        """The sectors used by ``players`` players, in clockwise play order.

        The first listed sector is seat 0. A drawn layout uses ``rng`` (the game's generator).
        """
        if players not in self.seats:
            raise ValueError(f"Enjambre Tácticas is played by 2 to 6 players, not {players}")
        fixed = self.seats[players]
        if fixed is not None:
            return fixed
        drawn = rng.sample(range(SECTORS), players)
        return _clockwise_sorted(drawn, drawn[0], self.clockwise)

    def next_clockwise(self, sector: int) -> int:
        return (sector + self.clockwise) % SECTORS

    def label(self, cell: Hex) -> str:
        return self.labels[cell]

    def parse_label(self, text: str) -> Hex:
        """A cell from its label (``"G7"`` is the centre of the default board)."""
        cell = self.cells_by_label.get(text.strip().upper())
        if cell is None:
            raise ValueError(f"{text.strip()!r} is not a cell of the board (try e.g. A1 or G7)")
        return cell

    def is_colmena(self, cell: Hex) -> bool:
        return cell in self.colmena_owner


def _clockwise_sorted(sectors: Sequence[int], start: int, clockwise: int) -> tuple[int, ...]:
    return tuple(sorted(sectors, key=lambda s: ((s - start) * clockwise) % SECTORS))


def _labels(ordered: Sequence[Hex]) -> dict[Hex, str]:
    """Row letters top to bottom, column numbers left to right: ``A1`` is the top-left cell."""
    labels: dict[Hex, str] = {}
    rows = sorted({cell.r for cell in ordered})
    if len(rows) > len(string.ascii_uppercase):
        raise LayoutError("the board has too many rows to label")
    for row_index, r in enumerate(rows):
        row = sorted((c for c in ordered if c.r == r), key=lambda h: h.q)
        for column, cell in enumerate(row, start=1):
            labels[cell] = f"{string.ascii_uppercase[row_index]}{column}"
    return labels


_DEFAULT: Board | None = None


def default_board() -> Board:
    """The board of :data:`DEFAULT_LAYOUT`, built once."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Board.from_layout(DEFAULT_LAYOUT)
    return _DEFAULT
