"""IS-MCTS (OpenSpiel's own ``open_spiel.python.algorithms.ismcts``) plays Enjambre Tácticas.

Seat 0 is an IS-MCTS bot that draws full states consistent with what it has seen
(``resample_from_infostate``, panal's sampler) and values the leaves of its tree either by
OpenSpiel's random roll-outs (``--evaluator rollout``) or by the score each seat would have if
the game ended there, in the sampled world (``--evaluator score``, the default); the other seats
play uniformly random legal actions. Run from the repository root with the ``rl`` extra::

    python docs/examples/enjambre_ismcts.py --games 4 --players 3 --rounds 4 --simulations 40
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import panal.env.enjambre_openspiel  # noqa: F401  (registers python_enjambre_tacticas)


class ProvisionalScore(mcts.Evaluator):  # type: ignore[misc]
    """Each seat's score if the game ended now (its tile at home + its other tiles on the
    board), against the average, as the ``score`` reward measures it; a seat with nobody at home
    gets half the number of its best tile on the way, discounted by its distance from home. The
    state is one IS-MCTS drew, so reading its numbers reads the sampled world, not the true
    game."""

    def evaluate(self, state: pyspiel.State) -> np.ndarray:
        if state.is_terminal() or state.table is None:
            return np.asarray(state.returns())
        game = state.table.game
        public = game.state
        scores = []
        for seat in range(game.players):
            home = public.occupant.get(public.colmena_cell(seat))
            queen = game.number(home) if home is not None and public.owner(home) == seat else 0
            alive = public.tiles_on_board(seat)
            score = queen + len(alive) - (1 if queen else 0)
            if not queen and alive:
                target = public.colmena_cell(seat)
                score += max(
                    game.number(t) / 2 / (1 + target.distance(public.tile_cell[t])) for t in alive
                )
            scores.append(score)
        mean = sum(scores) / len(scores)
        return np.asarray([(score - mean) / 19 for score in scores])

    def prior(self, state: pyspiel.State) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


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
    parser.add_argument("--evaluator", choices=("score", "rollout"), default="score")
    args = parser.parse_args(argv)
    game = pyspiel.load_game(
        "python_enjambre_tacticas",
        {"players": args.players, "rounds": args.rounds, "moves": "paths"},
    )
    rng = np.random.RandomState(args.seed)
    evaluator = (
        ProvisionalScore()
        if args.evaluator == "score"
        else mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    )
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
