"""Research environments' throughput: environment steps per second under a random policy.

One function per game (the Hive environment adds its own beside ``enjambre_throughput``); each
returns its lines of the table. A line plays whole games with a uniformly random legal action
chosen from the action mask, through the PettingZoo AEC loop (``agent_iter``, ``last``,
``step``: every step builds the acting agent's observation vector and mask), and compares it
with a baseline measured in the same run: the same random play straight on the rules engine
(``Game.legal_actions`` and ``Game.apply``, random set-ups), so the ratio is the environment's
cost over the engine's, whatever the machine's load.

Usage::

    python benchmarks/env_throughput.py [--seconds 5] [--seats 2 4 6] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import numpy as np

from panal.enjambre import Game, Place
from panal.env.enjambre_aec import EnjambreEnv


def _engine_steps(players: int, seconds: float, seed: int) -> tuple[int, float]:
    """Random play on the engine alone: one set-up ``Place`` per seat, then random actions."""
    rng = random.Random(seed)
    steps, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        game = Game(players, seed=rng.randrange(2**32))
        for seat in range(players):
            zone = game.state.zone(seat)
            game.apply(seat, Place(tuple(rng.sample(zone, game.board.tiles_per_player))))
            steps += 1
        while not game.over:
            player = game.to_move
            assert player is not None
            game.apply(player, rng.choice(game.legal_actions()))
            steps += 1
    return steps, time.perf_counter() - started


def _env_steps(players: int, seconds: float, seed: int, moves: str) -> tuple[int, float]:
    env = EnjambreEnv(players, moves=moves)
    rng = np.random.default_rng(seed)
    steps, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        env.reset(seed=int(rng.integers(2**32)))
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
    return steps, time.perf_counter() - started


def enjambre_throughput(seats: list[int], seconds: float, seed: int = 0) -> list[dict[str, Any]]:
    """Enjambre Tácticas: environment steps/s per seat count (steps and paths), against the
    engine's random play in the same run."""
    lines = []
    for players in seats:
        engine_steps, engine_time = _engine_steps(players, seconds, seed)
        engine_rate = engine_steps / engine_time
        for moves in ("steps", "paths"):
            steps, elapsed = _env_steps(players, seconds, seed, moves)
            rate = steps / elapsed
            lines.append(
                {
                    "game": "enjambre",
                    "seats": players,
                    "moves": moves,
                    "env_steps_per_s": round(rate),
                    "engine_actions_per_s": round(engine_rate),
                    "env_over_engine": round(rate / engine_rate, 3),
                }
            )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per measurement")
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 4, 6])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    lines = enjambre_throughput(args.seats, args.seconds)
    if args.json:
        print(json.dumps(lines, indent=2))
        return
    print(f"{'game':<10}{'seats':>6}{'moves':>7}{'env steps/s':>13}{'engine/s':>10}{'ratio':>7}")
    for line in lines:
        print(
            f"{line['game']:<10}{line['seats']:>6}{line['moves']:>7}"
            f"{line['env_steps_per_s']:>13}{line['engine_actions_per_s']:>10}"
            f"{line['env_over_engine']:>7.3f}"
        )


if __name__ == "__main__":
    main()
