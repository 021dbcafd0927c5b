"""Hexagonal grid geometry shared by Hive and Enjambre Tácticas.

Axial coordinates ``(q, r)`` on a pointy-top grid: ``q`` grows to the east, ``r`` grows to the
south-east. The six directions are listed clockwise starting east, so ``(d + 1) % 6`` turns a
direction 60° clockwise and ``(d - 1) % 6`` turns it 60° anticlockwise.

Two representations are offered:

* :class:`Hex`, a readable named tuple for APIs, tests and rendering;
* packed cells, plain ``int`` values used on hot paths (the Hive move generator). Packing is a
  group homomorphism from Z² to Z, so adding a packed direction offset always yields the packed
  neighbour, and two cells collide only if they are ``STRIDE`` rows apart — far more than any
  Hive can span.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Final, NamedTuple, cast

__all__ = [
    "DIRECTIONS",
    "DIRECTION_NAMES",
    "NEIGHBOR_OFFSETS",
    "ORIGIN",
    "ORIGIN_CELL",
    "STRIDE",
    "Hex",
    "as_pair",
    "hexagon",
    "neighbor_cells",
    "neighbor_ring",
    "pack",
    "unpack",
]


class Hex(NamedTuple):
    """A cell in axial coordinates; also the vector between two cells.

    >>> from panal.hex import Hex
    >>> Hex(1, 0) + Hex(0, 1), (0, 1) + Hex(1, 0), Hex(2, -1) * 2, -Hex(1, 0)
    (Hex(q=1, r=1), Hex(q=1, r=1), Hex(q=4, r=-2), Hex(q=-1, r=0))
    >>> Hex(0, 0).distance(Hex(2, -1)), Hex(1, 0).rotate(1)
    (2, Hex(q=0, r=1))
    """

    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate (q + r + s == 0)."""
        return -self.q - self.r

    # A Hex is a vector: it adds to a Hex or to a (dq, dr) pair on either side, and scales by an
    # int, where a plain tuple would concatenate or repeat.

    def __add__(self, other: object) -> Hex:
        pair = as_pair(other)
        if pair is None:
            return NotImplemented
        return Hex(self.q + pair[0], self.r + pair[1])

    def __radd__(self, other: object) -> Hex:
        return self.__add__(other)

    def __sub__(self, other: object) -> Hex:
        pair = as_pair(other)
        if pair is None:
            return NotImplemented
        return Hex(self.q - pair[0], self.r - pair[1])

    def __rsub__(self, other: object) -> Hex:
        pair = as_pair(other)
        if pair is None:
            return NotImplemented
        return Hex(pair[0] - self.q, pair[1] - self.r)

    def __neg__(self) -> Hex:
        return Hex(-self.q, -self.r)

    def __mul__(self, k: object) -> Hex:
        if not isinstance(k, int) or isinstance(k, bool):
            return NotImplemented
        return Hex(self.q * k, self.r * k)

    def __rmul__(self, k: object) -> Hex:
        return self.__mul__(k)

    def neighbor(self, direction: int) -> Hex:
        dq, dr = DIRECTIONS[direction % 6]
        return Hex(self.q + dq, self.r + dr)

    def neighbors(self) -> list[Hex]:
        return [Hex(self.q + dq, self.r + dr) for dq, dr in DIRECTIONS]

    def distance(self, other: Hex) -> int:
        dq, dr = self.q - other.q, self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def length(self) -> int:
        """Distance from the origin (the ring number)."""
        return (abs(self.q) + abs(self.r) + abs(self.q + self.r)) // 2

    def rotate(self, steps: int = 1) -> Hex:
        """Rotate around the origin by ``steps`` × 60° clockwise."""
        q, r, s = self.q, self.r, self.s
        for _ in range(steps % 6):
            q, r, s = -r, -s, -q
        return Hex(q, r)

    def to_pixel(self, size: float = 1.0) -> tuple[float, float]:
        """Centre of the cell for a pointy-top hexagon of circumradius ``size``."""
        return (size * math.sqrt(3) * (self.q + self.r / 2), size * 1.5 * self.r)


def as_pair(value: object) -> tuple[int, int] | None:
    """``value`` (a :class:`Hex` or any pair of ints) as a ``(q, r)`` tuple, or None."""
    if isinstance(value, tuple) and len(value) == 2:
        dq, dr = value
        if isinstance(dq, int) and isinstance(dr, int):
            return dq, dr
    return None


# Clockwise from east: E, SE, SW, W, NW, NE.
DIRECTIONS: Final[tuple[Hex, ...]] = (
    Hex(1, 0),
    Hex(0, 1),
    Hex(-1, 1),
    Hex(-1, 0),
    Hex(0, -1),
    Hex(1, -1),
)
DIRECTION_NAMES: Final[tuple[str, ...]] = ("E", "SE", "SW", "W", "NW", "NE")
ORIGIN: Final = Hex(0, 0)

# Packed cells: (q + BIAS) * STRIDE + (r + BIAS). STRIDE keeps every value a one-digit CPython int.
STRIDE: Final = 1 << 14
_BIAS: Final = 1 << 13
ORIGIN_CELL: Final = _BIAS * STRIDE + _BIAS
NEIGHBOR_OFFSETS: Final[tuple[int, ...]] = tuple(dq * STRIDE + dr for dq, dr in DIRECTIONS)


# Each packed cell's six neighbours, in direction order, built once: on hot paths a set takes
# them in one update of ints that already exist, instead of six additions each making an int.
_NEIGHBORS: Final[dict[object, tuple[int, ...]]] = {}
_NEIGHBORS_LIMIT: Final = 100_000  # cells; a hive only ever visits a few thousand


def neighbor_cells(cell: int) -> tuple[int, ...]:
    """The six packed neighbours of a packed cell, in the order of ``DIRECTIONS``."""
    ring = _NEIGHBORS.get(cell)
    if ring is None:
        if len(_NEIGHBORS) >= _NEIGHBORS_LIMIT:
            _NEIGHBORS.clear()
        ring = _NEIGHBORS[cell] = tuple([cell + step for step in NEIGHBOR_OFFSETS])
    return ring


def neighbor_ring(cell: object) -> tuple[object, ...]:
    """``neighbor_cells`` of a packed cell held as an object, the neighbours as objects.

    For the compiled build's hot loops: there an ``int`` is unboxed, and each test of one
    against a dict or a set boxes it again (an allocation); cells kept as the objects this
    cache holds are never boxed. Pure Python does the same work either way.
    """
    ring = _NEIGHBORS.get(cell)
    if ring is None:
        return neighbor_cells(cast(int, cell))
    return ring


def pack(h: Hex | tuple[int, int]) -> int:
    q, r = h
    return (q + _BIAS) * STRIDE + (r + _BIAS)


def unpack(cell: int) -> Hex:
    q, r = divmod(cell, STRIDE)
    return Hex(q - _BIAS, r - _BIAS)


def hexagon(radius: int, center: Hex = ORIGIN) -> Iterator[Hex]:
    """Every cell within ``radius`` of ``center``, row by row."""
    for q in range(-radius, radius + 1):
        for r in range(max(-radius, -q - radius), min(radius, -q + radius) + 1):
            yield Hex(center.q + q, center.r + r)
