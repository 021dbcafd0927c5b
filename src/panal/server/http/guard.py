"""uvicorn's HTTP/1.1 protocol with two guards that it lacks.

* **Header time-out**: a connection must send a request's complete headers within
  ``header_timeout`` seconds of connecting (or of its previous response), else it is closed. A
  client that opens connections and sends nothing, or a header a byte at a time, holds nothing
  for long. (Bodies have their own time-out: :class:`panal.server.http.body_limit.BodyLimit`.)
* **Connections per address**: at most ``max_per_address`` open connections (websockets
  included) from one client address; the next gets ``429`` and is closed. Behind a load balancer
  every client has the balancer's address: set it to 0 there and let the balancer limit.

And its sans-I/O websocket protocol without a pause after every message
(:class:`SteadyWebSocketProtocol`).
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["GuardedH11Protocol", "steady_websocket_protocol"]

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


# Messages a websocket may have waiting for the app before its socket stops being read.
WEBSOCKET_BACKLOG = 16


def steady_websocket_protocol() -> type[Any] | None:
    """uvicorn's sans-I/O websocket protocol, reading on while few messages wait (None where
    this uvicorn lacks it, or its attributes are not the ones this relies on).

    uvicorn stops reading a websocket after every message and starts again when the app takes
    it: two ``epoll_ctl`` system calls per message received, about a tenth of a move's server
    time (benchmarks/server_latency.py, under a profiler). Here reading stops only once
    ``WEBSOCKET_BACKLOG`` messages wait, so a client that floods is still held back."""
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import (
            WebSocketsSansIOProtocol,
        )
    except ImportError:
        return None

    class SteadyWebSocketProtocol(WebSocketsSansIOProtocol):  # type: ignore[misc]
        def data_received(self, data: bytes) -> None:
            if self.read_paused or self.queue.qsize() >= WEBSOCKET_BACKLOG:
                super().data_received(data)
                return
            # Marked as paused while the frames are read, uvicorn does not pause the socket;
            # the mark goes after, so that taking a message does not resume it either.
            self.read_paused = True
            try:
                super().data_received(data)
            finally:
                self.read_paused = False

    if not {"read_paused", "queue"} <= set(WebSocketsSansIOProtocol.__init__.__code__.co_names):
        return None  # another uvicorn: its own behaviour
    return SteadyWebSocketProtocol
