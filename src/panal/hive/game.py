"""The Hive game: position, move stack, legal moves, outcome.

A :class:`Game` is to panal what ``chess.Board`` is to python-chess: the position plus the moves
that led to it. ``Game()`` is the start of a base game; ``Game.from_game_string(s)`` any game
written as a UHP GameString; ``Game.from_board(...)`` and ``Game.from_board_text(...)`` any
position, set up without moves. ``game.game_string()`` writes the GameString back and
``print(game)`` draws the board.

>>> from panal.hive import Game
>>> game = Game("Base+MLP", tournament_opening=True)
>>> game.push("wS1")
Move(wS1, (0, 0))
>>> game.push("bG1 wS1-")
Move(bG1, (1, 0))
>>> len(game.legal_moves), "wA1 -wS1" in game.legal_moves, game.peek()
(24, True, Move(bG1, (1, 0)))
>>> print(game)
Base+MLP;InProgress;White[2];last bG1
wS1 bG1

Properties read what the game holds (``turn``, ``ply``, ``turn_number``, ``state``, ``hash``,
``last_moved``, ``move_stack``, the lazy ``legal_moves`` view); methods compute or ask
(``outcome()``, ``is_over()``, ``board()``, ``in_hand()``, ``position_of()``, ``perft()``).

**The low-level surface.** Hot paths work on plain ints: *move codes*
(:mod:`panal.hive.codes`), *piece values* (``int(Piece.wA1)``) and *packed cells*
(:func:`panal.hex.pack`). ``legal_move_codes()``, ``push_code()`` and ``pop_code()`` play them
without building :class:`Move` objects, and these read-only views show the position as the move
generator holds it (never modify them; the game owns them):

* ``stacks``: packed cell → piece values, bottom first, for every occupied cell;
* ``piece_cells``: piece value → its packed cell, or :data:`~panal.hive.codes.OFF_BOARD`;
* ``placed_counts``: ``colour << 4 | bug`` → how many such pieces are on the board;
* ``ply``, ``hash`` (incremental Zobrist key) and ``state``.

The AI, the notation and the rule explanations use only this surface.

Why one module of some 1,200 lines, against the project's 600: the move generator, make and
unmake, and the incremental state they keep (hash, pinned cells, pieces in hand, Dragonfly
history) are one class's private fields, read and written on every node of every search. Split
across modules they would need public accessors or shared private fields, and each accessor is
a call on the hottest path, pure and compiled. What needs no private field lives apart: the
bugs' moves (:mod:`panal.hive.movement`), notation, set-ups, the board text and the SVG.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Final, NamedTuple

from panal.hex import (
    NEIGHBOR_OFFSETS,
    ORIGIN_CELL,
    Hex,
    as_pair,
    neighbor_cells,
    pack,
    unpack,
)
from panal.hive import movement
from panal.hive.board_text import format_board, parse_board_text
from panal.hive.codes import CARRY_FLAG, NO_PIECE, OFF_BOARD, PASS_CODE
from panal.hive.errors import (
    GameStringError,
    IllegalMoveError,
    PositionError,
)
from panal.hive.move import Move
from panal.hive.notation import format_head, format_move, parse_game_string_head, parse_move
from panal.hive.options import DragonflyCarry, DragonflySidestep, Options
from panal.hive.outcome import GameState, Outcome, Termination
from panal.hive.pieces import (
    BUG_COUNT_BY_VALUE,
    BUG_OF,
    FIRST_SLOT,
    PIECE_BY_VALUE,
    Bug,
    Color,
    GameType,
    Piece,
)
from panal.hive.rules import broken_rule
from panal.hive.setup import BoardInput, board_stacks, check_position, smallest_ply
from panal.hive.svg import board_svg

__all__ = ["Game", "LegalMoves"]

_QUEEN: Final = int(Bug.QUEEN)
_BEETLE: Final = int(Bug.BEETLE)
_MOSQUITO: Final = int(Bug.MOSQUITO)
_PILLBUG: Final = int(Bug.PILLBUG)
_DRAGONFLY: Final = int(Bug.DRAGONFLY)
_WHITE_QUEEN: Final = int(Piece.wQ)
# By bug value: the first slot of the bug (Piece value & 15).
_FIRST_SLOT_OF_BUG: Final = tuple(FIRST_SLOT[bug] for bug in Bug)
_QUEEN_BIT: Final = 1 << int(Bug.QUEEN)
_BITS_SET: Final = tuple(bin(mask).count("1") for mask in range(1 << len(Bug)))
_BLACK_QUEEN: Final = int(Piece.bQ)


# --- Zobrist keys ---------------------------------------------------------------------------

_MASK64: Final = (1 << 64) - 1


def _splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


_ZOBRIST: Final[dict[int, int]] = {}
_FROZEN: Final[dict[int, int]] = {}
SIDE_KEY: Final = _splitmix64(0x5EED)
# Pieces of one kind are interchangeable: the key of a piece is that of its colour and bug, so
# two positions that differ only by which ant stands where are one position (as for nokamute,
# and for the repetition rule).
_KIND: Final = [p & 16 | BUG_OF[p] for p in range(32)]
# Options that make the legal moves depend on more than the pieces (docs/rules.md): under
# ``dragonfly_carry=next_turn`` the carrier that landed last turn, under
# ``mosquito_stays_dragonfly`` each mosquito that flew up as a Dragonfly. Positions that differ
# in them differ in their keys. (Both are unique pieces, one per colour.)
CARRIER_KEYS: Final = [_splitmix64(0xCA00 + p) for p in range(32)]
FLYING_KEYS: Final = [_splitmix64(0xF1E00 + p) for p in range(32)]

_SIDESTEP_TURNS: Final = {
    DragonflySidestep.FORWARD: movement.FORWARD_TURNS,
    DragonflySidestep.BACKWARD: movement.BACKWARD_TURNS,
    DragonflySidestep.EITHER: movement.FORWARD_TURNS + movement.BACKWARD_TURNS,
}


def _zobrist(piece: int, cell: int, level: int) -> int:
    """Deterministic key of a piece's kind on a cell at a level (the same in every process)."""
    index = (cell << 9) | (level << 5) | _KIND[piece]
    key = _ZOBRIST.get(index)
    if key is None:
        key = _ZOBRIST[index] = _splitmix64(index)
    return key


def _frozen_key(cell: int) -> int:
    """Key of the frozen (last-moved) piece, by the cell it stands on."""
    key = _FROZEN.get(cell)
    if key is None:
        key = _FROZEN[cell] = _splitmix64(_splitmix64(0xF00D) ^ cell)
    return key


# What ``pop_code`` needs to take a move back: (move code, origin cell, last-moved piece, state,
# hash) before the move. A plain tuple: one is built per move, and a NamedTuple's constructor
# costs seven times as much.
# (code, origin, last moved, state, hash, pinned cells or None) before each move.
_Undo = tuple[int, int, int, GameState, int, "frozenset[int] | None"]
_UNDO_CODE: Final = 0
_UNDO_HASH: Final = 4

# By the mask of a cell's occupied neighbours: the direction of the only one, else -1.
_ONLY_NEIGHBOR: Final[tuple[int, ...]] = tuple(
    mask.bit_length() - 1 if mask and not mask & (mask - 1) else -1 for mask in range(64)
)
_IN_PROGRESS: Final = GameState.IN_PROGRESS
_NOT_STARTED: Final = GameState.NOT_STARTED


class _Start(NamedTuple):
    """Where a set-up game began: its stacks (cell, pieces), ply and last-moved piece."""

    stacks: tuple[tuple[int, tuple[int, ...]], ...]
    ply: int
    last_moved: int


def _options(options: Options | None, rules: dict[str, Any]) -> Options:
    """One way to give rule options: an :class:`Options` or its fields as keywords, not both."""
    if options is not None:
        if rules:
            raise TypeError(
                f"give the rule options either as options=Options(...) or as keywords, not "
                f"both (got options= and {', '.join(sorted(rules))}=)"
            )
        if not isinstance(options, Options):
            raise TypeError(f"options must be an Options, not {type(options).__name__}")
        return options
    unknown = sorted(set(rules) - set(Options.__dataclass_fields__))
    if unknown:
        known = ", ".join(Options.__dataclass_fields__)
        raise TypeError(f"unknown rule option {', '.join(unknown)}; the options are {known}")
    return Options(**rules)


class LegalMoves:
    """The legal moves of a game's current position, generated when first asked for.

    ``len()``, ``in`` (a :class:`Move` or a MoveString) and iteration, like python-chess's
    ``board.legal_moves``. The view follows the game: after a push it shows the new position.
    A position where nothing else is legal has one move, the pass; a finished game has none.
    """

    __slots__ = ("_game",)

    def __init__(self, game: Game) -> None:
        self._game = game

    def __len__(self) -> int:
        return len(self._game.legal_move_codes())

    def __bool__(self) -> bool:
        return bool(self._game.legal_move_codes())

    def __iter__(self) -> Iterator[Move]:
        return map(Move.from_code, self._game.legal_move_codes())

    def __contains__(self, move: object) -> bool:
        if isinstance(move, (Move, str)):
            return self._game.is_legal(move)
        return False

    def codes(self) -> list[int]:
        """The legal moves as move codes (``game.legal_move_codes()``)."""
        return list(self._game.legal_move_codes())

    def __repr__(self) -> str:
        game = self._game
        names = ", ".join(game.move_string(code) for code in game.legal_move_codes())
        return f"<LegalMoves ({len(self)}): {names}>"


class Game:
    """A game of Hive: the position and the moves that led to it.

    ``game_type`` is a :class:`GameType` or a GameTypeString (``"Base+MLP"``). Rule options come
    either as ``options=Options(...)`` or as its fields as keywords (``tournament_opening=True``),
    not both; an unknown keyword raises ``TypeError``, a wrong value
    :class:`~panal.hive.options.OptionsError`. docs/rules.md explains every option.
    """

    def __init__(
        self,
        game_type: GameType | str = "Base",
        *,
        options: Options | None = None,
        **rules: Any,
    ) -> None:
        if not isinstance(game_type, (GameType, str)):
            raise TypeError(f"game_type is a GameType or a GameTypeString, not {game_type!r}")
        self._game_type = (
            game_type if isinstance(game_type, GameType) else GameType.parse(game_type)
        )
        self._options = _options(options, rules)
        self._bugs = tuple(int(b) for b in self._game_type.bugs)
        self._has_pillbug = Bug.PILLBUG in self._game_type.expansions
        expansions = self._game_type.expansions
        opts = self._options
        self._sidestep = (
            _SIDESTEP_TURNS[opts.dragonfly_sidestep],
            opts.dragonfly_gaps,
            opts.dragonfly_contact,
        )
        self._carry_next_turn = (
            Bug.DRAGONFLY in expansions and opts.dragonfly_carry is DragonflyCarry.NEXT_TURN
        )
        self._track_flight = (
            Bug.DRAGONFLY in expansions
            and Bug.MOSQUITO in expansions
            and opts.mosquito_stays_dragonfly
        )
        self._track_forced = opts.repetition_draw and opts.repetition_forced
        self._tournament_opening = opts.tournament_opening
        self._stacks: dict[int, list[int]] = {}
        self._cell = [OFF_BOARD] * 32
        self._placed = [0] * 32  # colour << 4 | bug -> how many placed
        self._hand_bugs = [self._bugs_in_hand(0), self._bugs_in_hand(1)]  # bit per bug left
        self._ply = 0
        self._last_moved = NO_PIECE
        self._hash = 0
        self._state = GameState.NOT_STARTED
        self._undo: list[_Undo] = []
        self._seen: dict[int, int] = {0: 1}
        self._legal: list[int] | None = None
        # The pinned cells of this position once known; a move that keeps the hive's shape, or
        # adds a leaf to it, derives its position's from them (``push_code``).
        self._pinned: frozenset[int] | None = None
        self._start: _Start | None = None  # None: the empty board
        self._carrier = NO_PIECE  # dragonfly_carry=next_turn: who may carry now
        self._flying = 0  # mosquito_stays_dragonfly: bit per mosquito up there as a Dragonfly
        self._flying_undo: list[int] = []  # ... and its value before each move
        self._forced: list[bool] = []  # repetition_forced: before each move, was it forced?

    # --- construction -----------------------------------------------------------------------

    @classmethod
    def from_game_string(
        cls,
        text: str,
        *,
        lenient: bool = False,
        options: Options | None = None,
        **rules: Any,
    ) -> Game:
        """Replay a UHP GameString with full rules.

        Its state and turn fields must agree with the moves (``GameStringError`` otherwise).
        ``lenient`` accepts what other programs write: hivegame.com's climbs written with a
        direction (see :meth:`parse_move`), and state and turn fields that the moves contradict
        (Mzinga's test data writes ``NotStarted;White[1]`` for started games): they are then
        recomputed.
        """
        head = parse_game_string_head(text)
        game = cls(head.game_type, options=options, **rules)
        for number, move in enumerate(head.moves, 1):
            try:
                game.push(move, lenient=lenient)
            except ValueError as exc:
                raise GameStringError(f"move {number} ({move!r}): {exc}") from exc
        if lenient:
            return game
        if head.ply != game.ply:
            raise GameStringError(
                f"the GameString says {head.turn.title}[{head.turn_number}] but after "
                f"{game.ply} moves it is {game.turn.title}[{game.turn_number}]"
            )
        if head.state is not game.state:
            raise GameStringError(
                f"the GameString says {head.state} but the position is {game.state}"
            )
        return game

    @classmethod
    def from_board(
        cls,
        board: BoardInput,
        *,
        game_type: GameType | str = "Base",
        turn: Color = Color.WHITE,
        turn_number: int | None = None,
        last_moved: Piece | str | None = None,
        options: Options | None = None,
        **rules: Any,
    ) -> Game:
        """Set up a position without replaying moves, every invariant checked.

        ``board`` maps cells (``Hex`` or ``(q, r)``) to stacks, bottom first (a lone piece may
        be given by itself; pieces by name or as ``Piece``). The pieces in hand are the game
        type's pieces not on the board. ``turn_number`` (UHP's ``White[n]``) defaults to the
        first at which the board can be reached; ``last_moved`` is the piece the last move
        moved (a pillbug's throw freezes it; it is drawn outlined). A board no game can reach
        raises :class:`~panal.hive.errors.PositionError` (see :mod:`panal.hive.setup`).
        A set-up position has no history: under ``dragonfly_carry=next_turn`` no Dragonfly has
        just landed, and under ``mosquito_stays_dragonfly`` no mosquito flew up.

        >>> from panal.hex import Hex
        >>> from panal.hive import Color, Game
        >>> game = Game.from_board({(0, 0): "wQ", (1, 0): ["bQ", "wB1"], (-1, 0): "bS1"},
        ...                        turn=Color.BLACK)
        >>> game.turn_number, game.stack_at(Hex(1, 0))
        (3, [Piece.bQ, Piece.wB1])
        """
        game = cls(game_type, options=options, **rules)
        stacks = board_stacks(board, game.game_type)
        if not isinstance(turn, Color):
            raise TypeError(f"turn is a Color, not {turn!r}")
        if turn_number is None:
            ply = smallest_ply(stacks, turn)
        elif isinstance(turn_number, int) and turn_number >= 1:
            ply = 2 * (turn_number - 1) + int(turn)
        else:
            raise PositionError(f"the turn number starts at 1, not {turn_number!r}")
        last = None
        if last_moved is not None:
            try:
                last = _as_piece(last_moved)
            except ValueError as exc:
                raise PositionError(str(exc)) from None
        check_position(stacks, game.game_type, ply, last)
        game._set_up(stacks, ply, NO_PIECE if last is None else int(last))
        return game

    @classmethod
    def from_board_text(cls, text: str, *, options: Options | None = None, **rules: Any) -> Game:
        """Set up the position written in text form (see :mod:`panal.hive.board_text`; it is
        what ``print(game)`` shows). Its state must be the board's.

        >>> game = Game.from_board_text('''
        ... Base;InProgress;Black[5];last wB1
        ...   bS1 bQ  bA1
        ... wQ  wS1 wB1
        ... wB1 on bA2
        ... ''')
        >>> game.stack_at(game.position_of("wB1"))
        [Piece.bA2, Piece.wB1]
        """
        parsed = parse_board_text(text)
        game = cls.from_board(
            parsed.board,
            game_type=parsed.game_type,
            turn=parsed.turn,
            turn_number=parsed.turn_number,
            last_moved=parsed.last_moved,
            options=options,
            **rules,
        )
        if game.state is not parsed.state:
            raise PositionError(f"the text says {parsed.state} but the board is {game.state}")
        return game

    def _set_up(self, stacks: dict[int, list[int]], ply: int, last_moved: int) -> None:
        """Load a checked position (the state of a new game is replaced)."""
        self._stacks = {cell: list(stack) for cell, stack in stacks.items()}
        self._cell = [OFF_BOARD] * 32
        self._placed = [0] * 32
        h = 0
        for cell, stack in self._stacks.items():
            for level, piece in enumerate(stack):
                self._cell[piece] = cell
                self._placed[piece & 16 | BUG_OF[piece]] += 1
                h ^= _zobrist(piece, cell, level)
        self._hand_bugs = [self._bugs_in_hand(0), self._bugs_in_hand(1)]
        if ply & 1:
            h ^= SIDE_KEY
        if self._has_pillbug and last_moved >= 0:
            h ^= _frozen_key(self._cell[last_moved])
        self._ply = ply
        self._last_moved = last_moved
        self._hash = h
        self._undo = []
        self._seen = {h: 1}
        self._legal = None
        self._pinned = None
        self._carrier = NO_PIECE
        self._flying = 0
        self._flying_undo = []
        self._forced = []
        self._state = self._evaluate(1) if ply or stacks else GameState.NOT_STARTED
        self._start = _Start(
            tuple((cell, tuple(stack)) for cell, stack in self._stacks.items()), ply, last_moved
        )

    def _initial(self) -> Game:
        """A new game at this game's start (the empty board, or the set-up position)."""
        game = Game(self._game_type, options=self._options)
        start = self._start
        if start is not None:
            game._set_up({cell: list(stack) for cell, stack in start.stacks}, *start[1:])
        return game

    def copy(self) -> Game:
        """An independent copy (position, history and options)."""
        # Field by field, no __dict__: the compiled build's Game has none.
        other = Game(self._game_type, options=self._options)
        other._stacks = {cell: list(stack) for cell, stack in self._stacks.items()}
        other._cell = list(self._cell)
        other._placed = list(self._placed)
        other._hand_bugs = list(self._hand_bugs)
        other._ply = self._ply
        other._last_moved = self._last_moved
        other._hash = self._hash
        other._state = self._state
        other._undo = list(self._undo)
        other._pinned = self._pinned
        other._seen = dict(self._seen)
        other._start = self._start
        other._carrier = self._carrier
        other._flying = self._flying
        other._flying_undo = list(self._flying_undo)
        other._forced = list(self._forced)
        return other

    # --- text -------------------------------------------------------------------------------

    def game_string(self) -> str:
        """The UHP GameString: ``Base+MLP;InProgress;White[2];wS1;bG1 wS1-``.

        GameStrings start from the empty board, so a game set up from a board has none
        (``ValueError``); :meth:`board_text` writes any position.
        """
        if self._start is not None:
            raise ValueError(
                "a game set up from a board has no GameString (GameStrings start from the "
                "empty board); board_text() writes its position"
            )
        head = format_head(self._game_type, self._state, self.turn, self.turn_number)
        return ";".join([head, *self.move_strings()])

    def board_text(self) -> str:
        """The position as text (see :mod:`panal.hive.board_text`): what ``print(game)``
        shows, and what :meth:`from_board_text` reads."""
        return format_board(self)

    def __str__(self) -> str:
        return format_board(self)

    def __repr__(self) -> str:
        if self._start is None:
            return f"Game.from_game_string({self.game_string()!r})"
        return f"Game.from_board_text({self.board_text()!r})"

    def _repr_svg_(self) -> str:
        """Notebooks show a game as its board (see :mod:`panal.hive.svg`)."""
        return board_svg(self)

    def __eq__(self, other: object) -> bool:
        """Two games are equal when they have the same rules, start and moves (so the same
        position and the same history)."""
        if not isinstance(other, Game):
            return NotImplemented
        return (
            self._game_type == other._game_type
            and self._options == other._options
            and self._start == other._start
            and self._ply == other._ply
            and self._hash == other._hash
            and self.move_codes == other.move_codes
        )

    __hash__ = None  # type: ignore[assignment]  # a game changes: it cannot be a dict key

    def move_string(self, move: Move | int) -> str:
        """The UHP MoveString of a legal move (a :class:`Move` or a move code) in this
        position; ``IllegalMoveError`` when it is not legal here."""
        if isinstance(move, Move):
            code = move.code
        elif isinstance(move, int) and not isinstance(move, bool):
            code = move
        else:
            raise TypeError(f"move_string takes a Move or a move code, not {move!r}")
        self._check_legal(code)
        return format_move(self, code)

    def parse_move(self, text: str, *, lenient: bool = False) -> Move:
        """A UHP MoveString → a legal :class:`Move` (raises ``InvalidMoveError`` for text that
        does not parse, ``IllegalMoveError`` for a move the rules forbid).

        A directional reference naming an occupied cell is refused, as Mzinga does, unless
        ``lenient`` reads it as a climb onto that cell, as hivegame.com writes.
        """
        return Move.from_code(self.parse_move_code(text, lenient=lenient))

    def parse_move_code(self, text: str, *, lenient: bool = False) -> int:
        """Like :meth:`parse_move`, returning the move code."""
        code = parse_move(self, text, lenient=lenient)
        self._check_legal(code)
        return code

    # --- state ------------------------------------------------------------------------------

    @property
    def game_type(self) -> GameType:
        return self._game_type

    @property
    def options(self) -> Options:
        return self._options

    @property
    def turn(self) -> Color:
        """The colour to move."""
        return Color(self._ply & 1)

    @property
    def turn_number(self) -> int:
        """UHP's turn number: ``White[n]``/``Black[n]``."""
        return self._ply // 2 + 1

    @property
    def ply(self) -> int:
        """Moves played since the start of the game (set-up games count the ones before)."""
        return self._ply

    @property
    def state(self) -> GameState:
        return self._state

    def is_over(self) -> bool:
        return self._state.is_over

    def outcome(self) -> Outcome | None:
        """Why the game is over (``None`` while it goes on).

        The position decides: a surrounded queen (``SURROUNDED``, its owner loses), both at
        once (``BOTH_SURROUNDED``, a draw), or a third repetition (``REPETITION``). Endings off
        the board (resignation, agreement, time, forfeit) are for records and servers to say.
        """
        if not self._state.is_over:
            return None
        white_lost = self._surrounded(int(Piece.wQ))
        black_lost = self._surrounded(int(Piece.bQ))
        if white_lost and black_lost:
            return Outcome(Termination.BOTH_SURROUNDED, None)
        if white_lost:
            return Outcome(Termination.SURROUNDED, Color.BLACK)
        if black_lost:
            return Outcome(Termination.SURROUNDED, Color.WHITE)
        return Outcome(Termination.REPETITION, None)

    @property
    def hash(self) -> int:
        """Incremental 64-bit key of pieces, side to move and (pillbug games) frozen piece."""
        return self._hash

    @property
    def last_moved(self) -> Piece | None:
        """The piece moved or placed by the last move; nothing may move it now."""
        return PIECE_BY_VALUE[self._last_moved] if self._last_moved >= 0 else None

    def position_of(self, piece: Piece | str) -> Hex | None:
        """The cell of ``piece`` (a :class:`Piece` or its name), or None while in hand."""
        cell = self._cell[_as_piece(piece)]
        return None if cell == OFF_BOARD else unpack(cell)

    def stack_at(self, where: Hex | tuple[int, int]) -> list[Piece]:
        """Pieces on a cell, bottom first (empty for an empty cell)."""
        return [PIECE_BY_VALUE[p] for p in self._stacks.get(_as_cell(where), ())]

    def board(self) -> dict[Hex, list[Piece]]:
        """Every occupied cell and its stack, bottom first."""
        return {
            unpack(cell): [PIECE_BY_VALUE[p] for p in stack] for cell, stack in self._stacks.items()
        }

    def in_hand(self, color: Color) -> list[Piece]:
        """The pieces ``color`` has not placed yet, in slot order."""
        return [p for p in self._game_type.pieces(Color(color)) if self._cell[p] == OFF_BOARD]

    def is_queen_placed(self, color: Color) -> bool:
        return self._cell[Color(color) << 4] != OFF_BOARD

    def must_place_queen(self) -> bool:
        """True on the player's fourth turn when the queen is still in hand."""
        return self.turn_number >= 4 and not self.is_queen_placed(self.turn)

    def surrounding(self, color: Color) -> int:
        """How many of the six cells around ``color``'s queen are occupied (0 if in hand)."""
        cell = self._cell[Color(color) << 4]
        if cell == OFF_BOARD:
            return 0
        return sum(cell + step in self._stacks for step in NEIGHBOR_OFFSETS)

    # --- the low-level surface (read-only) --------------------------------------------------

    @property
    def stacks(self) -> Mapping[int, Sequence[int]]:
        """Packed cell → piece values, bottom first, for every occupied cell (read-only)."""
        return self._stacks

    @property
    def piece_cells(self) -> Sequence[int]:
        """Piece value → packed cell, or ``OFF_BOARD`` while in hand (read-only)."""
        return self._cell

    @property
    def placed_counts(self) -> Sequence[int]:
        """``colour << 4 | bug`` → how many such pieces are on the board (read-only)."""
        return self._placed

    # --- history ----------------------------------------------------------------------------

    @property
    def move_stack(self) -> list[Move]:
        """The moves played so far, first first (a new list each time)."""
        return [Move.from_code(undo[_UNDO_CODE]) for undo in self._undo]

    @property
    def move_codes(self) -> list[int]:
        """The moves played so far as move codes."""
        return [undo[_UNDO_CODE] for undo in self._undo]

    def peek(self) -> Move:
        """The last move played; ``IndexError`` before the first."""
        if not self._undo:
            raise IndexError("no move has been played")
        return Move.from_code(self._undo[-1][_UNDO_CODE])

    def move_strings(self) -> list[str]:
        """The moves played so far in UHP notation, each relative to its own position."""
        replay = self._initial()
        out = []
        for code in self.move_codes:
            out.append(format_move(replay, code))
            replay.push_code(code)
        return out

    def repetitions(self) -> int:
        """How many times the current position has occurred."""
        return self._seen.get(self._hash, 0)

    # --- legal moves ------------------------------------------------------------------------

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves, as a lazy view: ``len``, ``in`` (Move or MoveString), iteration."""
        return LegalMoves(self)

    def legal_move_codes(self) -> list[int]:
        """Every legal move as a code; ``[PASS_CODE]`` when nothing else is legal; ``[]`` once
        the game is over. The list is cached for the position: do not modify it."""
        if self._legal is None:
            self._legal = self._generate()
        return self._legal

    def is_legal(self, move: Move | str) -> bool:
        """Whether a :class:`Move` or a MoveString is legal here (never raises for bad text)."""
        if isinstance(move, Move):
            code = move.code
        elif isinstance(move, str):
            try:
                code = parse_move(self, move)
            except ValueError:
                return False
        else:
            return False
        return self.is_legal_code(code)

    def is_legal_code(self, code: int) -> bool:
        """Whether move ``code`` is legal here: the same answer as ``code in
        legal_move_codes()``, found without generating every move when they are not known yet
        (a placement checks its piece and cell; a movement generates the moves of its piece and
        of the side to move's Pillbugs and Mosquitoes beside it, which may throw it)."""
        if self._legal is not None or code < 0:
            return code in self.legal_move_codes()
        state = self._state
        if state is not _IN_PROGRESS and state is not _NOT_STARTED:
            return False
        color = self._ply & 1
        piece = code & 31
        cell = self._cell[piece]
        if cell == OFF_BOARD:
            return (
                not code & CARRY_FLAG
                and piece in self.placeable_pieces(color)
                and code >> 6 in self.placement_cells(color)
            )
        if self._cell[color << 4] == OFF_BOARD:
            return False  # nothing moves before its side's queen is placed
        stacks = self._stacks
        pinned = self.pinned_cells()
        frozen = self._last_moved
        found: set[int] = set()
        stack = stacks[cell]
        if piece >> 4 == color and piece != frozen and stack[-1] == piece:
            self._add_moves_of(piece, cell, stack, pinned, found)
        if not code & CARRY_FLAG:
            for step in NEIGHBOR_OFFSETS:
                # A throw, by a Pillbug or a Mosquito standing alone beside the piece (only its
                # throws: a Mosquito's own moves, as an Ant say, cannot move this piece).
                thrower = cell + step
                near = stacks.get(thrower)
                if (
                    near
                    and len(near) == 1
                    and near[0] >> 4 == color
                    and near[0] != frozen
                    and self._throws_here(near[0], thrower)
                ):
                    self._throws(thrower, pinned, found)
        return code in found

    def _throws_here(self, piece: int, cell: int) -> bool:
        """Whether ``piece``, alone on ``cell``, has the Pillbug's power: it is one, or a
        Mosquito beside one (on top of its stack, as the Mosquito copies it)."""
        bug = BUG_OF[piece]
        if bug == _PILLBUG:
            return True
        if bug != _MOSQUITO:
            return False
        stacks = self._stacks
        for step in NEIGHBOR_OFFSETS:
            near = stacks.get(cell + step)
            if near and BUG_OF[near[-1]] == _PILLBUG:
                return True
        return False

    def _generate(self) -> list[int]:
        state = self._state
        if state is not _IN_PROGRESS and state is not _NOT_STARTED:  # not state.is_over, faster
            return []
        color = self._ply & 1
        codes = self._placements(color)
        if self._cell[color << 4] != OFF_BOARD:
            codes.extend(self._movements(color))
        return codes or [PASS_CODE]

    def placement_cells(self, color: int) -> list[int]:
        """Empty cells where ``color`` may place a piece (packed)."""
        first = self._first_placements()
        if first is not None:
            return list(first)
        return movement.placement_cells(self._stacks, color)

    def _first_placements(self) -> tuple[int, ...] | None:
        """The placement cells of the first two moves, which the general rule does not give
        (the second piece touches the enemy's); None later."""
        stacks = self._stacks
        if not stacks:
            return (ORIGIN_CELL,)
        if self._ply < 2 and len(stacks) == 1:
            (cell,) = stacks
            return neighbor_cells(cell)
        return None

    def placeable_pieces(self, color: int) -> list[int]:
        """The next piece of each kind ``color`` may place now (queen rules included)."""
        bugs = self._placeable_bugs(color)
        base = color << 4
        placed = self._placed
        return [
            base | (_FIRST_SLOT_OF_BUG[bug] + placed[base | bug])
            for bug in self._bugs
            if bugs >> bug & 1
        ]

    def _placeable_bugs(self, color: int) -> int:
        """A bit per bug of which ``color`` may place a piece now (queen rules included)."""
        if self._cell[color << 4] == OFF_BOARD:  # the queen is in hand
            turn = self._ply // 2 + 1
            if turn >= 4:
                return _QUEEN_BIT
            if turn == 1 and self._tournament_opening:
                return self._hand_bugs[color] & ~_QUEEN_BIT
        return self._hand_bugs[color]

    def _bugs_in_hand(self, color: int) -> int:
        """A bit per bug of which ``color`` has a piece in hand (kept in ``_hand_bugs``)."""
        base = color << 4
        return sum(
            1 << bug for bug in self._bugs if self._placed[base | bug] < BUG_COUNT_BY_VALUE[bug]
        )

    def _placements(self, color: int) -> list[int]:
        pieces = self.placeable_pieces(color)
        if not pieces:
            return []
        return [cell << 6 | piece for cell in self.placement_cells(color) for piece in pieces]

    def pinned_cells(self) -> frozenset[int]:
        """The cells whose piece, alone there, the one-hive rule pins (articulation points)."""
        pinned = self._pinned
        if pinned is None:
            pinned = self._pinned = movement.pinned_cells(self._stacks)
        return pinned

    def _movements(self, color: int) -> list[int]:
        stacks = self._stacks
        pinned = self.pinned_cells()
        frozen = self._last_moved
        cells = self._cell
        found: set[int] = set()
        for piece in range(color << 4, (color << 4) + 15):
            cell = cells[piece]
            if cell == OFF_BOARD or piece == frozen:
                continue
            stack = stacks[cell]
            if stack[-1] == piece:  # not covered
                self._add_moves_of(piece, cell, stack, pinned, found)
        return list(found)

    def _add_moves_of(
        self, piece: int, cell: int, stack: list[int], pinned: frozenset[int], found: set[int]
    ) -> None:
        """Add to ``found`` the moves the side to move makes with its ``piece``, on top of
        ``stack`` at ``cell`` and not frozen: the piece's own moves, and the throws it makes as
        a Pillbug (or a Mosquito beside one)."""
        stacks = self._stacks
        bug = BUG_OF[piece]
        free = len(stack) > 1 or cell not in pinned
        if bug == _MOSQUITO and len(stack) == 1:
            copied = {BUG_OF[stacks[cell + s][-1]] for s in NEIGHBOR_OFFSETS if cell + s in stacks}
            copied.discard(_MOSQUITO)
            if free:
                for dest in self._lifted_moves(piece, cell, copied):
                    found.add(dest << 6 | piece)
            if _PILLBUG in copied:
                self._throws(cell, pinned, found)
            return
        if bug == _MOSQUITO:  # on top of the hive: a beetle, or a Dragonfly if it flew up
            bug = _DRAGONFLY if self._flying >> piece & 1 else _BEETLE
        if free:
            for dest in self._lifted_moves(piece, cell, (bug,)):
                found.add(dest << 6 | piece)
            if bug == _DRAGONFLY and len(stack) > 1 and self.may_carry(piece):
                self._carries(piece, cell, pinned, found)
        if bug == _PILLBUG:
            self._throws(cell, pinned, found)

    def may_carry(self, piece: int) -> bool:
        """Whether the carrier ``piece``, on top of a stack, may carry now as far as *when* goes.

        Under ``dragonfly_carry=next_turn`` only the carrier its owner moved last turn may.
        """
        return not self._carry_next_turn or piece == self._carrier

    def _find_carrier(self) -> int:
        """``dragonfly_carry=next_turn``: the piece the side to move moved on its previous turn,
        if it is a carrier (a Dragonfly, or a Mosquito flying as one) on top of a stack."""
        if len(self._undo) < 2:
            return NO_PIECE
        code = self._undo[-2][_UNDO_CODE]
        if code == PASS_CODE:
            return NO_PIECE
        piece = code & 31
        cell = self._cell[piece]
        stack = self._stacks.get(cell)
        if not stack or len(stack) < 2 or stack[-1] != piece or piece >> 4 != self._ply & 1:
            return NO_PIECE
        if BUG_OF[piece] == _DRAGONFLY or self._flying >> piece & 1:
            return piece
        return NO_PIECE

    def is_flying(self, piece: Piece | int) -> bool:
        """``mosquito_stays_dragonfly``: a Mosquito up on the hive because it flew as a Dragonfly
        (it moves there as a Dragonfly, not as a Beetle)."""
        return bool(self._flying >> int(piece) & 1)

    @property
    def carrier(self) -> Piece | None:
        """Under ``dragonfly_carry=next_turn``, the one piece that may carry now (else None)."""
        return PIECE_BY_VALUE[self._carrier] if self._carrier >= 0 else None

    def _lifted_moves(self, piece: int, cell: int, bugs: Iterable[int]) -> set[int]:
        """Destinations of ``piece`` moving as each of ``bugs``, with the piece lifted."""
        stacks = self._stacks
        stack = stacks[cell]
        lone = len(stack) == 1
        if lone:
            del stacks[cell]
        else:
            stack.pop()
        dests: set[int] = set()
        try:
            for bug in bugs:
                if bug == _DRAGONFLY:
                    dests.update(movement.dragonfly_moves(stacks, cell, *self._sidestep))
                else:
                    dests.update(movement.moves(bug, stacks, cell))
        finally:
            if lone:
                stacks[cell] = stack
            else:
                stack.append(piece)
        return dests

    def _carries(self, carrier: int, cell: int, pinned: frozenset[int], found: set[int]) -> None:
        """A Dragonfly on a stack may fly off carrying the piece beneath it to the ground."""
        stacks = self._stacks
        stack = stacks[cell]
        pair_alone = len(stack) == 2
        if pair_alone and cell in pinned:
            return  # lifting the pair would split the hive
        pair = stack[-2:]
        if pair_alone:
            del stacks[cell]
        else:
            del stack[-2:]
        try:
            for dest in movement.dragonfly_moves(stacks, cell, *self._sidestep):
                if dest not in stacks:
                    found.add(dest << 6 | CARRY_FLAG | carrier)
        finally:
            if pair_alone:
                stacks[cell] = stack
            else:
                stack.extend(pair)

    def _throws(self, pillbug_cell: int, pinned: frozenset[int], found: set[int]) -> None:
        """The pillbug's power: lift a lone, unpinned neighbour over itself to an empty one."""
        stacks = self._stacks
        if len(stacks[pillbug_cell]) != 1:
            return
        frozen = self._last_moved
        for target in movement.throw_targets(stacks, pillbug_cell):
            if target in pinned:
                continue
            stack = stacks[target]
            piece = stack[0]
            if piece == frozen:
                continue
            del stacks[target]
            try:
                for landing in movement.throw_landings(stacks, pillbug_cell):
                    if landing != target:
                        found.add(landing << 6 | piece)
            finally:
                stacks[target] = stack

    # --- playing ----------------------------------------------------------------------------

    def push(self, move: Move | str, *, lenient: bool = False) -> Move:
        """Play a legal move, a :class:`Move` or a UHP MoveString (read as :meth:`parse_move`
        reads it). An illegal move raises ``IllegalMoveError`` and changes nothing."""
        if isinstance(move, Move):
            code = move.code
            self._check_legal(code)
        elif isinstance(move, str):
            code = self.parse_move_code(move, lenient=lenient)
        else:
            raise TypeError(f"push takes a Move or a MoveString, not {type(move).__name__}")
        self.push_code(code)
        return Move.from_code(code)

    def push_code(self, code: int) -> None:
        """Play a move code known to be legal (no check: the fast path)."""
        if self._track_forced:
            self._forced.append(self._is_forced())
        stacks = self._stacks
        last_moved = self._last_moved
        h = self._hash
        origin = OFF_BOARD if code == PASS_CODE else self._cell[code & 31]
        pinned = self._pinned
        self._undo.append((code, origin, last_moved, self._state, h, pinned))
        if self._has_pillbug and last_moved >= 0:
            h ^= _frozen_key(self._cell[last_moved])
        if code == PASS_CODE:
            self._last_moved = NO_PIECE
            if self._track_flight:
                self._flying_undo.append(self._flying)
        else:
            piece = code & 31
            dest = code >> 6
            if origin == OFF_BOARD:
                bug = BUG_OF[piece]
                placed = self._placed[piece & 16 | bug] = self._placed[piece & 16 | bug] + 1
                if placed == BUG_COUNT_BY_VALUE[bug]:
                    self._hand_bugs[piece >> 4] ^= 1 << bug
                moving = [piece]
                if pinned is not None:
                    pinned = self._pinned_after_placing(pinned, dest)
            else:
                stack = stacks[origin]
                count = 2 if code & CARRY_FLAG else 1
                base = len(stack) - count
                moving = stack[base:]
                for level, p in enumerate(moving, base):
                    h ^= _zobrist(p, origin, level)
                if base:
                    del stack[base:]
                else:
                    del stacks[origin]
                    pinned = None  # the shape changes: no rule derives its pinned cells
            target = stacks.get(dest)
            if target is None:
                target = stacks[dest] = []
                if origin != OFF_BOARD:
                    pinned = None
            for p in moving:
                h ^= _zobrist(p, dest, len(target))
                target.append(p)
                self._cell[p] = dest
            self._last_moved = piece
            if self._has_pillbug:
                h ^= _frozen_key(dest)
            if self._track_flight:
                h ^= self._record_flight(piece, origin, dest, code & CARRY_FLAG)
        h ^= SIDE_KEY
        self._ply += 1
        if self._carry_next_turn:
            h ^= self._update_carrier()
        self._hash = h
        seen = self._seen[h] = self._seen.get(h, 0) + 1
        self._state = self._evaluate(seen)
        self._legal = None
        self._pinned = pinned

    def _pinned_after_placing(self, pinned: frozenset[int], cell: int) -> frozenset[int] | None:
        """The pinned cells once a piece is placed on the empty ``cell``, from those before
        (``pinned``), when a rule gives them: a new leaf touching one piece pins that piece and
        unpins none (every old cut still separates the same pieces). A placement that touches
        several pieces can join what a cut separated: None (compute them)."""
        stacks = self._stacks
        direction = _ONLY_NEIGHBOR[movement.neighbor_mask(stacks, cell)]
        if direction < 0:
            return None
        if len(stacks) < 2:
            return pinned  # the hive is then two pieces, the new one among them: none pinned
        anchor = cell + NEIGHBOR_OFFSETS[direction]
        return pinned if anchor in pinned else pinned | {anchor}

    def _record_flight(self, piece: int, origin: int, dest: int, carry: int) -> int:
        """``mosquito_stays_dragonfly``: a Mosquito flying up as a Dragonfly stays one up there;
        any other move of it ends that. Returns the change of hash."""
        before = self._flying
        self._flying_undo.append(before)
        if BUG_OF[piece] != _MOSQUITO:
            return 0
        flew = origin != OFF_BOARD and (carry or dest - origin not in NEIGHBOR_OFFSETS)
        if flew and len(self._stacks[dest]) > 1:
            self._flying = before | 1 << piece
        else:
            self._flying = before & ~(1 << piece)
        return FLYING_KEYS[piece] if self._flying != before else 0

    def _update_carrier(self) -> int:
        """``dragonfly_carry=next_turn``: find who may carry now; returns the change of hash."""
        before, self._carrier = self._carrier, self._find_carrier()
        change = 0
        if before >= 0:
            change ^= CARRIER_KEYS[before]
        if self._carrier >= 0:
            change ^= CARRIER_KEYS[self._carrier]
        return change

    def _is_forced(self) -> bool:
        """Every legal move moves one and the same piece already on the board (or is a pass)."""
        codes = self.legal_move_codes()
        if codes == [PASS_CODE]:
            return True
        pieces = {code & 31 for code in codes}
        return len(pieces) == 1 and self._cell[codes[0] & 31] != OFF_BOARD

    def pop(self) -> Move:
        """Take back the last move; ``IndexError`` before the first (or at a set-up start)."""
        return Move.from_code(self.pop_code())

    def pop_code(self) -> int:
        """Take back the last move and return its code (the fast path, with ``push_code``)."""
        if not self._undo:
            raise IndexError("no move to take back")
        code, origin, last_moved, state, previous_hash, pinned = self._undo.pop()
        seen = self._seen[self._hash] - 1
        if seen:
            self._seen[self._hash] = seen
        else:
            del self._seen[self._hash]
        if code != PASS_CODE:
            stacks = self._stacks
            piece = code & 31
            dest = code >> 6
            target = stacks[dest]
            count = 2 if code & CARRY_FLAG else 1
            moving = target[-count:]
            if len(target) == count:
                del stacks[dest]
            else:
                del target[-count:]
            if origin == OFF_BOARD:
                bug = BUG_OF[piece]
                placed = self._placed[piece & 16 | bug]
                if placed == BUG_COUNT_BY_VALUE[bug]:
                    self._hand_bugs[piece >> 4] ^= 1 << bug
                self._placed[piece & 16 | bug] = placed - 1
                self._cell[piece] = OFF_BOARD
            else:
                stacks.setdefault(origin, []).extend(moving)
                for p in moving:
                    self._cell[p] = origin
        self._ply -= 1
        self._last_moved = last_moved
        self._state = state
        self._hash = previous_hash
        self._legal = None
        self._pinned = pinned
        if self._track_flight:
            self._flying = self._flying_undo.pop()
        if self._carry_next_turn:
            self._carrier = self._find_carrier()
        if self._track_forced:
            self._forced.pop()
        return code

    def _evaluate(self, seen: int) -> GameState:
        # A surrounded queen has six neighbours: no queen is before seven cells are occupied.
        if len(self._stacks) >= 7:
            white_lost = self._surrounded(_WHITE_QUEEN)
            black_lost = self._surrounded(_BLACK_QUEEN)
            if white_lost and black_lost:
                return GameState.DRAW
            if white_lost:
                return GameState.BLACK_WINS
            if black_lost:
                return GameState.WHITE_WINS
        if seen >= 3 and self._options.repetition_draw and self._loop_is_forced():
            return GameState.DRAW
        return _IN_PROGRESS

    def _loop_is_forced(self) -> bool:
        """``repetition_forced``: was every position since this one first occurred forced?"""
        if not self._track_forced:
            return True
        first = next(i for i, undo in enumerate(self._undo) if undo[_UNDO_HASH] == self._hash)
        return all(self._forced[first:])

    def _surrounded(self, queen: int) -> bool:
        cell = self._cell[queen]
        if cell == OFF_BOARD:
            return False
        return movement.neighbor_mask(self._stacks, cell) == 0b111111

    # --- errors -----------------------------------------------------------------------------

    def _check_legal(self, code: int) -> None:
        if not self.is_legal_code(code):
            rule, details = broken_rule(self, code)
            raise IllegalMoveError.breaking(rule, details)

    # --- analysis ---------------------------------------------------------------------------

    def perft(self, depth: int) -> int:
        """Count the leaf positions ``depth`` plies ahead (bulk-counted at the last ply)."""
        # perft makes no reference cycles: the collector's passes, set off by its allocations,
        # could only slow it down.
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._perft(depth)
        finally:
            if collecting:
                gc.enable()

    def _perft(self, depth: int) -> int:
        if depth <= 0:
            return 1
        if depth == 1:
            return self._count_legal_moves()
        total = 0
        for code in list(self.legal_move_codes()):  # direct calls: compiled, they are native
            self.push_code(code)
            total += self._perft(depth - 1)
            self.pop_code()
        return total

    def _count_legal_moves(self) -> int:
        """``len(self.legal_move_codes())`` without building the placements' codes, which are
        most of them: every placeable piece on every placement cell, all distinct, and none a
        movement (a placed piece is in hand, a moving one on the board)."""
        if self._legal is not None:
            return len(self._legal)
        state = self._state
        if state is not _IN_PROGRESS and state is not _NOT_STARTED:
            return 0
        color = self._ply & 1
        kinds = _BITS_SET[self._placeable_bugs(color)]
        count = 0
        if kinds:
            first = self._first_placements()
            if first is None:
                count = movement.placement_count(self._stacks, color) * kinds
            else:
                count = len(first) * kinds
        if self._cell[color << 4] != OFF_BOARD:
            count += len(self._movements(color))
        return count or 1  # the pass


def _as_piece(piece: object) -> Piece:
    if isinstance(piece, Piece):
        return piece
    if isinstance(piece, str):
        return Piece.from_name(piece)
    raise TypeError(f"expected a Piece or a piece name such as 'wQ', not {piece!r}")


def _as_cell(where: object) -> int:
    pair = as_pair(where)
    if pair is None:
        raise TypeError(f"expected a Hex or a (q, r) pair, not {where!r}")
    return pack(pair)
