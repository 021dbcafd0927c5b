"""``panal perft`` and ``panal replay``."""

from __future__ import annotations

import argparse
import sys
import time


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    perft = subparsers.add_parser(
        "perft", help="count leaf positions of a Hive game tree (move generator check)"
    )
    perft.add_argument("game", help="a GameTypeString (Base+MLP) or a whole GameString")
    perft.add_argument("depth", type=int, help="plies to search (every depth up to it is shown)")
    perft.add_argument(
        "--tournament-opening", action="store_true", help="no queen on a player's first turn"
    )
    perft.set_defaults(handler=perft_command)

    replay = subparsers.add_parser(
        "replay", help="replay game records (SGF, PGN, GameString lines) with full rules"
    )
    replay.add_argument("files", nargs="+", help="record files")
    replay.set_defaults(handler=replay_command)


def perft_command(args: argparse.Namespace) -> int:
    from panal.hive import Game, GameType

    try:
        if ";" in args.game:
            game = Game.from_game_string(args.game, tournament_opening=args.tournament_opening)
        else:
            game = Game(GameType.parse(args.game), tournament_opening=args.tournament_opening)
    except ValueError as exc:
        print(f"panal perft: {exc}", file=sys.stderr)
        return 2
    if args.depth < 0:
        print("panal perft: depth must be at least 0", file=sys.stderr)
        return 2
    print("depth count seconds leaves_per_second")
    for depth in range(args.depth + 1):
        start = time.perf_counter()
        count = game.perft(depth)
        seconds = time.perf_counter() - start
        rate = count / seconds if seconds > 0 else 0.0
        print(f"{depth} {count} {seconds:.3f} {rate:.0f}", flush=True)
    return 0


def replay_command(args: argparse.Namespace) -> int:
    from panal.hive.replay import replay_files

    return replay_files(args.files, sys.stdout)
