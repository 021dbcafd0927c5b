"""Who is asking: the session cookie, and the origin check that keeps other sites from acting
with it (cross-site request forgery).

* The session lives in the cookie ``panal_session``: HTTP-only (no script reads it), SameSite=Lax
  (other sites' requests do not carry it, except plain links), for 30 days, and ``Secure``
  whenever the browser is on HTTPS: the request came over HTTPS, or a proxy in front says so
  (``X-Forwarded-Proto: https``), or the page that sent it is an ``https://`` one (its
  ``Origin``), or it came to this machine (browsers keep secure cookies from
  ``http://localhost``). Reading the proxy's header needs no trust in it: a ``Secure`` flag only
  keeps a cookie off plain HTTP, so a client that lies about it harms only itself. (Without
  this, a server behind a TLS proxy gave a cookie without ``Secure`` unless
  ``--forwarded-allow-ips`` was set.) The database keeps only the token's hash.
* Every request that changes something (any method but GET, HEAD and OPTIONS) and names an
  ``Origin`` must come from this server's own origin; a request carrying the session cookie
  must name its origin (``Origin``, else ``Referer``). Browsers send ``Origin`` with every such
  request, so a page of another site can neither act with a player's session nor sign a player
  into another account. A websocket that takes its seats from the cookie is checked the same way
  (browsers do not apply SameSite to websockets everywhere). The scheme counts too: when the
  server is reached over HTTPS (itself, or its proxy's ``X-Forwarded-Proto``), a page of the
  same host over plain ``http://`` (which anyone on the network can write) is another site.

Behind a reverse proxy, the proxy must pass the ``Host`` header through (nginx:
``proxy_set_header Host $host``), since the origin is compared with it, and should say which
scheme the browser used (``proxy_set_header X-Forwarded-Proto $scheme``): without it, the
server cannot tell an ``http://`` page of its host from its own ``https://`` one.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from panal.server.http.request_error import RequestError
from panal.server.players.accounts import SESSION_DAYS, session_key

if TYPE_CHECKING:
    from starlette.requests import HTTPConnection
    from starlette.responses import Response

    from panal.server.players.player_store import Account, PlayerStore

__all__ = [
    "SESSION_COOKIE",
    "OriginCheck",
    "clear_session_cookie",
    "require_account",
    "same_origin",
    "session_account",
    "set_session_cookie",
    "socket_account",
]

SESSION_COOKIE = "panal_session"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "[::1]", "::1"})


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def _netloc(url: str) -> str | None:
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    return parts.netloc.lower() or None


def _browser_on_https(scope: Scope) -> bool:
    """Whether the server is reached over HTTPS: directly, or through a proxy that says so."""
    if scope.get("scheme") in ("https", "wss"):
        return True
    forwarded = (_header(scope, b"x-forwarded-proto") or "").split(",")[0].strip().lower()
    return forwarded in ("https", "wss")


def same_origin(scope: Scope, *, required: bool) -> bool:
    """Whether the request names this server as its origin (``Origin``, else ``Referer``);
    one that names none passes unless ``required``. An ``http://`` page does not pass for a
    server reached over HTTPS."""
    host = (_header(scope, b"host") or "").lower()
    named = _header(scope, b"origin")
    if named is None or named == "null":
        named = _header(scope, b"referer")
    if named is None:
        return not required
    if _browser_on_https(scope) and _scheme(named) != "https":
        return False
    return bool(host) and _netloc(named) == host


def _scheme(url: str) -> str | None:
    try:
        return urlsplit(url).scheme.lower() or None
    except ValueError:
        return None


def _carries_session(scope: Scope) -> bool:
    cookie = _header(scope, b"cookie") or ""
    return any(part.strip().startswith(SESSION_COOKIE + "=") for part in cookie.split(";"))


class OriginCheck:
    """Refuse (403, ``bad_origin``) a state-changing request from another site."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        changes = scope["type"] == "http" and scope["method"] not in SAFE_METHODS
        if changes and not same_origin(scope, required=_carries_session(scope)):
            body = json.dumps(
                {"error": "bad_origin", "detail": "this request must come from this site"}
            ).encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": 403,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode()),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)


def _secure(connection: HTTPConnection) -> bool:
    origin = connection.headers.get("origin") or ""
    return (
        _browser_on_https(connection.scope)
        or _scheme(origin) == "https"
        or connection.url.hostname in LOOPBACK_HOSTS
    )


def set_session_cookie(response: Response, connection: HTTPConnection, token: str) -> None:
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=SESSION_DAYS * 86_400,
        path="/",
        httponly=True,
        samesite="lax",
        secure=_secure(connection),
    )


def clear_session_cookie(response: Response, connection: HTTPConnection) -> None:
    response.delete_cookie(
        SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=_secure(connection)
    )


def session_token(connection: HTTPConnection) -> str | None:
    token = connection.cookies.get(SESSION_COOKIE)
    if token is None or not 20 <= len(token) <= 100:
        return None
    return token


async def require_account(connection: HTTPConnection, purpose: str = "first") -> Account:
    """The signed-in account of a request, or a 401 that says what signing in is for."""
    account = await session_account(connection, connection.app.state.players)
    if account is None:
        raise RequestError("sign_in", f"sign in {purpose}", 401)
    return account


async def session_account(connection: HTTPConnection, players: PlayerStore) -> Account | None:
    """The signed-in account of a request or websocket (read once per request)."""
    cached: Any = getattr(connection.state, "account", False)
    if cached is not False:
        return cached  # type: ignore[no-any-return]
    import asyncio

    token = session_token(connection)
    account = None
    if token is not None:
        account = await asyncio.to_thread(players.session_account, session_key(token))
    else:
        bot_token = _bot_token(connection)
        if bot_token is not None:
            from panal.server.bots.bot_store import BotStore

            account = await asyncio.to_thread(BotStore(players.engine).bot_account, bot_token)
    connection.state.account = account
    return account


def _bot_token(connection: HTTPConnection) -> str | None:
    """A bot's API token (``Authorization: Bearer bot_…``): a bot signs in with it, on HTTP and
    on websockets, and carries no cookie (so no other site can act with it)."""
    scheme, _, token = (connection.headers.get("authorization") or "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token.startswith("bot_") or len(token) > 100:
        return None
    return token


async def socket_account(connection: HTTPConnection, players: PlayerStore) -> Account | None:
    """The account a websocket plays as: a bot's token, or the session cookie if this site
    opened the socket (a page of another site must not play with the player's cookie)."""
    if _bot_token(connection) is None and not same_origin(connection.scope, required=True):
        return None
    return await session_account(connection, players)
