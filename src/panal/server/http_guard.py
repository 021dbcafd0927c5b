"""uvicorn's HTTP/1.1 protocol with two guards that it lacks.

* **Header time-out**: a connection must send a request's complete headers within
  ``header_timeout`` seconds of connecting (or of its previous response), else it is closed. A
  client that opens connections and sends nothing, or a header a byte at a time, holds nothing
  for long. (Bodies have their own time-out: ``app.BodyLimit``.)
* **Connections per address**: at most ``max_per_address`` open connections (websockets
  included) from one client address; the next gets ``429`` and is closed. Behind a load balancer
  every client has the balancer's address: set it to 0 there and let the balancer limit.
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["GuardedH11Protocol"]

TOO_MANY = (
    b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n"
    b"connection: close\r\ncontent-length: 78\r\n\r\n"
    b'{"error": "too_many_connections", "detail": "too many connections from you"}\n\n'
)


class GuardedH11Protocol(H11Protocol):
    header_timeout: ClassVar[float] = 10.0
    max_per_address: ClassVar[int] = 0  # 0: no limit
    _open: ClassVar[dict[str, set[asyncio.BaseTransport]]] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None
        self._host: str | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if self.max_per_address:
            self._host = self.client[0] if self.client else "unknown"
            open_here = self._open.setdefault(self._host, set())
            for other in [t for t in open_here if t.is_closing()]:
                open_here.discard(other)  # closed, also those a websocket took over
            if len(open_here) >= self.max_per_address:
                transport.write(TOO_MANY)
                transport.close()
                return
            open_here.add(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.transport.get_protocol() is not self:
            self._disarm()  # upgraded to a websocket: its own pings watch it
        elif self.cycle is not None and not self.cycle.response_complete:
            self._disarm()  # the headers are in: the request is being handled
        elif self._header_timer is None:
            self._arm()  # part of the next request's headers: they must arrive in time

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._host is not None:
            open_here = self._open.get(self._host)
            if open_here is not None:
                open_here.discard(self.transport)
                if not open_here:
                    del self._open[self._host]
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_timeout, self._headers_too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        waiting = self.cycle is None or self.cycle.response_complete
        if waiting and self.transport.get_protocol() is self and not self.transport.is_closing():
            self.transport.close()
