"""The ``panal`` command line.

Each subsystem registers its own subcommands through a ``register(subparsers)`` function, so this
file only lists them. Subsystem modules keep heavy imports (FastAPI, SQLAlchemy) inside their
command handlers: ``panal uhp`` must start fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

SUBSYSTEMS = (
    "panal.hive.commands",
    "panal.uhp.commands",
    "panal.enjambre.commands",
    "panal.server.commands",
    "panal.server.database.commands",
    "panal.server.bots.commands",
    "panal.server.chat.commands",
    "panal.server.players.commands",
    "panal.puzzles.commands",
    "panal.ai.commands",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="panal", description="Hive and Enjambre Tácticas: engines, AI and a web platform."
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in SUBSYSTEMS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue  # subsystem not built yet
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
