"""A test SMTP server on loopback (aiosmtpd): what the server mails, as the tests read it."""

from __future__ import annotations

import email
import email.policy
import re
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from typing import Any

from panal.server.mail.settings import MailSettings


class Inbox:
    """The messages the test SMTP server received, in order."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        self.messages.append(message)
        return "250 OK"

    def wait(self, count: int, timeout: float = 10.0) -> list[EmailMessage]:
        """The first ``count`` messages, once they came."""
        deadline = time.monotonic() + timeout
        while len(self.messages) < count:
            assert time.monotonic() < deadline, f"{len(self.messages)} of {count} e-mails came"
            time.sleep(0.02)
        return self.messages[:count]


def body(message: EmailMessage) -> str:
    return str(message.get_content())


def link_token(message: EmailMessage, path: str) -> str:
    """The token of the message's link to ``path`` (``…/reset#<token>``)."""
    found = re.search(rf"{re.escape(path)}#([A-Za-z0-9_-]+)", body(message))
    assert found is not None, body(message)
    return found[1]


@contextmanager
def smtp_server(public_url: str) -> Iterator[tuple[MailSettings, Inbox]]:
    """An SMTP server on a free loopback port, and the settings that send to it."""
    from aiosmtpd.controller import Controller

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        settings = MailSettings.from_url(
            f"smtp://127.0.0.1:{port}?security=none",
            sender="panal@test.invalid",
            public_url=public_url,
        )
        yield settings, inbox
    finally:
        controller.stop()
