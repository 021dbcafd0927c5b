"""Environment throughput: steps per second of a uniformly random policy that reads the masks.

    pip install -e ".[rl]" open_spiel
    python benchmarks/env_throughput.py                  # 30,000 steps a line, best of 3
    python benchmarks/env_throughput.py --steps 5000 --repeat 1

Every line plays random games in a Python loop, restarting a game when it ends or reaches 500
plies (OpenSpiel's own Hive limit), and reports steps per second of the process's CPU time
(wall time on a shared machine mostly measures the other processes) and its ratio to OpenSpiel's
C++ Hive measured in the same run: compare ratios, not rates. The lines take turns within each
repeat, so load changes hit them alike, and each line plays its own random games (the same seed
for every line, but each orders its moves its own way), so use enough steps to average over
many games: 30,000 steps are about 150 games.

* ``OpenSpiel C++ hive``: ``state.legal_actions()``, a random one, ``state.apply_action``;
  the baseline.
* ``panal Game``: the rules engine alone, ``legal_move_codes()`` and ``push_code``.
* ``Hive AEC, masks``: :class:`panal.env.hive_aec.HiveEnv`, a random action among the mask's
  (``env.legal_actions()``, the mask's set entries), ``env.step``.
* ``Hive AEC, last()``: the same, reading ``env.last()`` each step (planes, pieces in hand and
  mask built as numpy arrays) and choosing among the mask's nonzero entries.
* ``Hive in OpenSpiel (Python)``: ``python_panal_hive`` through pyspiel, as MCTS drives it.

Other environments add a line with :func:`register` (a name and a ``run(steps, seed) -> int``
function that plays ``steps`` random steps); the Enjambre environment's line goes there.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from panal.env.hive_aec import HiveEnv
from panal.hive import Game

MAX_PLIES = 500
"""A game restarts at this many plies (OpenSpiel's Hive ends there too)."""


@dataclass
class Line:
    name: str
    run: Callable[[int, int], int]  # (steps, seed) -> steps played
    baseline: bool = False


LINES: list[Line] = []


def register(name: str, run: Callable[[int, int], int], *, baseline: bool = False) -> None:
    """Add a line: ``run(steps, seed)`` plays ``steps`` random steps and returns how many."""
    LINES.append(Line(name, run, baseline))


# --- the Hive lines ---------------------------------------------------------------------------


def spiel_steps(game: Any, steps: int, seed: int) -> int:
    """Random play through any OpenSpiel game's Python API."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            state = game.new_initial_state()
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])
    return steps


def openspiel_hive(steps: int, seed: int) -> int:
    import pyspiel

    return spiel_steps(pyspiel.load_game("hive"), steps, seed)


def panal_game(steps: int, seed: int) -> int:
    rng = random.Random(seed)
    game = Game("Base+MLP", tournament_opening=True)
    for _ in range(steps):
        codes = game.legal_move_codes()
        if not codes or game.ply >= MAX_PLIES:
            game = Game("Base+MLP", tournament_opening=True)
            codes = game.legal_move_codes()
        game.push_code(codes[rng.randrange(len(codes))])
    return steps


def hive_aec_masks(steps: int, seed: int) -> int:
    rng = random.Random(seed)
    env = HiveEnv("Base+MLP", tournament_opening=True, max_plies=MAX_PLIES)
    env.reset(seed=seed)
    for _ in range(steps):
        legal = env.legal_actions()
        if not legal:
            env.reset()
            legal = env.legal_actions()
        actions = list(legal)
        env.step(actions[rng.randrange(len(actions))])
    return steps


def hive_aec_last(steps: int, seed: int) -> int:
    rng = random.Random(seed)
    env = HiveEnv("Base+MLP", tournament_opening=True, max_plies=MAX_PLIES)
    env.reset(seed=seed)
    done = 0
    while done < steps:
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.reset()
            continue
        actions = np.flatnonzero(observation["action_mask"])
        env.step(int(actions[rng.randrange(len(actions))]))
        done += 1
    return steps


def hive_in_openspiel(steps: int, seed: int) -> int:
    import pyspiel

    import panal.env.hive_openspiel  # noqa: F401  (registers python_panal_hive)

    parameters = {"game_type": "Base+MLP", "tournament_opening": True, "max_plies": MAX_PLIES}
    return spiel_steps(pyspiel.load_game("python_panal_hive", parameters), steps, seed)


def _has_pyspiel() -> bool:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return True


if _has_pyspiel():
    register("OpenSpiel C++ hive", openspiel_hive, baseline=True)
register("panal Game (engine alone)", panal_game)
register("Hive AEC, masks", hive_aec_masks)
register("Hive AEC, last() (planes + mask)", hive_aec_last)
if _has_pyspiel():
    register("Hive in OpenSpiel (Python game)", hive_in_openspiel)


# --- running ----------------------------------------------------------------------------------


def measure(steps: int, repeat: int, seed: int) -> dict[str, float]:
    """Best steps per CPU second of each line; the lines take turns within each repeat."""
    best: dict[str, float] = {}
    for round_ in range(repeat):
        for line in LINES:
            start = time.process_time()
            done = line.run(steps, seed + round_)
            rate = done / (time.process_time() - start)
            best[line.name] = max(best.get(line.name, 0.0), rate)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=30_000, help="steps per line and repeat")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rates = measure(args.steps, args.repeat, args.seed)
    base = next((rates[line.name] for line in LINES if line.baseline), None)
    print(
        f"Python {sys.version.split()[0]}, {args.steps:,} steps a line, best of {args.repeat},"
        " steps per CPU second"
    )
    print("| line | steps/s | × OpenSpiel C++ |")
    print("|---|---|---|")
    for line in LINES:
        ratio = f"{rates[line.name] / base:.2f}" if base else "–"
        print(f"| {line.name} | {rates[line.name]:,.0f} | {ratio} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
