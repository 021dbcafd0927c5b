"""Which part of the state a Searcher keeps from move to move changes a search's verdict.

Replays one game of a match's ``games.jsonl`` (written by ``benchmarks/ai_ladder.py``) with one
:class:`~panal.ai.search.Searcher` kept for the whole game, as panal keeps it in play: each of the
player's moves from ``--from-ply`` on is searched with ``--nodes`` nodes
(:func:`panal.ai.analysis.search_position`, the best move and the move played scored by one
search). At ``--ply`` it then searches the same position again from copies of the kept state, in
parts: all of it, the transposition table alone, the move-ordering history alone, the killers
alone, the cached static evaluations alone, and nothing (a fresh searcher). A verdict that
follows one part names the cause::

    python benchmarks/ai_kept_state.py \\
        benchmarks/results/2026-11-27-device/d4-base-mlp/games.jsonl --game 44 --ply 47

Game 44, ply 47 (docs/benchmarks.md, "A loss hidden by a reduction") was the case that made this.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from panal.ai.analysis import Analysis, search_position
from panal.ai.search import Searcher
from panal.hive import Game

PARTS = ("all", "table", "history", "killers", "scores", "none")


def replay(
    moves: list[str], game: Game, searcher: Searcher, first: int, last: int, nodes: int
) -> None:
    """Play ``moves`` up to (not including) ply ``last``; search the side to move at ``last``'s
    moves from ply ``first`` on with ``searcher``, as in play."""
    colour = (last - 1) & 1
    for ply, move in enumerate(moves[: last - 1], 1):
        if ply >= first and (ply - 1) & 1 == colour and len(game.legal_move_codes()) > 1:
            code = game.push(move).code
            game.pop_code()
            start = time.perf_counter()
            found = search_position(game, searcher, nodes=nodes, played=code)
            print(f"ply {ply} {move}: {verdict(found)} ({time.perf_counter() - start:.1f} s)")
        game.push(move)


def verdict(found: Analysis) -> str:
    assert found.played is not None
    return (
        f"best {found.best.moves[0]} {found.best.score}, played {found.played.moves[0]} "
        f"{found.played.score} (line {' '.join(found.played.moves[:4])}), depth {found.depth}"
    )


def part_of(kept: Searcher, part: str) -> Searcher:
    """A fresh searcher given copies of ``part`` of ``kept``'s state."""
    searcher = Searcher(hash_size_mb=kept.hash_size_mb)
    if part in ("all", "table"):
        searcher.table = dict(kept.table)
    if part in ("all", "history"):
        searcher.history = dict(kept.history)
    if part in ("all", "killers"):
        searcher.killers = [list(pair) for pair in kept.killers]
    if part in ("all", "scores"):
        searcher.scores = dict(kept.scores)
    return searcher


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", type=Path, help="a match's games.jsonl")
    parser.add_argument("--game", type=int, required=True, help="the game's number")
    parser.add_argument("--ply", type=int, required=True, help="the move to judge (1 = first)")
    parser.add_argument("--from-ply", type=int, default=11, help="first ply searched in replay")
    parser.add_argument("--nodes", type=int, default=80_000, help="nodes a search")
    args = parser.parse_args()
    records = [json.loads(line) for line in args.games.read_text().splitlines()]
    record = next(record for record in records if int(record["game"]) == args.game)
    fields = record["game_string"].split(";")
    moves = fields[3:]
    game = Game(fields[0])
    kept = Searcher(hash_size_mb=256)
    replay(moves, game, kept, args.from_ply, args.ply, args.nodes)
    code = game.push(moves[args.ply - 1]).code
    game.pop_code()
    for part in PARTS:
        found = search_position(game, part_of(kept, part), nodes=args.nodes, played=code)
        print(f"ply {args.ply}, kept {part}: {verdict(found)}", flush=True)


if __name__ == "__main__":
    main()
