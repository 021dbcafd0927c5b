"""``panal account``: an operator's care of accounts, written straight into the server's
database (``--db``, as ``panal serve`` takes it).

    panal account reset-password NAME [--url URL] [--db URL]

prints a one-time link that sets the account's password: the same link the reset e-mail carries
(the page /reset#<token>, valid an hour, once), for a server without SMTP. The operator hands it
to the player, who chooses the password themselves: the operator never knows it, and it never
passes through a shell's history or a process list. Using the link signs out the account's other
sessions, as the e-mailed one does.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys

from panal.server.commands import add_database_argument, open_database

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    account = subparsers.add_parser(
        "account",
        help="an operator's care of accounts: a password reset link without e-mail",
        description="Accounts of a panal server, written into its database.",
    )
    actions = account.add_subparsers(dest="account_command", metavar="ACTION", required=True)
    reset = actions.add_parser(
        "reset-password",
        help="print a one-time link that lets the player set a new password",
        description="Print a one-time password reset link (valid an hour) for the player to open.",
    )
    reset.add_argument("name", help="the account's name")
    reset.add_argument(
        "--url",
        default=os.environ.get("PANAL_PUBLIC_URL", ""),
        metavar="URL",
        help="the server's public address, put before /reset#… (default $PANAL_PUBLIC_URL)",
    )
    add_database_argument(reset)
    reset.set_defaults(handler=_reset_password)


def _reset_password(args: argparse.Namespace) -> int:
    from panal.server.players.account_mail import RESET_SECONDS
    from panal.server.players.account_store import RESET, AccountStore
    from panal.server.players.accounts import name_key, session_key
    from panal.server.players.player_store import PlayerStore

    store = open_database(args)
    found = PlayerStore(store.engine).account_by_key(name_key(args.name))
    if found is None:
        print(f"panal account: there is no account named {args.name!r}", file=sys.stderr)
        return 1
    token = secrets.token_urlsafe(32)
    AccountStore(store.engine).new_token(session_key(token), int(found[0].id), RESET, RESET_SECONDS)
    print(f"{args.url.rstrip('/')}/reset#{token}")
    print(
        f"Give this link to {found[0].name} only: it sets the account's password, once, "
        f"within {RESET_SECONDS // 60} minutes.",
        file=sys.stderr,
    )
    return 0
