"""The public side of a game and the movement rules that depend only on it.

Everything here is visible to every player: where the tiles are, which have moved (markers), the
tile in motion and its remaining steps, whether the scout was used, eliminations. Numbers are not
here. Legality never depends on a hidden number, so the engine and every observation share these
rules: a bot can list its legal actions from its observation alone.

Tiles are numbered ``0 .. players·10 - 1``; tile ``t`` belongs to player ``t // 10``. The id of a
tile comes from the cell where it was placed (ids follow the zone's cell order), never from its
number.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from types import MappingProxyType

from panal.hex import Hex

from .actions import Action, Displace, EndTurn, Place, Reason, Scout, Step
from .board import Board
from .options import Options

__all__ = ["Path", "Phase", "PublicState", "StepTarget", "linked_dark_cells"]


# Reasons without details, built once: move generation meets them thousands of times.
NEVER_RETURN = Reason(
    "never_return", "a tile can never return to the cell it started from this turn"
)
FOREIGN_COLMENA = Reason(
    "foreign_colmena", "a tile can never stop on another colour's colmena cell"
)
STOP_ON_OWN = Reason(
    "stop_on_own",
    "a tile may pass over its own tiles but never stop on them, and this one could not move on "
    "from there",
)


class Phase(StrEnum):
    SETUP = "setup"
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class StepTarget:
    """One legal step: where to, how (``"step"``, ``"colmena"`` or ``"dark"``), what is there."""

    cell: Hex
    via: str
    occupant: str  # "empty", "own" (pass over it) or "enemy" (combat)


@dataclass(frozen=True, slots=True)
class Path:
    """One way to move ``tile`` now: its successive step targets; ``attack`` is the enemy tile
    at the end (a combat ends a path), or None."""

    tile: int
    cells: tuple[Hex, ...]
    attack: int | None

    @property
    def end(self) -> Hex:
        return self.cells[-1]


class PublicState:
    """What everyone sees. The engine mutates its own instance; observations hold frozen copies."""

    __slots__ = (
        "active",
        "active_start",
        "active_steps",
        "board",
        "bonus",
        "displace_options",
        "displacing",
        "eliminated",
        "eliminations",
        "entered_from",
        "first_player",
        "marked",
        "occupant",
        "options",
        "phase",
        "placed",
        "players",
        "round",
        "scout_used",
        "scouted",
        "sectors",
        "tile_cell",
        "turn_player",
    )

    board: Board
    options: Options
    players: int
    sectors: tuple[int, ...]
    first_player: int
    phase: Phase
    round: int
    turn_player: int
    placed: Sequence[bool]
    tile_cell: Sequence[Hex | None]
    occupant: Mapping[Hex, int]
    marked: AbstractSet[int]
    active: int | None
    active_start: Hex | None
    active_steps: int
    bonus: Mapping[int, int]
    scout_used: bool
    scouted: AbstractSet[int]  # tiles flipped this turn (scout_retry: each at most once)
    displacing: int | None
    displace_options: tuple[Hex, ...]
    eliminated: Sequence[tuple[int, int | None, int]]  # (tile, credited player or None, round)
    eliminations: Sequence[int]
    entered_from: Mapping[int, Hex]  # tile on its own colmena cell -> the cell it came from

    def __init__(
        self, board: Board, options: Options, sectors: tuple[int, ...], first_player: int
    ) -> None:
        players = len(sectors)
        self.board = board
        self.options = options
        self.players = players
        self.sectors = sectors
        self.first_player = first_player
        self.phase = Phase.SETUP
        self.round = 1
        self.turn_player = first_player
        self.placed = [False] * players
        self.tile_cell = [None] * (players * board.tiles_per_player)
        self.occupant = {}
        self.marked = set()
        self.active = None
        self.active_start = None
        self.active_steps = 0
        self.bonus = {}
        self.scout_used = False
        self.scouted = set()
        self.displacing = None
        self.displace_options = ()
        self.eliminated = []
        self.eliminations = [0] * players
        self.entered_from = {}

    def placement_tiles(self, player: int, cells: Sequence[Hex]) -> dict[int, int]:
        """Tile id -> number for a placement (``cells[k]`` holds number ``k + 1``).

        Ids follow the order of the zone's cells, so an id reveals a position, never a number.
        """
        order = {cell: index for index, cell in enumerate(self.zone(player))}
        by_cell = sorted(
            ((cell, number) for number, cell in enumerate(cells, start=1)),
            key=lambda item: order[item[0]],
        )
        return {
            tile: number for tile, (_, number) in zip(self.tiles_of(player), by_cell, strict=True)
        }

    def frozen_copy(self, hide_positions_of: AbstractSet[int] = frozenset()) -> PublicState:
        """An immutable snapshot; ``hide_positions_of`` players' tiles are left off the board."""
        copy = object.__new__(PublicState)
        for name in PublicState.__slots__:
            setattr(copy, name, getattr(self, name))
        tiles = self.board.tiles_per_player
        if hide_positions_of:
            copy.tile_cell = tuple(
                None if t // tiles in hide_positions_of else cell
                for t, cell in enumerate(self.tile_cell)
            )
            copy.occupant = MappingProxyType(
                {c: t for c, t in self.occupant.items() if t // tiles not in hide_positions_of}
            )
        else:
            copy.tile_cell = tuple(self.tile_cell)
            copy.occupant = MappingProxyType(dict(self.occupant))
        copy.placed = tuple(self.placed)
        copy.marked = frozenset(self.marked)
        copy.bonus = MappingProxyType(dict(self.bonus))
        copy.eliminated = tuple(self.eliminated)
        copy.eliminations = tuple(self.eliminations)
        copy.scouted = frozenset(self.scouted)
        copy.entered_from = MappingProxyType(dict(self.entered_from))
        return copy

    def mutable_copy(self) -> PublicState:
        """A private working copy (for the engine, or a bot's simulation)."""
        copy = object.__new__(PublicState)
        for name in PublicState.__slots__:
            setattr(copy, name, getattr(self, name))
        copy.placed = list(self.placed)
        copy.tile_cell = list(self.tile_cell)
        copy.occupant = dict(self.occupant)
        copy.marked = set(self.marked)
        copy.bonus = dict(self.bonus)
        copy.eliminated = list(self.eliminated)
        copy.eliminations = list(self.eliminations)
        copy.scouted = set(self.scouted)
        copy.entered_from = dict(self.entered_from)
        return copy

    # ----------------------------------------------------------------------------- basic facts

    @property
    def tiles_per_player(self) -> int:
        return self.board.tiles_per_player

    def owner(self, tile: int) -> int:
        return tile // self.board.tiles_per_player

    def tiles_of(self, player: int) -> range:
        n = self.board.tiles_per_player
        return range(player * n, (player + 1) * n)

    def tiles_on_board(self, player: int) -> list[int]:
        return [t for t in self.tiles_of(player) if self.tile_cell[t] is not None]

    def colour(self, player: int) -> str:
        return self.board.colours[self.sectors[player]]

    def colmena_cell(self, player: int) -> Hex:
        return self.board.colmena[self.sectors[player]]

    def zone(self, player: int) -> tuple[Hex, ...]:
        return self.board.zones[self.sectors[player]]

    def is_home(self, player: int, cell: Hex) -> bool:
        """Own starting zone or own colmena cell: a tile starting its move here takes 1 step."""
        sector = self.sectors[player]
        return cell in self.board.zone_sets[sector] or cell == self.board.colmena[sector]

    def base_steps(self, player: int, cell: Hex) -> int:
        return 1 if self.is_home(player, cell) else 2

    def colmena_combat_now(self) -> bool:
        return self.options.colmena_combat and self.round >= self.options.rounds - 1

    def is_floating(self) -> bool:
        """The tile in motion is passing over one of its own tiles and must keep moving."""
        active = self.active
        if active is None:
            return False
        cell = self.tile_cell[active]
        return cell is not None and self.occupant.get(cell) != active

    def moved_this_turn(self) -> set[int]:
        moved = set(self.marked)
        if self.active is not None:
            moved.add(self.active)
        return moved

    def next_player(self, player: int) -> int:
        """Seats are listed clockwise, so the next seat is the next player clockwise."""
        return (player + 1) % self.players

    @property
    def to_move(self) -> int | None:
        return None if self.phase is Phase.OVER else self.turn_player

    # ----------------------------------------------------------------------------- movement

    def candidate_cells(self, player: int, origin: Hex) -> Mapping[Hex, str]:
        """Cells one step away from ``origin`` before occupancy rules, with how they are reached
        (``"step"``, ``"colmena"`` across the colmena, or ``"dark"`` along linked dark cells)."""
        options = self.options
        own = self.colmena_cell(player) if options.queen_exit_anywhere else None
        return _candidates(self.board, options.linked_dark_cells, own, origin)

    def target_problem(
        self, mover: int, origin: Hex, target: Hex, steps_left: int, start: Hex
    ) -> tuple[Reason | None, str]:
        """Why ``mover`` may not step to ``target`` (or None), and what occupies ``target``."""
        board = self.board
        player = self.owner(mover)
        if target == start:
            return NEVER_RETURN, ""
        holder = self.occupant.get(target)
        if holder == mover:  # the cell it is leaving is free once it moves on
            holder = None
        colour = board.colmena_owner.get(target)
        if colour is not None and colour != self.sectors[player]:
            attack = (
                self.colmena_combat_now()
                and holder is not None
                and self.owner(holder) != player
                and origin not in board.colmena_owner
            )
            if not attack:
                return FOREIGN_COLMENA, ""
        if holder is None:
            return None, "empty"
        if self.owner(holder) != player:
            return None, "enemy"
        if steps_left < 2 or not self._can_continue(mover, target, steps_left - 1, start):
            return STOP_ON_OWN, ""
        return None, "own"

    def _can_continue(self, mover: int, origin: Hex, steps_left: int, start: Hex) -> bool:
        player = self.owner(mover)
        for cell in self.candidate_cells(player, origin):
            if self.target_problem(mover, origin, cell, steps_left, start)[0] is None:
                return True
        return False

    def steps_for(self, tile: int) -> tuple[Hex, int, Hex] | None:
        """(current cell, steps left, start cell) if ``tile`` may take a step now, else None."""
        if tile == self.active:
            cell = self.tile_cell[tile]
            assert cell is not None and self.active_start is not None
            return (cell, self.active_steps, self.active_start) if self.active_steps > 0 else None
        cell = self.tile_cell[tile]
        if cell is None or tile in self.marked or self.is_floating():
            return None
        steps = self.base_steps(self.owner(tile), cell) + self.bonus.get(tile, 0)
        return cell, steps, cell

    def step_targets(self, tile: int) -> list[StepTarget]:
        """Every legal single step for ``tile`` right now (ignores whose turn it is)."""
        found = self.steps_for(tile)
        if found is None:
            return []
        origin, steps_left, start = found
        player = self.owner(tile)
        targets = []
        for cell, via in self.candidate_cells(player, origin).items():
            problem, occupant = self.target_problem(tile, origin, cell, steps_left, start)
            if problem is None:
                targets.append(StepTarget(cell, via, occupant))
        return targets

    def paths(self, tile: int) -> list[Path]:
        """Every distinct destination of ``tile`` this turn (a cell to stop on, or an enemy to
        attack), each by a shortest sequence of legal steps: a whole move in one go."""
        found = self.steps_for(tile)
        if found is None:
            return []
        origin, steps_left, start = found
        player = self.owner(tile)
        best: dict[tuple[Hex, bool], Path] = {}

        def explore(cell: Hex, steps: int, so_far: tuple[Hex, ...]) -> None:
            for target in self.candidate_cells(player, cell):
                problem, holder = self.target_problem(tile, cell, target, steps, start)
                if problem is not None:
                    continue
                cells = (*so_far, target)
                if holder == "enemy":
                    key = (target, True)
                    if key not in best or len(best[key].cells) > len(cells):
                        best[key] = Path(tile, cells, self.occupant[target])
                    continue
                if holder == "empty":
                    key = (target, False)
                    if key not in best or len(best[key].cells) > len(cells):
                        best[key] = Path(tile, cells, None)
                if steps > 1:
                    explore(target, steps - 1, cells)

        explore(origin, steps_left, ())
        return list(best.values())

    def has_legal_step(self, tile: int) -> bool:
        found = self.steps_for(tile)
        if found is None:
            return False
        origin, steps_left, start = found
        player = self.owner(tile)
        return any(
            self.target_problem(tile, origin, cell, steps_left, start)[0] is None
            for cell in self.candidate_cells(player, origin)
        )

    # ----------------------------------------------------------------------------- legality

    def why_illegal(self, player: int, action: Action) -> Reason | None:
        """A specific reason why ``player`` may not take ``action`` now, or None if legal.

        During setup the players place their tiles in any order (each arranges their own zone in
        secret; a table can let everyone do it at once); afterwards only the player whose turn it
        is may act.
        """
        if self.phase is Phase.OVER:
            return Reason("game_over", "the game is over")
        if not 0 <= player < self.players:
            return Reason(
                "no_player",
                "there is no player {player} in this {players}-player game",
                player=player,
                players=self.players,
            )
        if self.phase is Phase.SETUP:
            if not isinstance(action, Place):
                return Reason(
                    "setup_only", "during setup the only action is placing your ten tiles"
                )
            if self.placed[player]:
                return Reason("already_placed", "you have already placed your tiles")
            return self._place_problem(player, action)
        if player != self.turn_player:
            return Reason(
                "not_your_turn",
                "it is {turn}'s turn, not {player}'s",
                turn=self.colour(self.turn_player),
                player=self.colour(player),
            )
        if isinstance(action, Place):
            return Reason("not_setup", "tiles are placed only during setup")
        if self.displacing is not None:
            if isinstance(action, Displace):
                if action.target not in self.displace_options:
                    cells = ", ".join(self.board.label(c) for c in self.displace_options)
                    return Reason(
                        "displace_target",
                        "the displaced tile must go to the nearest empty cell: {cells}, not {cell}",
                        cells=cells,
                        cell=self._name(action.target),
                    )
                return None
            return Reason(
                "displace_first",
                "first place the tile pushed out of your colmena cell (a Displace action)",
            )
        if isinstance(action, Displace):
            return Reason("nothing_to_displace", "no tile is waiting to be displaced")
        if isinstance(action, Step):
            return self._step_problem(player, action)
        if isinstance(action, Scout):
            return self._scout_problem(player, action)
        if isinstance(action, EndTurn):
            return self._end_problem(player)
        return Reason("unknown_action", "unknown action {action}", action=repr(action))

    def _name(self, cell: object) -> str:
        if isinstance(cell, Hex) and cell in self.board.labels:
            return self.board.labels[cell]
        return str(tuple(cell)) if isinstance(cell, tuple) else repr(cell)

    def tile_name(self, tile: int) -> str:
        """How players see a tile: by the cell it stands on (its id tells them nothing)."""
        cell = self.tile_cell[tile] if 0 <= tile < len(self.tile_cell) else None
        return f"the tile on {self.board.label(cell)}" if cell is not None else "that tile"

    def _tile_problem(self, player: int, tile: object) -> Reason | None:
        if not isinstance(tile, int) or isinstance(tile, bool):
            return Reason("not_a_tile", "{tile} is not a tile", tile=repr(tile))
        if not 0 <= tile < len(self.tile_cell):
            return Reason("no_tile", "there is no tile {tile}", tile=tile)
        cell = self.tile_cell[tile]
        if cell is None:
            return Reason("tile_off_board", "that tile is not on the board any more")
        if self.owner(tile) != player:
            return Reason(
                "not_yours",
                "the tile on {cell} belongs to {owner}, not to you",
                cell=self._name(cell),
                owner=self.colour(self.owner(tile)),
            )
        return None

    def _place_problem(self, player: int, action: Place) -> Reason | None:
        count = self.board.tiles_per_player
        cells = action.cells
        if not isinstance(cells, tuple) or len(cells) != count:
            return Reason(
                "place_count", "place exactly {count} tiles, numbered 1 to {count}", count=count
            )
        if not all(isinstance(c, Hex) for c in cells):
            return Reason("place_cell", "every placed tile needs a cell")
        if len(set(cells)) != count:
            return Reason(
                "place_twice", "one tile per cell: two tiles were placed on the same cell"
            )
        zone = self.board.zone_sets[self.sectors[player]]
        for number, cell in enumerate(cells, start=1):
            if cell not in zone:
                if cell not in self.board.kind:
                    return Reason(
                        "place_off_board",
                        "tile {number} would be outside the board; tiles start in your own zone",
                        number=number,
                    )
                return Reason(
                    "place_outside_zone",
                    "tile {number} is on a {kind} cell at {cell}; tiles start in your own zone "
                    "(never on the dark cells between zones nor in the colmena)",
                    number=number,
                    kind=self.board.kind[cell],
                    cell=self._name(cell),
                )
        return None

    def _step_problem(self, player: int, action: Step) -> Reason | None:
        tile = action.tile
        problem = self._tile_problem(player, tile)
        if problem:
            return problem
        if not isinstance(action.target, Hex):
            return Reason("not_a_cell", "{target} is not a cell", target=repr(action.target))
        if tile != self.active:
            if tile in self.marked:
                return Reason(
                    "already_moved",
                    "the tile on {cell} has already moved this turn (it carries a marker)",
                    cell=self._name(self.tile_cell[tile]),
                )
            if self.is_floating():
                assert self.active is not None
                return Reason(
                    "finish_passing",
                    "the tile on {cell} is passing over one of your tiles and must finish its "
                    "move first",
                    cell=self._name(self.tile_cell[self.active]),
                )
        found = self.steps_for(tile)
        if found is None:
            return Reason(
                "no_steps_left",
                "the tile on {cell} has no steps left this turn",
                cell=self._name(self.tile_cell[tile]),
            )
        origin, steps_left, start = found
        target = action.target
        if target not in self.board.kind:
            return Reason("off_board", "{target} is outside the board", target=str(tuple(target)))
        if target == self.board.centre:
            return Reason("centre", "the centre of the colmena is never stopped on")
        if target not in self.candidate_cells(player, origin):
            return Reason(
                "not_one_step",
                "{target} is not one step from {origin} (a step goes to an adjacent cell, or "
                "across the colmena between two cells next to it)",
                target=self._name(target),
                origin=self._name(origin),
            )
        problem, _ = self.target_problem(tile, origin, target, steps_left, start)
        return problem

    def _scout_problem(self, player: int, action: Scout) -> Reason | None:
        problem = self._tile_problem(player, action.tile)
        if problem:
            return problem
        if self.scout_used:
            return Reason("scout_used", "the scout can be used only once per turn")
        if action.tile in self.scouted:
            return Reason("already_flipped", "that tile was already flipped this turn")
        return None

    def _end_problem(self, player: int) -> Reason | None:
        if self.is_floating():
            assert self.active is not None
            return Reason(
                "cannot_stop",
                "the tile on {cell} is passing over one of your tiles and cannot stop there; "
                "move it on",
                cell=self._name(self.tile_cell[self.active]),
            )
        if self.options.must_move_all:
            for tile in self.tiles_on_board(player):
                if tile != self.active and tile not in self.marked and self.has_legal_step(tile):
                    cell = self.tile_cell[tile]
                    assert cell is not None
                    return Reason(
                        "must_move_all",
                        "every tile must move each turn (advanced rule): the tile on {cell} has "
                        "not moved and can",
                        cell=self._name(cell),
                    )
        if (
            self.options.must_move_one
            and not self.moved_this_turn()
            and any(self.has_legal_step(t) for t in self.tiles_on_board(player))
        ):
            return Reason(
                "must_move_one", "you must move at least one tile this turn (advanced rule)"
            )
        return None

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """Every legal action except setup placements (see :meth:`why_illegal` for those)."""
        if player is None:
            player = self.turn_player
        if self.phase is not Phase.PLAY or player != self.turn_player:
            return []
        if self.displacing is not None:
            return [Displace(cell) for cell in self.displace_options]
        actions: list[Action] = []
        if self.is_floating():
            assert self.active is not None
            movers = [self.active]
        else:
            movers = [t for t in self.tiles_on_board(player) if t not in self.marked]
        for tile in movers:
            actions.extend(Step(tile, target.cell) for target in self.step_targets(tile))
        if not self.scout_used:
            actions.extend(Scout(t) for t in self.tiles_on_board(player) if t not in self.scouted)
        if self._end_problem(player) is None:
            actions.append(EndTurn())
        return actions


@lru_cache(maxsize=4096)
def _candidates(
    board: Board, linked_dark: str, own_colmena: Hex | None, origin: Hex
) -> Mapping[Hex, str]:
    """One-step neighbourhoods never change during a game, so they are computed once."""
    found: dict[Hex, str] = {}
    for cell in board.neighbours[origin]:
        if cell != board.centre:
            found[cell] = "step"
    if origin in board.colmena_adjacent or origin == own_colmena:
        for cell in board.colmena_adjacent_order:
            if cell != origin and cell not in found:
                found[cell] = "colmena"
    for cell in linked_dark_cells(board, linked_dark, origin):
        if cell not in found:
            found[cell] = "dark"
    return MappingProxyType(found)


def linked_dark_cells(board: Board, linked_dark: str, origin: Hex) -> list[Hex]:
    """The dark cells one ``linked_dark_cells`` step from ``origin``: every other dark cell
    (``"all"``), the others of its spoke (``"spoke"``), or none (``"off"``)."""
    if linked_dark == "off" or origin not in board.dark:
        return []
    spoke = board.sector[origin]
    return [
        cell
        for cell in board.dark_order
        if cell != origin and (linked_dark == "all" or board.sector[cell] == spoke)
    ]
