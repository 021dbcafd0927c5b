"""``bestmove time`` precision over the protocol: wall time from command to ``ok``.

    python benchmarks/ai_timing.py                 # 20 positions x 1 s
    python benchmarks/ai_timing.py --seconds 0.5 --positions 10

The UHP budget is the requested time +5% +50 ms; the report gives the worst reply time and how
many replies exceeded that budget.
"""

from __future__ import annotations

import argparse
import sys
import time

from panal.uhp.client import SimpleEngine

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from ai_search import midgame_positions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=1.0)
    args = parser.parse_args()
    budget = args.seconds * 1.05 + 0.05
    times = []
    with SimpleEngine.popen([sys.executable, "-m", "panal.cli", "uhp"]) as engine:
        engine.set_option("RepetitionDraw", "False")
        engine.set_option("TournamentOpening", "False")
        for game in midgame_positions(args.positions):
            engine.newgame(game.game_string())
            started = time.perf_counter()
            engine.bestmove(time=args.seconds)
            times.append(time.perf_counter() - started)
    over = sum(t > budget for t in times)
    print(f"{len(times)} bestmove time {args.seconds} s over UHP (budget {budget:.3f} s)")
    print(
        f"  reply time: mean {sum(times) / len(times):.3f} s, max {max(times):.3f} s; "
        f"{over} over budget"
    )
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
