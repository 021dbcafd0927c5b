"""Environment throughput: steps per second of a uniformly random policy that reads the masks.

    pip install -e ".[rl]"
    python benchmarks/env_throughput.py                  # 20,000 steps a line, best of 3
    python benchmarks/env_throughput.py --steps 5000 --repeat 1 --seats 2

Every line plays random games in a Python loop, restarting a game when it ends (a Hive game also
at 500 plies, OpenSpiel's own Hive limit), and reports steps per second of the process's CPU
time (wall time on a shared machine mostly measures the other processes) and its ratio to its
*baseline*, a line measured in the same run that the table names beside it: compare ratios, not
rates. The lines take turns within each repeat, so load changes hit them alike, and each line
plays its own random games (the same seed for every line, but each orders its moves its own
way), so use enough steps to average over many games: 20,000 Hive steps are about 100 games.

Hive, against OpenSpiel's C++ Hive:

* ``OpenSpiel C++ hive``: ``state.legal_actions()``, a random one, ``state.apply_action``;
  the baseline.
* ``panal Game``: the rules engine alone, ``legal_move_codes()`` and ``push_code``.
* ``Hive AEC, masks``: :class:`panal.env.hive_aec.HiveEnv`, a random action among the mask's
  (``env.legal_actions()``, the mask's set entries), ``env.step``.
* ``Hive AEC, last()``: the same, reading ``env.last()`` each step (planes, pieces in hand and
  mask built as numpy arrays) and choosing among the mask's nonzero entries.
* ``Hive in OpenSpiel (Python)``: ``python_panal_hive`` through pyspiel, as MCTS drives it.

Enjambre Tácticas, per seat count (``--seats``), against its own engine (OpenSpiel has no
Enjambre, so there is no C++ counterpart):

* ``Enjambre engine alone, N seats``: random play on the rules engine (``Game.legal_actions``,
  a random one, ``Game.apply``; one random ``Place`` per seat); the baseline of its seat count.
* ``Enjambre AEC, steps/paths, N seats``: :class:`panal.env.enjambre_aec.EnjambreEnv` through
  the AEC loop, ``env.last()`` each step (the acting agent's 6,200-entry vector and 1,420-entry
  mask) and a random index among the mask's; a set-up is ten steps, and a ``paths`` step is a
  whole move of a tile (one to three engine actions).

Other environments add lines with :func:`register` (a name, a ``run(steps, seed) -> int``
function that plays ``steps`` random steps, and the name of the line it is compared against).
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

from panal import enjambre
from panal.env.enjambre_aec import EnjambreEnv
from panal.env.hive_aec import HiveEnv
from panal.hive import Game

MAX_PLIES = 500
"""A game restarts at this many plies (OpenSpiel's Hive ends there too)."""


Run = Callable[[int, int], int]
"""``run(steps, seed)`` plays ``steps`` random steps and returns how many it played."""


@dataclass
class Line:
    name: str
    run: Run
    baseline: str | None  # the line its ratio is against (its own name for a baseline)


LINES: list[Line] = []


def register(name: str, run: Run, *, baseline: str | None = None) -> None:
    """Add a line; ``baseline`` names the line its ratio is against (the line's own name makes
    it a baseline; ``None``, no ratio)."""
    if baseline is not None and baseline != name and baseline not in {x.name for x in LINES}:
        raise ValueError(f"register the baseline {baseline!r} before {name!r}")
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


def aec_last(env: Any, steps: int, seed: int) -> int:
    """Random play through any PettingZoo AEC environment whose observation carries an
    ``action_mask``: ``env.last()`` each step, a random index among the mask's nonzero ones."""
    rng = random.Random(seed)
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
    return done


def hive_aec_last(steps: int, seed: int) -> int:
    return aec_last(HiveEnv("Base+MLP", tournament_opening=True, max_plies=MAX_PLIES), steps, seed)


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


def register_hive() -> None:
    spiel = "OpenSpiel C++ hive" if _has_pyspiel() else None
    if spiel is not None:
        register(spiel, openspiel_hive, baseline=spiel)
    register("panal Game (engine alone)", panal_game, baseline=spiel)
    register("Hive AEC, masks", hive_aec_masks, baseline=spiel)
    register("Hive AEC, last() (planes + mask)", hive_aec_last, baseline=spiel)
    if spiel is not None:
        register("Hive in OpenSpiel (Python game)", hive_in_openspiel, baseline=spiel)


# --- the Enjambre lines -----------------------------------------------------------------------


def enjambre_engine(players: int) -> Run:
    def run(steps: int, seed: int) -> int:
        rng = random.Random(seed)
        done = 0
        while done < steps:
            game = enjambre.Game(players, seed=rng.randrange(2**32))
            for seat in range(players):
                zone = game.state.zone(seat)
                place = enjambre.Place(tuple(rng.sample(zone, game.board.tiles_per_player)))
                game.apply(seat, place)
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
        return aec_last(EnjambreEnv(players, moves=moves), steps, seed)

    return run


def register_enjambre(seats: list[int]) -> None:
    """For each seat count, the engine alone (the baseline) and the AEC environment's two
    action spaces against it."""
    for players in seats:
        engine = f"Enjambre engine alone, {players} seats"
        register(engine, enjambre_engine(players), baseline=engine)
        for moves in ("steps", "paths"):
            name = f"Enjambre AEC, {moves}, {players} seats"
            register(name, enjambre_aec(players, moves), baseline=engine)


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
    parser.add_argument("--steps", type=int, default=20_000, help="steps per line and repeat")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", type=int, nargs="*", default=[2, 4, 6], help="Enjambre's")
    args = parser.parse_args(argv)
    register_hive()
    register_enjambre(args.seats)
    rates = measure(args.steps, args.repeat, args.seed)
    print(
        f"Python {sys.version.split()[0]}, {args.steps:,} steps a line, best of {args.repeat},"
        " steps per CPU second; each ratio is against the baseline named beside it"
    )
    print("| line | steps/s | baseline (same run) | × baseline |")
    print("|---|---|---|---|")
    for line in LINES:
        if line.baseline is None:
            against, ratio = "none (no pyspiel)", "–"
        else:
            against, ratio = line.baseline, f"{rates[line.name] / rates[line.baseline]:.2f}"
        print(f"| {line.name} | {rates[line.name]:,.0f} | {against} | {ratio} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
