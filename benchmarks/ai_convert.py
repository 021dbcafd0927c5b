"""Converting won positions: can panal finish a game that a match left drawn at the move limit?

    PYTHONPATH=src python3 benchmarks/ai_convert.py benchmarks/results/2026-11-26-base-1s \\
        benchmarks/results/2026-11-26-base-nodes/seed1? --nodes 5000 --plies 100

From every game of the given ladder results (``games.jsonl``) that was adjudicated a draw at
the move limit after one side had begun to pass (nothing it had could move: a won position for
the other), the position before that first pass is played on by panal on both sides, a search of
``--nodes`` nodes a move, for at most ``--plies`` plies. A game counts as converted when it ends
on the board. Node budgets make the figures the same on any machine, whatever its load.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from panal.ai import Searcher
from panal.hive import Game, GameType


def passing_starts(folders: list[Path]) -> list[tuple[str, GameType, list[str]]]:
    """(name, game type, moves before the first pass) of each move-limit draw with passes."""
    starts = []
    for folder in folders:
        for line in (folder / "games.jsonl").read_text().splitlines():
            record = json.loads(line)
            if "after" not in record["reason"] or "plies" not in record["reason"]:
                continue  # only "adjudicated draw after N plies"
            fields = record["game_string"].split(";")
            moves = fields[3:]
            if "pass" in moves:
                name = f"{folder.name}:{record['game']}"
                starts.append((name, GameType.parse(fields[0]), moves[: moves.index("pass")]))
    return starts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path, help="ladder results (games.jsonl)")
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--plies", type=int, default=100)
    args = parser.parse_args()
    starts = passing_starts(args.folders)
    converted = 0
    for name, game_type, moves in starts:
        game = Game(game_type, tournament_opening=True, repetition_draw=False)
        for move in moves:
            game.push(move, lenient=True)
        searcher = Searcher()
        started = time.process_time()
        played = 0
        while not game.is_over() and played < args.plies:
            game.push_code(searcher.search(game, node_limit=args.nodes).code)
            played += 1
        converted += game.is_over()
        seconds = time.process_time() - started
        print(f"{name}: from ply {len(moves)}, {game.state} after {played} plies ({seconds:.0f} s)")
    print(f"converted {converted} of {len(starts)} ({args.nodes} nodes a move, {args.plies} plies)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
