"""The tournaments' HTTP API and websocket (docs/web.md, "Tournaments").

* ``GET /api/tournaments``: registering and running ones, then the latest finished.
* ``POST /api/tournaments``: create (an account): format, clock, rated, players, start.
* ``GET /api/tournaments/{id}``: its state: players, pairings by round, standings.
* ``POST /api/tournaments/{id}/join`` | ``/withdraw`` | ``/start`` (its creator).
* Websocket ``/ws/tournaments/{id}``: the state on connect and whenever it changes.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from functools import partial
from typing import Any, Literal

from fastapi import APIRouter, Request, WebSocket
from pydantic import Field

from panal.hive import OPTION_SPECS, GameType, Options, OptionsError
from panal.server.hive_games.actions import requested_clock, requested_game_type
from panal.server.hive_games.clock import TimeControl
from panal.server.http.models import StrictModel
from panal.server.http.request_error import RequestError
from panal.server.http.websocket_session import serve_watcher
from panal.server.players.auth import require_account, session_account
from panal.server.players.player_store import Account
from panal.server.room.outbox import Connection
from panal.server.tournaments.series import MAX_SERIES_PLAYERS
from panal.server.tournaments.tournament_store import (
    FINISHED,
    REGISTERING,
    RUNNING,
    Snapshot,
    TournamentRow,
)
from panal.server.tournaments.tournaments import Tournaments, summary

__all__ = ["tournament_router"]

MAX_PLAYERS = 64
MAX_ROUND_ROBIN_PLAYERS = 20  # 19 rounds, 38 in a double one
MAX_SWISS_ROUNDS = 20
MAX_ARENA_MINUTES = 720
MAX_START_DELAY = 30 * 86400.0
ENJAMBRE = "Enjambre"  # a tournament's game type when it is an Enjambre series
MAX_NO_SHOW_SECONDS = 86400.0
SERIES_NO_SHOW_SECONDS = 120.0  # a series' default: a bot sits down for a missing player
RETRIES = 5  # a registration racing others: the compare-and-set is tried again


class CreateRequest(StrictModel):
    name: str = Field(min_length=1, max_length=60)
    format: Literal["round_robin", "swiss", "arena", "series"]
    cycles: Literal[1, 2] = 1
    rounds: int = Field(5, ge=1, le=MAX_SWISS_ROUNDS)
    minutes: int = Field(30, ge=1, le=MAX_ARENA_MINUTES)
    game_type: str = Field("Base", max_length=16)
    # Rule options by name, as for POST /api/games (panal.hive.OPTION_SPECS)
    options: dict[str, bool | str] = Field(default_factory=dict, max_length=32)
    clock: dict[str, Any] | None = None
    rated: bool = False
    max_players: int = Field(8, ge=2, le=MAX_PLAYERS)
    starts_at: float | None = None
    start_when_full: bool = False
    # None: the longest a game allows (see no_show_seconds below)
    no_show_seconds: float | None = Field(None, ge=5.0, le=MAX_NO_SHOW_SECONDS)


def tournament_rules(game_type: GameType, values: dict[str, bool | str]) -> Options:
    """The rule options of a new tournament's games, each one checked: a name panal knows
    (``unknown_option``), a value it allows (``bad_option_value``), and pieces in the game
    that it is about (``option_needs_pieces``: a Dragonfly rule in a game without one is a
    mistake in the form, not a rule). ``details.option`` names the option for the page."""
    specs = {spec.name: spec for spec in OPTION_SPECS}
    letters = str(game_type).partition("+")[2]  # "Base+MLP": the extra bugs' letters
    for name, value in values.items():
        spec = specs.get(name)
        if spec is None:
            raise RequestError(
                "unknown_option", f"there is no rule option {name!r}", 422, details={"option": name}
            )
        try:
            checked = spec.check(value)
        except OptionsError as exc:
            raise RequestError(
                "bad_option_value", str(exc), 422, details={"option": name}
            ) from None
        missing = [bug for bug in spec.expansion if bug not in letters]
        if missing and spec.plain(checked) != spec.default:
            raise RequestError(
                "option_needs_pieces",
                f"rule option {name} is about pieces not in {game_type}",
                422,
                details={"option": name, "pieces": "".join(missing)},
            )
    return Options.from_values(values)


Settings = tuple[str, Options, dict[str, Any] | None]  # game type, rule options, clock


def no_show_seconds(requested: float | None, clock: dict[str, Any] | None) -> float:
    """How long a player may keep an opponent waiting for a first move before losing by
    forfeit. A Hive game's own clock aborts a game whose first move does not come within its
    window (a minute in real time, a move's days in correspondence: ``hive_games.clock``), and
    a tournament counts that abort as the same forfeit; so the stated time is that window unless
    set shorter, and a longer one is refused rather than shown and not kept. A series' seats
    have no clock: a missing player's seat goes to a bot after the stated time."""
    if clock is None:
        return SERIES_NO_SHOW_SECONDS if requested is None else requested
    control = TimeControl.from_json(clock)
    assert control is not None
    window = min(control.first_move_window, MAX_NO_SHOW_SECONDS)
    if requested is None:
        return window
    if requested > window:
        raise RequestError(
            "no_show_too_long",
            f"a game whose first move does not come within {window:g} s is lost by forfeit"
            " anyway: the no-show time is at most that",
            422,
            details={"seconds": f"{window:g}"},
        )
    return requested


def _hive_settings(body: CreateRequest) -> Settings:
    """A Hive tournament's game type, rule options and clock, each checked."""
    game_type = requested_game_type(body.game_type)
    options = tournament_rules(game_type, body.options)
    control = requested_clock(body.clock)
    if control is None:
        raise RequestError("bad_clock", "a tournament's games have a clock", 422)
    return str(game_type), options, control.to_json()


def _series_settings(body: CreateRequest) -> Settings:
    """An Enjambre series' settings, each refusal specific: one table of 2 to 6 players, the
    standard rules, no clock (Enjambre tables have none; a no-show's seat goes to a bot)."""
    if body.format != "series" or body.game_type != ENJAMBRE:
        raise RequestError(
            "enjambre_series_only",
            "an Enjambre tournament is a series, and a series is of Enjambre",
            422,
        )
    if "max_players" not in body.model_fields_set:  # a full table by default
        body.max_players = MAX_SERIES_PLAYERS
    if body.max_players > MAX_SERIES_PLAYERS:
        raise RequestError(
            "series_players",
            f"a series is one Enjambre table: 2 to {MAX_SERIES_PLAYERS} players",
            422,
        )
    if body.options:
        raise RequestError(
            "series_options", "an Enjambre series is played with the standard rules", 422
        )
    if body.clock is not None:
        raise RequestError("series_clock", "Enjambre tables have no clock", 422)
    return ENJAMBRE, Options(), None


def _manager(connection: Request | WebSocket) -> Tournaments:
    manager: Tournaments = connection.app.state.tournaments
    return manager


async def _account(request: Request) -> Account:
    return await require_account(request, "to take part in tournaments")


async def _load(manager: Tournaments, tournament_id: str) -> Snapshot:
    snapshot = None
    if 1 <= len(tournament_id) <= 16:
        snapshot = await manager.runtime.db(manager.store.load, tournament_id)
    if snapshot is None:
        raise RequestError("unknown_tournament", "there is no tournament with that id", 404)
    return snapshot


tournament_router = APIRouter()


@tournament_router.get("/api/tournaments")
async def list_tournaments(request: Request) -> dict[str, Any]:
    manager = _manager(request)
    listed = await manager.runtime.db(manager.store.listing)
    names = await manager.runtime.db(manager.players.names, {row.creator_id for row, _ in listed})
    return {"tournaments": [summary(row, count, names) for row, count in listed]}


@tournament_router.post("/api/tournaments", status_code=201)
async def create_tournament(body: CreateRequest, request: Request) -> dict[str, Any]:
    manager = _manager(request)
    account = await _account(request)
    name = body.name.strip()
    if not name:
        raise RequestError("bad_name", "a tournament needs a name")
    enjambre = body.format == "series" or body.game_type == ENJAMBRE
    game_type, options, clock = (_series_settings if enjambre else _hive_settings)(body)
    if body.format == "round_robin" and body.max_players > MAX_ROUND_ROBIN_PLAYERS:
        raise RequestError(
            "too_many_players",
            f"a round robin has at most {MAX_ROUND_ROBIN_PLAYERS} players",
            422,
        )
    now = manager.runtime.now()
    if body.starts_at is not None and not now < body.starts_at <= now + MAX_START_DELAY:
        raise RequestError("bad_start", "the start is in the future, within 30 days", 422)
    row = TournamentRow(
        id=secrets.token_urlsafe(9),
        name=name,
        format=body.format,
        cycles=body.cycles if body.format == "round_robin" else 1,
        rounds=body.rounds if body.format in ("swiss", "series") else None,
        minutes=body.minutes if body.format == "arena" else None,
        game_type=game_type,
        options=json.dumps(options.changed(), separators=(",", ":"), sort_keys=True),
        time_control=json.dumps(clock, separators=(",", ":")),
        rated=body.rated,
        max_players=body.max_players,
        starts_at=body.starts_at,
        start_when_full=body.start_when_full,
        no_show_seconds=no_show_seconds(body.no_show_seconds, clock),
        creator_id=account.id,
        created_at=now,
        updated_at=now,
    )
    await manager.runtime.db(manager.store.create, row)
    return await manager.state(row.id, account.id)


@tournament_router.get("/api/tournaments/{tournament_id}")
async def get_tournament(tournament_id: str, request: Request) -> dict[str, Any]:
    manager = _manager(request)
    account = await session_account(request, request.app.state.players)
    await _load(manager, tournament_id)
    return await manager.state(tournament_id, account.id if account else None)


@tournament_router.post("/api/tournaments/{tournament_id}/join")
async def join_tournament(tournament_id: str, request: Request) -> dict[str, Any]:
    """Register (before the start; an arena also while it runs)."""
    manager = _manager(request)
    account = await _account(request)

    def register(snapshot: Snapshot) -> Callable[[float], bool]:
        row = snapshot.row
        open_arena = row.format == "arena" and row.status == RUNNING
        if row.status != REGISTERING and not open_arena:
            raise RequestError("registration_closed", "this tournament has started", 409)
        known = dict(snapshot.players)
        if account.id in known and not known[account.id]:
            raise RequestError("already_registered", "you are registered already", 409)
        if len(snapshot.active()) >= row.max_players:
            raise RequestError("tournament_full", "this tournament is full", 409)
        rejoin = account.id in known
        return partial(manager.store.register, row.id, row.version, account.id, rejoin=rejoin)

    await _change_registration(manager, tournament_id, register)
    await manager.advance(tournament_id)  # full: it may start now
    return await manager.state(tournament_id, account.id)


@tournament_router.post("/api/tournaments/{tournament_id}/withdraw")
async def withdraw_from_tournament(tournament_id: str, request: Request) -> dict[str, Any]:
    """Leave: before the start the registration is gone; after it, no more pairings (a round
    robin's later games are forfeits)."""
    manager = _manager(request)
    account = await _account(request)

    def withdraw(snapshot: Snapshot) -> Callable[[float], bool]:
        row = snapshot.row
        if row.status == FINISHED:
            raise RequestError("tournament_over", "this tournament is over", 409)
        if dict(snapshot.players).get(account.id, True):
            raise RequestError("not_registered", "you are not registered", 409)
        remove = row.status == REGISTERING
        return partial(manager.store.withdraw, row.id, row.version, account.id, remove=remove)

    await _change_registration(manager, tournament_id, withdraw)
    return await manager.state(tournament_id, account.id)


async def _change_registration(
    manager: Tournaments,
    tournament_id: str,
    checked: Callable[[Snapshot], Callable[[float], bool]],
) -> None:
    """A player's registration changed against the tournament's version: ``checked`` refuses
    the change (raising) or gives the store's compare-and-set write, called with the time. A
    write that lost a race with another change is tried again on a fresh copy."""
    for _ in range(RETRIES):
        snapshot = await _load(manager, tournament_id)
        write = checked(snapshot)
        if await manager.runtime.db(write, manager.runtime.now()):
            manager.changed(tournament_id)
            return
    raise _changed_meanwhile()


def _changed_meanwhile() -> RequestError:
    return RequestError("stale", "the tournament changed meanwhile; try again", 409)


@tournament_router.post("/api/tournaments/{tournament_id}/start")
async def start_tournament(tournament_id: str, request: Request) -> dict[str, Any]:
    """Start now, by its creator, with the players registered (at least two)."""
    manager = _manager(request)
    account = await _account(request)
    snapshot = await _load(manager, tournament_id)
    if snapshot.row.creator_id != account.id:
        raise RequestError("not_yours", "only its creator can start a tournament", 403)
    if snapshot.row.status != REGISTERING:
        raise RequestError("tournament_started", "this tournament has started already", 409)
    if len(snapshot.active()) < 2:
        raise RequestError("too_few_players", "a tournament needs at least two players", 409)
    if not await manager.begin(snapshot):
        raise _changed_meanwhile()
    return await manager.state(tournament_id, account.id)


@tournament_router.websocket("/ws/tournaments/{tournament_id}")
async def tournament_socket(websocket: WebSocket, tournament_id: str) -> None:
    manager = _manager(websocket)
    if not 1 <= len(tournament_id) <= 16:
        await websocket.close(4404)
        return
    connection = Connection(send=websocket.send_text, seats=frozenset())
    await serve_watcher(
        websocket,
        connection,
        lambda: manager.watch(tournament_id, connection),
        lambda: manager.unwatch(tournament_id, connection),
    )
