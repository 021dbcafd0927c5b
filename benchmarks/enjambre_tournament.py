"""Enjambre Tácticas bot benchmark: four-player tournaments between the bots.

Three line-ups, each played with the tournament runner (seats rotate between matches, and each
game of a match is started by the next seat clockwise):

* search against three heuristic bots: does search beat the heuristic?
* heuristic against three random bots: does the heuristic beat random play?
* one of each plus a second random bot, for a direct comparison.

Usage::

    python benchmarks/enjambre_tournament.py [--games 100] [--seed 2024] [--jobs 2] [--json]

The figures in docs/enjambre-guide.md and docs/enjambre.md come from this script with the defaults.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from panal.enjambre.runner import TournamentResult, run_tournament
from panal.progress import ProgressBar

LINE_UPS = {
    "search vs heuristic": ["search", "heuristic", "heuristic", "heuristic"],
    "heuristic vs random": ["heuristic", "random", "random", "random"],
    "all three": ["search", "heuristic", "random", "random"],
}


def summary(name: str, result: TournamentResult, seconds: float) -> dict[str, Any]:
    by_bot: dict[str, dict[str, float]] = {}
    for entry in result.entries:
        stats = by_bot.setdefault(entry.bot, {"games": 0, "wins": 0, "score": 0, "place": 0})
        stats["games"] += entry.games
        stats["wins"] += entry.wins
        stats["score"] += entry.score_total
        stats["place"] += entry.place_total
    bots = {
        bot: {
            "games": int(s["games"]),
            "win_rate": round(s["wins"] / s["games"], 3),
            "average_score": round(s["score"] / s["games"], 2),
            "average_place": round(s["place"] / s["games"], 2),
        }
        for bot, s in by_bot.items()
    }
    return {
        "line_up": name,
        "bots": list(result.bots),
        "games": result.games,
        "seed": result.seed,
        "seconds": round(seconds, 1),
        "by_bot": bots,
        "entries": [e.to_dict() for e in result.entries],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per line-up (default 100)")
    parser.add_argument("--seed", type=int, default=2024, help="tournament seed (default 2024)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    parser.add_argument(
        "--line-up", choices=list(LINE_UPS), action="append", help="run only these line-ups"
    )
    args = parser.parse_args(argv)
    reports = []
    for name in args.line_up or list(LINE_UPS):
        names = LINE_UPS[name]
        print(f"{name}: {','.join(names)}", file=sys.stderr)
        start = time.monotonic()
        result = run_tournament(
            names,
            games=args.games,
            seed=args.seed,
            jobs=args.jobs,
            progress=ProgressBar(sys.stderr),
        )
        report = summary(name, result, time.monotonic() - start)
        reports.append(report)
        if not args.json:
            print(f"\n## {name}: {args.games} games, seed {args.seed}, bots {','.join(names)}")
            print(result.table())
            for bot, stats in report["by_bot"].items():
                print(
                    f"  {bot:<10} win rate {stats['win_rate']:.3f}  average score "
                    f"{stats['average_score']:.2f}  average place {stats['average_place']:.2f}"
                )
            print(f"  ({report['seconds']:.0f} s)")
    if args.json:
        print(json.dumps(reports, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
