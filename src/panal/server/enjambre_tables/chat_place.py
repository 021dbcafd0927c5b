"""Enjambre tables plugged into the chat (:mod:`panal.server.chat`): a table's seated people and
whether its match is over, as the chat asks for them (``chat.plug("table", …)``)."""

from __future__ import annotations

from panal.server.enjambre_tables.live import LiveTable
from panal.server.enjambre_tables.tables import TableHub

__all__ = ["TableChatPlace"]


class TableChatRoom:
    def __init__(self, live: LiveTable) -> None:
        self.live = live

    def seats_for(self, token: str | None) -> frozenset[int]:
        return self.live.seats_for(token)

    def account_seats(self, user_id: int) -> frozenset[int]:
        return frozenset(seat.seat for seat in self.live.seats if seat.user_id == user_id)

    @property
    def over(self) -> bool:
        return self.live.row.status == "over"


class TableChatPlace:
    def __init__(self, hub: TableHub) -> None:
        self.hub = hub

    async def find(self, key: str) -> TableChatRoom:
        return TableChatRoom(await self.hub.get(key))
