"""The archive's query parameters, read into an :class:`ArchiveFilter`: each bad value is
refused with its own code (``bad_result``, ``bad_speed``, ``bad_rated``, ``bad_game_type``,
``bad_date``, ``bad_dates``; a name no account has: ``unknown_user``), an unknown parameter
with ``bad_request``."""

from __future__ import annotations

from dataclasses import replace

from pydantic import BaseModel, ConfigDict, Field

from panal.server.hive_games.archive_filter import (
    ArchiveFilter,
    ArchiveFilterError,
    check_game_type,
    check_rated,
    check_result,
    check_speed,
    day_range,
)
from panal.server.http.models import PageLimit, PageOffset
from panal.server.http.request_error import RequestError
from panal.server.players.accounts import NAME_MAX, name_key
from panal.server.players.player_store import PlayerStore
from panal.server.runtime.runtime import Runtime

__all__ = ["ArchiveQuery", "archive_filter"]


class ArchiveQuery(BaseModel):
    """``?player=&opponent=&result=&speed=&rated=&game_type=&since=&until=`` (all optional)
    and the page (``limit``, ``offset``)."""

    model_config = ConfigDict(extra="forbid")

    limit: PageLimit = 50
    offset: PageOffset = 0
    player: str | None = Field(None, max_length=NAME_MAX + 10)
    opponent: str | None = Field(None, max_length=NAME_MAX + 10)
    result: str | None = Field(None, max_length=16)
    speed: str | None = Field(None, max_length=16)
    rated: str | None = Field(None, max_length=8)
    game_type: str | None = Field(None, max_length=16)
    since: str | None = Field(None, max_length=16)
    until: str | None = Field(None, max_length=16)


async def archive_filter(
    query: ArchiveQuery, players: PlayerStore, runtime: Runtime
) -> ArchiveFilter | None:
    """The filter the query asks for (``None``: every game); raises :class:`RequestError`."""
    if not any(query.model_dump(exclude={"limit", "offset"}).values()):
        return None
    try:
        since, before = day_range(query.since, query.until)
        checked = ArchiveFilter(
            result=check_result(query.result),
            speed=check_speed(query.speed),
            rated=check_rated(query.rated),
            game_type=check_game_type(query.game_type),
            since=since,
            before=before,
        )
    except ArchiveFilterError as exc:
        raise RequestError(exc.code, str(exc), 422) from None
    user_ids = []
    for name in (query.player, query.opponent):
        if not name:
            continue
        found = await runtime.db(players.account_by_key, name_key(name))
        if found is None:
            raise RequestError(
                "unknown_user", f"there is no player named {name!r}", 404, details={"name": name}
            )
        user_ids.append(found[0].id)
    if len(set(user_ids)) < len(user_ids):
        raise RequestError("same_players", "the player and the opponent are one account", 422)
    return replace(checked, players=tuple(user_ids))
