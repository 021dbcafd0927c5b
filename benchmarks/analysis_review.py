"""Game review speed: seconds to review a 60-ply game, and reviews per minute with N processes.

    python benchmarks/analysis_review.py                       # default budget, 1 and 2 workers
    python benchmarks/analysis_review.py --workers 1,2,4 --games 8
    python benchmarks/analysis_review.py --nodes 2000 --skip-throughput

The games are the first BoardGameArena games (Base+MLP, ../shared/corpus) of more than 60
plies, cut to their first 60. ``panal.ai.review`` searches each of the 60 positions to the
default node budget (:data:`panal.ai.game_review.DEFAULT_NODES_PER_PLY`) or ``--nodes``.

1. **One review**, timed in wall-clock and CPU seconds (``time.process_time``, which waiting for
   a busy machine's cores does not inflate), against a **baseline in the same run**: the same
   60 positions searched by a plain ``Searcher.search`` to the same node budget (one line, one
   Searcher, as a level plays). The ratio is what the review adds: the played move scored
   exactly beside the best, the lines written out.
2. **Throughput**: ``--games`` reviews shared by a pool of N worker processes (each review in
   one process, as a job queue's workers would take them), in wall-clock time, for each N of
   ``--workers``; reviews per minute and the ratio to one worker in the same run. On a machine
   with fewer idle cores than N the ratio says so.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from pathlib import Path

from panal.ai import Searcher, review
from panal.ai.game_review import DEFAULT_NODES_PER_PLY
from panal.hive import Game
from panal.hive.records import BOARD_GAME_ARENA_OPTIONS

BGA = (
    Path(__file__).resolve().parents[2]
    / "shared/corpus/alpha-hive-bga-uhp/bga_base_mlp_renumbered.uhp.txt"
)
PLIES = 60


def corpus_games(count: int) -> list[list[str]]:
    """The first ``count`` BoardGameArena games of more than 60 plies, cut to 60 plies."""
    games = []
    for line in BGA.read_text(encoding="utf-8").splitlines():
        moves = line.strip().rstrip(";").split(";")[3:]
        if len(moves) > PLIES:
            games.append(moves[:PLIES])
        if len(games) == count:
            break
    return games


def replay(moves: list[str]) -> Game:
    game = Game("Base+MLP", options=BOARD_GAME_ARENA_OPTIONS)
    for text in moves:
        game.push(text, lenient=True)
    return game


def review_one(job: tuple[list[str], int]) -> float:
    """Review one game; returns the CPU seconds it took (run in a worker process)."""
    moves, nodes = job
    start = time.process_time()
    review(replay(moves), nodes_per_ply=nodes)
    return time.process_time() - start


def baseline(moves: list[str], nodes: int) -> float:
    """CPU seconds of a plain search of each position before a move, to the same budget."""
    game = replay(moves)
    positions = []
    while game.ply:
        game.pop_code()
        positions.append(game.copy())
    searcher = Searcher()
    start = time.process_time()
    for position in reversed(positions):
        searcher.search(position, node_limit=nodes)
    return time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=DEFAULT_NODES_PER_PLY)
    parser.add_argument("--workers", default="1,2", help="comma-separated pool sizes")
    parser.add_argument("--games", type=int, default=4, help="reviews per pool size")
    parser.add_argument("--skip-throughput", action="store_true")
    args = parser.parse_args()
    if not BGA.exists():
        print(f"missing {BGA}", file=sys.stderr)
        return 1
    games = corpus_games(max(args.games, 1))
    print(f"{PLIES}-ply Base+MLP games from BoardGameArena, {args.nodes:,} nodes a ply")
    print(f"cpus: {os.cpu_count()}, load average: {os.getloadavg()[0]:.1f}")

    # 1. One review against the baseline, alternated twice so that the load weighs on both.
    review_cpu, base_cpu, wall = [], [], []
    for _ in range(2):
        start = time.perf_counter()
        review_cpu.append(review_one((games[0], args.nodes)))
        wall.append(time.perf_counter() - start)
        base_cpu.append(baseline(games[0], args.nodes))
    best_review, best_base = min(review_cpu), min(base_cpu)
    print(
        f"one review: {best_review:.1f} CPU s ({min(wall):.1f} s wall); baseline, a plain "
        f"search of the 60 positions: {best_base:.1f} CPU s; review / baseline "
        f"{best_review / best_base:.2f}"
    )

    # 2. Reviews per minute with N worker processes.
    if args.skip_throughput:
        return 0
    jobs = [(games[i % len(games)], args.nodes) for i in range(args.games)]
    rates: dict[int, float] = {}
    for workers in (int(text) for text in args.workers.split(",")):
        start = time.perf_counter()
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            pool.map(review_one, jobs, chunksize=1)
        seconds = time.perf_counter() - start
        rates[workers] = len(jobs) * 60 / seconds
        first = next(iter(rates.values()))
        print(
            f"{workers} worker(s): {len(jobs)} reviews in {seconds:.1f} s wall, "
            f"{rates[workers]:.2f} reviews a minute, x{rates[workers] / first:.2f} the first pool's"
        )
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
