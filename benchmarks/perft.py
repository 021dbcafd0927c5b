"""Move-generator speed: perft leaves per second and legal-move generation over real positions.

    python benchmarks/perft.py            # all measurements, best of 3
    python benchmarks/perft.py --repeat 1

Every figure is also given as a ratio to a fixed pure-Python workload (flood fills over a hex
grid with dicts and sets, the same kind of work as move generation) timed in the same run, so
runs on different machines or under different load compare fairly.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

from panal.hex import NEIGHBOR_OFFSETS, ORIGIN_CELL, hexagon, pack
from panal.hive import Game

BGA = (
    Path(__file__).resolve().parents[2]
    / "shared/corpus/alpha-hive-bga-uhp/bga_base_mlp_renumbered.uhp.txt"
)


def best_of(repeat: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def baseline() -> None:
    """The calibration workload: 300 flood fills over a radius-6 hexagon."""
    cells = {pack(h): [0] for h in hexagon(6)}
    for _ in range(300):
        seen = {ORIGIN_CELL}
        todo = [ORIGIN_CELL]
        while todo:
            cell = todo.pop()
            for step in NEIGHBOR_OFFSETS:
                n = cell + step
                if n in cells and n not in seen:
                    seen.add(n)
                    todo.append(n)


def real_positions(limit: int = 1200) -> list[Game]:
    """Every 5th position of the BoardGameArena games until ``limit`` positions."""
    positions: list[Game] = []
    for line in BGA.read_text().splitlines():
        moves = line.split(";")[3:]
        game = Game("Base+MLP", repetition_draw=False)
        for ply, move in enumerate(moves, 1):
            game.push(move)
            if ply % 5 == 0 and not game.is_over():
                positions.append(game.copy())
        if len(positions) >= limit:
            break
    return positions[:limit]


def row(label: str, count: int, seconds: float, base: float) -> str:
    rate = count / seconds
    return f"{label:34} {count:>10} {seconds:>8.3f} {rate:>12,.0f} {seconds / base:>10.1f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    base = best_of(args.repeat, baseline)
    print(f"baseline workload: {base * 1000:.1f} ms (best of {args.repeat})")
    print(f"{'measurement':34} {'count':>10} {'seconds':>8} {'per second':>12} {'x baseline':>10}")
    for game_type, depth in (("Base", 5), ("Base+MLP", 4)):
        game = Game(game_type, tournament_opening=True)
        count = game.perft(depth)
        seconds = best_of(args.repeat, lambda g=game, d=depth: g.perft(d))
        label = f"perft({depth}) {game_type}"
        print(row(label, count, seconds, base))
    if not BGA.exists():
        print(f"skipping real positions: {BGA} not found", file=sys.stderr)
        return 0
    positions = real_positions()

    def generate_all() -> int:
        total = 0
        for position in positions:
            total += len(position._generate())  # uncached generation
        return total

    moves = generate_all()
    seconds = best_of(args.repeat, generate_all)
    label = f"legal moves, {len(positions)} BGA positions"
    print(row(label, len(positions), seconds, base))
    print(f"  ({moves} legal moves in all, {moves / seconds:,.0f} moves/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
