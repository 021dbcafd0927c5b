"""The FastAPI application: it wires the process's parts together and serves nothing itself.

One :class:`~panal.server.runtime.runtime.Runtime` per process (the database's threads, the bus,
the job queue, the heavy pool); on it the kinds of live rooms, Hive games
(:mod:`panal.server.hive_games.games`) and Enjambre tables
(:mod:`panal.server.enjambre_tables.tables`), and the lobby; the routes of each concern
(:mod:`~panal.server.hive_games.routes`, :mod:`~panal.server.enjambre_tables.routes`,
:mod:`~panal.server.players.routes`, :mod:`~panal.server.lobby.lobby`), the error answers
(:mod:`~panal.server.http.error_answers`), the guards (:mod:`~panal.server.http.guard`) and the
browser's pages (:mod:`~panal.server.http.pages`). The API itself is described in docs/web.md.
"""

from __future__ import annotations

import contextlib
import gc
import os
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import FastAPI

from panal.server.analysis.analysis_store import AnalysisStore
from panal.server.analysis.engine import EngineLimits, Engines
from panal.server.analysis.reviews import ReviewedGame, Reviews
from panal.server.analysis.routes import analysis_router
from panal.server.bots.routes import bot_router
from panal.server.chat.chat import Chat
from panal.server.chat.routes import chat_router
from panal.server.enjambre_tables.chat_place import TableChatPlace
from panal.server.enjambre_tables.live import TableLimits
from panal.server.enjambre_tables.routes import table_router
from panal.server.enjambre_tables.tables import TableHub
from panal.server.hive_games.ai_pool import ai_levels
from panal.server.hive_games.chat_place import GameChatPlace
from panal.server.hive_games.game_store import GameStore
from panal.server.hive_games.games import GameHub
from panal.server.hive_games.live import Limits
from panal.server.hive_games.routes import game_router
from panal.server.http.body_limit import MAX_BODY_BYTES, BodyLimit
from panal.server.http.error_answers import answer_errors
from panal.server.http.pages import serve_pages
from panal.server.ladder.ladder import Ladder, LadderSettings
from panal.server.ladder.routes import ladder_router
from panal.server.lobby.lobby import Lobby, lobby_router
from panal.server.mail.sender import Mailer
from panal.server.mail.settings import MailSettings
from panal.server.notifications.notifications import Notifications
from panal.server.notifications.routes import notification_router
from panal.server.players.account_mail import AccountMail
from panal.server.players.account_routes import account_care_router
from panal.server.players.account_store import AccountStore
from panal.server.players.attempts import PasswordWork
from panal.server.players.auth import OriginCheck
from panal.server.players.community import community_router
from panal.server.players.player_store import PlayerStore
from panal.server.players.routes import account_router
from panal.server.runtime.bus import make_bus
from panal.server.runtime.job_queues import JobQueue, LocalJobQueue, RedisJobQueue
from panal.server.runtime.jobs import ChildPool, Executor, InlineExecutor
from panal.server.runtime.runtime import Runtime
from panal.server.tournaments.routes import tournament_router
from panal.server.tournaments.tournaments import Tournaments
from panal.server.training.routes import training_router
from panal.server.training.training_store import TrainingStore

__all__ = ["analysis_hubs", "create_app"]


def analysis_hubs(
    runtime: Runtime, games: GameHub, limits: EngineLimits | None = None
) -> tuple[Engines, Reviews]:
    """The analysis board's engines and the reviews, reading games through the games' hub."""

    async def reviewed_game(game_id: str) -> ReviewedGame:
        live = await games.get(game_id)
        row = live.row
        return ReviewedGame(
            {"type": row.game_type, "options": row.rules.to_values(), "moves": list(live.moves)},
            finished=live.is_finished or row.mode == "review",  # a record: nobody plays it
            seats_for=live.seats_for,
            players=(row.headers.get("White"), row.headers.get("Black")),
        )

    limits = limits or EngineLimits()
    store = AnalysisStore(runtime.store)
    return Engines(runtime, store, limits), Reviews(runtime, store, reviewed_game, limits)


def create_app(
    db_url: str = "sqlite:///panal.sqlite3",
    *,
    redis_url: str | None = None,
    redis_prefix: str = "panal",
    ai_workers: int | None = None,
    ai_runner: Callable[[dict[str, Any]], Any] | None = None,
    levels: tuple[str, ...] | None = None,
    limits: Limits | None = None,
    table_limits: TableLimits | None = None,
    analysis_limits: EngineLimits | None = None,
    migrate: bool = True,
    body_timeout: float = 10.0,
    clock: Callable[[], float] = time.time,
    ladder: LadderSettings | None = None,
    mail: MailSettings | None = None,
) -> FastAPI:
    """The web platform on a database; with ``redis_url``, one of many processes (scale-out).

    ``ai_workers``: processes computing AI moves here (0: leave them to ``panal ai-worker``;
    only with Redis). ``ai_runner`` replaces the AI by a function of the job's payload (tests).
    ``clock`` is the server's time for game clocks (tests give a clock they move by hand).
    ``mail``: the SMTP server for account e-mail (none: no e-mail, no reset by e-mail).
    """
    store = GameStore(db_url, migrate=migrate)
    workers = max(1, (os.cpu_count() or 2) - 1) if ai_workers is None else ai_workers
    if workers < 1 and not redis_url:
        workers = 1  # one process: nobody else would compute the AI's moves
    executor: Executor = (
        InlineExecutor({"hive.ai_move": ai_runner})
        if ai_runner is not None
        else ChildPool(max(1, workers), warm=("panal.ai", "panal.enjambre.bots"))
    )
    jobs: JobQueue = (
        RedisJobQueue(redis_url, redis_prefix, executor, consumers=workers)
        if redis_url
        else LocalJobQueue(executor, consumers=workers)
    )
    limits = limits or Limits()
    runtime = Runtime(
        store,
        make_bus(redis_url, redis_prefix),
        jobs,
        ChildPool(1, warm=("panal.hive.records",), max_waiting=limits.heavy_waiting),
        shared=redis_url is not None,
        heavy_seconds=limits.heavy_seconds,
        clock=clock,
    )
    players = PlayerStore(store.engine)
    notifications = Notifications(runtime)  # first: every concern below may publish
    levels = ai_levels() if levels is None else levels
    hub = GameHub(runtime, store, players, levels, limits=limits)
    tables = TableHub(runtime, limits=table_limits)
    lobby = Lobby(runtime, players)
    engines, reviews = analysis_hubs(runtime, hub, analysis_limits)
    tournaments = Tournaments(runtime, hub, players)
    engine_ladder = Ladder(runtime, store, players, ladder or LadderSettings())
    chat = Chat(runtime, clock=clock)
    chat.plug("game", GameChatPlace(hub))
    chat.plug("table", TableChatPlace(tables))
    account_mail = AccountMail(runtime, AccountStore(store.engine), players, Mailer(mail))

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Everything imported so far lives as long as the process: take it out of the garbage
        # collector's full scans, which then pause the event loop for less time. Thousands of
        # open websockets are many long-lived objects: collecting less often keeps the tail of
        # the move latency short (benchmarks/server_latency.py).
        gc.collect()
        gc.freeze()
        gc.set_threshold(20_000, 50, 100)
        await runtime.start()
        runtime.spawn(hub.ai.resume_ai_games())
        engine_ladder.start()
        account_mail.start()
        try:
            yield
        finally:
            await runtime.close()
            await store.close_async()

    app = FastAPI(title="panal", docs_url="/api/docs", redoc_url=None, lifespan=lifespan)
    app.state.runtime = runtime
    app.state.players = players
    app.state.hub = hub
    app.state.tables = tables
    app.state.lobby = lobby
    app.state.engines, app.state.reviews = engines, reviews
    app.state.tournaments = tournaments
    app.state.ladder = engine_ladder
    app.state.chat = chat
    app.state.password_work = PasswordWork()
    app.state.notifications = notifications
    app.state.account_mail = account_mail
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES, timeout=body_timeout)
    app.add_middleware(OriginCheck)  # outermost: a forged request is refused before all else
    answer_errors(app)
    app.include_router(account_router)
    app.include_router(account_care_router)
    app.include_router(lobby_router)
    app.include_router(game_router(hub, players, runtime))
    app.include_router(table_router(tables, players))
    app.include_router(analysis_router(engines, reviews, players))
    app.include_router(training_router(TrainingStore(store.engine), players, runtime))
    app.include_router(tournament_router)
    app.include_router(bot_router)
    app.include_router(ladder_router)
    app.include_router(community_router)
    app.include_router(chat_router(chat, players))
    app.include_router(notification_router)
    serve_pages(app)
    return app
