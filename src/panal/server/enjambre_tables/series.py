"""Enjambre tables for other concerns (tournaments): made and read through this interface only.

A table of a series is seated by account: each seat holds a person's ``user_id`` and name but no
token. The player takes the seat's token with ``POST /api/enjambre/tables/{id}/seats/mine``
(signed in) and plays as at any table. A seat is ``seen_at`` the table's start, so the table's
sweep replaces a player who never comes by a bot ``replace_after`` later (the tournament's
no-show time),
as it replaces a player who left any table: the others play on, and the replaced player is
placed last (:func:`account_places`).

The table is written by :func:`insert_table` on the caller's connection, inside the caller's
transaction: a tournament's round and its tables commit together or not at all.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, select

from panal.enjambre import Game, Options
from panal.server.enjambre_tables import table_store
from panal.server.enjambre_tables.actions import waiting_text
from panal.server.enjambre_tables.live import LiveTable
from panal.server.enjambre_tables.table_store import (
    GameHeader,
    SeatRow,
    TableRow,
    games_table,
    seats_table,
)
from panal.server.room.tokens import hash_token, new_id, new_token

__all__ = ["SeriesTable", "account_places", "insert_table", "series_table"]


@dataclass(frozen=True)
class SeriesTable:
    """A table to be written: its row, its seats (one account each) and its first game."""

    row: TableRow
    seats: list[SeatRow]
    first: GameHeader

    @property
    def id(self) -> str:
        return self.row.id


def series_table(
    players: Sequence[tuple[int, str]],
    *,
    rated: bool,
    replace_after: float,
    now: float,
    options: dict[str, Any] | None = None,
) -> SeriesTable:
    """A new online table of one game, a seat per ``(user_id, name)`` in seat order, seat 0
    moving first (a series rotates the seats itself). Raises ValueError for a count the rules
    do not allow (2 to 6)."""
    if not 2 <= len(players) <= 6:
        raise ValueError("Enjambre Tácticas is played by 2 to 6 players")
    rules = Options.from_dict(dict(options or {}))
    seats = [
        SeatRow(seat, "person", name=name, user_id=user_id, seen_at=now)
        for seat, (user_id, name) in enumerate(players)
    ]
    first = GameHeader(0, secrets.randbits(63), 0)
    row = TableRow(
        id=new_id(),
        players=len(players),
        mode="online",
        options=rules.to_dict(),
        games=1,
        status="playing",
        host_token=hash_token(new_token()),  # nobody hosts it: the token is never shown
        replace_after=replace_after,
        rated=rated,
        created_at=now,
        updated_at=now,
    )
    game = Game(len(players), options=rules, seed=first.seed, first_player=0)
    row.waiting_for = waiting_text(LiveTable(row, seats, [first], game))
    return SeriesTable(row, seats, first)


def insert_table(conn: Connection, table: SeriesTable) -> None:
    """Write ``table`` on the caller's connection (in the caller's transaction)."""
    table_store.insert_table(conn, table.row, table.seats, table.first)


def account_places(conn: Connection, table_ids: Sequence[str]) -> dict[str, dict[int, int]]:
    """The finished tables' places by account (``{table: {user_id: place}}``, 1 the best); a
    player replaced by a bot is placed last, below everyone who played (the bot's play is not
    theirs), as a rated table rates them. Tables still playing are absent."""
    if not table_ids:
        return {}
    ids = sorted(set(table_ids))
    results = {
        row.table_id: row.result
        for row in conn.execute(
            select(games_table.c.table_id, games_table.c.result).where(
                games_table.c.table_id.in_(ids), games_table.c.result.is_not(None)
            )
        )
    }
    seats = conn.execute(
        select(
            seats_table.c.table_id,
            seats_table.c.seat,
            seats_table.c.user_id,
            seats_table.c.replaced,
        ).where(seats_table.c.table_id.in_(sorted(results)))
    ).all()
    found: dict[str, dict[int, int]] = {}
    for seat in seats:
        if seat.user_id is None:
            continue
        places = _places(results[seat.table_id])
        place = len(places) if seat.replaced else places[seat.seat]
        found.setdefault(seat.table_id, {})[seat.user_id] = place
    return found


def _places(result: str) -> list[int]:
    return [int(place) for place in json.loads(result)["places"]]
