"""``panal puzzles``: mine the puzzle set, list it, verify it."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

DEFAULT_CORPUS = Path("../shared/corpus")
DEFAULT_WORK = Path("puzzle-mining")
DEFAULT_OUT = Path("src/panal/puzzles/data/puzzles.jsonl.gz")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    puzzles = subparsers.add_parser("puzzles", help="Hive puzzles: mine, list, verify")
    actions = puzzles.add_subparsers(dest="action", metavar="ACTION", required=True)

    mine = actions.add_parser(
        "mine", help="find puzzles in the game corpus (resumable; progress on stderr)"
    )
    mine.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="the corpus folder")
    mine.add_argument(
        "--work", type=Path, default=DEFAULT_WORK, help="checkpoint folder (resumed if present)"
    )
    mine.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the set written at the end")
    mine.add_argument("--games", type=int, help="mine only the first N corpus games")
    mine.add_argument(
        "--self-play", type=int, default=0, help="engine games per game type the corpus lacks"
    )
    mine.add_argument("--stages", default="one,two", help="comma-separated stages: one, two, three")
    mine.add_argument("--minutes", type=float, help="stop cleanly after this long (resumable)")
    mine.set_defaults(handler=mine_command)

    show = actions.add_parser("list", help="count or print puzzles of the shipped set")
    show.add_argument("--theme")
    show.add_argument("--kind")
    show.add_argument("--moves", type=int)
    show.add_argument("--game-type")
    show.add_argument("--file", type=Path, help="a puzzle file instead of the shipped set")
    show.add_argument("--print", type=int, default=0, metavar="N", help="print N puzzles")
    show.add_argument(
        "--tables", action="store_true", help="the counts as docs/puzzles-and-lessons.md's tables"
    )
    show.set_defaults(handler=list_command)

    verify = actions.add_parser("verify", help="prove puzzles again with the solver")
    verify.add_argument("--file", type=Path, help="a puzzle file instead of the shipped set")
    verify.add_argument("--sample", type=int, help="only every puzzle in N steps of the set")
    verify.set_defaults(handler=verify_command)


def mine_command(args: argparse.Namespace) -> int:
    from panal.puzzles.miner import STAGES, build, mine

    by_name = {stage.name: stage for stage in STAGES}
    try:
        stages = tuple(by_name[name] for name in args.stages.split(","))
    except KeyError as exc:
        print(f"panal puzzles mine: unknown stage {exc.args[0]!r}", file=sys.stderr)
        return 2
    if not args.corpus.is_dir():
        print(f"panal puzzles mine: no corpus folder at {args.corpus}", file=sys.stderr)
        return 2
    start = time.monotonic()
    deadline = start + args.minutes * 60 if args.minutes else None
    found = mine(
        args.corpus,
        args.work,
        stages=stages,
        games=args.games,
        self_play=args.self_play,
        deadline=deadline,
    )
    counts = build(args.work, args.out)
    print(f"{found} puzzles found in this run, {time.monotonic() - start:,.0f} s")
    print(f"{sum(counts.values())} puzzles written to {args.out}: {counts}")
    return 0


def list_command(args: argparse.Namespace) -> int:
    from panal.puzzles import load_puzzles, select
    from panal.puzzles.stats import summary, tables

    try:
        chosen = select(
            load_puzzles(args.file),
            theme=args.theme,
            kind=args.kind,
            moves=args.moves,
            game_type=args.game_type,
        )
    except (OSError, ValueError) as exc:
        print(f"panal puzzles list: {exc}", file=sys.stderr)
        return 2
    print(tables(chosen) if args.tables else summary(chosen))
    for puzzle in chosen[: args.print]:
        print(f"{puzzle.id} {puzzle.kind} in {puzzle.moves}: {' '.join(puzzle.themes)}")
        print(f"  {puzzle.position}")
        print(f"  solution: {'; '.join(puzzle.solution)}")
    return 0


def verify_command(args: argparse.Namespace) -> int:
    from panal.puzzles import load_puzzles
    from panal.puzzles.stats import prove

    try:
        puzzles = load_puzzles(args.file)
    except (OSError, ValueError) as exc:
        print(f"panal puzzles verify: {exc}", file=sys.stderr)
        return 2
    if args.sample:
        puzzles = puzzles[:: args.sample]
    start = time.monotonic()
    failed = 0
    for number, puzzle in enumerate(puzzles, 1):
        problem = prove(puzzle)
        if problem:
            failed += 1
            print(f"{puzzle.id}: {problem}")
        sys.stderr.write(f"\r{number}/{len(puzzles)} puzzles, {failed} failed")
    sys.stderr.write("\n")
    print(f"{len(puzzles) - failed} of {len(puzzles)} proven, {time.monotonic() - start:,.0f} s")
    return 1 if failed else 0
