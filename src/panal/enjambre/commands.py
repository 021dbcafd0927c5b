"""``panal enjambre``: play in the terminal, or run tournaments between bots."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from panal.progress import ProgressBar

from .bots import BOTS
from .options import OPTION_SPECS, Options

__all__ = ["register"]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "enjambre",
        help="Enjambre Tácticas: play against bots or run bot tournaments",
        description="Enjambre Tácticas (rulebook 003): hidden numbered tiles for 2-6 players.",
    )
    commands = parser.add_subparsers(dest="enjambre_command", metavar="COMMAND", required=True)

    play = commands.add_parser("play", help="play one game in the terminal against bots")
    play.add_argument("--players", type=int, default=4, help="2 to 6 (default 4)")
    play.add_argument(
        "--bots",
        default=None,
        help="comma-separated bots for the other seats, e.g. heuristic,search,random "
        f"(choices: {', '.join(BOTS)}; default: heuristic for every seat)",
    )
    play.add_argument("--seat", type=int, default=0, help="your seat, 0 = first clockwise")
    play.add_argument("--seed", type=int, default=None, help="seed for a reproducible game")
    play.add_argument("--no-color", action="store_true", help="plain text, no ANSI colours")
    _add_option_arguments(play)
    play.set_defaults(handler=_play)

    tournament = commands.add_parser("tournament", help="play bots against each other")
    tournament.add_argument("--players", type=int, default=4, help="2 to 6 (default 4)")
    tournament.add_argument(
        "--bots",
        required=True,
        help=f"comma-separated bots, one per seat (choices: {', '.join(BOTS)})",
    )
    tournament.add_argument("--games", type=int, default=40, help="number of games (default 40)")
    tournament.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    tournament.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    tournament.add_argument("--json", action="store_true", help="print the results as JSON")
    _add_option_arguments(tournament)
    tournament.set_defaults(handler=_tournament)


def _add_option_arguments(parser: argparse.ArgumentParser) -> None:
    """One flag per option of :data:`OPTION_SPECS`: ``--memory-play``, ``--rounds 6``,
    ``--linked-dark-cells spoke``."""
    group = parser.add_argument_group("rule options (docs/enjambre.md explains each one)")
    for spec in OPTION_SPECS:
        flag = "--" + spec.name.replace("_", "-")
        if spec.kind == "bool":
            group.add_argument(flag, action="store_true", dest=spec.name, help=spec.description)
        elif spec.kind == "int":
            group.add_argument(
                flag,
                type=int,
                default=spec.default,
                dest=spec.name,
                help=f"{spec.description} (default {spec.default})",
            )
        else:
            group.add_argument(
                flag,
                choices=spec.choices,
                default=spec.default,
                dest=spec.name,
                help=f"{spec.description} (default {spec.default})",
            )


def _options(args: argparse.Namespace) -> Options:
    return Options(**{spec.name: getattr(args, spec.name) for spec in OPTION_SPECS})


def _bot_list(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in BOTS]
    if unknown:
        raise ValueError(f"unknown bot {unknown[0]!r}; choose from {', '.join(BOTS)}")
    return names


def _play(args: argparse.Namespace) -> int:
    from .terminal import play_terminal

    try:
        options = _options(args)
        if not 2 <= args.players <= 6:
            raise ValueError("--players must be between 2 and 6")
        bots = _bot_list(args.bots) if args.bots else ["heuristic"] * (args.players - 1)
        if len(bots) != args.players - 1:
            raise ValueError(
                f"--players {args.players} needs {args.players - 1} bots in --bots "
                f"(you take the remaining seat), got {len(bots)}"
            )
        return play_terminal(
            args.players,
            bots,
            seat=args.seat,
            seed=args.seed,
            options=options,
            read=lambda prompt: input(prompt),
            out=sys.stdout,
            colour=False if args.no_color else None,
        )
    except ValueError as exc:
        print(f"panal enjambre play: error: {exc}", file=sys.stderr)
        return 2


def _tournament(args: argparse.Namespace) -> int:
    from .runner import run_tournament

    try:
        options = _options(args)
        bots = _bot_list(args.bots)
        if len(bots) != args.players:
            raise ValueError(
                f"--players {args.players} needs {args.players} bots in --bots, got {len(bots)}"
            )
        if args.games < 1:
            raise ValueError("--games must be at least 1")
    except ValueError as exc:
        print(f"panal enjambre tournament: error: {exc}", file=sys.stderr)
        return 2
    result = run_tournament(
        bots,
        games=args.games,
        seed=args.seed,
        options=options,
        jobs=max(1, args.jobs),
        progress=ProgressBar(sys.stderr),
    )
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print(
            f"{args.players} players, {args.games} games, seed {args.seed}, bots {','.join(bots)}"
        )
        print(result.table())
    return 0
