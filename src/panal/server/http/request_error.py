"""The one error a request is refused with, over HTTP and on a websocket alike."""

from __future__ import annotations

from typing import Any

__all__ = ["RequestError"]


class RequestError(Exception):
    """A request refused with a reason; nothing was changed.

    ``code`` is stable for clients and translations; ``status`` is the HTTP status to use. An
    illegal move names the ``rule`` it breaks, a MoveString that does not parse the ``reason``
    (:class:`panal.hive.InvalidMoveError`'s code); ``details`` fill in either's sentence.
    """

    def __init__(
        self,
        code: str,
        message: str,
        status: int = 400,
        *,
        rule: str | None = None,
        reason: str | None = None,
        details: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.rule = rule
        self.reason = reason
        self.details = details or {}

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.rule is not None:
            body["rule"] = self.rule
        if self.reason is not None:
            body["reason"] = self.reason
        if self.rule is not None or self.reason is not None or self.details:
            body["details"] = self.details
        return body
