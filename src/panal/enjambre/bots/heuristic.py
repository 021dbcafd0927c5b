"""A rule-of-thumb player that reasons about enemy numbers from what it has seen.

Every number it has seen (combats, scouts) is remembered through the observation's public record;
any other enemy tile is taken to hold one of its owner's unaccounted numbers, each equally likely.
From that it estimates, for every way a tile can move, what the move is worth:

* the queen: bring the highest tile home to the own colmena cell and keep it there;
* attacks: the chance to win, tie or lose against the enemy tile, weighed by what a win is worth
  (an enemy loses a point) and what a loss costs (we lose one);
* safety: the chance an enemy that can reach a cell next turn attacks and beats our tile there;
* hunting: high tiles close in on enemy tiles they are likely to beat;
* the scout: the 1 walks up to unknown enemy tiles and flips them before the attacks.

It plays the best move, one step at a time, until nothing is worth doing, then ends its turn.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from panal.hex import Hex

from ..actions import Action, Displace, EndTurn, Place, Scout, Step
from ..observation import Observation
from ..state import Path, PublicState
from .base import Bot
from .knowledge import Geometry, Knowledge, geometry_for

__all__ = ["HeuristicBot", "HeuristicParams", "Planner"]


@dataclass(frozen=True)
class HeuristicParams:
    kill: float = 0.7
    """Worth of eliminating an enemy tile, relative to losing one of ours (1)."""
    hunt_from: int = 7
    """Tiles at least this high hunt enemy tiles."""
    enemy_aggression: int = 7
    """Assumed: enemies attack a tile whose number they do not know with tiles this high."""
    queen_weight: float = 0.4
    """Worth of each step the queen candidate takes towards the own colmena cell."""
    hunt_weight: float = 0.15
    scout_weight: float = 0.3
    min_gain: float = 0.04
    """A move must be worth at least this much; otherwise the turn ends."""
    noise: float = 0.0
    """Random jitter added to move values, for varied play."""


@dataclass(frozen=True)
class Choice:
    value: float
    path: Path


class Planner:
    """Evaluates moves for one player's position; used by the heuristic and the search bots."""

    def __init__(
        self,
        state: PublicState,
        knowledge: Knowledge,
        me: int,
        params: HeuristicParams,
        public: Collection[int] = (),
    ) -> None:
        self.state = state
        self._public = set(public)  # tiles whose numbers everyone has seen
        self.know = knowledge
        self.me = me
        self.params = params
        self.geometry: Geometry = geometry_for(state)
        self.home = state.colmena_cell(me)
        self.rounds_left = state.options.rounds - state.round  # after this one
        self._enemies = [
            (tile, cell)
            for player in range(state.players)
            if player != me
            for tile in state.tiles_on_board(player)
            if (cell := state.tile_cell[tile]) is not None and cell not in state.board.colmena_owner
        ]
        self._attack_cache: dict[tuple[int, int], tuple[float, float]] = {}
        self._hunt_cache: dict[tuple[Hex, int], float] = {}
        self._reach = self._enemy_reach()
        self.queen = self._queen_candidate()

    # ----------------------------------------------------------------------------- estimates

    def _threatening_players(self) -> set[int]:
        """Enemies who still get a turn before the game ends."""
        state = self.state
        enemies = {p for p in range(state.players) if p != self.me}
        if state.round < state.options.rounds:
            return enemies
        order = [(state.first_player + i) % state.players for i in range(state.players)]
        mine = order.index(self.me)
        return {p for p in order[mine + 1 :]}

    def _enemy_reach(self) -> dict[Hex, list[int]]:
        state = self.state
        reach: dict[Hex, list[int]] = {}
        attackers = self._threatening_players()
        colmena_fights = state.options.colmena_combat and state.round >= state.options.rounds - 2
        colmena = state.board.colmena_owner
        for player in attackers:
            for tile in state.tiles_on_board(player):
                cell = state.tile_cell[tile]
                assert cell is not None
                steps = state.base_steps(player, cell)
                for target in self.geometry.within(cell, steps):
                    if target in colmena and not colmena_fights:
                        continue
                    reach.setdefault(target, []).append(tile)
        return reach

    def danger(self, cell: Hex, number: int, exposed: bool, ignore: int | None = None) -> float:
        """Chance that some enemy attacks and beats a tile of ``number`` standing on ``cell``."""
        safe = 1.0
        aggression = self.params.enemy_aggression
        for enemy in self._reach.get(cell, ()):
            if enemy == ignore:
                continue
            if exposed:
                p = self.know.p_above(enemy, number)
            else:
                p = self.know.p_at_least(enemy, max(number + 1, aggression))
            safe *= 1.0 - p
        return 1.0 - safe

    def attack_value(self, number: int, enemy: int) -> tuple[float, float]:
        """(expected worth of attacking ``enemy`` with ``number``, chance of winning)."""
        key = (number, enemy)
        cached = self._attack_cache.get(key)
        if cached is None:
            cached = self._attack_cache[key] = self._attack_value(number, enemy)
        return cached

    def _attack_value(self, number: int, enemy: int) -> tuple[float, float]:
        know = self.know
        win = 1.0 - know.p_at_least(enemy, number)
        tie = know.p_equal(enemy, number)
        loss = know.p_above(enemy, number)
        kill = self.params.kill
        # A tie removes both tiles; a small bonus for eliminations (the tiebreak), which a tie
        # brings the attacker unless the rules credit it to nobody (tie_credit "none").
        credited = win + (tie if self.state.options.tie_credit != "none" else 0.0)
        return kill * win + (kill - 1.0) * tie - loss + 0.05 * credited, win

    def _queen_candidate(self) -> int | None:
        """The own tile to bring home, if the colmena cell is still empty."""
        state = self.state
        if self.home in state.occupant:
            return None
        best: tuple[int, int] | None = None
        turns = self.rounds_left + 1
        for tile in state.tiles_on_board(self.me):
            number = self.know.known.get(tile)
            cell = state.tile_cell[tile]
            if number is None or cell is None:
                continue
            distance = self.geometry.distance[cell].get(self.home, 99)
            if distance > 2 * turns:
                continue
            if best is None or number > best[0]:
                best = (number, tile)
        return None if best is None else best[1]

    def _distance_home(self, cell: Hex) -> int:
        return self.geometry.distance[cell].get(self.home, 30)

    def hunt_potential(self, cell: Hex, number: int) -> float:
        """What a tile of ``number`` on ``cell`` could gain by attacking next turn."""
        key = (cell, number)
        cached = self._hunt_cache.get(key)
        if cached is not None:
            return cached
        steps = self.state.base_steps(self.me, cell)
        distance = self.geometry.distance[cell]
        total = 0.0
        for enemy, enemy_cell in self._enemies:
            if distance.get(enemy_cell, 99) <= steps:
                value, _ = self.attack_value(number, enemy)
                if value > 0:
                    total += value
        self._hunt_cache[key] = total
        return total

    def unknown_neighbours(self, cell: Hex) -> int:
        state = self.state
        count = 0
        for neighbour in state.board.neighbours[cell]:
            holder = state.occupant.get(neighbour)
            if (
                holder is not None
                and state.owner(holder) != self.me
                and holder not in self.know.known
            ):
                count += 1
        return count

    # ----------------------------------------------------------------------------- moves

    def evaluate(self, path: Path) -> float:
        state = self.state
        tile = path.tile
        number = self.know.known.get(tile, 5)
        start = state.tile_cell[tile]
        assert start is not None
        end = path.end
        exposed = tile in self.know.known and self._is_public(tile)
        value = 0.0
        if start == self.home:  # the queen leaves the colmena: her number no longer counts
            value -= number + 1.0
        if path.attack is not None:
            attack, win = self.attack_value(number, path.attack)
            value += attack
            # If it wins it stays there, shown to everyone.
            value -= win * self.danger(end, number, True, ignore=path.attack)
            value += win * self._position_value(tile, number, start, end, exposed=True)
        else:
            value += self.danger(start, number, exposed) - self.danger(end, number, exposed)
            value += self._position_value(tile, number, start, end, exposed)
        return value

    def _position_value(self, tile: int, number: int, start: Hex, end: Hex, exposed: bool) -> float:
        params = self.params
        value = 0.0
        if tile == self.queen:
            gained = self._distance_home(start) - self._distance_home(end)
            value += params.queen_weight * gained * number / 10
            if end == self.home:
                value += number
        elif number >= params.hunt_from:
            value += params.hunt_weight * (
                self.hunt_potential(end, number) - self.hunt_potential(start, number)
            )
        if number == 1 and not self.state.scout_used and not exposed:
            value += params.scout_weight * (
                self.unknown_neighbours(end) - self.unknown_neighbours(start)
            )
        return value

    def _is_public(self, tile: int) -> bool:
        return tile in self._public

    def choices(self) -> list[Choice]:
        """Every movable tile's moves with their worth, best first."""
        state = self.state
        if state.is_floating():
            assert state.active is not None
            movers = [state.active]
        else:
            movers = [t for t in state.tiles_on_board(self.me) if t not in state.marked]
            if state.active is not None and state.active not in movers:
                movers.append(state.active)
        found = []
        for tile in movers:
            for path in state.paths(tile):
                found.append(Choice(self.evaluate(path), path))
        found.sort(key=lambda c: (-c.value, c.path.tile, c.path.cells))
        return found

    def scout_action(self) -> Scout | None:
        """Flip the scout when it stands next to enemy tiles whose numbers are unknown."""
        state = self.state
        if state.scout_used:
            return None
        for tile in state.tiles_on_board(self.me):
            if self.know.known.get(tile) == 1:
                cell = state.tile_cell[tile]
                assert cell is not None
                if self.unknown_neighbours(cell) > 0:
                    return Scout(tile)
        return None


class HeuristicBot(Bot):
    name = "heuristic"

    def __init__(self, seed: int = 0, params: HeuristicParams | None = None) -> None:
        super().__init__(seed)
        self.params = params or HeuristicParams()
        self._plan: tuple[int, tuple[Hex, ...]] | None = None

    def place(self, observation: Observation) -> Place:
        """High tiles in the front rows (near the colmena), the 10 closest to home."""
        state = observation.state
        me = observation.me
        geometry = geometry_for(state)
        home = state.colmena_cell(me)
        zone = list(state.zone(me))
        self.rng.shuffle(zone)
        zone.sort(key=lambda cell: geometry.distance[cell].get(home, 99))
        count = state.tiles_per_player
        front = zone[:count]
        # Keep the 10 on a front cell; shuffle the rest a little so the setup is not fixed.
        numbers = list(range(count, 0, -1))
        cells: list[Hex | None] = [None] * count
        cells[count - 1] = front[0]
        rest = front[1:]
        for index, number in enumerate(numbers[1:]):
            swap = self.rng.random() < 0.35 and index + 1 < len(rest)
            if swap:
                rest[index], rest[index + 1] = rest[index + 1], rest[index]
            cells[number - 1] = rest[index]
        return Place(tuple(c for c in cells if c is not None))

    def choose(self, observation: Observation) -> Action:
        state = observation.state
        if state.displacing is not None:
            return Displace(state.displace_options[0])
        knowledge = Knowledge.from_observation(observation, self.own_numbers)
        return self.decide(state, knowledge, observation.revealed.keys())

    def decide(self, state: PublicState, knowledge: Knowledge, public: Collection[int]) -> Action:
        me = state.turn_player
        # Keep walking a planned path (nothing changes under a tile on its own turn).
        if self._plan is not None and state.active == self._plan[0]:
            tile, rest = self._plan
            if rest:
                self._plan = (tile, rest[1:]) if len(rest) > 1 else None
                return Step(tile, rest[0])
        self._plan = None
        planner = Planner(state, knowledge, me, self.params, public)
        scout = planner.scout_action()
        if scout is not None:
            return scout
        choices = planner.choices()
        if self.params.noise and choices:
            noise = self.params.noise
            choices = sorted(
                (Choice(c.value + self.rng.uniform(-noise, noise), c.path) for c in choices),
                key=lambda c: -c.value,
            )
        can_end = state.why_illegal(me, EndTurn()) is None
        if choices and (choices[0].value >= self.params.min_gain or not can_end):
            path = choices[0].path
            if len(path.cells) > 1:
                self._plan = (path.tile, path.cells[1:])
            return Step(path.tile, path.cells[0])
        if can_end:
            return EndTurn()
        # Nothing to move but the turn cannot end: only a scout flip is left.
        return state.legal_actions(me)[0]
