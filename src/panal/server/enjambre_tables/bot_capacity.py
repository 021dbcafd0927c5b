"""The caps on open tables with bots, per client, per account and per address
(:mod:`panal.server.http.clients`): a table with bots keeps the shared workers busy on every bot
turn until it is over. A table counts from when it has a bot (created with bots, or started
early with bots for the seats nobody took) until it is over."""

from __future__ import annotations

from sqlalchemy import Connection, exists, false, func, or_, select

from panal.server.enjambre_tables.live import TableLimits
from panal.server.enjambre_tables.table_store import TableRow, seats_table, tables_table
from panal.server.http.clients import Capacity, Client, Usage

__all__ = ["bot_tables_capacity", "creator_of"]


def creator_of(row: TableRow) -> Client | None:
    """The client that created a table (None for tables stored before it was noted)."""
    if row.owner is None or row.client is None:
        return None
    return Client(row.owner, row.client, row.creator)


def bot_tables_capacity(limits: TableLimits) -> Capacity:
    """The caps on open tables with bots (see the module docstring)."""
    return Capacity(
        "too_many_bot_tables", "open tables with bots", limits.bot_table_caps, _bot_table_usage
    )


def _bot_table_usage(conn: Connection, client: Client) -> Usage:
    t = tables_table.c
    has_bot = exists().where(seats_table.c.table_id == t.id, seats_table.c.kind == "bot")
    mine = t.creator == client.account if client.account is not None else false()
    found = conn.execute(
        select(
            func.count().filter(t.client == client.key),
            func.count().filter(mine),
            func.count().filter(t.owner == client.address),
        ).where(
            t.status != "over",
            has_bot,
            or_(t.client == client.key, t.owner == client.address, mine),
        )
    ).one()
    return Usage(int(found[0]), int(found[1]), int(found[2]))
