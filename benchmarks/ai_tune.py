"""Fit the evaluation's weights to game results (Texel's method), from the BoardGameArena corpus.

    python benchmarks/ai_tune.py                       # fit, print the new WEIGHTS and the losses
    python benchmarks/ai_tune.py --check               # only the loss of the current weights
    python benchmarks/ai_tune.py --game-type Base --games selfplay.txt --sample 1 \
        --only queen_ring --only threat_ --only queen_can --only queen_stuck --only enemy_drop

Every position from ply 8 on of the 6,369 BoardGameArena games (Base+MLP, human players) in
``../shared/corpus`` (a random half of them, by default), or of the finished games of the given
``--games`` files (GameStrings, one a line, as ``benchmarks/ai_selfplay.py`` and
``benchmarks/ai_ladder.py`` write them: the corpus has no Base games, so Base is fitted on engine
games), is labelled with the game's result from the side to move's point of view (win 1, draw
0.5, loss 0). The weights fitted start from, and are printed beside, the game type's current ones
(:func:`panal.ai.evaluation.weights_for`); with ``--only PREFIX`` only the features whose names
start so are fitted, the others keep theirs. For Base, refits on nokamute's games against itself
(``benchmarks/ai_selfplay.py``), whole or of the queen's surroundings only, predicted those games
better but did not win more against nokamute (docs/benchmarks.md has the figures).

The evaluation is linear in the features of :func:`panal.ai.evaluation.feature_counts`, so the
fit is a logistic regression: ``P(win) = sigmoid(score / SCALE)``. SCALE is first fitted with the
current weights (so the new weights keep the units the search's margins are written in), then the
weights are fitted by gradient descent (Adam) with a little L2 regularisation toward zero. One
game in ten is held out to check that the fit generalises.

Needs numpy (a development tool, not a dependency of panal).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

from panal.ai.evaluation import FEATURES, HAND_SET_FEATURES, feature_counts, weights_for
from panal.hive import Game, GameType

BGA = (
    Path(__file__).resolve().parents[2]
    / "shared/corpus/alpha-hive-bga-uhp/bga_base_mlp_renumbered.uhp.txt"
)
RESULT = {"WhiteWins": 1.0, "BlackWins": 0.0, "Draw": 0.5}


def positions(
    lines: list[str], game_type: str, sample: float, first_ply: int, seed: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Feature differences (side to move minus the other), labels and game numbers, from the
    finished games of ``game_type`` among ``lines`` (GameStrings)."""
    rng = random.Random(seed)
    rows: list[list[int]] = []
    labels: list[float] = []
    games: list[int] = []
    for number, line in enumerate(lines):
        fields = line.strip().split(";")
        if len(fields) < 3 or fields[1] not in RESULT or len(fields) <= 3 + first_ply:
            continue
        if fields[0] != game_type:
            continue
        white_score = RESULT[fields[1]]
        game = Game(game_type, tournament_opening=False, repetition_draw=False)
        for move in fields[3:]:
            game.push(move)
            if game.is_over() or game.ply < first_ply or rng.random() > sample:
                continue
            white, black = feature_counts(game)
            if game.ply & 1:
                rows.append([b - w for w, b in zip(white, black, strict=True)])
                labels.append(1.0 - white_score)
            else:
                rows.append([w - b for w, b in zip(white, black, strict=True)])
                labels.append(white_score)
            games.append(number)
    return np.array(rows, dtype=float), np.array(labels), np.array(games)


def loss(x: np.ndarray, y: np.ndarray, weights: np.ndarray, scale: float) -> float:
    p = 1.0 / (1.0 + np.exp(-np.clip(x @ weights / scale, -30, 30)))
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit_scale(x: np.ndarray, y: np.ndarray, weights: np.ndarray) -> float:
    """The SCALE that makes the current weights predict best (golden-section search)."""
    low, high = 10.0, 5000.0
    for _ in range(60):
        a = low + (high - low) * 0.382
        b = low + (high - low) * 0.618
        if loss(x, y, weights, a) < loss(x, y, weights, b):
            high = b
        else:
            low = a
    return (low + high) / 2


def fit(
    x: np.ndarray,
    y: np.ndarray,
    start: np.ndarray,
    scale: float,
    steps: int,
    l2: float,
    fixed: np.ndarray,
) -> np.ndarray:
    """Adam on the mean log-loss; ``fixed`` features keep their starting weight."""
    w = start.copy()
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    rate = 2.0
    for step in range(1, steps + 1):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w / scale, -30, 30)))
        grad = x.T @ (p - y) / (len(y) * scale) + l2 * w
        grad[fixed] = 0.0
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= rate * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-12)
    return w


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=float, default=0.5, help="share of positions used")
    parser.add_argument("--first-ply", type=int, default=8)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--l2", type=float, default=1e-7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game-type", default="Base+MLP", help="the weights to fit")
    parser.add_argument(
        "--games",
        type=Path,
        action="append",
        metavar="FILE",
        help="GameStrings to fit on (repeatable); default: the BoardGameArena corpus",
    )
    parser.add_argument(
        "--only",
        action="append",
        metavar="PREFIX",
        help="fit only the features whose names start so (repeatable); the others keep theirs",
    )
    parser.add_argument("--check", action="store_true", help="only report the current loss")
    parser.add_argument(
        "--cache", type=Path, help="keep the positions' features in this .npz file, and reuse them"
    )
    args = parser.parse_args()
    sources = args.games or [BGA]
    for source in sources:
        if not source.exists():
            print(f"missing {source}", file=sys.stderr)
            return 1
    game_type = str(GameType.parse(args.game_type))
    started = time.perf_counter()
    key = f"{args.sample} {args.first_ply} {args.seed} {game_type} {sources} " + " ".join(FEATURES)
    if args.cache is not None and args.cache.exists():
        data = np.load(args.cache)
        cached = str(data["key"]) == key
    else:
        cached = False
    if cached:
        x, y, games = data["x"], data["y"], data["games"]
    else:
        lines = [line for source in sources for line in source.read_text().splitlines()]
        x, y, games = positions(lines, game_type, args.sample, args.first_ply, args.seed)
        if args.cache is not None:
            np.savez_compressed(args.cache, x=x, y=y, games=games, key=np.array(key))
    held = games % 10 == 0
    print(
        f"{len(y)} positions from {len(set(games.tolist()))} games "
        f"({time.perf_counter() - started:.0f} s); {held.sum()} held out",
        flush=True,
    )
    weights = weights_for(GameType.parse(game_type))
    current = np.array(weights, dtype=float)
    scale = fit_scale(x[~held], y[~held], current)
    print(
        f"scale {scale:.1f}: loss {loss(x[~held], y[~held], current, scale):.5f} (fit), "
        f"{loss(x[held], y[held], current, scale):.5f} (held out)"
    )
    if args.check:
        return 0
    # Features that never vary in the data (the Dragonfly is not in BGA's games, Base has only
    # five bugs) keep theirs.
    fixed = np.all(x == 0, axis=0)
    # The hand-set terms for converting won positions keep theirs: human games are resigned or
    # agreed long before, so the data cannot price them.
    fixed |= np.array([name in HAND_SET_FEATURES for name in FEATURES])
    if args.only:
        fixed |= np.array([not name.startswith(tuple(args.only)) for name in FEATURES])
    fitted = fit(x[~held], y[~held], current, scale, args.steps, args.l2, fixed)
    print(
        f"fitted: loss {loss(x[~held], y[~held], fitted, scale):.5f} (fit), "
        f"{loss(x[held], y[held], fitted, scale):.5f} (held out)"
    )
    rounded = np.round(fitted).astype(int)
    print(f"rounded: loss {loss(x[held], y[held], rounded.astype(float), scale):.5f} (held out)")
    for name, old, new in zip(FEATURES, weights, rounded.tolist(), strict=True):
        print(f"  {name:24s} {old:6d} -> {new:6d}")
    print("WEIGHTS = (" + ", ".join(str(v) for v in rounded.tolist()) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
