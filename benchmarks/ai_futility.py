"""How far a shallow search falls below the static score: the risk of each reverse-futility margin.

    PYTHONPATH=src python benchmarks/ai_futility.py --positions 300 --margins 0 25 50 100 150 300

Reverse futility (``panal.ai.search.FUTILITY_MARGINS``) returns a node's static score without
searching it when that score is at least ``margin`` above beta, ``margin`` set by the depth left.
That answer is wrong only when a search of the node would have scored below beta, so below the
static score less the margin. This measures how often that happens: for each position, its
static score (:func:`panal.ai.evaluation.evaluate`) and the scores of selective searches of
depth 1 and 2 (what the search does below such a node), and, for each margin, the share of
positions whose search scored more than the margin below the static score.

Positions: the mid-game positions of ``ai_search.py`` (ply 20-40 of BoardGameArena games, Base+MLP)
and, since most nodes of a search are not positions anyone would play, each of them after one to
three random legal moves (seeded). Searches of won or lost positions (beyond ``MATE_BOUND``)
count as below or above every margin, as the search would find them.
"""

from __future__ import annotations

import argparse
import random
import sys

from ai_search import BGA, midgame_positions
from panal.ai import Searcher
from panal.ai.evaluation import evaluate
from panal.hive import Game


def sampled_positions(count: int, seed: int) -> list[Game]:
    """``count`` mid-game positions, each after 1-3 seeded random plies (still in progress)."""
    rng = random.Random(seed)
    positions = []
    for game in midgame_positions(count):
        for _ in range(rng.randint(1, 3)):
            codes = game.legal_move_codes()
            if not codes:
                break
            game.push_code(rng.choice(sorted(codes)))
        if not game.is_over():
            positions.append(game)
    return positions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--margins", type=int, nargs="+", default=[0, 25, 50, 75, 100, 150, 300])
    parser.add_argument("--depths", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not BGA.exists():
        print(f"missing {BGA}", file=sys.stderr)
        return 1
    positions = sampled_positions(args.positions, args.seed)
    # By depth: (static score - search score, the side to move's queen has five neighbours).
    shortfalls: dict[int, list[tuple[int, bool]]] = {depth: [] for depth in args.depths}
    for game in positions:
        static = evaluate(game)
        cornered = game.surrounding(game.turn) == 5
        for depth in args.depths:
            # A fresh searcher each time: nothing carried over from another position or depth.
            score = Searcher().search(game, depth=depth, exact_depth=False).score
            shortfalls[depth].append((static - score, cornered))
    cornered_count = sum(cornered for _, cornered in shortfalls[args.depths[0]])
    print(
        f"{len(positions)} positions (Base+MLP, ply 20-40 and 1-3 random plies after), "
        f"{cornered_count} with the side to move's queen beside five pieces"
    )
    print("share whose search scored below the static score by more than each margin:")
    for depth in args.depths:
        for label, kept in (("all", (False, True)), ("queen not beside five", (False,))):
            gaps = [gap for gap, cornered in shortfalls[depth] if cornered in kept]
            below = ", ".join(
                f"{margin}: {sum(gap > margin for gap in gaps) / len(gaps):.1%}"
                for margin in args.margins
            )
            print(f"  depth {depth}, {label} ({len(gaps)}): {below}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
