"""``panal uhp`` (panal as a UHP engine) and ``panal arena`` (a match between UHP engines)."""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from panal.uhp.duration import parse_duration

if TYPE_CHECKING:
    from panal.uhp.arena import ArenaSettings


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "uhp", help="run a Universal Hive Protocol engine on stdin/stdout"
    )
    parser.set_defaults(handler=_run_engine)
    _register_arena(subparsers)


def _run_engine(_args: argparse.Namespace) -> int:
    from panal.uhp.engine import run

    return run()


def _register_arena(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "arena",
        help="play a match between two UHP engines, refereed by panal's rules",
        description=(
            "Play GAMES games between two UHP engines (pairs of games from the same random "
            "opening with colours swapped, two games at once), check every move with panal's "
            "rules, and print wins/draws/losses, score and Elo difference with its 95%% interval."
        ),
    )
    parser.add_argument(
        "--engine",
        action="append",
        required=True,
        metavar="CMD",
        help='engine command line, twice (e.g. --engine "panal uhp" --engine "nokamute uhp"); '
        "three times or more: a ladder (every pair plays, then a Bradley-Terry table)",
    )
    parser.add_argument("--games", type=int, default=2, help="number of games (default 2)")
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument(
        "--time", default="1s", help="time per move: 1s, 500ms, 0.5, 00:00:02 (default 1s)"
    )
    limit.add_argument("--depth", type=int, help="search depth per move instead of a time")
    parser.add_argument("--game-type", default="Base", help="GameTypeString (default Base)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="N:NAME=VALUE",
        help="set an engine option before play, N being the engine's number (e.g. 2:Level=easy)",
    )
    parser.add_argument(
        "--name", action="append", default=[], metavar="N:NAME", help="display name of engine N"
    )
    parser.add_argument("--concurrency", type=int, default=2, help="games at once (default 2)")
    parser.add_argument("--max-plies", type=int, default=300, help="adjudicate a draw after this")
    parser.add_argument("--opening-plies", type=int, default=4, help="random opening placements")
    parser.add_argument("--seed", type=int, default=0, help="seed of the openings")
    parser.add_argument("--out", type=Path, help="write games (GameStrings, PGN) and logs here")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(handler=_run_arena)


def _run_ladder(
    settings: ArenaSettings,
    engines: list[tuple[str, str, dict[str, str]]],
    args: argparse.Namespace,
) -> int:
    """Three engines or more: every pair plays a match, then the Bradley-Terry table."""
    import asyncio

    from panal.uhp.ladder import ladder_text, play_ladder

    if len({name for name, _, _ in engines}) < len(engines):
        print("panal arena: give the engines different --name N:NAME", file=sys.stderr)
        return 2
    progress = None if args.quiet else (lambda text: print(text, file=sys.stderr))
    table, games = asyncio.run(play_ladder(engines, settings, progress))
    if args.json:
        print(json.dumps({"games": len(games), "standings": [s.to_json() for s in table]}))
    else:
        print(ladder_text(table))
    return 0


def parse_time(text: str) -> float:
    """``1s``, ``500ms``, ``0.5``, ``2m``, ``00:00:02`` → seconds."""
    value = text.strip().lower()
    if ":" in value:
        return parse_duration(value)
    match = re.fullmatch(r"(\d+(?:\.\d*)?|\.\d+)\s*(ms|s|m)?", value)
    if match is None:
        raise ValueError(f"not a time: {text!r}")
    number = float(match.group(1))
    unit = match.group(2) or "s"
    return number / 1000 if unit == "ms" else number * 60 if unit == "m" else number


def _indexed(values: list[str], what: str, count: int = 2) -> list[dict[str, str]]:
    found: list[dict[str, str]] = [{} for _ in range(count)]
    for value in values:
        index, _, rest = value.partition(":")
        if not index.isdigit() or not 1 <= int(index) <= count or not rest:
            raise ValueError(f"{what} must look like N:... with N from 1 to {count}, not {value!r}")
        key, _, setting = rest.partition("=")
        found[int(index) - 1][key] = setting
    return found


def _run_arena(args: argparse.Namespace) -> int:
    from panal.hive import GameType, GameTypeError
    from panal.uhp.arena import ArenaSettings, run_match

    count = len(args.engine)
    if count < 2:
        print("panal arena: give two --engine commands (more: a ladder)", file=sys.stderr)
        return 2
    try:
        GameType.parse(args.game_type)
        time_per_move = None if args.depth is not None else parse_time(args.time)
        options = _indexed(args.option, "--option", count)
        names_given = _indexed(
            [f"{n.partition(':')[0]}:name={n.partition(':')[2]}" for n in args.name],
            "--name",
            count,
        )
    except (ValueError, GameTypeError) as exc:
        print(f"panal arena: {exc}", file=sys.stderr)
        return 2
    if args.games < 1 or (time_per_move is not None and time_per_move <= 0):
        print("panal arena: --games and --time must be positive", file=sys.stderr)
        return 2
    names = []
    for index, command in enumerate(args.engine):
        given = names_given[index]
        label = given.get("name") or command
        if not given and options[index]:
            label += " [" + ", ".join(f"{k}={v}" for k, v in options[index].items()) + "]"
        names.append(label)
    settings = ArenaSettings(
        engines=(args.engine[0], args.engine[1]),
        games=args.games,
        time_per_move=time_per_move,
        depth=args.depth,
        game_type=args.game_type,
        concurrency=args.concurrency,
        max_plies=args.max_plies,
        opening_plies=args.opening_plies,
        seed=args.seed,
        options=(options[0], options[1]),
        names=(names[0], names[1]),
        out=args.out,
    )
    if count > 2:
        return _run_ladder(settings, list(zip(names, args.engine, options, strict=True)), args)
    summary = run_match(settings, show_progress=not args.quiet)
    if args.json:
        print(json.dumps(summary.to_json(), indent=2))
    else:
        print(summary.text())
    return 0
