"""The browser UI's pages and files: the single-page app at each of its addresses, its static
files and the installable app's manifest and service worker."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles

from panal.server.http.request_error import RequestError
from panal.server.http.webapp import MANIFEST_MEDIA_TYPE, service_worker_script

__all__ = ["APP_PAGES", "WEB_DIR", "serve_pages"]

WEB_DIR = Path(str(files("panal").joinpath("web")))
#: The addresses of the single-page app's views: each is served the one page, ``index.html``.
APP_PAGES = (
    "/",
    "/lobby",
    "/signin",
    "/signup",
    "/account",
    "/reset",
    "/verify",
    "/new",
    "/archive",
    "/leaderboard",
    "/my-games",
    "/notifications",
    "/import",
    "/game/{game_id}",
    "/table/{table_id}",
    "/enjambre",
    "/ladder",
    "/@/{name}",
    "/analysis",
    "/analysis/{game_id}",
    "/puzzles",
    "/puzzles/{what}",
    "/learn",
    "/learn/{what}",
    "/tournaments",
    "/tournament/{tournament_id}",
)


def serve_pages(app: FastAPI) -> None:
    """Mount the UI on ``app`` (after the API, whose routes come first)."""
    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")

    # The installable app: the worker at the root, so that its scope is the whole site.
    @app.get("/manifest.webmanifest", include_in_schema=False)
    async def manifest() -> FileResponse:
        return FileResponse(
            WEB_DIR / "manifest.webmanifest",
            media_type=MANIFEST_MEDIA_TYPE,
            headers={"Cache-Control": "no-cache"},
        )

    @app.get("/sw.js", include_in_schema=False)
    async def service_worker() -> Response:
        return Response(
            service_worker_script(WEB_DIR),
            media_type="text/javascript",
            headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
        )

    async def index() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    for path in APP_PAGES:
        app.get(path, include_in_schema=False)(index)

    # Any other address: the API's refusal as JSON under /api/, else the page, answered 404,
    # which says so in the reader's language (issue 25: raw JSON was shown to players).
    @app.get("/{path:path}", include_in_schema=False)
    async def not_found(path: str) -> Response:
        if path == "api" or path.startswith("api/"):
            raise RequestError("not_found", "no such address in the API", 404)
        return FileResponse(
            WEB_DIR / "index.html", status_code=404, headers={"Cache-Control": "no-cache"}
        )
