"""A player's unfinished games against the AI: the caps on them, their list (a guest's too, by
its client), resigning one from that list, and the end of a game nobody comes back to.

An AI game holds a place under the caps until it ends. A player who closes the tab does not
end it, so a game that nobody has been connected to for ``Limits.ai_idle_seconds`` ends by
itself: the AI wins by forfeit (``Termination.FORFEIT``; AI games are never rated). Every
process, every ``Limits.ai_sweep_seconds``, notes the AI games a player is connected to here
(their ``updated_at``), then ends those that nothing touched for that long; several processes
may find the same game: its compare-and-set lets one write the ending. A per-concern
collaborator of the games' hub, as :class:`~panal.server.hive_games.ai_player.AiPlayer` is.
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import Any

from panal.hive import GameState, Termination
from panal.server.hive_games.actions import GameChange, resign
from panal.server.hive_games.ai_player import Games
from panal.server.hive_games.game_store import GameRow
from panal.server.hive_games.live import COLOR_NAMES
from panal.server.hive_games.unfinished_store import UnfinishedStore
from panal.server.http.clients import Capacity, Client
from panal.server.http.request_error import RequestError

__all__ = ["UnfinishedGames"]

log = logging.getLogger("panal.server")


class UnfinishedGames:
    """The unfinished AI games of the games of ``games`` (see the module docstring)."""

    def __init__(self, games: Games) -> None:
        self.games = games
        self.store = UnfinishedStore(games.store.engine)
        self.capacity = Capacity(
            "too_many_ai_games",
            "unfinished games against the AI",
            games.limits.ai_game_caps,
            lambda conn, client: self.store.usage(conn, client, self._since()),
        )

    def _since(self) -> float:
        return time.time() - self.games.limits.ai_idle_seconds  # as ``updated_at`` is written

    async def listing(self, client: Client) -> list[dict[str, Any]]:
        """The client's (and its account's) unfinished AI games, newest first."""
        rows = await self.games.runtime.db(
            self.store.unfinished_ai_games_of, client.key, client.account, self._since()
        )
        return [_entry(row) for row in rows]

    async def resign(self, game_id: str, client: Client) -> None:
        """Resign an unfinished AI game of the client's (or its account's) from its list."""
        live = await self.games.get(game_id)
        row = live.row
        yours = row.client == client.key or (
            client.account is not None and client.account in row.users()
        )
        if row.mode != "ai" or not yours:
            raise RequestError("not_your_game", "this is not one of your games against the AI", 403)
        async with live.lock:
            human = frozenset({1 - (live.row.ai_color or 0)})
            change = resign(live, human, {}, self.games.now())
            await self.games.commit(live, change)

    async def sweep(self) -> None:
        """Note the AI games a player is connected to here; end those nobody came back to."""
        now = time.time()  # as ``updated_at`` is written
        connected = [
            live.id
            for live in list(self.games.rooms.cached.values())
            if live.row.mode == "ai"
            and not live.is_finished
            and any(not connection.spectator for connection in live.connections)
        ]
        await self.games.runtime.db(self.store.touch_games, connected, now)
        before = now - self.games.limits.ai_idle_seconds
        for game_id in await self.games.runtime.db(self.store.idle_ai_games, before):
            if game_id not in connected:
                await self._end_abandoned(game_id, before)

    async def _end_abandoned(self, game_id: str, before: float) -> None:
        try:
            live = await self.games.get(game_id)
        except RequestError:
            return
        async with live.lock:
            touched = await self.games.runtime.db(self.store.touched_at, game_id)
            seated = any(not connection.spectator for connection in live.connections)
            if live.is_finished or seated or touched is None or touched > before:
                return  # a move, or a player's return, came first
            ai = live.row.ai_color or 0
            winner = GameState.WHITE_WINS if ai == 0 else GameState.BLACK_WINS
            values = {
                "result": winner.value,
                "end_reason": Termination.FORFEIT.value,
                "draw_offer": None,
            }
            with contextlib.suppress(RequestError):  # stale: another process ended it
                await self.games.commit(live, GameChange(values))
                log.info("AI game %s ended: nobody came back to it", game_id)


def _entry(row: GameRow) -> dict[str, Any]:
    human = 1 - (row.ai_color or 0)
    return {
        "id": row.id,
        "game_type": row.game_type,
        "ai_level": row.ai_level,
        "color": COLOR_NAMES[human],
        "plies": row.plies,
        "updated_at": row.updated_at,
    }
