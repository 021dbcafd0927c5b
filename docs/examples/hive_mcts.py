"""OpenSpiel's MCTS plays panal's Hive, registered as an OpenSpiel Python game.

    pip install -e ".[rl]" open_spiel
    python docs/examples/hive_mcts.py --games 4 --simulations 200

MCTS (random rollouts, cut at --rollout plies and scored 0 when cut) plays White against a
uniformly random Black in Base Hive, games ending at --max-plies as draws; then it is shown a
position where White surrounds Black's queen in one move, and finds that move.
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import panal.env.hive_openspiel  # noqa: F401  (registers python_panal_hive)

WIN_IN_ONE = (  # a random game's position where only wA2 bS2- surrounds Black's queen
    "Base;InProgress;White[18];wS1;bS1 wS1/;wB1 -wS1;bG1 bS1-;wA1 -wB1;bQ \\bS1;wQ wB1\\;"
    "bS2 \\bQ;wG1 /wQ;bA1 /bS2;wG2 wQ-;bG2 bG1/;wS2 wG2\\;bA1 wG2-;wS2 bG1\\;bG3 \\bS2;"
    "wB2 wA1\\;bA1 /bS2;wA2 /wA1;bA1 \\bG3;wB2 wA1;bA1 /wG1;wG2 /bQ;bA2 bG3/;wA3 \\wB2;"
    "bA2 wG1-;wB2 wA2;bA2 /bS2;wB2 /wA3;bA3 -bA1;wB2 -wA3;bB1 bQ-;wA2 bA1-;bA3 wS2-"
)


def mcts_bot(game: pyspiel.Game, simulations: int, rollout: int, seed: int) -> mcts.MCTSBot:
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng, max_length=rollout)
    return mcts.MCTSBot(game, 2.0, simulations, evaluator, solve=True, random_state=rng)


def play(games: int, simulations: int, rollout: int, max_plies: int, seed: int) -> list[float]:
    """MCTS as White against random Black; White's returns, one per game."""
    game = pyspiel.load_game("python_panal_hive", {"game_type": "Base", "max_plies": max_plies})
    bot = mcts_bot(game, simulations, rollout, seed)
    rng = np.random.RandomState(seed + 1)
    results = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == 0:
                action = bot.step(state)
            else:
                action = int(rng.choice(state.legal_actions()))
            state.apply_action(action)
        results.append(state.returns()[0])
        print(f"{state.returns()[0]:+.0f} after {state.move_number()} plies: {state}")
    return results


def win_in_one(simulations: int, seed: int) -> str:
    """MCTS's move in :data:`WIN_IN_ONE` (a win for White when it finds it)."""
    game = pyspiel.load_game("python_panal_hive", {"game_type": "Base"})
    state = game.new_initial_state()
    for move in WIN_IN_ONE.split(";")[3:]:
        state.apply_action(state.string_to_action(move))
    action = mcts_bot(game, simulations, 20, seed).step(state)
    return state.action_to_string(0, action)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--rollout", type=int, default=40)
    parser.add_argument("--max-plies", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    results = play(args.games, args.simulations, args.rollout, args.max_plies, args.seed)
    wins = sum(r > 0 for r in results)
    print(f"MCTS ({args.simulations} simulations) as White vs random: {wins}/{len(results)} won")
    print(f"win in one, MCTS plays: {win_in_one(max(args.simulations, 300), args.seed)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
