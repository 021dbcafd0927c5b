"""panal's Hive as an OpenSpiel Python game, so OpenSpiel's algorithms run on it unchanged.

Importing this module registers ``python_panal_hive`` (it needs ``pip install open_spiel``):

>>> import pyspiel
>>> import panal.env.hive_openspiel
>>> game = pyspiel.load_game("python_panal_hive", {"game_type": "Base", "max_plies": 200})
>>> state = game.new_initial_state()
>>> game.num_distinct_actions(), len(state.legal_actions())
(3389, 5)
>>> state.apply_action(state.legal_actions()[0])
>>> state.action_to_string(state.current_player(), state.legal_actions()[0]), str(state)
('bQ wQ-', 'Base;InProgress;Black[1];wQ')

Every game type and rule option of :class:`panal.hive.Game` is a parameter (``game_type``,
``max_plies``, and the fields of :class:`panal.hive.Options` with their defaults); actions are
those of :mod:`panal.env.hive_actions`; a state prints as its UHP GameString; observations are
the planes of :mod:`panal.env.hive_observation` (``observation_tensor``, float32, flattened)
and the text view (``observation_string``). A game that reaches ``max_plies`` (default 400)
ends in a draw, as OpenSpiel's own Hive ends at 500 moves.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from panal.env.hive_actions import HiveActions
from panal.env.hive_observation import HiveObserver, text_view
from panal.hive.game import Game
from panal.hive.move_keys import MoveKeyTracker
from panal.hive.options import OPTION_SPECS
from panal.hive.outcome import GameState

__all__ = ["DEFAULT_MAX_PLIES", "GAME_NAME", "PanalHiveGame", "PanalHiveState"]

GAME_NAME = "python_panal_hive"
DEFAULT_MAX_PLIES = 400
_PARAMETERS: dict[str, Any] = {"game_type": "Base+MLP", "max_plies": DEFAULT_MAX_PLIES}
_PARAMETERS.update({spec.name: spec.default for spec in OPTION_SPECS})

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Hive (panal's rules engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMETERS,
)


class _Config:
    """A game's settings, shared by its states: OpenSpiel clones a Python state by deep-copying
    its attributes, and these never change, so a copy is the same object."""

    def __init__(self, params: dict[str, Any]) -> None:
        values = dict(_PARAMETERS)
        values.update(params)
        self.rules = {spec.name: values[spec.name] for spec in OPTION_SPECS}
        self.game_type = str(values["game_type"])
        self.max_plies = int(values["max_plies"])
        if self.max_plies < 1:
            raise ValueError(f"max_plies is a positive int, not {self.max_plies}")
        probe = Game(self.game_type, **self.rules)  # checks the type and the options
        self.actions = HiveActions(probe.game_type)
        self.observer = HiveObserver(probe.game_type)

    def new_game(self) -> Game:
        return Game(self.game_type, **self.rules)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Config:
        return self


class _Position:
    """A state's game and its legal actions (through a
    :class:`~panal.hive.move_keys.MoveKeyTracker`, which keeps the destinations' references
    from move to move); deep-copied with the game's own fast copy, as OpenSpiel copies a state
    for every simulation of a search."""

    def __init__(self, tracker: MoveKeyTracker) -> None:
        self.tracker = tracker
        self.legal = tracker.legal()

    @property
    def game(self) -> Game:
        return self.tracker.game

    def push(self, code: int) -> None:
        self.tracker.push(code)
        self.legal = self.tracker.legal()

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        copy = object.__new__(_Position)
        copy.tracker = self.tracker.copy()
        copy.legal = self.legal  # replaced, never changed, by push
        return copy


class PanalHiveGame(pyspiel.Game):  # type: ignore[misc]
    """The game: its parameters pick the game type, the rule options and the ply limit."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.config = _Config(params or {})
        info = pyspiel.GameInfo(
            num_distinct_actions=self.config.actions.size,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.config.max_plies,
        )
        super().__init__(_GAME_TYPE, info, params or {})

    def new_initial_state(self) -> PanalHiveState:
        return PanalHiveState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> _Observer:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return _Observer(self.config)


class PanalHiveState(pyspiel.State):  # type: ignore[misc]
    """A position: a :class:`panal.hive.Game` (``state.hive``) and its legal actions."""

    def __init__(self, game: PanalHiveGame) -> None:
        super().__init__(game)
        self.config = game.config
        self.position = _Position(game.config.actions.tracker(game.config.new_game()))

    @property
    def hive(self) -> Game:
        return self.position.game

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.position.game.ply & 1

    def is_terminal(self) -> bool:
        game = self.position.game
        return game.is_over() or game.ply >= self.config.max_plies

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.position.legal) if not self.is_terminal() else []

    def _apply_action(self, action: int) -> None:
        position = self.position
        code = position.legal.get(action)
        if code is None:
            raise ValueError(f"action {action} is not legal here")
        position.push(code)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.config.actions.move_string(self.position.game, action)

    def returns(self) -> list[float]:
        state = self.position.game.state
        if state is GameState.WHITE_WINS:
            return [1.0, -1.0]
        if state is GameState.BLACK_WINS:
            return [-1.0, 1.0]
        return [0.0, 0.0]

    def __str__(self) -> str:
        return self.position.game.game_string()


class _Observer:
    """OpenSpiel's observer interface over :class:`HiveObserver` (float32 planes)."""

    def __init__(self, config: _Config) -> None:
        self.observer = config.observer
        self.tensor = np.zeros(int(np.prod(config.observer.shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(config.observer.shape)}

    def set_from(self, state: PanalHiveState, player: int) -> None:
        self.dict["observation"][...] = self.observer.planes_of(state.hive, player)

    def string_from(self, state: PanalHiveState, player: int) -> str:
        return text_view(state.hive, legal_moves=False)


pyspiel.register_game(_GAME_TYPE, PanalHiveGame)
