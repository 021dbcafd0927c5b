"""The Hive game: position, move stack, legal moves, result.

A :class:`Game` is to panal what ``chess.Board`` is to python-chess: the position plus the moves
that led to it. ``Game()`` is the start of a base game; ``Game.from_game_string(s)`` any position
written as a UHP GameString; ``str(game)`` writes the GameString back.

Hot paths work on *move codes*, plain ints ``dest_cell << 6 | carry << 5 | piece`` (``PASS_CODE``
for a pass); :class:`Move` is the readable value the API hands out. ``legal_move_codes``,
``push_code`` and ``pop_code`` are the fast interface the AI uses.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import Enum
from typing import Any, NamedTuple

from panal.hex import NEIGHBOR_OFFSETS, ORIGIN_CELL, Hex, pack, unpack
from panal.hive import movement
from panal.hive.options import DragonflyCarry, DragonflySidestep, Options, OptionsError
from panal.hive.pieces import (
    BUG_COUNTS,
    BUG_OF,
    FIRST_SLOT,
    PIECE_BY_VALUE,
    Bug,
    Color,
    GameType,
    Piece,
)

__all__ = [
    "PASS",
    "PASS_CODE",
    "Game",
    "GameState",
    "GameStringError",
    "IllegalMoveError",
    "InvalidMoveError",
    "Move",
    "Options",
    "OptionsError",
]

OFF_BOARD = -1
NO_PIECE = -1
PASS_CODE = -1
CARRY_FLAG = 32

_QUEEN = int(Bug.QUEEN)
_BEETLE = int(Bug.BEETLE)
_MOSQUITO = int(Bug.MOSQUITO)
_PILLBUG = int(Bug.PILLBUG)
_DRAGONFLY = int(Bug.DRAGONFLY)


class InvalidMoveError(ValueError):
    """A MoveString that does not parse.

    ``reason`` is a stable code for user interfaces to show the problem in another language:
    ``"syntax"`` (not "piece reference" or "pass"), ``"unknown_piece"`` (``details["name"]``: the
    word that names no piece) or ``"bad_reference"`` (``details["reference"]``: the reference
    that is not a piece with an optional direction mark).
    """

    def __init__(
        self, message: str, reason: str = "syntax", details: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.details = details or {}


class IllegalMoveError(ValueError):
    """A well-formed move that the rules forbid; the message names the rule.

    ``rule`` (a :class:`panal.hive.rules.Rule`, when known) and ``details`` let a user interface
    show the reason in another language.
    """

    def __init__(self, message: str, rule: object = None, details: dict[str, str] | None = None):
        super().__init__(message)
        self.rule = rule
        self.details = details or {}


class GameStringError(ValueError):
    """A GameString that does not parse or does not replay."""


class GameState(Enum):
    NOT_STARTED = "NotStarted"
    IN_PROGRESS = "InProgress"
    DRAW = "Draw"
    WHITE_WINS = "WhiteWins"
    BLACK_WINS = "BlackWins"

    @property
    def is_over(self) -> bool:
        return self in (GameState.DRAW, GameState.WHITE_WINS, GameState.BLACK_WINS)

    def __str__(self) -> str:
        return self.value


class Move(NamedTuple):
    """A move: ``piece`` goes to cell ``to``; ``carry`` if a Dragonfly takes the piece under it.

    A pass has no piece. Moves know nothing of the board: turning them into notation is
    ``Game.move_string`` and back ``Game.parse_move``.
    """

    piece: Piece | None
    to: Hex | None
    carry: bool = False

    @property
    def is_pass(self) -> bool:
        return self.piece is None

    @property
    def code(self) -> int:
        if self.piece is None or self.to is None:
            return PASS_CODE
        return pack(self.to) << 6 | (CARRY_FLAG if self.carry else 0) | self.piece

    @classmethod
    def from_code(cls, code: int) -> Move:
        if code == PASS_CODE:
            return PASS
        return cls(PIECE_BY_VALUE[code & 31], unpack(code >> 6), bool(code & CARRY_FLAG))

    def __repr__(self) -> str:
        if self.piece is None:
            return "Move.PASS"
        carry = ", carry=True" if self.carry else ""
        return f"Move({self.piece.name}, {tuple(self.to)}{carry})"  # type: ignore[arg-type]


PASS = Move(None, None)


# --- Zobrist keys ---------------------------------------------------------------------------

_MASK64 = (1 << 64) - 1


def _splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


_ZOBRIST: dict[int, int] = {}
_FROZEN: dict[int, int] = {}
SIDE_KEY = _splitmix64(0x5EED)
# Pieces of one kind are interchangeable: the key of a piece is that of its colour and bug, so
# two positions that differ only by which ant stands where are one position (as for nokamute,
# and for the repetition rule).
_KIND = [p & 16 | BUG_OF[p] for p in range(32)]
# Options that make the legal moves depend on more than the pieces (docs/rules.md): under
# ``dragonfly_carry=next_turn`` the carrier that landed last turn, under
# ``mosquito_stays_dragonfly`` each mosquito that flew up as a Dragonfly. Positions that differ
# in them differ in their keys.
CARRIER_KEYS = [_splitmix64(0xCA00 + p) for p in range(32)]
FLYING_KEYS = [_splitmix64(0xF1E00 + p) for p in range(32)]

_SIDESTEP_TURNS = {
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


class _Undo(NamedTuple):
    code: int
    origin: int
    last_moved: int
    state: GameState
    hash: int


class Game:
    """A game of Hive."""

    def __init__(
        self,
        game_type: GameType | str = "Base",
        *,
        options: Options | None = None,
        **rules: Any,
    ) -> None:
        """``Game("Base+D", dragonfly_sidestep="backward")`` or ``Game(..., options=Options(...))``.

        Rule keywords are the fields of :class:`Options`; an unknown one, a wrong value, or both
        forms at once raise :class:`OptionsError`.
        """
        self.game_type = game_type if isinstance(game_type, GameType) else GameType.parse(game_type)
        if options is not None and rules:
            raise OptionsError("give rule options either as keywords or as options=, not both")
        if options is not None and not isinstance(options, Options):
            raise OptionsError(f"options must be an Options value, not {options!r}")
        self.options = options if options is not None else Options.from_values(rules)
        self._bugs = tuple(int(b) for b in self.game_type.bugs)
        self._has_pillbug = Bug.PILLBUG in self.game_type.expansions
        has_dragonfly = Bug.DRAGONFLY in self.game_type.expansions
        opts = self.options
        self._sidestep = (
            _SIDESTEP_TURNS[opts.dragonfly_sidestep],
            opts.dragonfly_gaps,
            opts.dragonfly_contact,
        )
        self._carry_next_turn = has_dragonfly and opts.dragonfly_carry is DragonflyCarry.NEXT_TURN
        self._track_flight = (
            has_dragonfly and Bug.MOSQUITO in self.game_type.expansions
        ) and opts.mosquito_stays_dragonfly
        self._track_forced = opts.repetition_draw and opts.repetition_forced
        self._stacks: dict[int, list[int]] = {}
        self._cell = [OFF_BOARD] * 32
        self._placed = [0] * 32  # colour << 4 | bug -> how many placed
        self._ply = 0
        self._last_moved = NO_PIECE
        self._hash = 0
        self._state = GameState.NOT_STARTED
        self._undo: list[_Undo] = []
        self._seen: dict[int, int] = {0: 1}
        self._legal: list[int] | None = None
        self._carrier = NO_PIECE  # dragonfly_carry=next_turn: who may carry now
        self._flying = 0  # mosquito_stays_dragonfly: bit per mosquito up there as a Dragonfly
        self._flying_undo: list[int] = []  # ... and its value before each move
        self._forced: list[bool] = []  # repetition_forced: before each move, was it forced?

    # --- construction and text ------------------------------------------------------------

    @classmethod
    def from_game_string(
        cls, text: str, *, lenient: bool = False, options: Options | None = None, **rules: Any
    ) -> Game:
        """Replay a UHP GameString. State and turn fields are recomputed, not trusted.

        Rule options come as in the constructor (a GameString carries none).

        ``lenient`` accepts hivegame.com's climbs written with a direction (see ``parse_move``).
        """
        from panal.hive.notation import parse_game_string

        return parse_game_string(text, lenient=lenient, options=options, **rules)

    def game_string(self) -> str:
        from panal.hive.notation import format_game_string

        return format_game_string(self)

    def __str__(self) -> str:
        return self.game_string()

    def __repr__(self) -> str:
        return f"Game.from_game_string({self.game_string()!r})"

    def _repr_svg_(self) -> str:
        """Notebooks show a game as its board (see ``panal.hive.svg``)."""
        from panal.hive.svg import board_svg

        return board_svg(self)

    def copy(self) -> Game:
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other._stacks = {cell: list(stack) for cell, stack in self._stacks.items()}
        other._cell = list(self._cell)
        other._placed = list(self._placed)
        other._undo = list(self._undo)
        other._seen = dict(self._seen)
        other._flying_undo = list(self._flying_undo)
        other._forced = list(self._forced)
        other._legal = None
        return other

    def move_string(self, move: Move | int) -> str:
        """The UHP MoveString of a legal move in this position."""
        from panal.hive.notation import format_move

        return format_move(self, move if isinstance(move, int) else move.code)

    def parse_move(self, text: str, *, lenient: bool = False) -> Move:
        """A UHP MoveString → a legal :class:`Move` (raises InvalidMoveError/IllegalMoveError)."""
        return Move.from_code(self.parse_move_code(text, lenient=lenient))

    def parse_move_code(self, text: str, *, lenient: bool = False) -> int:
        from panal.hive.notation import parse_move

        code = parse_move(self, text, lenient=lenient)
        self._check_legal(code)
        return code

    # --- state ----------------------------------------------------------------------------

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
        return self._ply

    @property
    def state(self) -> GameState:
        return self._state

    def is_over(self) -> bool:
        return self._state.is_over

    @property
    def winner(self) -> Color | None:
        if self._state is GameState.WHITE_WINS:
            return Color.WHITE
        if self._state is GameState.BLACK_WINS:
            return Color.BLACK
        return None

    @property
    def hash(self) -> int:
        """Incremental 64-bit key of pieces, side to move and (pillbug games) frozen piece."""
        return self._hash

    @property
    def last_moved(self) -> Piece | None:
        """The piece moved or placed by the last move; nothing may move it now."""
        return PIECE_BY_VALUE[self._last_moved] if self._last_moved >= 0 else None

    def position_of(self, piece: Piece) -> Hex | None:
        cell = self._cell[piece]
        return None if cell == OFF_BOARD else unpack(cell)

    def stack_at(self, where: Hex) -> list[Piece]:
        """Pieces on a cell, bottom first."""
        return [PIECE_BY_VALUE[p] for p in self._stacks.get(pack(where), ())]  # type: ignore[misc]

    def board(self) -> dict[Hex, list[Piece]]:
        """Every occupied cell and its stack, bottom first."""
        return {
            unpack(cell): [PIECE_BY_VALUE[p] for p in stack]  # type: ignore[misc]
            for cell, stack in self._stacks.items()
        }

    def in_hand(self, color: Color) -> list[Piece]:
        return [p for p in self.game_type.pieces(color) if self._cell[p] == OFF_BOARD]

    def is_queen_placed(self, color: Color) -> bool:
        return self._cell[color << 4] != OFF_BOARD

    def must_place_queen(self) -> bool:
        """True on the player's fourth turn when the queen is still in hand."""
        return self.turn_number >= 4 and not self.is_queen_placed(self.turn)

    @property
    def moves(self) -> list[Move]:
        """The moves played so far."""
        return [Move.from_code(u.code) for u in self._undo]

    @property
    def move_codes(self) -> list[int]:
        return [u.code for u in self._undo]

    def move_strings(self) -> list[str]:
        """The moves played so far in UHP notation, each relative to its own position."""
        codes = self.move_codes
        replay = Game(self.game_type, options=self.options)
        out = []
        for code in codes:
            out.append(replay.move_string(code))
            replay.push_code(code)
        return out

    def repetitions(self) -> int:
        """How many times the current position has occurred."""
        return self._seen.get(self._hash, 0)

    # --- legal moves ----------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        return [Move.from_code(code) for code in self.legal_move_codes()]

    def legal_move_codes(self) -> list[int]:
        """Every legal move as a code; ``[PASS_CODE]`` when nothing else is legal; ``[]`` once
        the game is over."""
        if self._legal is None:
            self._legal = self._generate()
        return self._legal

    def is_legal(self, move: Move | str) -> bool:
        try:
            code = self.parse_move_code(move) if isinstance(move, str) else move.code
        except ValueError:
            return False
        return code in self.legal_move_codes()

    def _generate(self) -> list[int]:
        if self._state.is_over:
            return []
        color = self._ply & 1
        codes = self._placements(color)
        if self._cell[color << 4] != OFF_BOARD:
            codes.extend(self._movements(color))
        return codes or [PASS_CODE]

    def placement_cells(self, color: int) -> list[int]:
        """Empty cells where ``color`` may place a piece (packed)."""
        stacks = self._stacks
        if not stacks:
            return [ORIGIN_CELL]
        if self._ply < 2 and len(stacks) == 1:
            (cell,) = stacks
            return [cell + step for step in NEIGHBOR_OFFSETS]
        own: set[int] = set()
        enemy: set[int] = set()
        for cell, stack in stacks.items():
            near = own if stack[-1] >> 4 == color else enemy
            for step in NEIGHBOR_OFFSETS:
                near.add(cell + step)
        own -= enemy
        return [cell for cell in own if cell not in stacks]

    def placeable_pieces(self, color: int) -> list[int]:
        """The next piece of each kind ``color`` may place now (queen rules included)."""
        turn = self._ply // 2 + 1
        base = color << 4
        if self._cell[base] == OFF_BOARD:
            if turn >= 4:
                return [base]
            skip_queen = turn == 1 and self.options.tournament_opening
        else:
            skip_queen = True
        placed = self._placed
        return [
            base | (FIRST_SLOT[bug] + placed[base | bug])  # type: ignore[index]
            for bug in self._bugs
            if placed[base | bug] < BUG_COUNTS[bug]  # type: ignore[index]
            and not (bug == _QUEEN and skip_queen)
        ]

    def _placements(self, color: int) -> list[int]:
        pieces = self.placeable_pieces(color)
        if not pieces:
            return []
        return [cell << 6 | piece for cell in self.placement_cells(color) for piece in pieces]

    def _movements(self, color: int) -> list[int]:
        stacks = self._stacks
        pinned = movement.pinned_cells(stacks)
        frozen = self._last_moved
        cells = self._cell
        found: set[int] = set()
        for piece in range(color << 4, (color << 4) + 15):
            cell = cells[piece]
            if cell == OFF_BOARD or piece == frozen:
                continue
            stack = stacks[cell]
            if stack[-1] != piece:
                continue  # covered
            bug = BUG_OF[piece]
            free = len(stack) > 1 or cell not in pinned
            if bug == _MOSQUITO and len(stack) == 1:
                copied = {
                    BUG_OF[stacks[cell + s][-1]] for s in NEIGHBOR_OFFSETS if cell + s in stacks
                }
                copied.discard(_MOSQUITO)
                if free:
                    for dest in self._lifted_moves(piece, cell, copied):
                        found.add(dest << 6 | piece)
                if _PILLBUG in copied:
                    self._throws(cell, pinned, found)
                continue
            if bug == _MOSQUITO:  # on top of the hive: a beetle, or a Dragonfly if it flew up
                bug = _DRAGONFLY if self._flying >> piece & 1 else _BEETLE
            if free:
                for dest in self._lifted_moves(piece, cell, (bug,)):
                    found.add(dest << 6 | piece)
                if bug == _DRAGONFLY and len(stack) > 1 and self.may_carry(piece):
                    self._carries(piece, cell, pinned, found)
            if bug == _PILLBUG:
                self._throws(cell, pinned, found)
        return list(found)

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
        code = self._undo[-2].code
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
                    dests.update(MOVES_BY_BUG[bug](stacks, cell))
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

    # --- playing --------------------------------------------------------------------------

    def push(self, move: Move | str, *, lenient: bool = False) -> Move:
        """Play a legal move (a :class:`Move` or a UHP MoveString). Illegal moves raise and
        change nothing."""
        if isinstance(move, str):
            code = self.parse_move_code(move, lenient=lenient)
        else:
            code = move.code
            self._check_legal(code)
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
        self._undo.append(_Undo(code, origin, last_moved, self._state, h))
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
                self._placed[piece & 16 | BUG_OF[piece]] += 1
                moving = [piece]
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
            target = stacks.get(dest)
            if target is None:
                target = stacks[dest] = []
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
        """Take back the last move."""
        return Move.from_code(self.pop_code())

    def pop_code(self) -> int:
        """Take back the last move and return its code (the fast path, with ``push_code``)."""
        if not self._undo:
            raise IndexError("no move to take back")
        undo = self._undo.pop()
        seen = self._seen[self._hash] - 1
        if seen:
            self._seen[self._hash] = seen
        else:
            del self._seen[self._hash]
        code = undo.code
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
            origin = undo.origin
            if origin == OFF_BOARD:
                self._placed[piece & 16 | BUG_OF[piece]] -= 1
                self._cell[piece] = OFF_BOARD
            else:
                stacks.setdefault(origin, []).extend(moving)
                for p in moving:
                    self._cell[p] = origin
        self._ply -= 1
        self._last_moved = undo.last_moved
        self._state = undo.state
        self._hash = undo.hash
        self._legal = None
        if self._track_flight:
            self._flying = self._flying_undo.pop()
        if self._carry_next_turn:
            self._carrier = self._find_carrier()
        if self._track_forced:
            self._forced.pop()
        return code

    def _evaluate(self, seen: int) -> GameState:
        white_lost = self._surrounded(int(Piece.wQ))
        black_lost = self._surrounded(int(Piece.bQ))
        if white_lost and black_lost:
            return GameState.DRAW
        if white_lost:
            return GameState.BLACK_WINS
        if black_lost:
            return GameState.WHITE_WINS
        if seen >= 3 and self.options.repetition_draw and self._loop_is_forced():
            return GameState.DRAW
        return GameState.IN_PROGRESS

    def _loop_is_forced(self) -> bool:
        """``repetition_forced``: was every position since this one first occurred forced?"""
        if not self._track_forced:
            return True
        first = next(i for i, undo in enumerate(self._undo) if undo.hash == self._hash)
        return all(self._forced[first:])

    def _surrounded(self, queen: int) -> bool:
        cell = self._cell[queen]
        if cell == OFF_BOARD:
            return False
        return movement.neighbor_mask(self._stacks, cell) == 0b111111

    def surrounding(self, color: Color) -> int:
        """How many of the six cells around ``color``'s queen are occupied (0 if in hand)."""
        cell = self._cell[color << 4]
        if cell == OFF_BOARD:
            return 0
        return sum(cell + step in self._stacks for step in NEIGHBOR_OFFSETS)

    # --- errors ---------------------------------------------------------------------------

    def _check_legal(self, code: int) -> None:
        if code not in self.legal_move_codes():
            from panal.hive.rules import broken_rule

            rule, details = broken_rule(self, code)
            raise IllegalMoveError(rule.value.format(**details), rule, details)

    # --- analysis -------------------------------------------------------------------------

    def perft(self, depth: int) -> int:
        """Count the leaf positions ``depth`` plies ahead (bulk-counted at the last ply)."""
        if depth <= 0:
            return 1
        codes = self.legal_move_codes()
        if depth == 1:
            return len(codes)
        total = 0
        push, pop, perft = self.push_code, self.pop_code, self.perft
        for code in list(codes):
            push(code)
            total += perft(depth - 1)
            pop()
        return total

    def __iter__(self) -> Iterator[Move]:
        return iter(self.moves)


MOVES_BY_BUG = {
    _QUEEN: movement.queen_moves,
    int(Bug.SPIDER): movement.spider_moves,
    _BEETLE: movement.beetle_moves,
    int(Bug.GRASSHOPPER): movement.grasshopper_moves,
    int(Bug.ANT): movement.ant_moves,
    int(Bug.LADYBUG): movement.ladybug_moves,
    _PILLBUG: movement.pillbug_moves,
}
