"""The limit on request bodies, enforced before the application reads one: their size and the
time they take to arrive."""

from __future__ import annotations

import asyncio
import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["MAX_BODY_BYTES", "BodyLimit"]

MAX_BODY_BYTES = 1_000_000


class BodyLimit:
    """Read each request body before the application sees it: over ``limit`` bytes (announced
    or, chunked, as it arrives) is 413; a body that does not arrive within ``timeout`` seconds
    is 408. Either way the application is never called."""

    def __init__(self, app: ASGIApp, limit: int, timeout: float = 10.0) -> None:
        self.app = app
        self.limit = limit
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = True
                if too_big:
                    await self._refuse_too_large(send)
                    return
        chunks: list[bytes] = []
        seen = 0
        try:
            async with asyncio.timeout(self.timeout):
                while True:
                    message = await receive()
                    if message["type"] != "http.request":
                        return  # the client left
                    chunk = message.get("body", b"")
                    seen += len(chunk)
                    if seen > self.limit:
                        await self._refuse_too_large(send)
                        return
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await _refuse(
                send, 408, "timeout", f"the request body took longer than {self.timeout:g} s"
            )
            return
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse_too_large(self, send: Send) -> None:
        """413, announced by its length or found as the chunks arrive."""
        detail = f"request bodies are limited to {self.limit} bytes"
        await _refuse(send, 413, "too_large", detail, self.limit)


async def _refuse(send: Send, status: int, code: str, detail: str, limit: int = 0) -> None:
    answer: dict[str, object] = {"error": code, "detail": detail}
    if limit:
        answer["details"] = {"limit": limit}  # the page states the limit in its own words
    body = json.dumps(answer).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
