"""The referee: holds the secret numbers, applies actions, and hands out observations.

Only :class:`Game` knows every number. Players (human or bot) get :class:`Observation` objects
built by :meth:`Game.observe`, which copy the public state and add the numbers that player may
see. An action is validated completely before anything changes, so an illegal action raises
:class:`IllegalActionError` and leaves the game untouched.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from panal.hex import Hex

from .actions import (
    Action,
    Combat,
    Displace,
    Displaced,
    EndTurn,
    Event,
    GameEnded,
    IllegalActionError,
    Moved,
    MoveFinished,
    Place,
    Placed,
    Reason,
    Scout,
    Scouted,
    Step,
    TurnEnded,
    action_from_dict,
    action_to_dict,
)
from .board import Board, default_board
from .observation import Observation
from .options import Options
from .scoring import GameResult, score_game
from .state import Phase, PublicState

__all__ = ["Game", "GameLog"]


@dataclass
class GameLog:
    """Everything needed to replay a game: its set-up and every action taken, in order."""

    players: int
    options: Options
    seed: int
    first_player: int
    actions: list[tuple[int, Action]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "options": self.options.to_dict(),
            "seed": self.seed,
            "first_player": self.first_player,
            "actions": [[player, action_to_dict(a)] for player, a in self.actions],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameLog:
        return cls(
            players=int(data["players"]),
            options=Options.from_dict(dict(data["options"])),
            seed=int(data["seed"]),
            first_player=int(data["first_player"]),
            actions=[(int(p), action_from_dict(a)) for p, a in data["actions"]],
        )

    @classmethod
    def from_json(cls, text: str) -> GameLog:
        return cls.from_dict(json.loads(text))


class Game:
    """One game of Enjambre Tácticas."""

    def __init__(
        self,
        players: int,
        *,
        options: Options | None = None,
        seed: int | None = None,
        first_player: int | None = None,
        board: Board | None = None,
    ) -> None:
        board = board or default_board()
        options = options or Options()
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        rng = random.Random(seed)
        sectors = board.seats_for(players, rng)  # validates the player count
        if first_player is None:
            first_player = rng.randrange(players)  # "se sortea quien empieza"
        elif not 0 <= first_player < players:
            raise ValueError(f"first player must be a seat from 0 to {players - 1}")
        self.state = PublicState(board, options, sectors, first_player)
        self._bind()
        self.numbers: list[int] = [0] * len(self.state.tile_cell)
        self.shown: set[int] = set()
        self.revealed: dict[int, int] = {}
        self.history: list[Event] = []
        self.log = GameLog(players, options, seed, first_player)
        self.result: GameResult | None = None
        self._placements: dict[int, tuple[Hex, ...]] = {}

    def _bind(self) -> None:
        """Typed handles on the state's containers; only the engine mutates them."""
        state = self.state
        self._cells = cast(list[Hex | None], state.tile_cell)
        self._occupant = cast(dict[Hex, int], state.occupant)
        self._marked = cast(set[int], state.marked)
        self._bonus = cast(dict[int, int], state.bonus)
        self._eliminated = cast(list[tuple[int, int | None, int]], state.eliminated)
        self._eliminations = cast(list[int], state.eliminations)
        self._placed = cast(list[bool], state.placed)
        self._scouted = cast(set[int], state.scouted)
        self._entered_from = cast(dict[int, Hex], state.entered_from)

    # ----------------------------------------------------------------------------- queries

    @property
    def players(self) -> int:
        return self.state.players

    @property
    def options(self) -> Options:
        return self.state.options

    @property
    def board(self) -> Board:
        return self.state.board

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def over(self) -> bool:
        return self.state.phase is Phase.OVER

    @property
    def to_move(self) -> int | None:
        return self.state.to_move

    def number(self, tile: int) -> int:
        """The secret number of ``tile`` (referee only; never give this to a player)."""
        return self.numbers[tile]

    def legal_actions(self) -> list[Action]:
        """Legal actions of the player to move (empty during setup: see :meth:`why_illegal`)."""
        return self.state.legal_actions()

    def why_illegal(self, player: int, action: Action) -> Reason | None:
        return self.state.why_illegal(player, action)

    def observe(self, player: int | None) -> Observation:
        """What ``player`` may see now (None: a spectator, who sees what every player sees and
        nobody's own tiles). Shares nothing mutable with the game."""
        state = self.state
        if player is not None and not 0 <= player < state.players:
            raise ValueError(f"there is no player {player}")
        setup = state.phase is Phase.SETUP
        hidden = frozenset(p for p in range(state.players) if p != player) if setup else frozenset()
        visible: dict[int, int] = {}
        if player is not None and (setup or not state.options.memory_play) and state.placed[player]:
            for tile in state.tiles_of(player):
                visible[tile] = self.numbers[tile]
        for tile in self.shown:
            visible[tile] = self.numbers[tile]
        return self._observation(player, state.frozen_copy(hide_positions_of=hidden), visible)

    def observe_all(self) -> Observation:
        """The referee's view: every tile's number (for looking back at a finished game; never
        hand this to a player while the game goes on)."""
        state = self.state
        visible = {
            tile: self.numbers[tile]
            for tile in range(len(state.tile_cell))
            if state.placed[state.owner(tile)]
        }
        return self._observation(None, state.frozen_copy(), visible)

    def _observation(
        self, player: int | None, state: PublicState, visible: dict[int, int]
    ) -> Observation:
        return Observation(
            viewer=player,
            state=state,
            numbers=visible,
            shown=frozenset(self.shown),
            revealed=dict(self.revealed),
            history=tuple(self.history),
            result=self.result,
        )

    def snapshot(self) -> dict[str, Any]:
        """The whole truth as plain data (for comparing replays)."""
        state = self.state
        return {
            "phase": str(state.phase),
            "round": state.round,
            "turn_player": state.turn_player,
            "sectors": list(state.sectors),
            "first_player": state.first_player,
            "numbers": list(self.numbers),
            "tile_cell": [None if c is None else list(c) for c in state.tile_cell],
            "marked": sorted(state.marked),
            "active": state.active,
            "active_start": None if state.active_start is None else list(state.active_start),
            "active_steps": state.active_steps,
            "bonus": sorted(state.bonus.items()),
            "scout_used": state.scout_used,
            "scouted": sorted(state.scouted),
            "entered_from": sorted((t, list(c)) for t, c in state.entered_from.items()),
            "displacing": state.displacing,
            "displace_options": [list(c) for c in state.displace_options],
            "placed": list(state.placed),
            "shown": sorted(self.shown),
            "eliminated": [list(e) for e in state.eliminated],
            "eliminations": list(state.eliminations),
            "history": [repr(e) for e in self.history],
            "result": None if self.result is None else self.result.to_dict(),
        }

    # ----------------------------------------------------------------------------- actions

    def apply(self, player: int, action: Action) -> None:
        """Apply ``action`` for ``player`` or raise :class:`IllegalActionError` changing nothing."""
        problem = self.state.why_illegal(player, action)
        if problem is not None:
            raise IllegalActionError(problem)
        self.log.actions.append((player, action))
        match action:
            case Place():
                self._place(player, action)
            case Step():
                self._step(player, action)
            case Scout():
                self._scout(player, action)
            case Displace():
                self._displace(player, action)
            case EndTurn():
                self._end_turn(player)

    def _event(self, event_type: type[Event], player: int | None = None, **fields: Any) -> None:
        state = self.state
        who = state.turn_player if player is None else player
        self.history.append(event_type(round=state.round, player=who, **fields))

    def _place(self, player: int, action: Place) -> None:
        state = self.state
        numbers = state.placement_tiles(player, action.cells)
        for tile, number in numbers.items():
            cell = action.cells[number - 1]
            self.numbers[tile] = number
            self._cells[tile] = cell
            self._occupant[cell] = tile
        self._placed[player] = True
        self._placements[player] = action.cells
        self._event(Placed, player)
        if all(state.placed):
            state.phase = Phase.PLAY
            state.turn_player = state.first_player
        else:  # the first player still arranging, clockwise from the first player
            waiting = state.first_player
            while state.placed[waiting]:
                waiting = state.next_player(waiting)
            state.turn_player = waiting

    def _finish_move(self, tile: int) -> None:
        state = self.state
        self._marked.add(tile)
        state.active = None
        state.active_start = None
        state.active_steps = 0
        self._event(MoveFinished, tile=tile)

    def _step(self, player: int, action: Step) -> None:
        state = self.state
        tile, target = action.tile, action.target
        if tile != state.active:
            if state.active is not None:
                self._finish_move(state.active)
            cell = state.tile_cell[tile]
            assert cell is not None
            state.active = tile
            state.active_start = cell
            state.active_steps = state.base_steps(player, cell) + self._bonus.pop(tile, 0)
        origin = state.tile_cell[tile]
        assert origin is not None
        via = state.candidate_cells(player, origin)[target]
        occupant = self._occupant
        if occupant.get(origin) == tile:
            del occupant[origin]
        state.active_steps -= 1
        self._event(Moved, tile=tile, origin=origin, target=target, via=via)
        if target == state.colmena_cell(player):
            self._entered_from[tile] = origin
        else:
            self._entered_from.pop(tile, None)
        holder = occupant.get(target)
        if holder is None:
            occupant[target] = tile
            self._cells[tile] = target
        elif state.owner(holder) == player:
            self._cells[tile] = target  # passing over its own tile
        else:
            self._combat(player, tile, holder, target)
        if state.active == tile and state.active_steps == 0 and not state.is_floating():
            self._finish_move(tile)

    def _eliminate(self, tile: int, by_player: int | None) -> None:
        """Take ``tile`` off the board, credited to ``by_player`` (None: to nobody)."""
        state = self.state
        cell = state.tile_cell[tile]
        if cell is not None and self._occupant.get(cell) == tile:
            del self._occupant[cell]
        self._cells[tile] = None
        self._entered_from.pop(tile, None)
        self._eliminated.append((tile, by_player, state.round))
        if by_player is not None:
            self._eliminations[by_player] += 1
        self.shown.discard(tile)

    def _combat(self, player: int, attacker: int, defender: int, cell: Hex) -> None:
        state = self.state
        a_number, d_number = self.numbers[attacker], self.numbers[defender]
        for tile in (attacker, defender):
            self.shown.add(tile)
            self.revealed[tile] = self.numbers[tile]
        defender_owner = state.owner(defender)
        eliminated: list[int] = []
        relocated_to: Hex | None = None
        if a_number <= d_number:  # the attacker loses, or both go on a tie
            eliminated.append(attacker)
        if d_number <= a_number:
            eliminated.append(defender)
        tie = len(eliminated) == 2
        credit = state.options.tie_credit
        if defender in eliminated:
            self._eliminate(defender, None if tie and credit == "none" else player)
        if attacker in eliminated:
            self._eliminate(attacker, None if tie and credit != "each" else defender_owner)
            self._marked.add(attacker)
            state.active = None
            state.active_start = None
            state.active_steps = 0
        elif cell in state.board.colmena_owner:
            relocated_to = self._relocate_to_own_colmena(player, attacker, cell)
        else:
            self._occupant[cell] = attacker
            self._cells[attacker] = cell
        self._event(
            Combat,
            cell=cell,
            attacker=attacker,
            defender=defender,
            attacker_number=a_number,
            defender_number=d_number,
            eliminated=tuple(eliminated),
            relocated_to=relocated_to,
        )
        if relocated_to is not None:
            self._finish_move(attacker)

    def _relocate_to_own_colmena(self, player: int, tile: int, won_on: Hex) -> Hex:
        """Advanced colmena combat: a winner on a foreign colmena cell goes to its own one,
        pushing out the tile there, which goes to the nearest empty cell "de donde viene":
        its colmena cell, or (``displaced_to=near_entry``) the cell it entered from."""
        state = self.state
        home = state.colmena_cell(player)
        pushed = self._occupant.get(home)
        self._occupant[home] = tile
        self._cells[tile] = home
        came_from = self._entered_from.pop(pushed, home) if pushed is not None else home
        self._entered_from[tile] = won_on
        if pushed is not None and pushed != tile:
            self._cells[pushed] = None
            state.displacing = pushed
            origin = came_from if state.options.displaced_to == "near_entry" else home
            state.displace_options = self._nearest_empty(origin)
        return home

    def _nearest_empty(self, origin: Hex) -> tuple[Hex, ...]:
        board, occupant = self.state.board, self.state.occupant
        free = [
            cell
            for cell in board.cells
            if cell not in occupant and cell != board.centre and cell not in board.colmena_owner
        ]
        nearest = min(origin.distance(cell) for cell in free)
        return tuple(sorted(cell for cell in free if origin.distance(cell) == nearest))

    def _displace(self, player: int, action: Displace) -> None:
        state = self.state
        tile = state.displacing
        assert tile is not None
        self._occupant[action.target] = tile
        self._cells[tile] = action.target
        state.displacing = None
        state.displace_options = ()
        self._event(Displaced, tile=tile, origin=state.colmena_cell(player), target=action.target)

    def _scout(self, player: int, action: Scout) -> None:
        state = self.state
        tile = action.tile
        number = self.numbers[tile]
        # A flip that is not the 1 uses up the turn's scout, unless scout_retry (docs/enjambre.md).
        state.scout_used = number == 1 or not state.options.scout_retry
        self._scouted.add(tile)
        self.revealed[tile] = number
        revealed: list[tuple[int, int]] = []
        if number == 1:
            self.shown.add(tile)
            cell = state.tile_cell[tile]
            assert cell is not None
            for neighbour in state.board.neighbours[cell]:
                holder = state.occupant.get(neighbour)
                if holder is not None and state.owner(holder) != player:
                    revealed.append((holder, self.numbers[holder]))
                    self.shown.add(holder)
                    self.revealed[holder] = self.numbers[holder]
            if state.options.scout_extra_step:
                if tile == state.active:
                    state.active_steps += 1
                elif tile not in state.marked:
                    self._bonus[tile] = self._bonus.get(tile, 0) + 1
        # A tile that is not the 1 is flipped back at once: everyone saw it, nothing else happens.
        self._event(
            Scouted, tile=tile, number=number, success=number == 1, revealed=tuple(revealed)
        )

    def _end_turn(self, player: int) -> None:
        state = self.state
        if state.active is not None:
            self._finish_move(state.active)
        self._event(TurnEnded)
        self.shown.clear()
        self._marked.clear()
        self._bonus.clear()
        self._scouted.clear()
        state.scout_used = False
        following = state.next_player(player)
        if following == state.first_player:
            if state.round == state.options.rounds:
                self._finish_game()
                return
            state.round += 1
        state.turn_player = following

    def _finish_game(self) -> None:
        state = self.state
        state.phase = Phase.OVER
        queens: list[tuple[int, int, int]] = []
        queen_numbers: list[int | None] = []
        for player in range(state.players):
            tile = state.occupant.get(state.colmena_cell(player))
            if tile is None:
                queen_numbers.append(None)
                continue
            number = self.numbers[tile]
            queens.append((player, tile, number))
            queen_numbers.append(number)
            self.shown.add(tile)
            self.revealed[tile] = number
        self.result = score_game(
            queen_numbers,
            [len(state.tiles_on_board(p)) for p in range(state.players)],
            state.eliminations,
            options=state.options,
        )
        self._event(GameEnded, queens=tuple(queens), scores=self.result.scores)

    # ----------------------------------------------------------------------------- replay & sims

    def copy(self) -> Game:
        """An independent copy (the board and options are shared: they never change). A server
        tries actions on a copy and keeps it only once they are stored."""
        game = object.__new__(Game)
        game.state = self.state.mutable_copy()
        game._bind()
        game.numbers = list(self.numbers)
        game.shown = set(self.shown)
        game.revealed = dict(self.revealed)
        game.history = list(self.history)
        log = self.log
        game.log = GameLog(log.players, log.options, log.seed, log.first_player, list(log.actions))
        game.result = self.result
        game._placements = dict(self._placements)
        return game

    @classmethod
    def replay(cls, log: GameLog, board: Board | None = None) -> Game:
        """Rebuild a game from its log; raises :class:`IllegalActionError` on a corrupt log."""
        game = cls(
            log.players,
            options=log.options,
            seed=log.seed,
            first_player=log.first_player,
            board=board,
        )
        for player, action in log.actions:
            game.apply(player, action)
        return game

    @classmethod
    def from_public(
        cls,
        state: PublicState,
        numbers: Sequence[int],
        *,
        shown: frozenset[int] = frozenset(),
        revealed: Mapping[int, int] | None = None,
    ) -> Game:
        """A private game starting from a public state with assumed numbers (a bot's sample).

        Search bots use this to play out guesses; it never touches the real game.
        """
        if len(numbers) != len(state.tile_cell):
            raise ValueError("one number per tile is needed")
        game = object.__new__(cls)
        game.state = state.mutable_copy()
        game._bind()
        game.numbers = list(numbers)
        game.shown = set(shown)
        game.revealed = dict(revealed or {})
        game.history = []
        game.log = GameLog(state.players, state.options, 0, state.first_player)
        game.result = None
        game._placements = {}
        return game
