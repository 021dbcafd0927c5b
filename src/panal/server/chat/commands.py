"""``panal admin``: the moderators of a panal server's chat, its reported messages and silenced
accounts, written straight into the server's database (``--db``, as ``panal serve`` takes it).

    panal admin moderator add NAME | remove NAME | list   [--db URL]
    panal admin reports [--limit N]                        [--db URL]
    panal admin silence NAME [--hours N]   (0 lifts it)    [--db URL]
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import time
from typing import Any

from panal.server.commands import add_database_argument, open_database

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    admin = subparsers.add_parser(
        "admin",
        help="moderate a panal server's chat: moderators, reports, silences",
        description="Moderation of a panal server, written into its database.",
    )
    database = argparse.ArgumentParser(add_help=False)
    add_database_argument(database)
    actions = admin.add_subparsers(dest="admin_command", metavar="ACTION", required=True)
    moderator = actions.add_parser(
        "moderator", help="add, remove or list moderators", parents=[database]
    )
    moderator.add_argument("change", choices=("add", "remove", "list"))
    moderator.add_argument("name", nargs="?", help="the account's name")
    moderator.set_defaults(handler=_moderator)
    reports = actions.add_parser(
        "reports", help="the reported chat messages, newest first", parents=[database]
    )
    reports.add_argument("--limit", type=int, default=50, help="how many (50)")
    reports.set_defaults(handler=_reports)
    silence = actions.add_parser(
        "silence", help="refuse an account's chat messages for a while", parents=[database]
    )
    silence.add_argument("name", help="the account's name")
    silence.add_argument("--hours", type=float, default=24.0, help="how long (24; 0 lifts it)")
    silence.set_defaults(handler=_silence)


def _stores(args: argparse.Namespace) -> tuple[Any, Any]:
    """The chat's store and the accounts' store on the server's database (migrated first)."""
    from panal.server.chat.chat_store import ChatLimits, ChatStore
    from panal.server.players.player_store import PlayerStore

    store = open_database(args)
    return ChatStore(store.engine, ChatLimits()), PlayerStore(store.engine)


def _account_id(players: Any, name: str | None) -> int | None:
    if not name:
        print("panal admin: name the account", file=sys.stderr)
        return None
    from panal.server.players.accounts import name_key

    found = players.account_by_key(name_key(name))
    if found is None:
        print(f"panal admin: there is no account named {name!r}", file=sys.stderr)
        return None
    return int(found[0].id)


def _moderator(args: argparse.Namespace) -> int:
    chat, players = _stores(args)
    if args.change == "list":
        moderators = chat.moderators()
        names = players.names(moderators)
        for user_id in moderators:
            print(names.get(user_id, f"#{user_id}"))
        return 0
    user_id = _account_id(players, args.name)
    if user_id is None:
        return 1
    changed = chat.set_moderator(user_id, args.change == "add", time.time())
    what = "is now a moderator" if args.change == "add" else "is no longer a moderator"
    print(f"{args.name} {what}" + ("" if changed else " (no change)"))
    return 0


def _reports(args: argparse.Namespace) -> int:
    chat, _ = _stores(args)
    for report in chat.reports(max(1, args.limit)):
        when = dt.datetime.fromtimestamp(report["at"], dt.UTC).strftime("%Y-%m-%d %H:%M")
        who = report["author"] or f"guest {report['sender']} (seat {report['seat']})"
        gone = " [deleted]" if report["deleted"] else ""
        print(
            f"#{report['id']} {report['room']} {report['channel']} {when} "
            f"{who} ({report['reports']} reports){gone}: {report['text']}"
        )
    return 0


def _silence(args: argparse.Namespace) -> int:
    chat, players = _stores(args)
    user_id = _account_id(players, args.name)
    if user_id is None:
        return 1
    if args.hours < 0:
        print("panal admin: --hours is 0 or more", file=sys.stderr)
        return 2
    now = time.time()
    chat.silence(user_id, now + args.hours * 3600, now)
    if args.hours == 0:
        print(f"{args.name} may chat again")
    else:
        print(f"{args.name} is silenced for {args.hours:g} hours")
    return 0
