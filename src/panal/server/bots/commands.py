"""``panal bot``: connect a UHP engine to a panal server as a bot (see
:mod:`panal.server.bots.bridge`)."""

from __future__ import annotations

import argparse
import sys

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "bot",
        help="connect a UHP engine to a panal server as a bot account",
        description=(
            "Play on a panal server as a bot: accept the open challenges its owner's limits "
            "allow, play every game of the bot (resuming them after a disconnect or a restart) "
            "with the engine under the clock, with --ladder play on the engine ladder, and with "
            "--tournament register for tournaments. "
            "The bot's token comes from its owner (POST /api/bots)."
        ),
    )
    parser.add_argument("--engine", required=True, metavar="CMD", help='e.g. "panal uhp"')
    parser.add_argument("--server", required=True, metavar="URL", help="http://host:port")
    parser.add_argument("--token", required=True, help="the bot's API token (bot_…)")
    parser.add_argument("--ladder", action="store_true", help="play on the engine ladder")
    parser.add_argument(
        "--tournament",
        action="append",
        default=[],
        metavar="ID",
        help="register for this tournament (may be given again for more)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set an engine option (e.g. Level=easy); shown on the ladder",
    )
    parser.add_argument("--poll", type=float, default=1.0, help="seconds between polls (1)")
    parser.add_argument("--log-level", default="info", help="log level (info, warning)")
    parser.set_defaults(handler=_run_bot)


def _run_bot(args: argparse.Namespace) -> int:
    import asyncio
    import logging

    from panal.server.bots.bridge import BotBridge, BridgeError, BridgeSettings

    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(message)s")
    options = {}
    for item in args.option:
        name, equals, value = item.partition("=")
        if not equals or not name:
            print(f"panal bot: --option must be NAME=VALUE, not {item!r}", file=sys.stderr)
            return 2
        options[name] = value
    if not args.server.startswith(("http://", "https://")):
        print("panal bot: --server is an http:// or https:// URL", file=sys.stderr)
        return 2
    settings = BridgeSettings(
        engine=args.engine,
        server=args.server,
        token=args.token,
        ladder=args.ladder,
        tournaments=args.tournament,
        options=options,
        poll=max(0.1, args.poll),
    )
    try:
        asyncio.run(BotBridge(settings).run())
    except BridgeError as exc:
        print(f"panal bot: {exc}", file=sys.stderr)
        return 1
    return 0
