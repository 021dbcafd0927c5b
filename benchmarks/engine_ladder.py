"""The engine ladder offline, for the README: nokamute (``../shared/engines``) and panal's levels
play every pair of each other (the arena's matches: pairs of games from one random opening,
colours swapped, every move refereed by panal's rules), and the Bradley-Terry table of all the
games is printed (:mod:`panal.uhp.ladder`; ratings on the Elo scale, 1500 the anchor, 95%
intervals). Not a test: it needs nokamute, and minutes.

    PYTHONPATH=src python3 benchmarks/engine_ladder.py --games 4 --time 0.2

The table says how strong the engines are *at this time per move on this machine* (2 shared
cores, two games at once, each engine thinking only on its own turn); short games and few of
them give wide intervals, which the table shows.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

from panal.uhp.arena import ArenaSettings
from panal.uhp.ladder import ladder_text, play_ladder

NOKAMUTE = Path(__file__).resolve().parents[2] / "shared" / "engines" / "nokamute"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per pair (even)")
    parser.add_argument("--time", type=float, default=0.2, help="seconds per move")
    parser.add_argument("--levels", default="strongest,medium", help="panal levels to include")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="keep every game here (PGN per pair)")
    args = parser.parse_args()
    python = sys.executable
    engines: list[tuple[str, str, dict[str, str]]] = []
    if NOKAMUTE.exists():
        engines.append(("nokamute", f"{NOKAMUTE} uhp --num-threads=1", {}))
    else:
        print(f"nokamute is absent ({NOKAMUTE}): panal only", file=sys.stderr)
    for level in args.levels.split(","):
        engines.append((f"panal-{level}", f"{python} -m panal.cli uhp", {"Level": level}))
    engines.append(("greedy", f"{python} -m panal.uhp.players greedy", {}))
    settings = ArenaSettings(
        engines=("", ""),
        games=args.games,
        time_per_move=args.time,
        seed=args.seed,
        out=args.out,
    )
    started = time.perf_counter()
    table, games = asyncio.run(
        play_ladder(engines, settings, lambda text: print(text, file=sys.stderr))
    )
    seconds = time.perf_counter() - started
    print(ladder_text(table))
    print(
        f"\n{len(games)} games, {args.games} per pair, {args.time:g} s per move, "
        f"{seconds / 60:.1f} min"
    )
    print(json.dumps([s.to_json() for s in table]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
