"""Enjambre Tácticas as a PettingZoo AEC environment of 2 to 6 agents with hidden numbers.

Agents are ``player_0`` … ``player_{n-1}`` (engine seats; play order is clockwise, seat 0 first
listed). Each agent's observation is a dict:

* ``"observation"``: the seat's knowledge as a fixed vector (:mod:`panal.env.enjambre_tensor`),
  built from the engine's own ``Game.observe(seat)`` and nothing else, so no hidden number can
  reach it;
* ``"action_mask"``: ``int8``, 1 for the legal indices of the action space
  (:mod:`panal.env.enjambre_actions`), all zeros for agents not acting now.

Rewards come once, when the game ends (``reward="rank"`` by default, or ``"score"``: see
:meth:`EnjambreTable.returns`); every agent is then terminated. The episode is truncated (reward
0) after ``max_steps`` actions (default 4,000: a default-rules game has at most 60 set-up picks +
10 rounds × 6 seats × 51 actions = 3,120). ``render()`` is text: the board as a spectator sees it
(no hidden number) and whose turn it is. ``reset(seed=…)`` makes the whole game reproducible:
the first player, five players' seats, and nothing else is random in the rules.

Keyword arguments: ``players`` (2–6), ``moves`` (``"steps"`` or ``"paths"``), ``reward``,
``max_steps``, ``render_mode`` (``"ansi"`` returns the text, ``"human"`` prints it), and every
rule option of :class:`panal.enjambre.Options` by name (``rounds=4, colmena_combat=True``…).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from panal.enjambre import Options
from panal.enjambre.render import render_board

from .enjambre_actions import MOVES, REWARDS, EnjambreTable, turn_action_bound
from .enjambre_tensor import encode_observation, encoding_size
from .enjambre_text import legal_action_texts, prompt_text

__all__ = ["EnjambreEnv", "enjambre_options", "env"]

DEFAULT_MAX_STEPS = 4000


def enjambre_options(values: dict[str, Any]) -> Options:
    """Options from keyword arguments; an unknown name is a ValueError that lists the known."""
    try:
        return Options(**values)
    except TypeError:
        known = ", ".join(Options.__dataclass_fields__)
        unknown = ", ".join(sorted(set(values) - set(Options.__dataclass_fields__)))
        raise ValueError(f"unknown Enjambre option(s) {unknown}; the options are {known}") from None


class EnjambreEnv(AECEnv):
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "enjambre_tacticas_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        *,
        moves: str = "steps",
        reward: str = "rank",
        max_steps: int = DEFAULT_MAX_STEPS,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if not (isinstance(players, int) and 2 <= players <= 6):
            raise ValueError(f"Enjambre Tácticas is played by 2 to 6 players, not {players!r}")
        if moves not in MOVES:
            raise ValueError(f"moves must be one of {', '.join(MOVES)}, not {moves!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if not (isinstance(max_steps, int) and max_steps > 0):
            raise ValueError(f"max_steps must be a positive integer, not {max_steps!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'ansi', 'human' or None, not {render_mode!r}")
        self.options = enjambre_options(options)
        self.players = players
        self.moves = moves
        self.reward = reward
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents = list(self.possible_agents)
        self._seeds = np.random.default_rng()
        self.table = EnjambreTable(players, options=self.options, seed=self._game_seed())
        self.layout = self.table.layout
        size = encoding_size(self.table.game.board)
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self.layout.size,), dtype=np.int8),
            }
        )
        self._action_space = spaces.Discrete(self.layout.size)
        self._start()

    @staticmethod
    def longest_game(players: int, options: Options, tiles: int = 10) -> int:
        """The most actions a game can take: the set-up picks and every turn's bound."""
        return players * tiles + options.rounds * players * turn_action_bound(tiles)

    def _game_seed(self) -> int:
        return int(self._seeds.integers(2**63))

    def _start(self) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def _select(self) -> None:
        seat = self.table.to_move
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    # ----------------------------------------------------------------------------- the API

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def action_mask(self, agent: str) -> np.ndarray:
        mask = np.zeros(self.layout.size, dtype=np.int8)
        if agent == self.agent_selection and not self.table.over:
            mask[self.table.legal_indices()] = 1
        return mask

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.seat(agent)
        observation = self.table.observe(seat)
        return {
            "observation": encode_observation(observation, self.table.picks[seat]),
            "action_mask": self.action_mask(agent),
        }

    def text_observation(self, agent: str, *, with_legal: bool = False) -> str:
        """The agent's view in words (:func:`panal.env.enjambre_text.prompt_text`), with its
        legal actions in the terminal's notation if ``with_legal`` and it is to act."""
        return prompt_text(self.table, self.seat(agent), with_legal=with_legal)

    def legal_texts(self, agent: str) -> dict[str, int]:
        """The agent's legal actions in the terminal game's notation, each with its index
        (empty when the agent is not to act)."""
        if agent != self.agent_selection or self.table.over:
            return {}
        return legal_action_texts(self.table)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        self.table = EnjambreTable(
            self.players, options=self.options, seed=self._game_seed(), moves=self.moves
        )
        self._start()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents that are done")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.table.apply(int(action))
        if self.table.over:
            returns = self.table.returns(self.reward)
            result = self.table.game.result
            assert result is not None
            for seat, name in enumerate(self.possible_agents):
                self.rewards[name] = returns[seat]
                self.terminations[name] = True
                self.infos[name] = {
                    "score": result.scores[seat],
                    "place": result.places[seat],
                }
        elif self.table.actions_taken >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self._select()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        game = self.table.game
        state = game.state
        if game.over:
            assert game.result is not None
            status = "game over; scores " + ", ".join(
                f"{state.colour(p)} {s}" for p, s in enumerate(game.result.scores)
            )
        else:
            status = f"round {state.round}/{state.options.rounds}, {state.phase}, " + (
                f"{self.agent_selection} ({state.colour(state.turn_player)}) to act"
            )
        text = render_board(game.observe(None)) + "\n" + status
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> EnjambreEnv:
    """PettingZoo's usual constructor name."""
    return EnjambreEnv(**kwargs)
