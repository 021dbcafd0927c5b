"""``panal uhp``."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "uhp", help="run a Universal Hive Protocol engine on stdin/stdout"
    )
    parser.set_defaults(handler=_run)


def _run(_args: argparse.Namespace) -> int:
    from panal.uhp.engine import run

    return run()
