"""Move-generator speed: perft against nokamute, and legal-move generation over real positions.

    python benchmarks/perft.py            # all measurements, best of 3
    python benchmarks/perft.py --repeat 5 --no-pure

Base perft(5) (tournament opening, 516,240 leaves) is timed in panal and, when
``../shared/engines/nokamute`` is present, by nokamute's own ``perft`` command in the same run
(each engine times itself, without process start-up; panal counts CPU time, nokamute the
wall-clock time of a run of a few milliseconds, best of ``--repeat``); the ratio of the two is
the figure of merit. On the compiled build (docs/library.md, "Compiled build") the pure source is
measured too, in a subprocess, so one run gives both ratios.

Every panal figure is also given as a ratio to a fixed pure-Python workload (flood fills over a
hex grid with dicts and sets, the same kind of work as move generation) timed in the same run,
so runs on different machines or under different load compare fairly.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from builds import PURE_FLAG, build_name, run_on_pure_source
from panal.hex import NEIGHBOR_OFFSETS, ORIGIN_CELL, hexagon, pack
from panal.hive import Game

SHARED = Path(__file__).resolve().parents[2] / "shared"
BGA = SHARED / "corpus/alpha-hive-bga-uhp/bga_base_mlp_renumbered.uhp.txt"
NOKAMUTE = SHARED / "engines/nokamute"
PERFTS = (("Base", 5), ("Base+MLP", 4))
RANDOM_STEPS = 5000
UNITS = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def best_of(repeat: int, work: Callable[[], object]) -> float:
    """The shortest of ``repeat`` runs, in CPU seconds of this process (``time.process_time``):
    on a shared machine, time spent waiting for a core does not count."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
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


def random_steps(steps: int, seed: int = 1) -> int:
    """What a research environment does each step: list the legal moves (as Moves) and push one
    chosen at random; Base+MLP games from the start, a new one when a game ends or reaches
    200 plies. Returns how many games were played."""
    rng = random.Random(seed)
    game = Game("Base+MLP")
    games = 1
    for _ in range(steps):
        if game.is_over() or game.ply >= 200:
            game = Game("Base+MLP")
            games += 1
        game.push(rng.choice(list(game.legal_moves)))
    return games


def random_steps_once() -> int:
    return random_steps(RANDOM_STEPS)


def nokamute_perft(depth: int, repeat: int) -> tuple[int, float]:
    """nokamute's Base perft(``depth``) as it times it itself: (leaves, best seconds).

    ``nokamute perft Base`` counts depth after depth without end (always with the tournament
    opening); it is stopped once ``depth`` is printed.
    """
    times = []
    leaves = 0
    for _ in range(repeat):
        with subprocess.Popen(
            [str(NOKAMUTE), "perft", "Base"], stdout=subprocess.PIPE, text=True
        ) as process:
            assert process.stdout is not None
            for line in process.stdout:
                fields = line.split()
                if fields and fields[0] == str(depth):
                    leaves = int(fields[1])
                    times.append(_seconds(fields[2]))
                    break
            process.kill()
    return leaves, min(times)


def _seconds(text: str) -> float:
    """nokamute's durations: ``28.6ms``, ``133.9µs``, ``10.3s``."""
    match = re.fullmatch(r"([0-9.]+)([a-zµ]+)", text)
    if match is None or match.group(2) not in UNITS:
        raise ValueError(f"unexpected duration {text!r} from nokamute")
    return float(match.group(1)) * UNITS[match.group(2)]


def measure(repeat: int) -> dict[str, object]:
    """This build's figures: baseline, each perft and the real positions (seconds)."""
    figures: dict[str, object] = {"build": build_name()}
    figures["baseline"] = best_of(repeat, baseline)
    for game_type, depth in PERFTS:
        game = Game(game_type, tournament_opening=True)
        count = game.perft(depth)
        seconds = best_of(repeat, lambda g=game, d=depth: g.perft(d))
        figures[f"perft({depth}) {game_type}"] = (count, seconds)
    figures["random steps, Base+MLP"] = (RANDOM_STEPS, best_of(repeat, random_steps_once))
    if BGA.exists():
        positions = real_positions()

        def generate_all() -> int:
            total = 0
            for position in positions:
                total += len(position._generate())  # uncached generation
            return total

        moves = generate_all()
        seconds = best_of(repeat, generate_all)
        figures[f"legal moves, {len(positions)} BGA positions"] = (len(positions), seconds)
        figures["moves"] = moves
    return figures


def row(label: str, count: int, seconds: float, base: float, versus: str = "") -> str:
    rate = count / seconds
    return f"{label:44} {count:>9} {seconds:>8.4f} {rate:>12,.0f} {seconds / base:>9.1f} {versus}"


def report(figures: dict[str, object], nokamute_seconds: float | None) -> None:
    build = figures["build"]
    base = float(figures["baseline"])  # type: ignore[arg-type]
    print(f"panal {build}: baseline workload {base * 1000:.1f} ms")
    for label, value in figures.items():
        if not isinstance(value, list | tuple):
            continue
        count, seconds = value
        versus = ""
        if label == "perft(5) Base" and nokamute_seconds:
            versus = f"{seconds / nokamute_seconds:.1f}× nokamute"
        print(row(f"{build}: {label}", count, seconds, base, versus))
    if "moves" in figures:
        print(f"  ({figures['moves']} legal moves in the BGA positions)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-pure", action="store_true", help="measure only the build imported")
    parser.add_argument(PURE_FLAG, action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json_on_pure_source:
        print(json.dumps(measure(args.repeat)))
        return 0
    nokamute_seconds = None
    if NOKAMUTE.exists():
        leaves, nokamute_seconds = nokamute_perft(5, args.repeat)
        print(f"nokamute: perft(5) Base {leaves} leaves in {nokamute_seconds * 1000:.2f} ms")
    else:
        print(f"skipping nokamute: {NOKAMUTE} not found", file=sys.stderr)
    if not BGA.exists():
        print(f"skipping real positions: {BGA} not found", file=sys.stderr)
    print(f"{'measurement':44} {'count':>9} {'seconds':>8} {'per second':>12} {'×baseline':>9}")
    figures = measure(args.repeat)
    report(figures, nokamute_seconds)
    if figures["build"] == "compiled" and not args.no_pure:
        pure = run_on_pure_source(__file__, ["--repeat", str(args.repeat)])
        report(pure, nokamute_seconds)
        compiled_time = figures["perft(5) Base"][1]  # type: ignore[index]
        pure_time = pure["perft(5) Base"][1]
        print(f"compiled perft(5) Base is {pure_time / compiled_time:.1f}× as fast as pure")
    return 0


if __name__ == "__main__":
    sys.exit(main())
