"""The Gymnasium wrapper (Gymnasium's check_env, opponents) and panal's Hive as an OpenSpiel
Python game (OpenSpiel's MCTS runs on it)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from panal.hive import Game

gymnasium = pytest.importorskip("gymnasium")
env_checker = pytest.importorskip("gymnasium.utils.env_checker")
hive_gym = pytest.importorskip("panal.env.hive_gym")
hive_opponents = pytest.importorskip("panal.env.hive_opponents")
HiveGymEnv = hive_gym.HiveGymEnv
check_env = env_checker.check_env

ROOT = Path(__file__).resolve().parents[2]


def test_gymnasium_check_env() -> None:
    check_env(HiveGymEnv("Base+MLP", illegal_action="lose", seat="random"))
    check_env(gymnasium.make(hive_gym.GYM_ID, game_type="Base", illegal_action="lose").unwrapped)


def play_out(env: HiveGymEnv, seed: int) -> tuple[float, dict[str, object]]:
    observation, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        assert (observation["action_mask"] == env.action_masks()).all()
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            return reward, info


def test_a_seat_against_panals_ai_to_the_end() -> None:
    env = HiveGymEnv("Base", opponent="beginner", seat="black", max_plies=300)
    reward, info = play_out(env, seed=2)
    assert reward in (-1.0, 0.0, 1.0)
    game = Game.from_game_string(str(info["game_string"]))
    assert game.ply == env.game.ply
    if reward:
        assert str(game.state) == ("BlackWins" if reward > 0 else "WhiteWins")


def test_illegal_actions_raise_or_lose() -> None:
    env = HiveGymEnv("Base")
    observation, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=r"not a legal move|names no move|first move"):
        env.step(illegal)
    assert env.game.ply == 0
    losing = HiveGymEnv("Base", illegal_action="lose")
    losing.reset(seed=1)
    _, reward, terminated, _, info = losing.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    with pytest.raises(ValueError, match="reset"):
        losing.step(0)


def test_seeded_resets_repeat_the_opponents_moves() -> None:
    games = []
    for _ in range(2):
        env = HiveGymEnv("Base+MLP", opponent="random", seat="random")
        play_out(env, seed=11)
        games.append(env.game.game_string())
    assert games[0] == games[1]


def test_opponents() -> None:
    assert isinstance(hive_opponents.make_opponent("easy"), hive_opponents.AIOpponent)
    with pytest.raises(ValueError, match="unknown opponent"):
        hive_opponents.make_opponent("grandmaster")
    game = Game("Base", tournament_opening=True)
    game.push("wS1")
    with hive_opponents.UhpOpponent(
        f"{sys.executable} -m panal.uhp.players random 5", time=0.1
    ) as engine:
        assert engine(game) in game.legal_moves
        env = HiveGymEnv("Base", opponent=engine, seat="white", max_plies=6)
        _, info = play_out(env, seed=3)
        assert Game.from_game_string(str(info["game_string"])).ply == 6


def test_openspiel_registration_and_mcts() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    sys.path.insert(0, str(ROOT / "docs" / "examples"))
    try:
        import hive_mcts
    finally:
        sys.path.remove(str(ROOT / "docs" / "examples"))
    assert hive_mcts.win_in_one(300, seed=1) == "wA2 bS2-"
    results = hive_mcts.play(games=1, simulations=20, rollout=10, max_plies=30, seed=1)
    assert len(results) == 1
    game = pyspiel.load_game("python_panal_hive", {"game_type": "Base+MLPD", "max_plies": 50})
    state = game.new_initial_state()
    clone = state.clone()
    state.apply_action(state.legal_actions()[0])
    assert str(clone) == "Base+MLPD;NotStarted;White[1]" and str(state) != str(clone)
    observation = pyspiel_observation(game, state)
    assert observation.shape == (4 * 9 + 3, 31, 31) and observation.sum() > 0
    random_game = pyspiel.load_game("python_panal_hive", {"max_plies": 60})
    pyspiel.random_sim_test(random_game, num_sims=2, serialize=True, verbose=False)


def pyspiel_observation(game, state):
    from open_spiel.python.observation import make_observation

    observer = make_observation(game)
    observer.set_from(state, 1)
    return observer.dict["observation"]
