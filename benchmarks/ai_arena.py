"""Arena results for docs/benchmarks.md: the strongest level against baselines, and every
level against every other. Long-running: run it once, on an otherwise idle machine.

    python benchmarks/ai_arena.py baselines --games 20 --time 1      # vs random and greedy
    python benchmarks/ai_arena.py levels --games 4 --time 0.5         # the level table

Each match runs two games at once (two engine processes thinking at a time, one per core).
``--out DIR`` keeps every game (GameStrings, PGN, logs) per match.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

from panal.ai import LEVELS
from panal.uhp.arena import ArenaSettings, MatchSummary, run_match

PANAL = "panal uhp"
RANDOM = f"{sys.executable} -m panal.uhp.players random"
GREEDY = f"{sys.executable} -m panal.uhp.players greedy"


def match(
    first: tuple[str, dict[str, str], str],
    second: tuple[str, dict[str, str], str],
    args: argparse.Namespace,
    label: str,
) -> MatchSummary:
    settings = ArenaSettings(
        engines=(first[0], second[0]),
        games=args.games,
        time_per_move=args.time,
        game_type=args.game_type,
        options=(first[1], second[1]),
        names=(first[2], second[2]),
        seed=args.seed,
        out=args.out / label if args.out else None,
    )
    started = time.perf_counter()
    summary = run_match(settings, show_progress=not args.quiet)
    print(summary.text(), f"\n  ({time.perf_counter() - started:.0f} s)", flush=True)
    return summary


def baselines(args: argparse.Namespace) -> list[dict[str, object]]:
    strongest = (PANAL, {"Level": "strongest"}, "strongest")
    rows = []
    for name, command in (("random", RANDOM), ("greedy", GREEDY)):
        summary = match(strongest, (command, {}, name), args, f"strongest-vs-{name}")
        rows.append(summary.to_json())
    return rows


def levels(args: argparse.Namespace) -> list[dict[str, object]]:
    rows = []
    for weaker, stronger in itertools.combinations(LEVELS, 2):
        summary = match(
            (PANAL, {"Level": stronger}, stronger),
            (PANAL, {"Level": weaker}, weaker),
            args,
            f"{stronger}-vs-{weaker}",
        )
        rows.append(summary.to_json())
    print("\n| level (row) vs (column): score of the row | " + " | ".join(LEVELS) + " |")
    print("|---" * (len(LEVELS) + 1) + "|")
    score = {(r["names"][0], r["names"][1]): r["score"] for r in rows}  # type: ignore[index]
    for row in LEVELS:
        cells = []
        for column in LEVELS:
            if row == column:
                cells.append("-")
            elif (row, column) in score:
                cells.append(f"{score[row, column]:.0%}")
            else:
                cells.append(f"{1 - score[column, row]:.0%}")  # type: ignore[operator]
        print(f"| {row} | " + " | ".join(cells) + " |")
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("which", choices=("baselines", "levels"))
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--time", type=float, default=1.0, help="seconds per move")
    parser.add_argument("--game-type", default="Base")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--json", type=Path, help="also write the summaries here")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    rows = baselines(args) if args.which == "baselines" else levels(args)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
