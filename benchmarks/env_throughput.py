"""Environment throughput: steps per CPU second of a uniformly random policy that reads the masks.

    python benchmarks/env_throughput.py                  # 20,000 steps a line, best of 3
    python benchmarks/env_throughput.py --steps 5000 --repeat 1 --seats 2 4 6

Each line is a ``run(steps, seed) -> steps played`` function that plays random games in a Python
loop, restarting a game when it ends, and is timed in the process's CPU time (wall time on a
shared machine mostly measures the other processes); the lines take turns within each repeat,
so load changes hit them alike, and the best of the repeats counts. Rates are compared as ratios
to a baseline measured in the same run: compare ratios, not rates.

Enjambre Tácticas, per seat count (``ENJAMBRE_LINES``, one function per game so that other
games' lines sit beside them):

* ``Enjambre engine alone``: the baseline, random play on the rules engine
  (``Game.legal_actions``, a random one, ``Game.apply``; one random ``Place`` per seat).
* ``Enjambre AEC, steps`` and ``…, paths``: :class:`panal.env.enjambre_aec.EnjambreEnv` through
  the AEC loop, ``env.last()`` each step (the acting agent's 6,200-entry vector and 1,420-entry
  mask) and a random index among the mask's; a set-up is ten steps, and a ``paths`` step is a
  whole move of a tile (one to three engine actions).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable

import numpy as np

from panal.enjambre import Game, Place
from panal.env.enjambre_aec import EnjambreEnv

Run = Callable[[int, int], int]
"""``run(steps, seed)`` plays ``steps`` random steps and returns how many it played."""


# --- the Enjambre lines -----------------------------------------------------------------------


def enjambre_engine(players: int) -> Run:
    def run(steps: int, seed: int) -> int:
        rng = random.Random(seed)
        done = 0
        while done < steps:
            game = Game(players, seed=rng.randrange(2**32))
            for seat in range(players):
                zone = game.state.zone(seat)
                game.apply(seat, Place(tuple(rng.sample(zone, game.board.tiles_per_player))))
                done += 1
            while not game.over and done < steps:
                player = game.to_move
                assert player is not None
                game.apply(player, rng.choice(game.legal_actions()))
                done += 1
        return done

    return run


def enjambre_aec(players: int, moves: str) -> Run:
    def run(steps: int, seed: int) -> int:
        rng = np.random.default_rng(seed)
        env = EnjambreEnv(players, moves=moves)
        env.reset(seed=seed)
        done = 0
        while done < steps:
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.reset()
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            done += 1
        return done

    return run


def enjambre_lines(seats: list[int]) -> list[tuple[str, Run, str]]:
    """(name, run, the name of its baseline) for each seat count."""
    lines = []
    for players in seats:
        engine = f"Enjambre engine alone, {players} seats"
        lines.append((engine, enjambre_engine(players), engine))
        for moves in ("steps", "paths"):
            lines.append(
                (f"Enjambre AEC, {moves}, {players} seats", enjambre_aec(players, moves), engine)
            )
    return lines


ENJAMBRE_LINES = enjambre_lines([2, 4, 6])


# --- running ----------------------------------------------------------------------------------


def measure(
    lines: list[tuple[str, Run, str]], steps: int, repeat: int, seed: int
) -> dict[str, float]:
    """Best steps per CPU second of each line; the lines take turns within each repeat."""
    best: dict[str, float] = {}
    for round_ in range(repeat):
        for name, run, _ in lines:
            start = time.process_time()
            done = run(steps, seed + round_)
            rate = done / (time.process_time() - start)
            best[name] = max(best.get(name, 0.0), rate)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000, help="steps per line and repeat")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 4, 6])
    args = parser.parse_args(argv)
    lines = enjambre_lines(args.seats)
    rates = measure(lines, args.steps, args.repeat, args.seed)
    print(
        f"Python {sys.version.split()[0]}, {args.steps:,} steps a line, best of {args.repeat},"
        " steps per CPU second"
    )
    print("| line | steps/s | × its baseline |")
    print("|---|---|---|")
    for name, _, baseline in lines:
        print(f"| {name} | {rates[name]:,.0f} | {rates[name] / rates[baseline]:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
