"""Hive games plugged into the chat (:mod:`panal.server.chat`): a game's seats and whether it
is over, as the chat asks for them (``chat.plug("game", GameChatPlace(hub))``)."""

from __future__ import annotations

from panal.server.hive_games.games import GameHub
from panal.server.hive_games.live import LiveGame

__all__ = ["GameChatPlace"]


class GameChatRoom:
    def __init__(self, live: LiveGame) -> None:
        self.live = live

    def seats_for(self, token: str | None) -> frozenset[int]:
        return self.live.seats_for(token)

    def account_seats(self, user_id: int) -> frozenset[int]:
        return self.live.seats_for(None, user_id)

    @property
    def over(self) -> bool:
        return self.live.is_finished


class GameChatPlace:
    def __init__(self, hub: GameHub) -> None:
        self.hub = hub

    async def find(self, key: str) -> GameChatRoom:
        return GameChatRoom(await self.hub.get(key))
