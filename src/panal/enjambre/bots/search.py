"""A Monte Carlo search player over the hidden numbers.

At each decision of its turn it takes the heuristic's few best moves (plus the scout, plus ending
the turn) as candidates. It then draws several complete number assignments consistent with its
observation (:meth:`Knowledge.sample`) and, in each, plays every candidate forward in a private
copy of the game: the rest of its own turn and every opponent's next turn, with heuristic players
who know only what their own observation would tell them. The candidate with the best average
outcome is played. The same samples and the same random choices are used for every candidate, so
differences come from the candidates, not from luck.

The search never sees the real game: it builds its simulations from its observation alone.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from panal.hex import Hex

from ..actions import Action, Displace, EndTurn, Moved, Place, Scout, Step
from ..engine import Game
from ..observation import Observation
from ..state import Path, PublicState
from .base import Bot
from .heuristic import HeuristicBot, HeuristicParams, Planner
from .knowledge import Knowledge, geometry_for

__all__ = ["SearchBot", "SearchParams"]


@dataclass(frozen=True)
class SearchParams:
    samples: int = 8
    """Number assignments drawn per decision."""
    candidates: int = 5
    """Heuristic moves considered per decision (besides the scout and ending the turn)."""
    clear_margin: float = 3.0
    """Skip the search when the heuristic's best move beats the next by this much."""
    max_actions: int = 200
    """Safety limit on simulated actions per playout."""
    leader_weight: float = 0.5
    """How much the best opponent counts against the average opponent in the evaluation."""
    activity_prior: float = 0.7
    """How strongly tiles that walked more are taken to hold higher numbers (0: uniform)."""
    queen_prior: float = 0.9
    """Chance that an unknown tile on its owner's colmena cell is the owner's best one."""
    horizon: int = 1
    """Play out until the start of our ``horizon``-th next turn."""
    prior_weight: float = 0.05
    """Weight of the heuristic's own estimate, which decides between equal playouts."""


Candidate = Path | Step | Scout | EndTurn | Displace


class SearchBot(Bot):
    name = "search"

    def __init__(
        self,
        seed: int = 0,
        params: SearchParams | None = None,
        heuristic: HeuristicParams | None = None,
    ) -> None:
        super().__init__(seed)
        self.params = params or SearchParams()
        self.heuristic = heuristic or HeuristicParams()
        self._setup = HeuristicBot(seed, self.heuristic)
        self._plan: tuple[int, tuple[Hex, ...]] | None = None
        self._walked: dict[int, int] = {}
        self._history_seen = 0

    def place(self, observation: Observation) -> Place:
        return self._setup.place(observation)

    def choose(self, observation: Observation) -> Action:
        state = observation.state
        me = observation.me
        if self._plan is not None and state.active == self._plan[0] and self._plan[1]:
            tile, rest = self._plan
            self._plan = (tile, rest[1:]) if len(rest) > 1 else None
            return Step(tile, rest[0])
        self._plan = None
        knowledge = Knowledge.from_observation(observation, self.own_numbers)
        candidates = self._candidates(state, knowledge, observation)
        if len(candidates) == 1:
            return self._start(candidates[0][0])
        activity = self._activity(observation) if self.params.activity_prior else None
        worlds = [
            knowledge.sample(self.rng, self.params.queen_prior, activity)
            for _ in range(self.params.samples)
        ]
        seeds = [self.rng.randrange(2**32) for _ in worlds]
        best: tuple[float, int] | None = None
        for index, (candidate, prior) in enumerate(candidates):
            total = 0.0
            for world, seed in zip(worlds, seeds, strict=True):
                total += self._playout(observation, knowledge, world, seed, candidate, me)
            # Playouts often cannot tell quiet moves apart: the heuristic's view breaks ties.
            value = total / len(worlds) + self.params.prior_weight * prior
            if best is None or value > best[0]:
                best = (value, index)
        assert best is not None
        return self._start(candidates[best[1]][0])

    def _activity(self, observation: Observation) -> dict[int, float]:
        """Steps each tile has walked so far (public), scaled by the prior's strength."""
        walked: dict[int, float] = {}
        history = observation.history
        for event in history[self._history_seen :]:
            if isinstance(event, Moved):
                self._walked[event.tile] = self._walked.get(event.tile, 0) + 1
        self._history_seen = len(history)
        strength = self.params.activity_prior
        for tile, steps in self._walked.items():
            walked[tile] = strength * min(steps, 4)
        return walked

    def _start(self, candidate: Candidate) -> Action:
        if isinstance(candidate, Path):
            if len(candidate.cells) > 1:
                self._plan = (candidate.tile, candidate.cells[1:])
            return Step(candidate.tile, candidate.cells[0])
        return candidate

    def _candidates(
        self, state: PublicState, knowledge: Knowledge, observation: Observation
    ) -> list[tuple[Candidate, float]]:
        """Candidates with the heuristic's estimate of their worth."""
        me = observation.me
        if state.displacing is not None:
            return [(Displace(cell), 0.0) for cell in state.displace_options]
        planner = Planner(state, knowledge, me, self.heuristic, observation.revealed.keys())
        choices = planner.choices()
        if len(choices) >= 2 and choices[0].value - choices[1].value >= self.params.clear_margin:
            return [(choices[0].path, choices[0].value)]
        found: list[tuple[Candidate, float]] = [
            (c.path, c.value) for c in choices[: self.params.candidates]
        ]
        scout = planner.scout_action()
        if scout is not None:
            found.append((scout, self.heuristic.scout_weight))
        if state.why_illegal(me, EndTurn()) is None:
            found.append((EndTurn(), self.heuristic.min_gain))
        if not found:  # the heuristic sees no move, yet the turn cannot end
            fallback = state.legal_actions(me)[0]
            assert not isinstance(fallback, Place)
            found.append((fallback, 0.0))
        return found

    def _playout(
        self,
        observation: Observation,
        knowledge: Knowledge,
        world: list[int],
        seed: int,
        candidate: Candidate,
        me: int,
    ) -> float:
        game = Game.from_public(
            observation.state, world, shown=observation.shown, revealed=observation.revealed
        )
        rng = random.Random(seed)
        players = [
            _SimPlayer(p, world, self.heuristic, rng.randrange(2**32)) for p in range(game.players)
        ]
        if isinstance(candidate, Path):
            for index, cell in enumerate(candidate.cells):
                step = Step(candidate.tile, cell)
                if index and game.state.active != candidate.tile:
                    break  # the tile fell in combat or its move ended
                if game.why_illegal(me, step) is not None:
                    break
                game.apply(me, step)
        else:
            game.apply(me, candidate)
        # Play on until our next turn begins (or the one after: ``horizon`` rounds).
        turns_of_mine = 0
        previous = me
        for _ in range(self.params.max_actions * self.params.horizon):
            if game.over:
                break
            player = game.state.turn_player
            if player == me and previous != me:
                turns_of_mine += 1
                if turns_of_mine >= self.params.horizon:
                    break
            previous = player
            game.apply(player, players[player].act(game))
        return _evaluate(game, world, me, self.params.leader_weight)


class _SimPlayer:
    """A heuristic player inside a playout: it knows its own numbers and what was shown."""

    def __init__(self, player: int, world: list[int], params: HeuristicParams, seed: int) -> None:
        self.player = player
        self.bot = HeuristicBot(seed, params)
        self.own = {t: world[t] for t in range(player * 10, player * 10 + 10)}

    def act(self, game: Game) -> Action:
        state = game.state
        if state.displacing is not None:
            return Displace(state.displace_options[0])
        known = dict(game.revealed)
        known.update(self.own)
        for tile in game.shown:
            known[tile] = game.numbers[tile]
        knowledge = Knowledge(state, known, self.player)
        return self.bot.decide(state, knowledge, game.revealed.keys())


def _evaluate(game: Game, world: list[int], me: int, leader_weight: float) -> float:
    """My projected final score against the opponents' (their best and their average)."""
    state = game.state
    if game.over:
        assert game.result is not None
        scores = [s + 0.1 * e for s, e in zip(game.result.scores, state.eliminations, strict=True)]
    else:
        scores = [_projected(game, world, p) for p in range(state.players)]
    others = [s for p, s in enumerate(scores) if p != me]
    average = sum(others) / len(others)
    return scores[me] - leader_weight * max(others) - (1 - leader_weight) * average


def _projected(game: Game, world: list[int], player: int) -> float:
    state = game.state
    home = state.colmena_cell(player)
    tiles = state.tiles_on_board(player)
    queen = state.occupant.get(home)
    value: float
    if queen is not None:
        value = world[queen] + len(tiles) - 1
    else:
        geometry = geometry_for(state)
        turns = state.options.rounds - state.round + 1
        reachable = []
        for tile in tiles:
            cell = state.tile_cell[tile]
            if cell is not None and geometry.distance[cell].get(home, 99) <= 2 * turns:
                reachable.append(world[tile])
        value = 0.9 * max(reachable, default=0) + len(tiles) - (1 if reachable else 0)
    return value + 0.1 * state.eliminations[player]
