"""Enjambre Tácticas registered as an OpenSpiel game: OpenSpiel's own random-simulation checks,
information states that resampling keeps, and IS-MCTS playing whole games."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from panal.env import enjambre_openspiel  # registers the game

GAME = enjambre_openspiel.GAME_NAME
EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "enjambre_ismcts.py"


@pytest.mark.parametrize(
    ("players", "rounds", "moves"),
    [(2, 2, "steps"), (3, 2, "paths"), (6, 1, "steps")],
)
def test_openspiel_random_simulation_checks(players: int, rounds: int, moves: str) -> None:
    game = pyspiel.load_game(GAME, {"players": players, "rounds": rounds, "moves": moves})
    pyspiel.random_sim_test(game, num_sims=2, serialize=players == 2, verbose=False)


def test_the_game_type_and_sizes() -> None:
    game = pyspiel.load_game(GAME, {"players": 4, "colmena_combat": True})
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_players() == 4 and game.num_distinct_actions() == 1420
    assert game.max_game_length() == 40 + 10 * 4 * 51 + 1
    assert game.information_state_tensor_shape() == game.observation_tensor_shape() == [6200]
    with pytest.raises(ValueError, match="2 to 6 players"):
        pyspiel.load_game(GAME, {"players": 7})


def _random_states(players: int, seed: int) -> list[pyspiel.State]:
    rng = random.Random(seed)
    game = pyspiel.load_game(GAME, {"players": players, "rounds": 2, "memory_play": seed % 2 == 1})
    state = game.new_initial_state()
    found = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.randrange(players))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        if rng.random() < 0.12:
            found.append(state.clone())
    return found


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (3, 1), (5, 2)])
def test_resampled_states_keep_the_players_information_state(players: int, seed: int) -> None:
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = 0
    for state in _random_states(players, seed):
        player = state.current_player()
        for _ in range(2):
            sampled = state.resample_from_infostate(player, sampler)
            assert sampled.information_state_string(player) == state.information_state_string(
                player
            )
            assert sampled.information_state_tensor(player) == state.information_state_tensor(
                player
            )
            assert sampled.legal_actions() == state.legal_actions()
            assert sampled.current_player() == player and not sampled.recording
            replayed = state.get_game().new_initial_state()
            for action in sampled.history():
                replayed.apply_action(action)
            assert replayed.history() == sampled.history()
            assert [a.player for a in replayed.full_history()] == [
                a.player for a in state.full_history()
            ]
            assert replayed.table.game.snapshot() == sampled.table.game.snapshot()
            assert replayed.table.picks == sampled.table.picks
            checked += 1
    assert checked > 6


@pytest.mark.parametrize(("players", "seed"), [(3, 3), (4, 4), (6, 6)])
def test_numbers_the_player_never_saw_change_none_of_its_views(players: int, seed: int) -> None:
    rng = random.Random(seed)
    changed = 0
    for state in _random_states(players, seed):
        table = state.table
        for player in range(players):
            if not table.state.placed[player]:
                continue
            observation = table.observe(player)
            known = dict(observation.revealed) | dict(observation.numbers)
            known |= table.state.placement_tiles(player, table.placements[player])
            other = rng.choice([p for p in range(players) if p != player])
            hidden = [t for t in table.state.tiles_of(other) if t not in known]
            if len(hidden) < 2 or not table.state.placed[other]:
                continue
            twin = state.clone()
            numbers = twin.table.game.numbers
            a, b = rng.sample(hidden, 2)
            numbers[a], numbers[b] = numbers[b], numbers[a]
            assert twin.information_state_string(player) == state.information_state_string(player)
            assert twin.information_state_tensor(player) == state.information_state_tensor(player)
            assert twin.observation_string(player) == state.observation_string(player)
            assert twin.observation_tensor(player) == state.observation_tensor(player)
            changed += 1
    assert changed > 5


def test_only_the_players_own_view_is_offered() -> None:
    game = pyspiel.load_game(GAME, {"players": 2})
    public_only = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    with pytest.raises(ValueError, match="own view"):
        game.make_py_observer(public_only)


def test_information_states_differ_only_by_what_the_player_saw() -> None:
    game = pyspiel.load_game(GAME, {"players": 2, "rounds": 1})
    state = game.new_initial_state()
    state.apply_action(0)
    for _ in range(10):  # seat 0's whole set-up
        state.apply_action(state.legal_actions()[0])
    before = state.information_state_string(1)
    assert before != state.information_state_string(0)
    other = game.new_initial_state()
    other.apply_action(0)
    for _ in range(10):  # another set-up for seat 0: seat 1 cannot tell
        other.apply_action(other.legal_actions()[-1])
    assert other.information_state_string(1) == before
    assert other.information_state_string(0) != state.information_state_string(0)


@pytest.mark.parametrize("players", [2, 3])
def test_ismcts_plays_whole_games(players: int) -> None:
    game = pyspiel.load_game(GAME, {"players": players, "rounds": 1, "moves": "paths"})
    rng = np.random.RandomState(players)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rng)
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(0)
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            searched += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert searched > 10
    assert sum(state.returns()) == pytest.approx(0.0)


def test_the_documented_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("enjambre_ismcts", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    results = module.main(["--games", "1", "--rounds", "1", "--simulations", "5"])
    assert len(results) == 1 and sum(results[0]) == pytest.approx(0.0)
    assert "IS-MCTS mean rank reward" in capsys.readouterr().out
