"""Place panal's playing levels on a fixed ladder of opponents, on one Elo scale.

    PYTHONPATH=src python3 benchmarks/ai_calibrate.py --games 10 --out results/calibration
    PYTHONPATH=src python3 benchmarks/ai_calibrate.py --pairs easy:greedy,easy:nok1 --games 20

The ladder: the random mover, the one-ply greedy player (``panal.uhp.players``) and nokamute at
``bestmove depth 1, 2, 3, 4`` (hivegame.com's easy bot is depth 2, its medium bot depth 4). Each
level plays with its own settings (a bare ``bestmove``). Every pair is a match of
``benchmarks/ai_ladder.py`` (refereed, random two-ply openings, colours alternating); all results
are then fitted together to one Elo scale (a Bradley-Terry maximum-likelihood fit, draws counted
as half a win each way), the random mover at 0. The table gives each player's rating and the
ladder rung nearest to it. Default pairs: neighbouring rungs, and each level against the rungs
around it.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ai_ladder import Match, Settings, Side
from panal.ai import LEVELS

RUNGS = ("random", "greedy", "nok1", "nok2", "nok3", "nok4")
DEFAULT_PAIRS = (
    "greedy:random,nok1:greedy,nok2:nok1,nok3:nok2,nok4:nok3,"
    "beginner:random,beginner:greedy,easy:greedy,easy:nok1,medium:nok1,medium:nok2,"
    "hard:nok2,hard:nok3,expert:nok3,expert:nok4"
)
ABOUT = {
    "random": "a random mover",
    "greedy": "a one-ply greedy player",
    "nok1": "nokamute at depth 1",
    "nok2": "nokamute at depth 2 (hivegame.com's easy bot)",
    "nok3": "nokamute at depth 3",
    "nok4": "nokamute at depth 4 (hivegame.com's medium bot)",
}


def side(name: str, nokamute: str) -> Side:
    python = sys.executable
    if name in ("random", "greedy"):
        return Side(f"{python} -m panal.uhp.players {name}", "bestmove depth 1", (), name)
    if name.startswith("nok"):
        depth = int(name[3:])
        command = f"{nokamute} uhp --num-threads=1"
        return Side(command, f"bestmove depth {depth}", (), name)
    if name in LEVELS:
        return Side(f"{python} -m panal.cli uhp", "bestmove", (("Level", name),), name)
    raise SystemExit(f"unknown player {name!r}: a level ({', '.join(LEVELS)}) or {RUNGS}")


def fit(results: list[dict[str, object]], anchor: str = "random") -> dict[str, float]:
    """Bradley-Terry ratings (Elo scale) by gradient ascent on the log-likelihood."""
    players = sorted({str(r[k]) for r in results for k in ("player", "opponent")})
    rating = dict.fromkeys(players, 0.0)
    for _ in range(20000):
        grad = dict.fromkeys(players, 0.0)
        for r in results:
            a, b = str(r["player"]), str(r["opponent"])
            games = float(r["games"]) + 1  # type: ignore[arg-type]
            # One draw added to every match keeps a perfect score finite.
            score = float(r["score"]) * (games - 1) + 0.5  # type: ignore[arg-type]
            expected = games / (1 + 10 ** ((rating[b] - rating[a]) / 400))
            grad[a] += score - expected
            grad[b] -= score - expected
        for p in players:
            rating[p] += 2.0 * grad[p]
        shift = rating.get(anchor, 0.0)
        for p in players:
            rating[p] -= shift
    return rating


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", default=DEFAULT_PAIRS, help="A:B,C:D ... (A plays B)")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--game-type", default="Base+MLP")
    parser.add_argument("--nokamute", default="../shared/engines/nokamute")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--results", type=Path, help="fit these saved results (results.json)")
    args = parser.parse_args()
    results: list[dict[str, object]] = []
    if args.results:
        results = json.loads(args.results.read_text())
    else:
        for pair in args.pairs.split(","):
            first, second = pair.split(":")
            settings = Settings(
                player=side(first, args.nokamute),
                opponent=side(second, args.nokamute),
                game_type=args.game_type,
                games=args.games,
                jobs=args.jobs,
                out=args.out / f"{first}-vs-{second}" if args.out else None,
            )
            match = Match(settings)
            match.run()
            match.write()
            summary = match.summary()
            print(match.text(), flush=True)
            results.append(
                {
                    "player": first,
                    "opponent": second,
                    "games": summary["games"],
                    "score": summary["score"],
                    "wins": summary["wins"],
                    "draws": summary["draws"],
                    "losses": summary["losses"],
                }
            )
            if args.out:
                args.out.mkdir(parents=True, exist_ok=True)
                (args.out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    rating = fit(results)
    rungs = [r for r in RUNGS if r in rating]
    print("\n| player | Elo (random mover = 0) | nearest rung |\n|---|---|---|")
    for name, value in sorted(rating.items(), key=lambda item: item[1]):
        near = min(rungs, key=lambda r: abs(rating[r] - value)) if rungs else "-"
        shown = "-" if math.isnan(value) else f"{value:+.0f}"
        print(f"| {name} | {shown} | {ABOUT.get(near, near)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
