"""Games of a UHP engine against itself from random openings, as GameStrings for ``ai_tune.py``.

    PYTHONPATH=src python3 benchmarks/ai_selfplay.py --games 3000 --depth 3 --seed 7 \\
        --engine "../shared/engines/nokamute uhp --num-threads=1" --out selfplay-d3.txt
    python benchmarks/ai_tune.py --game-type Base --games selfplay-d3.txt --sample 1

The corpus has no Base games, so Base's weights are fitted on engine games. Each game starts from
a random opening of 4, 6 or 8 plies (tournament opening), then the engine plays both sides, each
move at ``bestmove depth D`` or, one time in two, ``D - 1`` (so that games from one opening
differ). panal's rules referee: every move is checked, and the game ends on a surrounded queen, a
threefold repetition, an end the engine declares by its own rules (a draw) or ``--max-plies`` (a
draw). One finished game a line is appended to ``--out``.
"""

from __future__ import annotations

import argparse
import random
import shlex
import subprocess
import sys
import time
from pathlib import Path

from panal.hive import Game, GameState


class Engine:
    """A UHP engine process, one command at a time."""

    def __init__(self, command: str) -> None:
        self.process = subprocess.Popen(
            shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.read()

    def read(self) -> list[str]:
        assert self.process.stdout is not None
        lines = []
        while (line := self.process.stdout.readline()) != "":
            line = line.rstrip("\n")
            if line == "ok":
                return lines
            lines.append(line)
        raise RuntimeError("the engine exited")

    def send(self, command: str) -> list[str]:
        assert self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        lines = self.read()
        if lines and lines[-1].startswith("err"):
            raise RuntimeError(f"{command!r}: {lines[-1]}")
        return lines

    def close(self) -> None:
        self.process.kill()
        self.process.wait()


def play(
    engine: Engine, rng: random.Random, game_type: str, depth: int, max_plies: int
) -> Game | None:
    """One game from a random opening (None when the opening itself ends it); unfinished (a
    draw for the caller) when cut short."""
    opening = rng.choice((4, 6, 8))
    game = Game(game_type, tournament_opening=True, repetition_draw=True)
    for _ in range(opening):
        game.push(rng.choice(list(game.legal_moves)))
        if game.is_over():
            return None
    engine.send("newgame " + game.game_string())
    while not game.is_over() and game.ply < max_plies:
        chosen = depth if rng.random() > 0.5 or depth < 3 else depth - 1
        move = engine.send(f"bestmove depth {chosen}")[-1].strip()
        game.push(move)
        reply = engine.send(f"play {move}")[-1].split(";")
        if len(reply) > 1 and reply[1] != GameState.IN_PROGRESS.value and not game.is_over():
            break  # the engine ended the game by its own rules (a repetition): a draw
    return game


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", required=True, metavar="CMD")
    parser.add_argument("--game-type", default="Base")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-plies", type=int, default=200)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    engine = Engine(args.engine)
    started = time.perf_counter()
    try:
        with args.out.open("a") as out:
            for number in range(1, args.games + 1):
                game = play(engine, rng, args.game_type, args.depth, args.max_plies)
                if game is None:
                    continue
                fields = game.game_string().split(";")
                if not game.is_over():
                    fields[1] = GameState.DRAW.value
                out.write(";".join(fields) + "\n")
                out.flush()
                if number % 100 == 0:
                    print(f"{number} games, {time.perf_counter() - started:.0f} s", flush=True)
    finally:
        engine.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
