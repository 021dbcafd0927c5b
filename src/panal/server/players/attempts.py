"""Counting attempts: sign-ins, sign-ups and open challenges, per name, per client address and
per account, decided by the database so that every server process sees the same counts.

**Counted before, in one statement.** Each attempt adds one to its counters *before* the work it
asks for (an Argon2 test of a password, a new account, a challenge) is done, and each counter is
one row changed by one ``INSERT … ON CONFLICT DO UPDATE … RETURNING`` statement: the database
serializes the statements on a row, so 200 attempts sent at the same instant get the counts 1 to
200 and only the first few go on. (Reading the failures and writing them after the test, as
before, let all 200 pass the check before the first was written.) A counter lives for one window
of :data:`WINDOW` seconds from its first attempt, then starts again from zero.

**Sign-in policy** (:func:`sign_in_gate`), each count per window:

* per name and address: :data:`PER_NAME_AND_ADDRESS` attempts; a correct password clears it;
* per address, any names: :data:`PER_ADDRESS`; a correct password gives its attempt back, so
  many honest players behind one router (a school, a café) do not use it up;
* per name, all addresses: :data:`PER_NAME`; past it, only an address's *first* attempt at the
  name in the window is tested. So the owner, from an address that has not tried the name
  lately, still signs in while others guess: an attacker's misses alone cannot lock them out.

**Argon2 work** (:class:`PasswordWork`): at most :data:`PASSWORD_WORK_AT_ONCE` hashes at a time
per process, and at most one per client address, so a burst from one address waits behind its
own work and holds at most one of the places others wait for.

Client addresses are hashed; an IPv6 address counts by its /64 network (what one home or one
server gets).
"""

from __future__ import annotations

import asyncio
import ipaddress
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import (
    Column,
    Connection,
    Index,
    Integer,
    String,
    Table,
    case,
    delete,
    func,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite

from panal.server.database.columns import time_column
from panal.server.database.store import metadata
from panal.server.room.tokens import hash_token

__all__ = [
    "MAILS_PER_ADDRESS",
    "MAILS_PER_TARGET",
    "PASSWORD_WORK_AT_ONCE",
    "PER_ADDRESS",
    "PER_NAME",
    "PER_NAME_AND_ADDRESS",
    "SIGN_UPS_PER_ADDRESS",
    "WINDOW",
    "Gate",
    "PasswordWork",
    "address_key",
    "count_attempt",
    "hold",
    "mail_gate",
    "sign_in_gate",
    "sign_up_gate",
    "signed_in",
]

WINDOW = 15 * 60.0
PER_NAME_AND_ADDRESS = 5
PER_ADDRESS = 30
PER_NAME = 20
SIGN_UPS_PER_ADDRESS = 10
#: E-mails asked for (a password reset, an address to verify), per window: from one client
#: address, and to one e-mail address or one account.
MAILS_PER_ADDRESS = 10
MAILS_PER_TARGET = 3
#: Argon2 costs 64 MiB and tens of milliseconds a hash: a few at a time per process.
PASSWORD_WORK_AT_ONCE = 2

attempt_counters_table = Table(
    "attempt_counters",
    metadata,
    Column("key", String(64), primary_key=True),
    time_column("window_start"),
    Column("attempts", Integer, nullable=False),
    Index("attempt_counters_by_window", "window_start"),
)

T = TypeVar("T")


def address_key(host: str | None) -> str:
    """A client's address as its counters know it: hashed; IPv6 by its /64 network."""
    text = host or "unknown"
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        pass
    else:
        if address.version == 6 and address.ipv4_mapped is None:
            text = str(ipaddress.ip_network(f"{address}/64", strict=False))
        elif address.version == 6 and address.ipv4_mapped is not None:
            text = str(address.ipv4_mapped)
    return hash_token(f"address:{text}")[:32]


def _key(*parts: str) -> str:
    return hash_token("\x00".join(parts))[:64]


def count_attempt(conn: Connection, key: str, now: float) -> tuple[int, float]:
    """Add one attempt to ``key``'s counter in one statement: the count in the window (this one
    included) and when the window began."""
    table = attempt_counters_table
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    expired = table.c.window_start <= now - WINDOW
    statement = (
        dialect.insert(table)
        .values(key=key, window_start=now, attempts=1)
        .on_conflict_do_update(
            index_elements=[table.c.key],
            set_={
                "attempts": case((expired, 1), else_=table.c.attempts + 1),
                "window_start": case((expired, now), else_=table.c.window_start),
            },
        )
        .returning(table.c.attempts, table.c.window_start)
    )
    attempts, window_start = conn.execute(statement).one()
    return int(attempts), float(window_start)


@dataclass(frozen=True)
class Gate:
    """Whether an attempt may go on; if not, how long until it may (whole seconds)."""

    open: bool
    retry_after: int = 0


def _closed(window_start: float, now: float) -> Gate:
    return Gate(False, max(1, math.ceil(window_start + WINDOW - now)))


def sign_in_gate(conn: Connection, name: str, address: str, now: float) -> Gate:
    """Count a sign-in attempt at ``name`` (its key) from ``address`` before its password is
    tested (in the caller's transaction: the counters in a fixed order)."""
    pair, pair_start = count_attempt(conn, _key("pair", name, address), now)
    if pair > PER_NAME_AND_ADDRESS:
        return _closed(pair_start, now)
    by_address, address_start = count_attempt(conn, _key("address", address), now)
    if by_address > PER_ADDRESS:
        return _closed(address_start, now)
    by_name, name_start = count_attempt(conn, _key("name", name), now)
    if by_name > PER_NAME and pair > 1:
        return _closed(name_start, now)
    return Gate(True)


def signed_in(conn: Connection, name: str, address: str, now: float) -> None:
    """A correct password: its (name, address) counter is cleared, its address's attempt given
    back, and counters whose window ended are dropped."""
    table = attempt_counters_table
    conn.execute(delete(table).where(table.c.key == _key("pair", name, address)))
    conn.execute(
        update(table)
        .where(table.c.key == _key("address", address), table.c.attempts > 0)
        .values(attempts=table.c.attempts - 1)
    )
    conn.execute(delete(table).where(table.c.window_start <= now - WINDOW))


def sign_up_gate(conn: Connection, address: str, now: float) -> Gate:
    """Count a sign-up from ``address`` before its password is hashed."""
    count, start = count_attempt(conn, _key("signup", address), now)
    return Gate(True) if count <= SIGN_UPS_PER_ADDRESS else _closed(start, now)


def mail_gate(conn: Connection, address: str, targets: list[str], now: float) -> Gate:
    """Count a request for an e-mail from ``address`` to each of ``targets`` (an e-mail
    address, an account: ``"email:…"``, ``"account:…"``) before anything is looked up or sent;
    counted whether or not an account has that address, so the answer tells nothing."""
    count, start = count_attempt(conn, _key("mail", address), now)
    if count > MAILS_PER_ADDRESS:
        return _closed(start, now)
    for target in targets:
        count, start = count_attempt(conn, _key("mail-to", target), now)
        if count > MAILS_PER_TARGET:
            return _closed(start, now)
    return Gate(True)


class PasswordWork:
    """Argon2 hashes in threads: at most ``at_once`` at a time in this process and one per
    client address. A client's further requests wait on their own turn, not in the queue that
    every other client waits in, so one burst delays another client by at most one hash per
    client working at that moment."""

    def __init__(self, at_once: int = PASSWORD_WORK_AT_ONCE) -> None:
        self._places = asyncio.Semaphore(at_once)
        self._clients: dict[str, tuple[asyncio.Lock, int]] = {}

    async def run(self, client: str, function: Callable[..., T], *args: Any) -> T:
        lock, users = self._clients.get(client, (asyncio.Lock(), 0))
        self._clients[client] = (lock, users + 1)
        try:
            async with lock, self._places:
                return await asyncio.to_thread(function, *args)
        finally:
            lock, users = self._clients[client]
            if users == 1:
                del self._clients[client]
            else:
                self._clients[client] = (lock, users - 1)


def hold(conn: Connection, keys: list[str]) -> None:
    """Hold these keys until the caller's transaction ends, so that a count made in it and the
    row it then writes are one step for every process. PostgreSQL: transaction-scoped advisory
    locks, taken in one order. SQLite needs none: it writes one transaction at a time, and a
    server on SQLite is one process that runs its transactions one at a time."""
    if conn.dialect.name != "postgresql":
        return
    for number in sorted(int(_key("hold", key)[:15], 16) for key in keys):
        conn.execute(select(func.pg_advisory_xact_lock(number)))
