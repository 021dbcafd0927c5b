"""Colours, bugs, pieces and game types.

A piece is a small int (``colour << 4 | slot``) wrapped in the :class:`Piece` enum, so the move
generator can index plain lists with it while the API still prints ``wA1``.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from panal.hive.errors import GameTypeError

__all__ = [
    "BUG_COUNTS",
    "BUG_COUNT_BY_VALUE",
    "BUG_LETTERS",
    "EXPANSIONS",
    "Bug",
    "Color",
    "GameType",
    "Piece",
    "bug_of",
    "color_of",
    "pieces_of",
]


class Color(IntEnum):
    """A side: white moves first."""

    WHITE = 0
    BLACK = 1

    def __repr__(self) -> str:
        return f"Color.{self.name}"

    @property
    def other(self) -> Color:
        return Color(self ^ 1)

    @property
    def letter(self) -> str:
        return "wb"[self]

    @property
    def title(self) -> str:
        return ("White", "Black")[self]


class Bug(IntEnum):
    """A kind of piece; ``letter`` is its UHP letter (``Bug.from_letter("A")`` reads one)."""

    QUEEN = 0
    SPIDER = 1
    BEETLE = 2
    GRASSHOPPER = 3
    ANT = 4
    MOSQUITO = 5
    LADYBUG = 6
    PILLBUG = 7
    DRAGONFLY = 8

    @property
    def letter(self) -> str:
        return BUG_LETTERS[self]

    @classmethod
    def from_letter(cls, letter: str) -> Bug:
        """``"A"`` → ``Bug.ANT`` (any case); ValueError names the letters."""
        index = BUG_LETTERS.find(letter.strip().upper()) if isinstance(letter, str) else -1
        if index < 0 or len(letter.strip()) != 1:
            raise ValueError(f"unknown bug letter {letter!r}; the letters are {BUG_LETTERS}")
        return cls(index)

    def __repr__(self) -> str:
        return f"Bug.{self.name}"


BUG_LETTERS = "QSBGAMLPD"
BUG_COUNTS: Final[dict[Bug, int]] = {
    Bug.QUEEN: 1,
    Bug.SPIDER: 2,
    Bug.BEETLE: 2,
    Bug.GRASSHOPPER: 3,
    Bug.ANT: 3,
    Bug.MOSQUITO: 1,
    Bug.LADYBUG: 1,
    Bug.PILLBUG: 1,
    Bug.DRAGONFLY: 1,
}
BUG_COUNT_BY_VALUE: Final[tuple[int, ...]] = tuple(BUG_COUNTS[bug] for bug in Bug)
"""``BUG_COUNTS`` indexed by the bug's value, for hot paths: indexing a tuple by an int, where a
dict keyed by the enum hashes each member in Python."""
BASE_BUGS = (Bug.QUEEN, Bug.SPIDER, Bug.BEETLE, Bug.GRASSHOPPER, Bug.ANT)
# Optional bugs in GameTypeString order. "D" (the Dragonfly) is panal's extension of UHP.
EXPANSIONS = (Bug.MOSQUITO, Bug.LADYBUG, Bug.PILLBUG, Bug.DRAGONFLY)

# Slot order within a colour: Q S1 S2 B1 B2 G1 G2 G3 A1 A2 A3 M L P D.
_SLOTS: list[tuple[Bug, int]] = [(bug, n) for bug in Bug for n in range(1, BUG_COUNTS[bug] + 1)]
FIRST_SLOT: Final[dict[Bug, int]] = {}
for _slot, (_bug, _n) in enumerate(_SLOTS):
    FIRST_SLOT.setdefault(_bug, _slot)


class Piece(IntEnum):
    """A Hive piece: ``Piece.wQ``, ``Piece.bA3``… named as UHP names them.

    Its value is ``colour << 4 | slot`` (slots in the order Q S1 S2 B1 B2 G1 G2 G3 A1 A2 A3 M L P
    D), so hot paths index plain lists with it. ``Piece("wA1")`` and ``Piece["wA1"]`` both find a
    piece by name (``Piece("wa1")`` too: UHP names are read in any case).

    >>> Piece("bA2"), Piece.bA2.color, Piece.bA2.bug, Piece.bA2.number
    (Piece.bA2, Color.BLACK, Bug.ANT, 2)
    """

    wQ = 0
    wS1 = 1
    wS2 = 2
    wB1 = 3
    wB2 = 4
    wG1 = 5
    wG2 = 6
    wG3 = 7
    wA1 = 8
    wA2 = 9
    wA3 = 10
    wM = 11
    wL = 12
    wP = 13
    wD = 14
    bQ = 16
    bS1 = 17
    bS2 = 18
    bB1 = 19
    bB2 = 20
    bG1 = 21
    bG2 = 22
    bG3 = 23
    bA1 = 24
    bA2 = 25
    bA3 = 26
    bM = 27
    bL = 28
    bP = 29
    bD = 30

    @classmethod
    def from_name(cls, name: str) -> Piece:
        """``"wA1"`` → ``Piece.wA1`` (any case; a unique bug may carry a 1: ``wM1``).
        ``ValueError`` for anything else."""
        piece = piece_from_name(name) if isinstance(name, str) else None
        if piece is None:
            raise ValueError(f"unknown piece {name!r}: expected a UHP name such as wQ, bA1 or wM")
        return piece

    @classmethod
    def _missing_(cls, value: object) -> Piece:
        if isinstance(value, str):
            return cls.from_name(value)
        raise ValueError(f"{value!r} is not a piece value (colour << 4 | slot) or name")

    @property
    def color(self) -> Color:
        return Color(self >> 4)

    @property
    def bug(self) -> Bug:
        return Bug(BUG_OF[self])

    @property
    def number(self) -> int:
        """1, 2 or 3 among the pieces of its kind (1 for the queen and other unique bugs)."""
        return NUMBER_OF[self]

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Piece.{self.name}"


# Plain-int lookup tables for hot paths, indexed by piece value.
BUG_OF: Final[list[int]] = [0] * 32
NUMBER_OF: Final[list[int]] = [0] * 32
for _p in Piece:
    BUG_OF[_p] = _SLOTS[_p & 15][0]
    NUMBER_OF[_p] = _SLOTS[_p & 15][1]
PIECE_BY_VALUE: Final[dict[int, Piece]] = {int(p): p for p in Piece}
_PIECE_BY_LOWER_NAME = {p.name.lower(): p for p in Piece}


def color_of(piece: int) -> Color:
    return Color(piece >> 4)


def bug_of(piece: int) -> Bug:
    return Bug(BUG_OF[piece])


def number_of(piece: int) -> int:
    return NUMBER_OF[piece]


def piece_of(color: int, bug: int, number: int = 1) -> Piece:
    return Piece(color << 4 | (FIRST_SLOT[Bug(bug)] + number - 1))


def piece_from_name(name: str) -> Piece | None:
    """``wA1``/``WA1``/``wa1`` → ``Piece.wA1``; a unique bug may carry a ``1`` (``wM1``)."""
    key = name.strip().lower()
    piece = _PIECE_BY_LOWER_NAME.get(key)
    if piece is None and key.endswith("1"):
        piece = _PIECE_BY_LOWER_NAME.get(key[:-1])
        if piece is not None and BUG_COUNTS[bug_of(piece)] != 1:
            piece = None
    return piece


class GameType:
    """Which optional bugs are in play: ``GameType.parse("Base+MLP")``."""

    __slots__ = ("bugs", "expansions")

    def __init__(self, expansions: frozenset[Bug] | set[Bug] | tuple[Bug, ...] = ()) -> None:
        exp = frozenset(Bug(b) for b in expansions)
        if not exp <= set(EXPANSIONS):
            raise GameTypeError(f"not an optional bug: {sorted(exp - set(EXPANSIONS))}")
        self.expansions: frozenset[Bug] = exp
        self.bugs: tuple[Bug, ...] = BASE_BUGS + tuple(b for b in EXPANSIONS if b in exp)

    @classmethod
    def parse(cls, text: str) -> GameType:
        """``"Base"``, ``"Base+MLP"``… (letters in any order, each once)."""
        if not isinstance(text, str):
            raise GameTypeError(f"a GameTypeString is text, not {type(text).__name__}")
        text = text.strip()
        base, plus, letters = text.partition("+")
        if base.lower() != "base" or (plus and not letters):
            raise GameTypeError(f"invalid GameTypeString {text!r}: expected Base or Base+MLPD")
        found: list[Bug] = []
        for letter in letters.upper():
            index = BUG_LETTERS.find(letter)
            if index < 0 or Bug(index) not in EXPANSIONS or Bug(index) in found:
                raise GameTypeError(f"invalid GameTypeString {text!r}: bad expansion {letter!r}")
            found.append(Bug(index))
        return cls(frozenset(found))

    def __str__(self) -> str:
        letters = "".join(b.letter for b in EXPANSIONS if b in self.expansions)
        return f"Base+{letters}" if letters else "Base"

    def __repr__(self) -> str:
        return f"GameType.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameType) and other.expansions == self.expansions

    def __hash__(self) -> int:
        return hash(self.expansions)

    def __contains__(self, bug: object) -> bool:
        return bug in self.bugs

    def pieces(self, color: Color) -> list[Piece]:
        """Every piece of ``color`` in this game type, in slot order."""
        return [p for p in pieces_of(color) if BUG_OF[p] in self.bugs]

    @property
    def is_uhp_standard(self) -> bool:
        """Standard UHP tools know M, L and P; the Dragonfly is panal's own."""
        return Bug.DRAGONFLY not in self.expansions


def pieces_of(color: Color) -> list[Piece]:
    """Every piece of ``color`` in the biggest game (Base+MLPD)."""
    return [p for p in Piece if p >> 4 == color]
