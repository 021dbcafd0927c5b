"""The archive's filters (``GET /api/archive?player=&opponent=&result=&speed=&rated=&game_type=
&since=&until=``): what the query says, checked, and the SQL conditions that keep those games.

Every filter is optional and they combine (AND). Players are accounts, named as on their profile
(any case); the route looks their ids up. Dates are whole days (``YYYY-MM-DD``, UTC) of the
game's last change, ``until`` included.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import ColumnElement, Table, and_, or_

from panal.hive.errors import GameTypeError
from panal.hive.pieces import GameType
from panal.server.hive_games.clock import SPEEDS

__all__ = [
    "RESULTS",
    "UNTIMED",
    "ArchiveFilter",
    "ArchiveFilterError",
    "check_game_type",
    "check_rated",
    "check_result",
    "check_speed",
    "day_range",
]

RESULTS = ("WhiteWins", "BlackWins", "Draw")
#: The speed filter's name for games without a clock.
UNTIMED = "untimed"
DAY = 86_400


class ArchiveFilterError(ValueError):
    """A filter's value that cannot be read: ``code`` names which (the browser translates it)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class ArchiveFilter:
    """Which finished games to list; ``None`` keeps every value of that field. ``players``
    are account ids that all played in the game (one or two: a player, or two opponents)."""

    players: tuple[int, ...] = ()
    result: str | None = None
    speed: str | None = None
    rated: bool | None = None
    game_type: str | None = None
    since: float | None = None  # updated_at >= since
    before: float | None = None  # updated_at < before

    def conditions(self, games: Table) -> list[ColumnElement[bool]]:
        """The SQL conditions on ``games`` (the games table) that keep these games."""
        c = games.c
        kept: list[ColumnElement[bool]] = [
            or_(c.white_user == user, c.black_user == user) for user in self.players
        ]
        if len(self.players) == 2:  # opponents: not a game one of them played against themself
            kept.append(and_(c.white_user.is_not(None), c.white_user != c.black_user))
        if self.result is not None:
            kept.append(c.result == self.result)
        if self.speed == UNTIMED:
            kept.append(c.speed.is_(None))
        elif self.speed is not None:
            kept.append(c.speed == self.speed)
        if self.rated is not None:
            kept.append(c.rated.is_(self.rated))
        if self.game_type is not None:
            kept.append(c.game_type == self.game_type)
        if self.since is not None:
            kept.append(c.updated_at >= self.since)
        if self.before is not None:
            kept.append(c.updated_at < self.before)
        return kept


def check_result(value: str | None) -> str | None:
    if value in (None, "") or value in RESULTS:
        return value or None
    raise ArchiveFilterError("bad_result", f"result must be one of {', '.join(RESULTS)}")


def check_speed(value: str | None) -> str | None:
    if value in (None, "") or value in (*SPEEDS, UNTIMED):
        return value or None
    raise ArchiveFilterError("bad_speed", f"speed must be one of {', '.join((*SPEEDS, UNTIMED))}")


def check_rated(value: str | None) -> bool | None:
    if value in (None, ""):
        return None
    if value in ("true", "false"):
        return value == "true"
    raise ArchiveFilterError("bad_rated", "rated must be true or false")


def check_game_type(value: str | None) -> str | None:
    """A GameTypeString (``Base``, ``Base+MLP``...), as the games table writes it."""
    if value in (None, ""):
        return None
    try:
        return str(GameType.parse(value))
    except GameTypeError:
        raise ArchiveFilterError(
            "bad_game_type", "game_type is a GameTypeString: Base, or Base+ and expansion letters"
        ) from None


def _day(value: str, name: str) -> float:
    try:
        day = dt.date.fromisoformat(value)
    except ValueError:
        raise ArchiveFilterError("bad_date", f"{name} must be a date YYYY-MM-DD") from None
    if len(value) != 10:
        raise ArchiveFilterError("bad_date", f"{name} must be a date YYYY-MM-DD")
    return dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC).timestamp()


def day_range(since: str | None, until: str | None) -> tuple[float | None, float | None]:
    """``since`` and ``until`` (days, both included) as ``updated_at`` bounds."""
    start = _day(since, "since") if since else None
    before = _day(until, "until") + DAY if until else None
    if start is not None and before is not None and start >= before:
        raise ArchiveFilterError("bad_dates", "since must not come after until")
    return start, before
