"""Enjambre Tácticas as a fixed discrete action space, and the table that plays it.

The action space is the same for every seat and every moment of a game (``ActionLayout.size``
indices, 1,420 on the default board); a mask says which are legal. With ``C`` the board's cells
(127, in ``Board.cells`` order), ``T`` the tiles per player (10) and ``Z`` the cells of a
starting zone (12):

=====================  ==============================  ========================================
indices                action                          engine action
=====================  ==============================  ========================================
``[0, Z)``             set-up pick ``z``               the next number (1, 2, …, 10 in order)
                                                       goes on cell ``z`` of the seat's zone
                                                       (``PublicState.zone`` order); the tenth
                                                       pick sends one ``Place``
``Z + t·C + c``        move own tile ``t`` to cell     ``Step(seat·T + t, cells[c])``
                       ``c``                           (``moves="paths"``: the whole move to
                                                       ``c`` by a shortest legal path, as
                                                       ``PublicState.paths`` finds it)
``Z + T·C + t``        scout with own tile ``t``       ``Scout(seat·T + t)``
``Z + T·C + T + c``    put the displaced tile on       ``Displace(cells[c])``
                       ``c``
``Z + T·C + T + C``    end the turn                    ``EndTurn()``
=====================  ==============================  ========================================

Own tile ``t`` is tile ``seat·T + t`` of the engine: tile ids come from the cells the tiles
were placed on, never from their numbers, so an index tells no one a number. With
``moves="steps"`` (the default) the map between legal indices and the engine's legal actions is
a bijection; the set-up is split into ten picks because one ``Place`` has 12!/2! possible
values, too many for one discrete action.

:class:`EnjambreTable` is a game plus each seat's pending set-up picks: the one thing the
PettingZoo environment and the OpenSpiel game both play on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from panal.enjambre import (
    Action,
    Board,
    Displace,
    EndTurn,
    Game,
    IllegalActionError,
    Options,
    Phase,
    Place,
    Scout,
    Step,
    default_board,
)
from panal.enjambre.actions import action_from_dict, action_to_dict
from panal.enjambre.observation import Observation
from panal.enjambre.state import PublicState
from panal.hex import Hex

__all__ = [
    "MOVES",
    "REWARDS",
    "ActionLayout",
    "EnjambreTable",
    "cell_indices",
    "turn_action_bound",
]

MOVES = ("steps", "paths")
REWARDS = ("rank", "score")


def turn_action_bound(tiles: int) -> int:
    """The most actions one turn can take: every tile at most 3 steps (2, plus the scout's extra
    step), a scout flip per tile (``scout_retry``), a displacement after each colmena combat
    (each needs a step, so at most one per tile) and the end of the turn."""
    return tiles * 3 + tiles + tiles + 1


class ActionLayout:
    """Where each kind of action sits in the discrete action space of one board."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.cells: tuple[Hex, ...] = board.cells
        self.zone_size = len(board.zones[0])
        self.tiles = board.tiles_per_player
        self.move_start = self.zone_size
        self.scout_start = self.move_start + self.tiles * len(self.cells)
        self.displace_start = self.scout_start + self.tiles
        self.end_turn = self.displace_start + len(self.cells)
        self.size = self.end_turn + 1
        self.index_of_cell = cell_indices(board)

    def cell_index(self, cell: Hex) -> int:
        return self.index_of_cell[cell]

    def move_index(self, slot: int, cell: Hex) -> int:
        return self.move_start + slot * len(self.cells) + self.cell_index(cell)

    def encode(self, seat: int, action: Action) -> int:
        """The index of an engine action of ``seat`` (a ``Step`` reads as a move to its cell)."""
        match action:
            case Step(tile, target):
                return self.move_index(self._slot(seat, tile), target)
            case Scout(tile):
                return self.scout_start + self._slot(seat, tile)
            case Displace(target):
                return self.displace_start + self.cell_index(target)
            case EndTurn():
                return self.end_turn
        raise ValueError(f"{action!r} has no single index (a Place is ten set-up picks)")

    def _slot(self, seat: int, tile: int) -> int:
        slot = tile - seat * self.tiles
        if not 0 <= slot < self.tiles:
            raise ValueError(f"tile {tile} does not belong to seat {seat}")
        return slot

    def describe(self, index: int) -> tuple[str, int, int]:
        """``(kind, tile slot or -1, cell or zone index or -1)`` of an index; ``kind`` is
        ``"pick"``, ``"move"``, ``"scout"``, ``"displace"`` or ``"end"``."""
        if not 0 <= index < self.size:
            raise ValueError(f"action {index} is outside the action space [0, {self.size})")
        cells = len(self.cells)
        if index < self.move_start:
            return "pick", -1, index
        if index < self.scout_start:
            slot, cell = divmod(index - self.move_start, cells)
            return "move", slot, cell
        if index < self.displace_start:
            return "scout", index - self.scout_start, -1
        if index < self.end_turn:
            return "displace", -1, index - self.displace_start
        return "end", -1, -1


_CELL_INDICES: dict[int, tuple[Board, dict[Hex, int]]] = {}


def cell_indices(board: Board) -> dict[Hex, int]:
    """Each cell's index in ``board.cells`` (computed once per board)."""
    found = _CELL_INDICES.get(id(board))
    if found is None or found[0] is not board:
        found = _CELL_INDICES[id(board)] = (board, {c: i for i, c in enumerate(board.cells)})
    return found[1]


class EnjambreTable:
    """A game of Enjambre Tácticas played through :class:`ActionLayout` indices.

    It holds the referee (:class:`~panal.enjambre.Game`) and each seat's set-up picks not yet
    sent (a seat's picks are its own secret, like the ``Place`` they become). The seat to act
    is the engine's: during the set-up, the first seat still arranging, clockwise from the first
    player; then the player in turn.
    """

    def __init__(
        self,
        players: int,
        *,
        options: Options | None = None,
        seed: int | None = None,
        first_player: int | None = None,
        moves: str = "steps",
    ) -> None:
        if moves not in MOVES:
            raise ValueError(f"moves must be one of {', '.join(MOVES)}, not {moves!r}")
        self.game = Game(players, options=options, seed=seed, first_player=first_player)
        self.moves = moves
        self.layout = ActionLayout(self.game.board)
        self.picks: list[list[Hex]] = [[] for _ in range(players)]
        self.placements: list[tuple[Hex, ...] | None] = [None] * players
        self.actions_taken = 0
        self._legal: list[int] | None = None

    @classmethod
    def from_game(
        cls,
        game: Game,
        *,
        moves: str,
        picks: Sequence[Sequence[Hex]],
        placements: Sequence[tuple[Hex, ...] | None],
        actions_taken: int,
    ) -> EnjambreTable:
        """A table around an existing game (a copy, or a sampled one)."""
        table = object.__new__(cls)
        table.game = game
        table.moves = moves
        table.layout = ActionLayout(game.board)
        table.picks = [list(p) for p in picks]
        table.placements = list(placements)
        table.actions_taken = actions_taken
        table._legal = None
        return table

    def copy(self) -> EnjambreTable:
        return EnjambreTable.from_game(
            self.game.copy(),
            moves=self.moves,
            picks=self.picks,
            placements=self.placements,
            actions_taken=self.actions_taken,
        )

    def __deepcopy__(self, memo: dict[int, object]) -> EnjambreTable:
        """OpenSpiel clones a Python state with ``copy.deepcopy``: the board and options are
        shared, as :meth:`Game.copy` does."""
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its seats, first player and actions (OpenSpiel pickles states)."""
        game = self.game
        state = game.state
        record = (
            game.options,
            state.sectors,
            state.first_player,
            [(player, action_to_dict(action)) for player, action in game.log.actions],
        )
        return (_rebuild, (record, self.moves, self.picks, self.placements, self.actions_taken))

    @property
    def players(self) -> int:
        return self.game.players

    @property
    def over(self) -> bool:
        return self.game.over

    @property
    def to_move(self) -> int | None:
        return self.game.to_move

    @property
    def state(self) -> PublicState:
        return self.game.state

    def observe(self, seat: int) -> Observation:
        return self.game.observe(seat)

    # ----------------------------------------------------------------------------- legality

    def legal_indices(self) -> list[int]:
        """The legal indices of the seat to act, ascending (empty once the game is over); the
        list is kept until the next action, so do not change it."""
        if self._legal is not None:
            return self._legal
        seat = self.to_move
        if seat is None:
            return []
        state = self.state
        if state.phase is Phase.SETUP:
            taken = set(self.picks[seat])
            self._legal = [z for z, cell in enumerate(state.zone(seat)) if cell not in taken]
            return self._legal
        layout = self.layout
        cells, first_tile = len(layout.cells), seat * layout.tiles
        cell_index = layout.index_of_cell
        found: set[int] = set()
        for action in state.legal_actions(seat):
            if isinstance(action, Step):  # the commonest action, encoded inline for speed
                if self.moves == "steps":
                    slot = action.tile - first_tile
                    found.add(layout.move_start + slot * cells + cell_index[action.target])
            else:
                found.add(layout.encode(seat, action))
        if self.moves == "paths":
            for tile in _movers(state, seat):
                slot = tile - first_tile
                found.update(layout.move_index(slot, p.end) for p in state.paths(tile))
        self._legal = sorted(found)
        return self._legal

    def engine_actions(self, index: int) -> list[Action]:
        """The engine actions that ``index`` stands for now (a pick that is not the tenth sends
        none); raises :class:`IllegalActionError` (a ``ValueError``) if it is not legal now."""
        seat = self.to_move
        if seat is None:
            raise IllegalActionError("the game is over")
        kind, slot, where = self.layout.describe(index)
        if index not in self.legal_indices():
            raise IllegalActionError(self._why_not(seat, kind, slot, where))
        if kind == "pick":
            picks = [*self.picks[seat], self.state.zone(seat)[where]]
            return [Place(tuple(picks))] if len(picks) == self.layout.tiles else []
        return self._play_actions(seat, kind, slot, where)

    def _play_actions(self, seat: int, kind: str, slot: int, where: int) -> list[Action]:
        tile = seat * self.layout.tiles + slot
        cells = self.layout.cells
        if kind == "move":
            if self.moves == "paths":
                for path in self.state.paths(tile):
                    if path.end == cells[where]:
                        return [Step(tile, cell) for cell in path.cells]
                return []
            return [Step(tile, cells[where])]
        if kind == "scout":
            return [Scout(tile)]
        if kind == "displace":
            return [Displace(cells[where])]
        return [EndTurn()]

    def _why_not(self, seat: int, kind: str, slot: int, where: int) -> str:
        state = self.state
        if state.phase is Phase.SETUP:
            if kind != "pick":
                return "during the set-up the only actions are the picks of cells for the tiles"
            return f"cell {where} of the zone already holds one of your tiles"
        if kind == "pick":
            return "tiles are placed only during the set-up"
        actions = self._play_actions(seat, kind, slot, where)
        if not actions:
            return "no legal path takes that tile to that cell"
        for action in actions:
            reason = state.why_illegal(seat, action)
            if reason is not None:
                return str(reason)
        return "in moves='paths' a move is a whole path: single steps have no index"

    # ----------------------------------------------------------------------------- playing

    def apply(self, index: int) -> None:
        """Play ``index`` for the seat to act; an illegal index raises and changes nothing."""
        seat = self.to_move
        actions = self.engine_actions(index)
        assert seat is not None
        kind, _, where = self.layout.describe(index)
        if kind == "pick":
            if actions and isinstance(actions[0], Place):
                self.placements[seat] = actions[0].cells
                self.picks[seat] = []
            else:
                self.picks[seat].append(self.state.zone(seat)[where])
        for action in actions:
            self.game.apply(seat, action)
        self.actions_taken += 1
        self._legal = None

    def returns(self, reward: str = "rank") -> list[float]:
        """Each seat's reward for the finished game (zeros while it goes on).

        ``"rank"``: (players this seat beat − players who beat it) / (players − 1): +1 for beating
        everyone, −1 for losing to everyone, ties count for nobody; the rewards add up to 0.
        ``"score"``: the seat's score minus the average score, divided by the highest score a
        seat can reach (the best tile at home, every other tile alive, the most elimination
        points); also adding up to 0, within [−1, 1].
        """
        result = self.game.result
        players = self.players
        if result is None:
            return [0.0] * players
        if reward == "rank":
            places = result.places
            return [
                (sum(places[i] < places[j] for j in range(players))
                 - sum(places[j] < places[i] for j in range(players))) / (players - 1)
                for i in range(players)
            ]  # fmt: skip
        if reward == "score":
            tiles = self.layout.tiles
            options = self.game.options
            bonus = max(options.elimination_table(players), default=0)
            best = tiles + (tiles - 1) + (bonus if options.elimination_points else 0)
            mean = sum(result.scores) / players
            return [(score - mean) / best for score in result.scores]
        raise ValueError(f"reward must be 'rank' or 'score', not {reward!r}")


def _rebuild(
    record: tuple[Options, tuple[int, ...], int, list[tuple[int, dict[str, Any]]]],
    moves: str,
    picks: Sequence[Sequence[Hex]],
    placements: Sequence[tuple[Hex, ...] | None],
    actions_taken: int,
) -> EnjambreTable:
    options, sectors, first_player, actions = record
    start = PublicState(default_board(), options, sectors, first_player)
    game = Game.from_public(start, [0] * len(start.tile_cell))
    for player, data in actions:
        game.apply(player, action_from_dict(data))
    return EnjambreTable.from_game(
        game, moves=moves, picks=picks, placements=placements, actions_taken=actions_taken
    )


def _movers(state: PublicState, seat: int) -> list[int]:
    """The tiles that may move now (as in ``PublicState.legal_actions``)."""
    if state.displacing is not None:
        return []
    if state.is_floating():
        assert state.active is not None
        return [state.active]
    return [t for t in state.tiles_on_board(seat) if t not in state.marked]
