"""Sending e-mail through the standard library's ``smtplib``, in a thread, so the event loop
never waits on an SMTP server.

Why ``smtplib`` and not aiosmtplib: the server sends a few e-mails an hour (resets, address
checks, reminders), never on a player's move; one connection per message in a worker thread
costs nothing that matters at that rate, and the standard library adds no dependency. At most
:data:`AT_ONCE` messages are sent at a time; a failure is logged, not raised to the player (a
reset's answer must not depend on whether a message went out, or it would tell which addresses
have accounts).
"""

from __future__ import annotations

import asyncio
import logging
import smtplib
import ssl
from email.message import EmailMessage

from panal.server.mail.settings import MailSettings

__all__ = ["AT_ONCE", "Mailer"]

log = logging.getLogger(__name__)
AT_ONCE = 2


class Mailer:
    """The process's way out for e-mail (``None`` settings: no SMTP server configured)."""

    def __init__(self, settings: MailSettings | None) -> None:
        self.settings = settings
        self._places = asyncio.Semaphore(AT_ONCE)

    @property
    def configured(self) -> bool:
        return self.settings is not None

    def message(self, to: str, subject: str, body: str) -> EmailMessage:
        """A plain-text message from the configured sender (``EmailMessage`` refuses a header
        with a line break, so an address cannot smuggle headers in)."""
        assert self.settings is not None
        message = EmailMessage()
        message["From"] = self.settings.sender
        message["To"] = to
        message["Subject"] = subject
        message.set_content(body)
        return message

    async def send(self, message: EmailMessage) -> bool:
        """Send one message; whether the SMTP server took it."""
        if self.settings is None:
            return False
        async with self._places:
            try:
                await asyncio.to_thread(_send, self.settings, message)
            except (OSError, smtplib.SMTPException):
                log.exception("e-mail to %s not sent", message["To"])
                return False
        return True


def _send(settings: MailSettings, message: EmailMessage) -> None:
    context = ssl.create_default_context()
    smtp: smtplib.SMTP
    if settings.security == "ssl":
        smtp = smtplib.SMTP_SSL(
            settings.host, settings.port, timeout=settings.timeout, context=context
        )
    else:
        smtp = smtplib.SMTP(settings.host, settings.port, timeout=settings.timeout)
    with smtp:
        if settings.security == "starttls":
            smtp.starttls(context=context)  # raises when the server does not offer it
        if settings.username is not None:
            smtp.login(settings.username, settings.password or "")
        smtp.send_message(message)
