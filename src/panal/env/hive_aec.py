"""Hive as a PettingZoo AEC environment (``hive_v0``): every game type and rule option.

>>> from panal.env.hive_aec import HiveEnv
>>> env = HiveEnv("Base+MLP", tournament_opening=True, info_moves=True)
>>> env.reset(seed=1)
>>> env.agents, env.agent_selection
(['player_0', 'player_1'], 'player_0')
>>> observation, reward, termination, truncation, info = env.last()
>>> observation["observation"].shape, observation["action_mask"].sum()
((35, 29, 29), np.int64(7))
>>> env.step(env.actions.action_of(env.game, "wS1"))
>>> env.infos["player_1"]["move_strings"][:2], env.agent_selection
(['bS1 wS1-', 'bS1 wS1\\\\'], 'player_1')

* **Agents** ``"player_0"`` (White, who moves first) and ``"player_1"`` (Black); a pass is an
  action of its own, played only when nothing else is legal (the mask then holds it alone).
* **Actions**: :mod:`panal.env.hive_actions` (``env.actions``): piece x reference x relation,
  plus the pass; a bijection with the MoveStrings panal writes.
* **Observations**: ``{"observation": planes, "in_hand": counts, "action_mask": mask}`` of
  :mod:`panal.env.hive_observation`, seen from the observing side; the mask (``int8``, one
  entry per action) marks the observer's legal actions when it is to move, else none.
* **Rewards**: +1 to the winner and -1 to the loser when a queen is surrounded, 0 otherwise
  (a draw: both queens, or a third repetition under ``repetition_draw``).
* **Termination** when the game is over; **truncation** of both agents when ``max_plies``
  plies (default 400; ``None`` for none) have been played without an end.
* ``reset(seed=..., options={"opening_plies": k})`` starts after ``k`` uniformly random legal
  plies drawn from ``seed`` (the same seed, the same opening), or from
  ``options={"game_string": "..."}``; with neither, from the empty board. Other keys are
  ignored (PettingZoo's ``api_test`` passes one of its own).
* ``render()``: ``"ansi"`` returns the text board (``print(game)``), ``"human"`` prints it,
  ``"rgb_array"`` returns an image (:mod:`panal.env.hive_render`).
* ``infos[agent]``: ``"move_strings"`` (the legal MoveStrings in action order when the agent is
  to move) is computed only with ``HiveEnv(..., info_moves=True)``, since writing text costs
  more than the step itself; ``"game_string"`` after the end.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from panal.env.hive_actions import HiveActions
from panal.env.hive_observation import HiveObserver
from panal.env.hive_render import board_image
from panal.hive.codes import PASS_CODE
from panal.hive.game import Game
from panal.hive.options import Options
from panal.hive.outcome import GameState

__all__ = ["AGENTS", "DEFAULT_MAX_PLIES", "HiveEnv", "env", "raw_env"]

AGENTS = ("player_0", "player_1")
"""White's agent and Black's, named as PettingZoo's board games name theirs."""
DEFAULT_MAX_PLIES = 400
RENDER_MODES = ("human", "ansi", "rgb_array")
_ObsDict = dict[str, np.ndarray[Any, Any]]


class HiveEnv(AECEnv[str, _ObsDict, int]):
    """Hive for two agents taking turns. ``game_type`` and the rule options are those of
    :class:`panal.hive.Game` (``options=Options(...)`` or its fields as keywords)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "hive_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        game_type: str = "Base+MLP",
        *,
        max_plies: int | None = DEFAULT_MAX_PLIES,
        render_mode: str | None = None,
        info_moves: bool = False,
        options: Options | None = None,
        **rules: Any,
    ) -> None:
        super().__init__()
        if max_plies is not None and (not isinstance(max_plies, int) or max_plies < 1):
            raise ValueError(f"max_plies is a positive int or None, not {max_plies!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode {render_mode!r}: choose one of {', '.join(RENDER_MODES)}"
            )
        self._new_game = lambda: Game(game_type, options=options, **rules)
        self.game = self._new_game()  # checks the game type and options now
        self.actions = HiveActions(self.game.game_type)
        self.observer = HiveObserver(self.game.game_type)
        self.max_plies = max_plies
        self.render_mode = render_mode
        self.info_moves = info_moves
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        bugs = self.observer.bugs
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 127, self.observer.shape, dtype=np.int8),
                "in_hand": spaces.Box(0, 3, (2, bugs), dtype=np.int8),
                "action_mask": spaces.Box(0, 1, (self.actions.size,), dtype=np.int8),
            }
        )
        self._action_spaces = {agent: spaces.Discrete(self.actions.size) for agent in AGENTS}
        self._legal: dict[int, int] = {}
        self._tracker = self.actions.tracker(self.game)
        self._start_ply = 0
        self._reset_state()

    # --- spaces -----------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    # --- the game ---------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        options = options or {}
        game_string = options.get("game_string")
        opening = options.get("opening_plies", 0)
        if not isinstance(opening, int) or isinstance(opening, bool) or opening < 0:
            raise ValueError(f"opening_plies is an int >= 0, not {opening!r}")
        if game_string is not None:
            game = Game.from_game_string(game_string, options=self.game.options)
            if game.game_type != self.actions.game_type:
                raise ValueError(f"{game_string!r} is not a {self.actions.game_type} game")
        else:
            game = self._new_game()
        if seed is not None:
            for index, agent in enumerate(AGENTS):
                self._action_spaces[agent].seed(seed + index)
        rng = random.Random(seed)
        for _ in range(opening):
            codes = game.legal_move_codes()
            if not codes:
                break
            game.push_code(codes[rng.randrange(len(codes))])
        self.game = game
        self._start_ply = self.game.ply
        self.agents = list(AGENTS)
        self._reset_state()

    def _reset_state(self) -> None:
        self._tracker = self.actions.tracker(self.game)
        self.rewards = {agent: 0.0 for agent in AGENTS}
        self._cumulative_rewards = {agent: 0.0 for agent in AGENTS}
        self.terminations = {agent: False for agent in AGENTS}
        self.truncations = {agent: False for agent in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[self.game.turn]
        self._settle()

    def legal_actions(self) -> dict[int, int]:
        """The legal actions of the agent to move → their move codes (``{}`` after the end);
        the mask's set entries, without building the observation."""
        return self._legal

    def observe(self, agent: str) -> _ObsDict:
        color = AGENTS.index(agent)
        mask = np.zeros(self.actions.size, dtype=np.int8)
        if agent == self.agent_selection and self._legal:
            mask[list(self._legal)] = 1
        return {
            "observation": self.observer.planes_of(self.game, color),
            "in_hand": self.observer.in_hand_of(self.game, color),
            "action_mask": mask,
        }

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        # a plain int is looked up at once; numpy's ints too, but not bools or floats
        code = (
            self._legal.get(action)
            if type(action) is int
            else self._legal.get(int(action))
            if _is_action(action)
            else None
        )
        if code is None:
            raise ValueError(self._illegal(action))
        self._cumulative_rewards[agent] = 0.0
        self._tracker.push(code)
        self.agent_selection = AGENTS[self.game.ply & 1]  # game.turn, without making a Color
        if self._settle():
            self._accumulate_rewards()  # rewards are 0 until the end
        if self.render_mode == "human":
            self.render()

    def _settle(self) -> bool:
        """After a move: legal actions, the end of the game or its truncation, rewards; True
        when the game has ended (only then are there rewards). While the game goes on, the
        rewards stay 0 and the infos empty, and their dicts are kept from step to step."""
        game = self.game
        state = game.state
        if state.is_over or self.info_moves:
            self.rewards = {agent: 0.0 for agent in AGENTS}
            self.infos = {agent: {} for agent in AGENTS}
        if state.is_over:
            self._legal = {}
            if state is GameState.WHITE_WINS:
                self.rewards = {AGENTS[0]: 1.0, AGENTS[1]: -1.0}
            elif state is GameState.BLACK_WINS:
                self.rewards = {AGENTS[0]: -1.0, AGENTS[1]: 1.0}
            self.terminations = {agent: True for agent in AGENTS}
            self._finish_infos()
            return True
        if self.max_plies is not None and game.ply - self._start_ply >= self.max_plies:
            self._legal = {}
            self.truncations = {agent: True for agent in AGENTS}
            self._finish_infos()
            return True
        if self._tracker.game is not game:
            self._tracker = self.actions.tracker(game)
        self._legal = self._tracker.legal()
        if self.info_moves:
            self.infos[self.agent_selection]["move_strings"] = [
                game.move_string(self._legal[a]) for a in sorted(self._legal)
            ]
        return False

    def _finish_infos(self) -> None:
        text = self.game.game_string()
        self.infos = {agent: {"game_string": text} for agent in AGENTS}

    def _illegal(self, given: object) -> str:
        if not isinstance(given, (int, np.integer)) or isinstance(given, bool):
            return f"an action is an int, not {given!r}"
        action = int(given)
        if not 0 <= action < self.actions.size:
            return f"action {action} is outside the action space 0..{self.actions.size - 1}"
        try:
            text = self.actions.move_string(self.game, action)
        except ValueError as error:
            return f"action {action} names no move here: {error}"
        if action == self.actions.pass_action or PASS_CODE in self._legal.values():
            return f"action {action} ({text}) is illegal: pass only when nothing else is legal"
        try:
            code = self.actions.code_of(self.game, action)
        except ValueError as error:
            return f"action {action} ({text}) names no move here: {error}"
        if code in self._legal.values():
            canonical = self.actions.action_of(self.game, code)
            return (
                f"action {action} ({text}) is that move through another reference; its action"
                f" is {canonical} ({self.game.move_string(code)})"
            )
        return f"action {action} ({text}) is not a legal move of {self.agent_selection}"

    # --- rendering --------------------------------------------------------------------------

    def render(self) -> Any:
        if self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            return board_image(self.game)
        text = str(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def _is_action(action: object) -> bool:
    return isinstance(action, (int, np.integer)) and not isinstance(action, bool)


def raw_env(**kwargs: Any) -> HiveEnv:
    """PettingZoo's name for the environment without wrappers."""
    return HiveEnv(**kwargs)


def env(**kwargs: Any) -> HiveEnv:
    """The environment (masks make PettingZoo's wrappers for illegal actions unnecessary:
    an illegal action raises ``ValueError`` and changes nothing)."""
    return HiveEnv(**kwargs)
