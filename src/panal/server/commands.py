"""``panal serve`` and ``panal ai-worker``: start the web platform and its AI workers.

Only argparse at import time: FastAPI, SQLAlchemy and uvicorn are imported by the handlers, so
``panal uhp`` and the other commands start fast.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from panal.server.database.store import Store

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_DB_FILE = "panal.sqlite3"
DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 256
HEADER_TIMEOUT = 10.0
BODY_TIMEOUT = 10.0


DESCRIPTION = (
    "Serve the Hive web platform. Games are stored in an SQLite file "
    f"(./{DEFAULT_DB_FILE} by default) or in PostgreSQL given by URL; with --redis, several "
    "processes (--workers, or on several hosts) serve the same games."
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = subparsers.add_parser(
        "serve", help="play Hive in the browser (web platform)", description=DESCRIPTION
    )
    add_arguments(serve)
    worker = subparsers.add_parser(
        "ai-worker",
        help="compute AI moves for scale-out web servers (Redis job queue)",
        description=(
            "Take AI jobs from the Redis queue that `panal serve --redis` processes fill, and "
            "play the moves into the database. Run as many as you like, on any machine that "
            "reaches the database and Redis."
        ),
    )
    add_worker_arguments(worker)


def build_serve_parser() -> argparse.ArgumentParser:
    """The ``serve`` options on their own (for tests and embedding)."""
    parser = argparse.ArgumentParser(prog="panal serve", description=DESCRIPTION)
    add_arguments(parser)
    return parser


def _add_store_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--redis",
        default=None,
        metavar="URL",
        help="Redis for scale-out (redis://host:6379/0): fan-out between processes, AI job queue",
    )
    parser.add_argument(
        "--redis-prefix",
        default="panal",
        metavar="NAME",
        help="prefix of every Redis key and channel (several deployments on one Redis)",
    )


def add_arguments(serve: argparse.ArgumentParser) -> None:
    serve.add_argument("--host", default=DEFAULT_HOST, help=f"address to bind ({DEFAULT_HOST})")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port ({DEFAULT_PORT})")
    serve.add_argument(
        "--db",
        default=None,
        metavar="URL",
        help=(
            f"database: a SQLAlchemy URL (sqlite:///path.sqlite3, "
            f"postgresql://user:pass@host/db) or a file path; default ./{DEFAULT_DB_FILE}"
        ),
    )
    _add_store_arguments(serve)
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="web processes on this host, sharing the port (more than 1 needs --redis)",
    )
    serve.add_argument(
        "--ai-workers",
        type=int,
        default=None,
        metavar="N",
        help=(
            "processes for AI moves in each web process (default: one less than the CPU count, "
            "at least 1; with --redis, 0 leaves the AI to `panal ai-worker`)"
        ),
    )
    serve.add_argument(
        "--max-connections-per-address",
        type=int,
        default=DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
        metavar="N",
        help=(
            "open connections allowed from one client address "
            f"({DEFAULT_MAX_CONNECTIONS_PER_ADDRESS}; 0: no limit, e.g. behind a load balancer)"
        ),
    )
    serve.add_argument(
        "--forwarded-allow-ips",
        default=None,
        metavar="IPS",
        help="proxies trusted for X-Forwarded-For (the client address used for limits)",
    )
    serve.add_argument(
        "--header-timeout",
        type=float,
        default=HEADER_TIMEOUT,
        metavar="SECONDS",
        help=f"time allowed for a request's headers ({HEADER_TIMEOUT:g})",
    )
    serve.add_argument(
        "--body-timeout",
        type=float,
        default=BODY_TIMEOUT,
        metavar="SECONDS",
        help=f"time allowed for a request's body ({BODY_TIMEOUT:g})",
    )
    serve.add_argument(
        "--bot-pause",
        type=float,
        default=None,
        metavar="SECONDS",
        help="Enjambre: the pause between two actions of a bot's turn (default: long enough to "
        "follow it, 0.7)",
    )
    serve.add_argument(
        "--ai-idle-seconds",
        type=float,
        default=None,
        metavar="SECONDS",
        help="a game against the AI that no player has open this long ends by forfeit and "
        "frees its place under the caps (default 1200)",
    )
    serve.add_argument(
        "--heavy-seconds",
        type=float,
        default=None,
        metavar="SECONDS",
        help="time allowed for one heavy job: a record's import, rebuild or export, a puzzle's "
        "refutation (default 60; a 30,000-move import takes about 5 s on an idle core)",
    )
    serve.add_argument(
        "--ladder-clock",
        default="60+1",
        metavar="BASE+INC",
        help="the engine ladder's clock, seconds each and increment (60+1)",
    )
    serve.add_argument(
        "--smtp-url",
        default=None,
        metavar="URL",
        help="e-mail (password resets, reminders) through this SMTP server: "
        "smtp://user:pass@host:587 (STARTTLS) or smtps://user:pass@host:465 (TLS); "
        "or PANAL_SMTP_URL (keeps the password out of the process list)",
    )
    serve.add_argument(
        "--mail-from", default=None, metavar="ADDRESS", help="the e-mails' sender (PANAL_MAIL_FROM)"
    )
    serve.add_argument(
        "--public-url",
        default=None,
        metavar="URL",
        help="the address players reach this server at, for e-mailed links "
        "(https://panal.example; PANAL_PUBLIC_URL); required with --smtp-url",
    )
    serve.add_argument(
        "--log-level", default="warning", help="uvicorn log level (warning, info, debug)"
    )
    serve.add_argument("--fd", type=int, default=None, help=argparse.SUPPRESS)
    serve.set_defaults(handler=serve_command)


def add_database_argument(parser: argparse.ArgumentParser) -> None:
    """``--db`` of an operator's command (``panal admin``, ``panal account``), which writes
    straight into the server's database: the same value as ``panal serve --db``."""
    parser.add_argument(
        "--db",
        default=None,
        metavar="URL",
        help=f"the server's database, as panal serve takes it (default ./{DEFAULT_DB_FILE})",
    )


def open_database(args: argparse.Namespace, *, migrate: bool = True) -> Store:
    """The store on ``args.db`` (see :func:`add_database_argument`), migrated to the newest
    revision as ``panal serve`` would unless ``migrate`` is false."""
    from panal.server.database.store import Store, database_url

    url, _ = database_url(args.db or DEFAULT_DB_FILE)
    return Store(url, migrate=migrate)


def add_worker_arguments(worker: argparse.ArgumentParser) -> None:
    worker.add_argument("--db", required=True, metavar="URL", help="the web servers' database")
    _add_store_arguments(worker)
    worker.set_defaults(redis=None)
    worker.add_argument(
        "--processes",
        type=int,
        default=max(1, (os.cpu_count() or 2) - 1),
        metavar="N",
        help="AI searches at once (one process each; default: one less than the CPU count)",
    )
    worker.add_argument("--log-level", default="warning", help="log level (warning, info)")
    worker.set_defaults(handler=worker_command)


def _missing_web_extra(exc: ModuleNotFoundError, command: str) -> int:
    print(
        f"panal {command}: {exc.name} is not installed; install the web extra: "
        'pip install "panal[web]"',
        file=sys.stderr,
    )
    return 2


def serve_command(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from panal.server.app import create_app
        from panal.server.database.store import DatabaseError, Store, database_url
        from panal.server.enjambre_tables.live import TableLimits
        from panal.server.http.guard import GuardedH11Protocol
        from panal.server.ladder.ladder import LadderSettings, parse_ladder_clock
        from panal.server.mail.settings import mail_settings
    except ModuleNotFoundError as exc:
        return _missing_web_extra(exc, "serve")
    try:
        mail = mail_settings(args.smtp_url, args.mail_from, args.public_url)
    except ValueError as exc:
        print(f"panal serve: --smtp-url: {exc}", file=sys.stderr)
        return 2
    try:
        ladder = LadderSettings(control=parse_ladder_clock(args.ladder_clock))
    except ValueError as exc:
        print(f"panal serve: --ladder-clock: {exc}", file=sys.stderr)
        return 2
    if not 0 < args.port < 65536:
        print("panal serve: --port must be between 1 and 65535", file=sys.stderr)
        return 2
    if args.workers < 1:
        print("panal serve: --workers must be at least 1", file=sys.stderr)
        return 2
    if args.workers > 1 and not args.redis:
        print(
            "panal serve: several --workers share games through Redis: add --redis URL "
            "(and a PostgreSQL --db)",
            file=sys.stderr,
        )
        return 2
    if args.ai_workers is not None and args.ai_workers < (0 if args.redis else 1):
        print("panal serve: --ai-workers must be at least 1 without --redis", file=sys.stderr)
        return 2
    url, description = database_url(args.db or DEFAULT_DB_FILE)
    if args.workers > 1 and args.fd is None:
        try:
            Store(url).close()  # migrate once, before the workers start
        except DatabaseError as exc:
            print(f"panal serve: {exc}", file=sys.stderr)
            return 2
        return _supervise(args, description)
    if args.fd is not None:
        from panal.server.runtime.lifeline import die_with_parent

        die_with_parent()
    try:
        app = create_app(
            url,
            redis_url=args.redis,
            redis_prefix=args.redis_prefix,
            ai_workers=args.ai_workers,
            migrate=args.fd is None,
            body_timeout=args.body_timeout,
            limits=_limits(args.ai_idle_seconds, args.heavy_seconds),
            table_limits=TableLimits()
            if args.bot_pause is None
            else TableLimits(bot_pause=max(0.0, args.bot_pause)),
            ladder=ladder,
            mail=mail,
        )
    except DatabaseError as exc:
        print(f"panal serve: {exc}", file=sys.stderr)
        return 2
    GuardedH11Protocol.header_timeout = args.header_timeout
    GuardedH11Protocol.max_per_address = max(0, args.max_connections_per_address)
    if args.fd is None:
        _announce(args, description)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        http=GuardedH11Protocol,
        ws=_websocket_protocol(),
        ws_max_size=64 * 1024,
        # States are a few kilobytes; compressing each one cost about a fifth of the server's
        # time per move (benchmarks/server_latency.py under a profiler).
        ws_per_message_deflate=False,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        timeout_graceful_shutdown=3,
        proxy_headers=args.forwarded_allow_ips is not None,
        forwarded_allow_ips=args.forwarded_allow_ips,
    )
    server = uvicorn.Server(config)
    if args.fd is not None:
        server.run(sockets=[socket.socket(fileno=args.fd)])
    else:
        server.run()
    return 0


def _announce(args: argparse.Namespace, description: str) -> None:
    shown_host = "localhost" if args.host in ("127.0.0.1", "0.0.0.0", "::") else args.host
    print(f"panal: database {description}", flush=True)
    if args.redis:
        from panal.server.database.store import database_url

        redis_shown = database_url(args.redis)[1] if "@" in args.redis else args.redis
        print(f"panal: scale-out through Redis {redis_shown}", flush=True)
    print(f"panal: playing Hive at http://{shown_host}:{args.port}/ (Ctrl+C to stop)", flush=True)


def _supervise(args: argparse.Namespace, description: str) -> int:
    """``--workers N``: bind the port once, start N web processes on it, restart any that
    dies, and stop them all on Ctrl+C or SIGTERM (they also die with this process)."""
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((args.host, args.port))
    except OSError as exc:
        print(f"panal serve: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 2
    listener.listen(2048)
    listener.set_inheritable(True)
    command = [
        sys.executable,
        "-m",
        "panal.cli",
        *_child_argv(args),
        "--fd",
        str(listener.fileno()),
    ]
    _announce(args, description)
    print(f"panal: {args.workers} web processes", flush=True)
    stopping = False

    def stop(signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    def start() -> subprocess.Popen[bytes]:
        return subprocess.Popen(command, pass_fds=(listener.fileno(),), env=_child_env(args))

    children = [start() for _ in range(args.workers)]
    while not stopping:
        time.sleep(0.2)
        for index, child in enumerate(children):
            if child.poll() is not None and not stopping:
                print(f"panal: web process {child.pid} exited ({child.returncode}); restarting")
                time.sleep(0.5)
                children[index] = start()
    for child in children:
        if child.poll() is None:
            child.terminate()
    for child in children:
        try:
            child.wait(10)
        except subprocess.TimeoutExpired:
            child.kill()
    return 0


def _limits(ai_idle_seconds: float | None, heavy_seconds: float | None) -> Any:
    """The games' limits, with the AI games' idle time given (looked for a few times in it)
    and the heavy jobs' time bound."""
    from dataclasses import replace

    from panal.server.hive_games.live import Limits

    limits = Limits()
    if ai_idle_seconds is not None:
        idle = max(1.0, ai_idle_seconds)
        limits = replace(limits, ai_idle_seconds=idle, ai_sweep_seconds=min(30.0, idle / 3))
    if heavy_seconds is not None:
        limits = replace(limits, heavy_seconds=max(1.0, heavy_seconds))
    return limits


def _child_argv(args: argparse.Namespace) -> list[str]:
    """The ``serve`` arguments for one web process of ``--workers``."""
    argv = ["serve", "--host", args.host, "--port", str(args.port), "--workers", "1"]
    if args.db:
        argv += ["--db", args.db]
    if args.redis:
        argv += ["--redis", args.redis, "--redis-prefix", args.redis_prefix]
    if args.ai_workers is not None:
        argv += ["--ai-workers", str(args.ai_workers)]
    argv += ["--max-connections-per-address", str(args.max_connections_per_address)]
    if args.forwarded_allow_ips is not None:
        argv += ["--forwarded-allow-ips", args.forwarded_allow_ips]
    argv += ["--header-timeout", str(args.header_timeout)]
    argv += ["--body-timeout", str(args.body_timeout)]
    if args.bot_pause is not None:
        argv += ["--bot-pause", str(args.bot_pause)]
    if args.ai_idle_seconds is not None:
        argv += ["--ai-idle-seconds", str(args.ai_idle_seconds)]
    if args.heavy_seconds is not None:
        argv += ["--heavy-seconds", str(args.heavy_seconds)]
    argv += ["--ladder-clock", args.ladder_clock]
    argv += ["--log-level", args.log_level]
    for option, value in (("--mail-from", args.mail_from), ("--public-url", args.public_url)):
        if value is not None:
            argv += [option, value]
    return argv


def _child_env(args: argparse.Namespace) -> dict[str, str]:
    """The web processes' environment: the SMTP URL (with its password) goes there, not into
    their command lines, which every user of the machine can read."""
    env = dict(os.environ)
    if args.smtp_url:
        env["PANAL_SMTP_URL"] = args.smtp_url
    return env


def worker_command(args: argparse.Namespace) -> int:
    try:
        import asyncio

        from panal.server.database.store import DatabaseError, database_url
        from panal.server.worker import run_worker
    except ModuleNotFoundError as exc:
        return _missing_web_extra(exc, "ai-worker")
    if not args.redis:
        print("panal ai-worker: --redis URL is required", file=sys.stderr)
        return 2
    if args.processes < 1:
        print("panal ai-worker: --processes must be at least 1", file=sys.stderr)
        return 2
    url, description = database_url(args.db)
    try:
        asyncio.run(run_worker(url, args.redis, args.redis_prefix, args.processes, description))
    except DatabaseError as exc:
        print(f"panal ai-worker: {exc}", file=sys.stderr)
        return 2
    return 0


def _websocket_protocol() -> str | type[Any]:
    """uvicorn's sans-I/O websockets protocol where this uvicorn has it (the older one is
    deprecated), reading on without a pause after every message; else the classic one."""
    from panal.server.http.guard import steady_websocket_protocol

    return steady_websocket_protocol() or "websockets"
