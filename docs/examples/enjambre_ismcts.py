"""IS-MCTS (OpenSpiel's own ``open_spiel.python.algorithms.ismcts``) plays Enjambre Tácticas.

Seat 0 is an IS-MCTS bot that draws full states consistent with what it has seen
(``resample_from_infostate``, panal's sampler) and evaluates them by random roll-outs; the other
seats play uniformly random legal actions. Run from the repository root with the ``rl`` extra::

    python docs/examples/enjambre_ismcts.py --games 4 --players 3 --rounds 2 --simulations 40
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import panal.env.enjambre_openspiel  # noqa: F401  (registers python_enjambre_tacticas)


def play(game: pyspiel.Game, bot: ismcts.ISMCTSBot, rng: np.random.RandomState) -> list[float]:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return list(state.returns())


def main(argv: list[str] | None = None) -> list[list[float]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    game = pyspiel.load_game(
        "python_enjambre_tacticas",
        {"players": args.players, "rounds": args.rounds, "moves": "paths"},
    )
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=args.simulations, random_state=rng
    )
    results = []
    for number in range(args.games):
        returns = play(game, bot, rng)
        results.append(returns)
        print(f"game {number + 1}: IS-MCTS {returns[0]:+.2f}, random seats {returns[1:]}")
    mean = sum(r[0] for r in results) / len(results)
    print(f"IS-MCTS mean rank reward over {len(results)} games: {mean:+.2f} (random: 0 expected)")
    return results


if __name__ == "__main__":
    main()
