"""``panal database``: the schema revision of a panal server's database, and taking it back to
an earlier one to run an older release (``--db``, as ``panal serve`` takes it).

    panal database revision              [--db URL]
    panal database downgrade REVISION    [--db URL]   (stop every server process first)

``panal serve`` upgrades the database to its newest revision by itself when it starts.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from panal.server.commands import DEFAULT_DB_FILE, add_database_argument, open_database

if TYPE_CHECKING:
    from panal.server.database.store import Store

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    database = subparsers.add_parser(
        "database",
        help="a panal server's database: its schema revision, or back to an earlier one",
        description=(
            "The schema of a panal server's database. `panal serve` upgrades it by itself; "
            "`downgrade` takes it back to the revision an older release expects."
        ),
    )
    common = argparse.ArgumentParser(add_help=False)
    add_database_argument(common)
    actions = database.add_subparsers(dest="database_command", metavar="ACTION", required=True)
    revision = actions.add_parser(
        "revision", help="the schema's revision and the newest this release knows", parents=[common]
    )
    revision.set_defaults(handler=_revision)
    downgrade = actions.add_parser(
        "downgrade",
        help="take the schema back to REVISION (stop every server process first)",
        parents=[common],
    )
    downgrade.add_argument("revision", help="an earlier revision, such as 0018_tourney2, or base")
    downgrade.set_defaults(handler=_downgrade)


def _store(args: argparse.Namespace) -> Store:
    """The database, opened without upgrading it (unlike ``panal serve``), and an SQLite file
    never created."""
    from pathlib import Path

    from panal.server.database.store import DatabaseError

    value = args.db or DEFAULT_DB_FILE
    if "://" not in value and not Path(value).expanduser().exists():
        raise DatabaseError(f"no database file at {value}")
    return open_database(args, migrate=False)


def _on_store(args: argparse.Namespace, work: Callable[[Store], str]) -> int:
    """Run ``work`` on the database and print what it says; a refusal goes to stderr (1)."""
    from panal.server.database.store import DatabaseError

    try:
        store = _store(args)
        try:
            print(work(store))
        finally:
            store.close()
    except DatabaseError as exc:
        print(f"panal database: {exc}", file=sys.stderr)
        return 1
    return 0


def _revision(args: argparse.Namespace) -> int:
    from panal.server.database.store import HEAD_REVISION

    def show(store: Store) -> str:
        current = store.revision() or "none (an empty database)"
        return f"revision: {current}\nnewest:   {HEAD_REVISION}"

    return _on_store(args, show)


def _downgrade(args: argparse.Namespace) -> int:
    def downgrade(store: Store) -> str:
        before = store.revision() or "none"
        store.downgrade(args.revision)
        return f"revision {before} → {store.revision() or 'none (base)'}"

    return _on_store(args, downgrade)
