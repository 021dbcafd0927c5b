"""Hive as a Gymnasium single-agent environment: one seat against any opponent.

>>> from panal.env.hive_gym import HiveGymEnv
>>> env = HiveGymEnv("Base", opponent="random", seat="black")
>>> observation, info = env.reset(seed=7)
>>> env.game.ply, info["seat"]  # the opponent, White, has moved
(1, 'black')
>>> action = int(observation["action_mask"].nonzero()[0][0])
>>> observation, reward, terminated, truncated, info = env.step(action)
>>> env.game.ply, reward, terminated
(3, 0.0, False)

Observations, actions and the ply limit are the AEC environment's (:mod:`panal.env.hive_aec`)
for the agent's seat; ``action_masks()`` returns the mask too (sb3-contrib's MaskablePPO
convention). The reward is +1 when the agent wins, -1 when it loses, 0 otherwise. ``opponent``
is ``"random"``, a level of :data:`panal.ai.LEVELS`, ``"uhp:<command>"`` or any callable
(:mod:`panal.env.hive_opponents`); ``seat`` is ``"white"``, ``"black"`` or ``"random"`` (drawn
at each reset from its seed). An illegal action raises ``ValueError`` and changes nothing, or,
with ``illegal_action="lose"``, ends the episode as a loss (``info["illegal_action"]``), which
is what Gymnasium's ``check_env``, sampling actions without the mask, needs.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from panal.env.hive_aec import AGENTS, DEFAULT_MAX_PLIES, HiveEnv
from panal.env.hive_opponents import Opponent, make_opponent, move_code
from panal.hive.game import Game
from panal.hive.options import Options

__all__ = ["GYM_ID", "SEATS", "HiveGymEnv"]

SEATS = ("white", "black")


class HiveGymEnv(gymnasium.Env[dict[str, np.ndarray[Any, Any]], int]):
    """One seat of Hive against ``opponent``; the rule options are :class:`panal.hive.Game`'s."""

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game_type: str = "Base+MLP",
        *,
        opponent: str | Opponent = "random",
        seat: str = "white",
        max_plies: int | None = DEFAULT_MAX_PLIES,
        illegal_action: str = "raise",
        render_mode: str | None = None,
        options: Options | None = None,
        **rules: Any,
    ) -> None:
        if seat not in (*SEATS, "random"):
            raise ValueError(f"seat is 'white', 'black' or 'random', not {seat!r}")
        if illegal_action not in ("raise", "lose"):
            raise ValueError(f"illegal_action is 'raise' or 'lose', not {illegal_action!r}")
        self.aec = HiveEnv(
            game_type, max_plies=max_plies, render_mode=render_mode, options=options, **rules
        )
        self.opponent_spec = opponent
        self.opponent = make_opponent(opponent)
        self.seat_choice = seat
        self.seat = SEATS[0] if seat == "random" else seat
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space(AGENTS[0])
        self.action_space = self.aec.action_space(AGENTS[0])
        self._forfeit = False

    @property
    def game(self) -> Game:
        return self.aec.game

    @property
    def agent(self) -> str:
        return AGENTS[SEATS.index(self.seat)]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray[Any, Any]], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self.action_space.seed(seed)
            if isinstance(self.opponent_spec, str):
                self.opponent = make_opponent(self.opponent_spec, seed=seed)
        if self.seat_choice == "random":
            self.seat = SEATS[int(self.np_random.integers(2))]
        self.aec.reset(seed=seed, options=options)
        self._opponent_moves()
        return self.aec.observe(self.agent), self._info()

    def step(
        self, action: int
    ) -> tuple[dict[str, np.ndarray[Any, Any]], float, bool, bool, dict[str, Any]]:
        aec = self.aec
        if self._over():
            raise ValueError("the episode is over: call reset()")
        legal = isinstance(action, (int, np.integer)) and not isinstance(action, bool)
        if not legal or int(action) not in aec.legal_actions():
            if self.illegal_action == "raise":
                aec.step(action)  # raises ValueError explaining why
            info = self._info()
            info["illegal_action"] = True
            self._forfeit = True
            return aec.observe(self.agent), -1.0, True, False, info
        aec.step(int(action))
        self._opponent_moves()
        reward = aec.rewards[self.agent] if any(aec.terminations.values()) else 0.0
        terminated = any(aec.terminations.values())
        truncated = any(aec.truncations.values())
        return aec.observe(self.agent), float(reward), terminated, truncated, self._info()

    def _opponent_moves(self) -> None:
        """The opponent plays until it is the agent's turn or the game is over."""
        self._forfeit = False
        aec = self.aec
        while not self._over() and aec.agent_selection != self.agent:
            code = move_code(aec.game, self.opponent(aec.game.copy()))
            aec.step(next(a for a, c in aec.legal_actions().items() if c == code))

    def _over(self) -> bool:
        aec = self.aec
        return any(aec.terminations.values()) or any(aec.truncations.values()) or self._forfeit

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"seat": self.seat}
        info.update(self.aec.infos[self.agent])
        return info

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The legal actions as a boolean mask (sb3-contrib's MaskablePPO reads this)."""
        mask = np.zeros(self.aec.actions.size, dtype=bool)
        mask[list(self.aec.legal_actions())] = True
        return mask

    def render(self) -> Any:
        return self.aec.render()

    def close(self) -> None:
        closer = getattr(self.opponent, "close", None)
        if callable(closer):
            closer()


GYM_ID = "panal/Hive-v0"
"""``gymnasium.make("panal/Hive-v0", game_type="Base+MLP", opponent="easy")`` once this module
is imported."""
if GYM_ID not in gymnasium.registry:
    gymnasium.register(id=GYM_ID, entry_point="panal.env.hive_gym:HiveGymEnv")
