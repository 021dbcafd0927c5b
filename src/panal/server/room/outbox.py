"""A websocket's outbox: what the server has to send to one connection, drained by its own
task, so that no burst of changes can push a player off (a newer state replaces an unsent older
one) and a connection that falls far behind is closed rather than queued without end."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable

__all__ = ["MAX_QUEUED_MESSAGES", "Connection", "Outbox"]

MAX_QUEUED_MESSAGES = 64


class Outbox:
    """What the server has to send to one websocket, sent in order by :meth:`pump`: messages
    are queued (a connection that falls far behind is closed, ``too_slow``); a kind of room may
    also hold a state to build only when the sender is free (:meth:`has_state` and
    :meth:`take_state`), sent after the queued messages."""

    def __init__(self, send: Callable[[str], Awaitable[None]]) -> None:
        self.send = send
        self.closed = False
        self.too_slow = False
        self._outbox: deque[str] = deque()
        self._wake = asyncio.Event()

    def post(self, text: str) -> None:
        if self.closed:
            return
        if len(self._outbox) >= MAX_QUEUED_MESSAGES:
            self.too_slow = True  # the browser reconnects and resumes
            self.close()
            return
        self._outbox.append(text)
        self._posted()
        self._wake.set()

    def wake(self) -> None:
        """There is something new to send (a state :meth:`has_state` now reports)."""
        self._wake.set()

    def close(self) -> None:
        self.closed = True
        self._wake.set()

    def has_state(self) -> bool:
        """Whether a state waits to be built and sent once the queue is empty."""
        return False

    def take_state(self) -> str:
        """Build the state :meth:`has_state` reported, which then no longer waits."""
        raise NotImplementedError

    def _posted(self) -> None:
        """A message was queued (:class:`Connection` notes that its last one is no state)."""

    def _sent_all(self) -> None:
        """The queue has just been emptied."""

    async def pump(self) -> None:
        """Send until the connection is closed: queued messages first, then a built state."""
        while True:
            while not self._outbox and not self.has_state():
                if self.closed:
                    return
                self._wake.clear()
                await self._wake.wait()
            if self.closed:
                return
            if self._outbox:
                text = self._outbox.popleft()
                if not self._outbox:
                    self._sent_all()
                await self.send(text)
            else:
                await self.send(self.take_state())


class Connection(Outbox):
    """One websocket of a Hive game: who it seats, and its outbox (a newer state replaces an
    unsent one).

    ``deltas``: after the first full state, the client takes ``delta`` messages (each applies
    to the state just before it). ``spectator``: counted among the game's spectators (default:
    a connection without seats; a player watching, or a reader of a record, is not one)."""

    def __init__(
        self,
        send: Callable[[str], Awaitable[None]],
        seats: frozenset[int],
        *,
        deltas: bool = False,
        spectator: bool | None = None,
    ) -> None:
        super().__init__(send)
        self.seats = seats
        self.deltas = deltas
        self.spectator = not seats if spectator is None else spectator
        self._last_is_state = False

    def _posted(self) -> None:
        self._last_is_state = False

    def _sent_all(self) -> None:
        self._last_is_state = False

    def post_state(self, text: str, full: Callable[[], str] | None = None) -> None:
        """Queue a state, or a delta (``full`` then gives the whole state it leads to)."""
        if self.closed:
            return
        if self._last_is_state and self._outbox:
            # The unsent older state is out of date: replace it. A delta applies to that older
            # state, which the client will not see: the whole new state replaces both.
            self._outbox[-1] = text if full is None else full()
        else:
            self._outbox.append(text)
            self._last_is_state = True
        self._wake.set()
