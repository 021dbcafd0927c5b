"""Enjambre Tácticas as an OpenSpiel Python game, so OpenSpiel's algorithms run on it unchanged.

``import panal.env.enjambre_openspiel`` registers ``python_enjambre_tacticas``::

    import pyspiel
    import panal.env.enjambre_openspiel  # registers the game
    game = pyspiel.load_game("python_enjambre_tacticas", {"players": 3, "rounds": 4})

Sequential, imperfect information, 2–6 players (``players``), zero-sum terminal rewards
(``reward``: ``"rank"`` or ``"score"``, as in the PettingZoo environment). The game starts with
one chance node that draws the first player uniformly (§1: "se sortea quien empieza"); five
players' seats come from the parameter ``seed`` (default 0). Every rule option of
:class:`panal.enjambre.Options` is a parameter of the same name, and ``moves`` picks single steps
or whole paths. Actions are the indices of :mod:`panal.env.enjambre_actions` (1,420).

Per player:

* ``information_state_string``: perfect recall: the seat, its own set-up (which number went
  where, remembered even in memory play), its pending picks, how many picks the seat arranging
  has made (one sees tiles being put down, not where), the visible positions, and every public
  event (with the numbers combats, scouts and the final scoring showed to all);
* ``information_state_tensor``: :func:`panal.env.enjambre_tensor.encode_observation` with the
  seat's own numbers always known; ``observation_tensor``: the same as the PettingZoo agent's
  vector; ``observation_string``: :func:`panal.env.enjambre_text.observation_text`.

``resample_from_infostate(player, sampler)`` draws a full state the player cannot tell from this
one (:func:`panal.env.enjambre_sampler.sample_table`); IS-MCTS uses it. The resampled state's
``history()`` is the original's with the other seats' set-up picks replaced by the drawn ones, so
replaying it gives the resampled state again.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np
import pyspiel

from panal.enjambre import OPTION_SPECS, Options, Phase
from panal.enjambre.actions import Event
from panal.enjambre.render import render_board
from panal.hex import Hex

from .enjambre_actions import MOVES, REWARDS, EnjambreTable
from .enjambre_aec import EnjambreEnv
from .enjambre_sampler import sample_table
from .enjambre_tensor import encode_observation, encoding_size
from .enjambre_text import action_text, observation_text

__all__ = ["GAME_NAME", "EnjambreGame", "EnjambreState"]

GAME_NAME = "python_enjambre_tacticas"

_PARAMETERS: dict[str, Any] = {
    "players": 2,
    "moves": "steps",
    "reward": "rank",
    "seed": 0,
    **{spec.name: spec.default for spec in OPTION_SPECS},
}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Enjambre Tácticas (panal)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMETERS,
)


class EnjambreGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = {**_PARAMETERS, **(params or {})}
        players = int(values["players"])
        if not 2 <= players <= 6:
            raise ValueError(f"Enjambre Tácticas is played by 2 to 6 players, not {players}")
        if values["moves"] not in MOVES or values["reward"] not in REWARDS:
            raise ValueError(f"moves is one of {MOVES}, reward one of {REWARDS}")
        self.options = Options(**{spec.name: values[spec.name] for spec in OPTION_SPECS})
        self.players = players
        self.moves = str(values["moves"])
        self.reward = str(values["reward"])
        self.seed = int(values["seed"])
        probe = EnjambreTable(players, options=self.options, seed=self.seed, first_player=0)
        self.layout = probe.layout
        self.vector_size = encoding_size(probe.game.board)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.layout.size,
            max_chance_outcomes=players,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=EnjambreEnv.longest_game(players, self.options) + 1,
        )
        super().__init__(_GAME_TYPE, info, params or {})

    def new_initial_state(self) -> EnjambreState:
        return EnjambreState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> EnjambreObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type is not None and (
            not iig_obs_type.public_info
            or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError("Enjambre offers each player's own view only (public and private)")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return EnjambreObserver(self.vector_size, perfect_recall)


class EnjambreState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: EnjambreGame) -> None:
        super().__init__(game)
        self.settings = (game.players, game.options, game.seed, game.moves, game.reward)
        self.table: EnjambreTable | None = None
        # While a resampled state's history is written (see resample_from_infostate): the
        # players of the actions still to record, last first; the actions change nothing.
        self.recording: list[int] = []

    # ----------------------------------------------------------------------------- dynamics

    def current_player(self) -> int:
        if self.recording:
            return self.recording[-1]
        if self.table is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self.table.to_move
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def is_terminal(self) -> bool:
        return self.table is not None and self.table.over

    def chance_outcomes(self) -> list[tuple[int, float]]:
        players = self.settings[0]
        return [(seat, 1.0 / players) for seat in range(players)]

    def _legal_actions(self, player: int) -> list[int]:
        if self.table is None or player != self.table.to_move:
            return []
        return list(self.table.legal_indices())

    def _apply_action(self, action: int) -> None:
        if self.recording:
            self.recording.pop()
        elif self.table is None:
            players, options, seed, moves, _ = self.settings
            self.table = EnjambreTable(
                players, options=options, seed=seed, first_player=int(action), moves=moves
            )
        else:
            self.table.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if self.table is None or player == pyspiel.PlayerId.CHANCE:
            return f"first player {action}"
        if player != self.table.to_move:
            return f"action {action}"
        return action_text(self.table, int(action))

    def returns(self) -> list[float]:
        if self.table is None:
            return [0.0] * self.settings[0]
        return self.table.returns(self.settings[4])

    def __str__(self) -> str:
        if self.table is None:
            return "first player to be drawn"
        game = self.table.game
        return render_board(game.observe_all()) + f"\n{game.phase}, round {game.state.round}"

    # ----------------------------------------------------------------------------- sampling

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> EnjambreState:
        """A state ``player_id`` cannot tell from this one: the hidden set-ups drawn again
        (:func:`~panal.env.enjambre_sampler.sample_table`), and a history to match, where the
        other seats' set-up picks are the drawn ones."""
        if self.table is None:
            return self.clone()
        rng = random.Random(int(probability_sampler() * 2**53))
        table = sample_table(self.table, player_id, rng)
        drawn = [
            [table.state.zone(seat).index(cell) for cell in (placement or ())]
            + [table.state.zone(seat).index(cell) for cell in table.picks[seat]]
            for seat, placement in enumerate(table.placements)
        ]
        zone_size = table.layout.zone_size
        history: list[tuple[int, int]] = []
        for item in self.full_history():
            player, action = int(item.player), int(item.action)
            if player >= 0 and player != player_id and action < zone_size:
                action = drawn[player].pop(0)  # the seat's next pick, as drawn
            history.append((player, action))
        state: EnjambreState = self.get_game().new_initial_state()
        state.recording = [player for player, _ in reversed(history)]
        for _, action in history:
            state.apply_action(action)
        state.table = table
        return state


class EnjambreObserver:
    """OpenSpiel's Python observer: ``tensor``, ``dict``, ``set_from`` and ``string_from``."""

    def __init__(self, size: int, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: EnjambreState, player: int) -> None:
        table = state.table
        self.tensor.fill(0)
        if table is None:
            return
        extra = _own_numbers(table, player) if self.perfect_recall else None
        observation = table.observe(player)
        self.tensor[:] = encode_observation(observation, table.picks[player], extra)

    def string_from(self, state: EnjambreState, player: int) -> str:
        table = state.table
        if table is None:
            return f"seat {player}: first player to be drawn"
        if self.perfect_recall:
            return information_state_string(table, player)
        return observation_text(table.observe(player), table.picks[player])


def _own_numbers(table: EnjambreTable, seat: int) -> dict[int, int]:
    placement = table.placements[seat]
    if placement is None:
        return {}
    return table.state.placement_tiles(seat, placement)


def information_state_string(table: EnjambreTable, seat: int) -> str:
    observation = table.observe(seat)
    state = observation.state
    label = state.board.label
    lines = [f"seat {seat} first {state.first_player} sectors {state.sectors}"]
    placement = table.placements[seat]
    if placement is not None:
        lines.append("setup " + " ".join(label(cell) for cell in placement))
    if table.picks[seat]:
        lines.append("picks " + " ".join(label(cell) for cell in table.picks[seat]))
    if state.phase is Phase.SETUP and table.to_move is not None:
        lines.append(f"arranging {table.to_move} picks {len(table.picks[table.to_move])}")
    lines.append(
        "tiles " + " ".join("-" if cell is None else label(cell) for cell in state.tile_cell)
    )
    lines.extend(_event_text(event, label) for event in observation.history)
    return "\n".join(lines)


def _event_text(event: Event, label: Any) -> str:
    def text(value: object) -> str:
        if isinstance(value, Hex):
            return str(label(value))
        if isinstance(value, tuple):
            return "(" + ",".join(text(v) for v in value) + ")"
        return str(value)

    values = (text(getattr(event, f.name)) for f in dataclasses.fields(event))
    return type(event).__name__ + " " + " ".join(values)


pyspiel.register_game(_GAME_TYPE, EnjambreGame)
