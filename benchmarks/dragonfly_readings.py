"""How often each reading of the Dragonfly's sidestep leaves a free Dragonfly without a move.

    python benchmarks/dragonfly_readings.py                 # 300 random games, seed 0
    python benchmarks/dragonfly_readings.py --games 1000 --seed 7

Random games of Base+MLPD are played (uniform random legal moves, at most 200 plies, no
repetition draw) under the ``either`` reading, which allows every move of the other two. In every
position where the side to move has a *free* Dragonfly (on the board, not covered, not the piece
moved last turn, not pinned by the one-hive rule, its queen placed) the Dragonfly's destinations
are counted under each reading, with and without the gaps and contact options. docs/rules.md
quotes the figures (the decision on ``dragonfly_sidestep``).
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict

from panal.hex import pack
from panal.hive import Game, Piece
from panal.hive.movement import BACKWARD_TURNS, FORWARD_TURNS, dragonfly_moves, pinned_cells

READINGS = {
    "forward": FORWARD_TURNS,
    "backward": BACKWARD_TURNS,
    "either": FORWARD_TURNS + BACKWARD_TURNS,
}
VARIANTS = {"plain": (False, False), "gaps": (True, False), "contact": (False, True)}


def free_dragonfly(game: Game) -> tuple[dict[int, list[int]], int] | None:
    """(stacks with the Dragonfly lifted, its cell) if the side to move has a free Dragonfly."""
    color = game.turn
    if not game.is_queen_placed(color):
        return None
    dragonfly = Piece.wD if color == 0 else Piece.bD
    where = game.position_of(dragonfly)
    if where is None or game.last_moved == dragonfly:
        return None
    stacks = {pack(c): [int(p) for p in stack] for c, stack in game.board().items()}
    cell = pack(where)
    if stacks[cell][-1] != int(dragonfly):
        return None  # covered
    if len(stacks[cell]) == 1 and cell in pinned_cells(stacks):
        return None
    stacks[cell].pop()
    if not stacks[cell]:
        del stacks[cell]
    return stacks, cell


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    seen = 0
    stuck: dict[tuple[str, str], int] = defaultdict(int)
    total: dict[tuple[str, str], int] = defaultdict(int)
    for _ in range(args.games):
        game = Game("Base+MLPD", dragonfly_sidestep="either", repetition_draw=False)
        for _ply in range(200):
            codes = game.legal_move_codes()
            if not codes:
                break
            found = free_dragonfly(game)
            if found is not None:
                stacks, cell = found
                seen += 1
                for reading, turns in READINGS.items():
                    for variant, (gaps, contact) in VARIANTS.items():
                        count = len(dragonfly_moves(stacks, cell, turns, gaps, contact))
                        total[reading, variant] += count
                        stuck[reading, variant] += count == 0
            game.push_code(rng.choice(codes))
    print(f"{args.games} random Base+MLPD games, seed {args.seed}: {seen} free Dragonflies")
    print(f"{'reading':10} {'options':8} {'no move':>8} {'moves (mean)':>13}")
    for reading in READINGS:
        for variant in VARIANTS:
            share = 100 * stuck[reading, variant] / max(seen, 1)
            mean = total[reading, variant] / max(seen, 1)
            print(f"{reading:10} {variant:8} {share:7.1f}% {mean:13.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
