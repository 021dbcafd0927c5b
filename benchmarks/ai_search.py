"""AI search speed: nodes per second and depth reached in 1 s from 50 real mid-game positions.

    python benchmarks/ai_search.py                 # 50 positions, 1 s each (about a minute)
    python benchmarks/ai_search.py --seconds 0.5 --positions 20
    python benchmarks/ai_search.py --nodes 4000     # the same searches on every build and machine
    git show 1ac77ab:src/panal/ai/evaluation.py > /tmp/evaluation_before.py
    python benchmarks/ai_search.py --nodes 3000 --baseline-evaluation /tmp/evaluation_before.py

Positions: ply 20, 25, 30, 35, 40 (whichever exist, in turn) of the first BoardGameArena games
(Base+MLP) in ../shared/corpus. Each search starts from an empty transposition table. A node is
one call of the search (interior or leaf), the usual count. ``--nodes`` bounds each search by
nodes instead of time, so every build searches the same trees, and divides them by the process's
CPU time (``time.process_time``), which waiting for a busy machine's cores does not inflate.

``--nodes N --baseline-evaluation FILE`` compares the evaluation with an earlier one (a copy of
an older ``panal/ai/evaluation.py``): the same N-node searches with each, alternating position
by position in one process so that the load of a shared machine weighs on both alike, timed in
CPU seconds. It checks that both chose the same moves after the same node counts (the scores
must be identical) and prints nodes per CPU second and their ratio.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from builds import build_name
from panal.ai import Searcher
from panal.ai.evaluation import evaluate
from panal.hive import Game

BGA = (
    Path(__file__).resolve().parents[2]
    / "shared/corpus/alpha-hive-bga-uhp/bga_base_mlp_renumbered.uhp.txt"
)
PLIES = (20, 25, 30, 35, 40)


def midgame_positions(count: int) -> list[Game]:
    """Positions at ply 20-40 of the first games, one per game, cycling through PLIES."""
    positions: list[Game] = []
    for line in BGA.read_text().splitlines():
        moves = line.split(";")[3:]
        target = PLIES[len(positions) % len(PLIES)]
        if len(moves) <= target:
            continue
        game = Game("Base+MLP", tournament_opening=False, repetition_draw=False)
        for move in moves[:target]:
            game.push(move)
        if not game.is_over() and game.legal_move_codes() != [-1]:
            positions.append(game)
        if len(positions) == count:
            break
    return positions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--nodes", type=int, help="bound each search by nodes, not time")
    parser.add_argument("--repeat", type=int, default=3, help="with --nodes: best of this many")
    parser.add_argument("--baseline-evaluation", type=Path, metavar="FILE")
    args = parser.parse_args()
    if not BGA.exists():
        print(f"missing {BGA}", file=sys.stderr)
        return 1
    positions = midgame_positions(args.positions)
    if args.baseline_evaluation is not None:
        return compare_evaluations(positions, args.baseline_evaluation, args.nodes or 3000)
    if args.nodes:
        return node_bounded(positions, args.nodes, args.repeat)
    rates = []
    depths: Counter[int] = Counter()
    overshoot = []
    moves = []
    for game in positions:
        result = Searcher().search(game, time_limit=args.seconds)
        rates.append(result.nodes_per_second)
        depths[result.depth] += 1
        overshoot.append(result.seconds - args.seconds)
        moves.append(len(game.legal_move_codes()))
    print(
        f"{len(positions)} positions (Base+MLP, ply {PLIES[0]}-{PLIES[-1]}), {args.seconds} s each"
    )
    print(f"  legal moves per position: mean {statistics.mean(moves):.0f}")
    print(
        f"  nodes/s: mean {statistics.mean(rates):,.0f}  median {statistics.median(rates):,.0f}"
        f"  min {min(rates):,.0f}  max {max(rates):,.0f}"
    )
    spread = ", ".join(f"depth {d}: {n}" for d, n in sorted(depths.items()))
    mean_depth = sum(d * n for d, n in depths.items()) / len(positions)
    print(f"  depth completed: {spread}; mean {mean_depth:.2f}")
    print(f"  time used beyond the limit: max {max(overshoot) * 1000:+.0f} ms")
    return 0


def node_bounded(positions: list[Game], nodes: int, repeat: int) -> int:
    """Search each position to ``nodes`` nodes, ``repeat`` times (the same tree each time: the
    search is deterministic), keeping each position's shortest CPU time; nodes per CPU second
    over all of them, and a digest of every search's move, score, depth and nodes: two builds or
    versions that search alike print the same one."""
    total_nodes = 0
    cpu = 0.0
    searched = hashlib.sha256()
    for game in positions:
        times = []
        for _ in range(repeat):
            start = time.process_time()
            result = Searcher().search(game, node_limit=nodes)
            times.append(time.process_time() - start)
        cpu += min(times)
        total_nodes += result.nodes
        searched.update(f"{result.code} {result.score} {result.depth} {result.nodes};".encode())
    print(
        f"{build_name()}: {len(positions)} positions (Base+MLP, ply {PLIES[0]}-{PLIES[-1]}), "
        f"{nodes} nodes each, best of {repeat}: {total_nodes / cpu:,.0f} nodes per CPU second "
        f"({cpu:.1f} s CPU); results {searched.hexdigest()[:16]}"
    )
    return 0


def compare_evaluations(positions: list[Game], baseline: Path, nodes: int) -> int:
    """N-node searches with the baseline evaluation and the current one, alternating."""
    spec = importlib.util.spec_from_file_location("baseline_evaluation", baseline)
    if spec is None or spec.loader is None:
        print(f"cannot load {baseline}", file=sys.stderr)
        return 1
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    evaluators = {"baseline": module.evaluate, "current": evaluate}
    seconds = dict.fromkeys(evaluators, 0.0)
    counted = dict.fromkeys(evaluators, 0)
    for index, game in enumerate(positions):
        chosen = set()
        order = list(evaluators) if index % 2 == 0 else list(reversed(evaluators))
        for name in order:
            searcher = Searcher(evaluator=evaluators[name])
            started = time.process_time()
            result = searcher.search(game, node_limit=nodes)
            seconds[name] += time.process_time() - started
            counted[name] += result.nodes
            chosen.add((result.code, result.score, result.nodes))
        if len(chosen) != 1:
            print(f"position {index}: the two evaluations searched differently: {chosen}")
            return 1
    rates = {name: counted[name] / seconds[name] for name in evaluators}
    print(f"{len(positions)} positions, {nodes} nodes each, the same moves and scores with both")
    for name, rate in rates.items():
        print(f"  {name}: {rate:,.0f} nodes per CPU second")
    print(f"  current / baseline: {rates['current'] / rates['baseline']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
