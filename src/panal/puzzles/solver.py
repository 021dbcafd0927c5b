"""An exhaustive win-in-N solver: can the side to move force the enemy queen's surround?

A *win within k* means: the side to move (the attacker) has a move after which, whatever the
defender answers, it can go on surrounding the defender's queen, the last of its own moves being
at most the k-th. This is an AND-OR search (the attacker's moves are OR nodes, the defender's
replies AND nodes), exact, with no pruning that could change an answer; what makes it fast is
the structure of a surround:

* a single move fills at most one cell around the enemy queen, so with two or more of those cells
  empty the last move can only win by moving the queen itself (a Pillbug's or a Mosquito's throw,
  a Dragonfly's carry): when no attacker piece can do that, a win in one is refused without
  generating a single move, and otherwise only the moves that fill the last cell or move the
  queen are tried;
* a defender with three or more empty cells around its queen refutes a win in one more move by
  any placement (two cells stay empty) when no attacker piece can move its queen, so the search
  only checks that a placement exists;
* the defender's replies are tried queen moves first, then the moves that leave the queen's cells
  empty (the usual refutations), and the attacker's moves those that fill a queen cell first;
* answers are kept in a transposition table on the position's Zobrist hash and the depth left.

A draw (both queens surrounded) or a surround of the attacker's own queen is never a win. The
solver works on its own copy of the game and never changes the caller's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from panal.hex import NEIGHBOR_OFFSETS
from panal.hive import Bug, Color, Game, GameState
from panal.hive.codes import CARRY_FLAG, OFF_BOARD, PASS_CODE
from panal.hive.pieces import BUG_OF

__all__ = ["NodeLimitReached", "Solver", "empty_queen_cells"]

_WIN_STATE = (GameState.WHITE_WINS, GameState.BLACK_WINS)
_QUEEN_MOVERS = frozenset({int(Bug.PILLBUG), int(Bug.MOSQUITO)})
_CARRIERS = frozenset({int(Bug.DRAGONFLY), int(Bug.MOSQUITO)})


class NodeLimitReached(Exception):
    """The search visited more positions than its ``node_limit`` allowed."""


def empty_queen_cells(game: Game, color: Color | int) -> list[int]:
    """The empty cells (packed) around ``color``'s queen; all six while it is in hand."""
    cell = game.piece_cells[int(color) << 4]
    if cell == OFF_BOARD:
        return [OFF_BOARD] * 6
    stacks = game.stacks
    return [cell + step for step in NEIGHBOR_OFFSETS if cell + step not in stacks]


class Solver:
    """Exact answers to "does the side to move force a surround within k of its moves?".

    ``node_limit`` bounds the positions one :class:`Solver` may visit over its life
    (:class:`NodeLimitReached` past it), so that a miner can give up on a hard position.
    """

    def __init__(self, game: Game, *, node_limit: int | None = None) -> None:
        self.game = game.copy()
        self.node_limit = node_limit
        self.nodes = 0
        self._attack_table: dict[tuple[int, int], bool] = {}
        self._defence_table: dict[tuple[int, int], bool] = {}

    # --- public questions -------------------------------------------------------------------

    def wins_within(self, moves: int) -> bool:
        """Whether the side to move forces the enemy queen's surround within ``moves`` of its
        own moves."""
        if moves < 1:
            raise ValueError(f"a win takes at least one move, not {moves}")
        if self.game.is_over():
            return False
        return self._attack(moves)

    def shortest_win(self, most: int) -> int | None:
        """The fewest own moves that force a win (None when more than ``most`` are needed)."""
        for moves in range(1, most + 1):
            if self.wins_within(moves):
                return moves
        return None

    def winning_moves(self, moves: int) -> list[int]:
        """Every first move (as a code) after which the side to move forces a win within
        ``moves`` own moves, the first one included."""
        game = self.game
        if game.is_over():
            return []
        win_state = _WIN_STATE[game.ply & 1]
        found = []
        for code in self._attack_order(game.legal_move_codes()):
            if self._wins_after(code, win_state, moves):
                found.append(code)
        return found

    def first_winning_move(self, moves: int) -> int | None:
        """A first move that forces a win within ``moves`` own moves, or None."""
        game = self.game
        if game.is_over():
            return None
        win_state = _WIN_STATE[game.ply & 1]
        for code in self._attack_order(game.legal_move_codes()):
            if self._wins_after(code, win_state, moves):
                return code
        return None

    def wins_after(self, code: int, moves: int) -> bool:
        """Whether playing ``code`` (legal) forces a win within ``moves`` own moves, ``code``
        being the first of them."""
        return self._wins_after(code, _WIN_STATE[self.game.ply & 1], moves)

    def defends_after(self, code: int, moves: int) -> bool:
        """Whether after the side to move plays ``code`` its opponent has no forced win within
        ``moves`` moves (and the move itself neither loses nor draws)."""
        game = self.game
        mover = game.ply & 1
        game.push_code(code)
        try:
            if game.state is GameState.IN_PROGRESS:
                return not self._attack(moves)
            return game.state is _WIN_STATE[mover]
        finally:
            game.pop_code()

    def push(self, code: int) -> None:
        """Play ``code`` (legal) on the solver's own game; its tables stay valid."""
        self.game.push_code(code)

    def pop(self) -> None:
        self.game.pop_code()

    # --- the search -------------------------------------------------------------------------

    def _count(self) -> None:
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise NodeLimitReached(f"more than {self.node_limit} positions")

    def _wins_after(self, code: int, win_state: GameState, moves: int) -> bool:
        game = self.game
        game.push_code(code)
        try:
            state = game.state
            if state is win_state:
                return True
            return state is GameState.IN_PROGRESS and moves > 1 and self._defence(moves - 1)
        finally:
            game.pop_code()

    def _attack(self, moves: int) -> bool:
        """OR node: the side to move wins within ``moves``."""
        game = self.game
        key = (game.hash, moves)
        known = self._attack_table.get(key)
        if known is not None:
            return known
        self._count()
        attacker = game.ply & 1
        win_state = _WIN_STATE[attacker]
        if moves == 1:
            result = self._wins_now(attacker, win_state)
        else:
            result = False
            for code in self._attack_order(game.legal_move_codes()):
                if self._wins_after(code, win_state, moves):
                    result = True
                    break
        self._attack_table[key] = result
        return result

    def _wins_now(self, attacker: int, win_state: GameState) -> bool:
        game = self.game
        target = (attacker ^ 1) << 4
        queen_cell = game.piece_cells[target]
        if queen_cell == OFF_BOARD:
            return False
        stacks = game.stacks
        empty = {queen_cell + s for s in NEIGHBOR_OFFSETS if queen_cell + s not in stacks}
        may_move_queen = self._may_move_queen(attacker, queen_cell)
        if len(empty) >= 2 and not may_move_queen:
            return False
        cells = game.piece_cells
        for code in game.legal_move_codes():
            if code == PASS_CODE:
                continue
            if (code >> 6) not in empty and not (
                may_move_queen and _moves_piece(stacks, cells, code, target)
            ):
                continue
            game.push_code(code)
            won = game.state is win_state
            game.pop_code()
            if won:
                return True
        return False

    def _may_move_queen(self, attacker: int, queen_cell: int) -> bool:
        """Whether an attacker's piece might move the enemy queen this move: a Pillbug or
        Mosquito beside it (a throw) or a Dragonfly or Mosquito right on top of it (a carry)."""
        stacks = self.game.stacks
        stack = stacks[queen_cell]
        if len(stack) > 1:
            above = stack[1]
            return above >> 4 == attacker and BUG_OF[above] in _CARRIERS
        for step in NEIGHBOR_OFFSETS:
            for piece in stacks.get(queen_cell + step, ()):
                if piece >> 4 == attacker and BUG_OF[piece] in _QUEEN_MOVERS:
                    return True
        return False

    def _defence(self, moves: int) -> bool:
        """AND node: the side to move (the defender) loses within ``moves`` of the opponent's
        moves whatever it plays."""
        game = self.game
        key = (game.hash, moves)
        known = self._defence_table.get(key)
        if known is not None:
            return known
        self._count()
        defender = game.ply & 1
        attacker = defender ^ 1
        win_state = _WIN_STATE[attacker]
        queen_cell = game.piece_cells[defender << 4]
        result = True
        if queen_cell == OFF_BOARD:
            result = False  # no queen to surround yet: never proven here
        elif moves == 1 and self._placement_refutes(defender, attacker, queen_cell):
            result = False
        else:
            for code in self._defence_order(game.legal_move_codes(), defender, queen_cell):
                game.push_code(code)
                try:
                    state = game.state
                    if state is win_state:
                        continue  # the defender surrounded its own queen
                    if state is not GameState.IN_PROGRESS or not self._attack(moves):
                        result = False
                        break
                finally:
                    game.pop_code()
        self._defence_table[key] = result
        return result

    def _placement_refutes(self, defender: int, attacker: int, queen_cell: int) -> bool:
        """With three or more empty cells around the defender's queen, any placement leaves two
        empty, and the attacker's last move can then only win by moving the queen."""
        game = self.game
        stacks = game.stacks
        empty = sum(queen_cell + s not in stacks for s in NEIGHBOR_OFFSETS)
        if empty < 3 or self._may_move_queen(attacker, queen_cell):
            return False
        return bool(game.placeable_pieces(defender)) and bool(game.placement_cells(defender))

    def _attack_order(self, codes: list[int]) -> list[int]:
        """Moves that fill a cell around the enemy queen first."""
        game = self.game
        target = ((game.ply & 1) ^ 1) << 4
        queen_cell = game.piece_cells[target]
        if queen_cell == OFF_BOARD:
            return list(codes)
        stacks = game.stacks
        near = {queen_cell + s for s in NEIGHBOR_OFFSETS if queen_cell + s not in stacks}
        return sorted(codes, key=lambda code: code == PASS_CODE or (code >> 6) not in near)

    def _defence_order(self, codes: list[int], defender: int, queen_cell: int) -> list[int]:
        """Queen moves first, then moves that fill no empty cell around the queen."""
        stacks = self.game.stacks
        queen = defender << 4
        near = {queen_cell + s for s in NEIGHBOR_OFFSETS if queen_cell + s not in stacks}

        def rank(code: int) -> int:
            if code == PASS_CODE:
                return 1
            if code & 31 == queen:
                return 0
            return 2 if (code >> 6) in near else 1

        return sorted(codes, key=rank)


def _moves_piece(
    stacks: Mapping[int, Sequence[int]], cells: Sequence[int], code: int, piece: int
) -> bool:
    """Whether move ``code`` carries ``piece`` (it is the mover, or a Dragonfly's load)."""
    if code & 31 == piece:
        return True
    if not code & CARRY_FLAG:
        return False
    stack = stacks[cells[code & 31]]
    return len(stack) >= 2 and stack[-2] == piece
