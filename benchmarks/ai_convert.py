"""Converting won positions: can panal finish a game that a match left drawn at the move limit?

    PYTHONPATH=src python3 benchmarks/ai_convert.py benchmarks/results/2026-11-26-base-1s \\
        benchmarks/results/2026-11-26-base-nodes/seed1? --nodes 5000 --plies 100
    git show 1ac77ab:src/panal/ai/evaluation.py > /tmp/evaluation_before.py
    PYTHONPATH=src python3 benchmarks/ai_convert.py benchmarks/results/2026-11-2[67]-* \\
        --every 4 --nodes 2000 --plies 60 --baseline-evaluation /tmp/evaluation_before.py

From every game of the given ladder results (``games.jsonl``) that was adjudicated a draw at
the move limit after one side had begun to pass (nothing it had could move: a won position for
the other), the position before that first pass is played on by panal on both sides, a search of
``--nodes`` nodes a move, for at most ``--plies`` plies. A game counts as converted when it ends
on the board; the rest end at the ply limit. ``--every K`` also starts from every K-th later
pass of those games (the position before it): more starts from the same endgames, each a little
further on. Node budgets make the figures the same on any machine, whatever its load.

``--baseline-evaluation FILE`` (a copy of an older ``panal/ai/evaluation.py``) plays every start
with that evaluation too, one after the other in the same process, and prints both summaries:
the share of games ending at the ply limit, the wins and the plies to each win.
``--baseline-search FILE`` (a copy of an older ``panal/ai/search.py``) does the same with that
search; with both, the baseline is the older search with the older evaluation.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from panal.ai import Searcher
from panal.ai.evaluation import evaluate
from panal.hive import Game, GameState, GameType


def passing_starts(folders: list[Path], every: int = 0) -> list[tuple[str, GameType, list[str]]]:
    """(name, game type, moves before a pass) of each move-limit draw with passes: the first
    pass, and with ``every`` also every ``every``-th pass after it."""
    starts = []
    for folder in folders:
        path = folder / "games.jsonl"
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            record = json.loads(line)
            if "after" not in record["reason"] or "plies" not in record["reason"]:
                continue  # only "adjudicated draw after N plies"
            fields = record["game_string"].split(";")
            moves = fields[3:]
            passes = [ply for ply, move in enumerate(moves) if move == "pass"]
            if passes:
                chosen = passes[::every] if every else passes[:1]
                for ply in chosen:
                    name = f"{folder.name}:{record['game']}@{ply}"
                    starts.append((name, GameType.parse(fields[0]), moves[:ply]))
    return starts


def play_on(
    game_type: GameType, moves: list[str], searcher: Searcher, nodes: int, plies: int
) -> tuple[GameState, int, float]:
    """Panal on both sides from the position after ``moves``: (state, plies played, CPU s)."""
    game = Game(game_type, tournament_opening=True, repetition_draw=False)
    for move in moves:
        game.push(move, lenient=True)
    searcher.clear()
    started = time.process_time()
    played = 0
    while not game.is_over() and played < plies:
        game.push_code(searcher.search(game, node_limit=nodes).code)
        played += 1
    return game.state, played, time.process_time() - started


def summary(label: str, results: list[tuple[GameState, int, float]], plies: int) -> str:
    """One line: games ended at the ply limit, converted, plies to each win."""
    won = [played for state, played, _ in results if state is not GameState.IN_PROGRESS]
    at_limit = len(results) - len(won)
    share = at_limit / len(results) if results else 0.0
    median = statistics.median(won) if won else 0
    seconds = sum(result[2] for result in results)
    return (
        f"{label}: {at_limit} of {len(results)} at the {plies}-ply limit ({share:.0%}), "
        f"{len(won)} converted, plies to the end: median {median}, "
        f"max {max(won, default=0)} ({seconds:.0f} CPU s)"
    )


def load_module(name: str, path: Path) -> Any:
    """The Python file at ``path``, loaded as a module called ``name``."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # a dataclass looks its module up while it is being built
    spec.loader.exec_module(module)
    return module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path, help="ladder results (games.jsonl)")
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--plies", type=int, default=100)
    parser.add_argument("--every", type=int, default=0, help="also every K-th later pass")
    parser.add_argument("--baseline-evaluation", type=Path, metavar="FILE")
    parser.add_argument("--baseline-search", type=Path, metavar="FILE")
    args = parser.parse_args()
    players: dict[str, Callable[[], Searcher]] = {}
    if args.baseline_evaluation is not None or args.baseline_search is not None:
        searcher, evaluator = Searcher, evaluate
        if args.baseline_search is not None:
            searcher = load_module("baseline_search", args.baseline_search).Searcher
        if args.baseline_evaluation is not None:
            evaluator = load_module("baseline_evaluation", args.baseline_evaluation).evaluate
        players["baseline"] = lambda: searcher(evaluator=evaluator)
    players["current"] = Searcher
    starts = passing_starts(args.folders, args.every)
    results: dict[str, list[tuple[GameState, int, float]]] = {label: [] for label in players}
    for name, game_type, moves in starts:
        for label, player in players.items():
            state, played, seconds = play_on(game_type, moves, player(), args.nodes, args.plies)
            results[label].append((state, played, seconds))
            print(f"{name} {label}: {state} after {played} plies ({seconds:.0f} s)", flush=True)
    for label, played_on in results.items():
        print(summary(label, played_on, args.plies))
    print(f"{len(starts)} starts, {args.nodes} nodes a move, at most {args.plies} plies")
    return 0


if __name__ == "__main__":
    sys.exit(main())
