"""``panal serve``: start the web platform.

Only argparse at import time: FastAPI, SQLAlchemy and uvicorn are imported by the handler, so
``panal uhp`` and the other commands start fast.
"""

from __future__ import annotations

import argparse
import sys

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_DB_FILE = "panal.sqlite3"


DESCRIPTION = (
    "Serve the Hive web platform. Games are stored in an SQLite file "
    f"(./{DEFAULT_DB_FILE} by default) or in PostgreSQL given by URL."
)


def register(subparsers: argparse._SubParsersAction) -> None:
    serve = subparsers.add_parser(
        "serve", help="play Hive in the browser (web platform)", description=DESCRIPTION
    )
    add_arguments(serve)


def build_serve_parser() -> argparse.ArgumentParser:
    """The ``serve`` options on their own (for tests and embedding)."""
    parser = argparse.ArgumentParser(prog="panal serve", description=DESCRIPTION)
    add_arguments(parser)
    return parser


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
    serve.add_argument(
        "--ai-workers",
        type=int,
        default=None,
        metavar="N",
        help="processes for AI moves (default: one less than the CPU count, at least 1)",
    )
    serve.add_argument(
        "--log-level", default="warning", help="uvicorn log level (warning, info, debug)"
    )
    serve.set_defaults(handler=serve_command)


def serve_command(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from panal.server.app import create_app
        from panal.server.store import DatabaseError, database_url
    except ModuleNotFoundError as exc:
        print(
            f"panal serve: {exc.name} is not installed; install the web extra: "
            'pip install "panal[web]"',
            file=sys.stderr,
        )
        return 2
    if not 0 < args.port < 65536:
        print("panal serve: --port must be between 1 and 65535", file=sys.stderr)
        return 2
    url, description = database_url(args.db or DEFAULT_DB_FILE)
    try:
        app = create_app(url, ai_workers=args.ai_workers)
    except DatabaseError as exc:
        print(f"panal serve: {exc}", file=sys.stderr)
        return 2
    shown_host = "localhost" if args.host in ("127.0.0.1", "0.0.0.0", "::") else args.host
    print(f"panal: database {description}", flush=True)
    print(f"panal: playing Hive at http://{shown_host}:{args.port}/ (Ctrl+C to stop)", flush=True)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws=_websocket_protocol(),
        ws_max_size=64 * 1024,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        timeout_graceful_shutdown=3,
    )
    return 0


def _websocket_protocol() -> str:
    """uvicorn's sans-I/O websockets protocol where this uvicorn has it (the older one is
    deprecated), else the classic one."""
    import importlib.util

    if importlib.util.find_spec("uvicorn.protocols.websockets.websockets_sansio_impl"):
        return "websockets-sansio"
    return "websockets"
