"""The SMTP server an operator configures: ``panal serve --smtp-url`` or ``PANAL_SMTP_URL``.

``smtp://user:password@host:587`` sends with STARTTLS (required: a server that does not offer
it is refused rather than sent the password in clear), ``smtps://user:password@host:465`` over
TLS from the first byte; ``?security=none`` (plain, for a relay on this machine or a test
server) is only taken when asked for by name. User and password are URL-quoted (``%40`` for an
``@``). ``--mail-from`` / ``PANAL_MAIL_FROM`` is the sender (default ``panal@<host>``);
``--public-url`` / ``PANAL_PUBLIC_URL`` (required with SMTP) is the address the e-mailed links
point to: it is never taken from a request, whose ``Host`` header is the client's to choose (a
reset asked for with ``Host: evil.example`` would otherwise mail the victim a link that hands
the token to that site).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Literal
from urllib.parse import parse_qs, unquote, urlsplit

__all__ = ["MailSettings", "Security", "mail_settings"]

Security = Literal["starttls", "ssl", "none"]
_DEFAULT_PORTS = {"starttls": 587, "ssl": 465, "none": 25}


@dataclass(frozen=True)
class MailSettings:
    host: str
    port: int
    security: Security
    sender: str
    public_url: str
    username: str | None = None
    password: str | None = None
    timeout: float = 20.0

    def __repr__(self) -> str:  # never print the password
        return f"MailSettings({self.security}://{self.host}:{self.port}, from {self.sender})"

    @classmethod
    def from_url(
        cls, url: str, *, sender: str | None = None, public_url: str | None = None
    ) -> MailSettings:
        """The settings an ``smtp://`` or ``smtps://`` URL names; ``ValueError`` saying what is
        wrong with it."""
        parts = urlsplit(url.strip())
        if parts.scheme not in ("smtp", "smtps"):
            raise ValueError("an SMTP URL begins with smtp:// (STARTTLS) or smtps:// (TLS)")
        if not parts.hostname:
            raise ValueError("the SMTP URL names no host")
        query = parse_qs(parts.query)
        security: str = query.get("security", ["ssl" if parts.scheme == "smtps" else "starttls"])[0]
        if security not in _DEFAULT_PORTS or (parts.scheme == "smtps" and security != "ssl"):
            raise ValueError(f"unknown security {security!r}: starttls, ssl or none")
        try:
            port = parts.port or _DEFAULT_PORTS[security]
        except ValueError as exc:
            raise ValueError(f"bad SMTP port: {exc}") from None
        if not public_url:
            raise ValueError(
                "e-mailed links need the server's public address: --public-url https://… "
                "(or PANAL_PUBLIC_URL)"
            )
        if urlsplit(public_url).scheme not in ("http", "https") or not urlsplit(public_url).netloc:
            raise ValueError("the public URL begins with https:// (or http://) and names a host")
        return cls(
            host=parts.hostname,
            port=port,
            security=security,  # type: ignore[arg-type]
            sender=sender or f"panal@{parts.hostname}",
            username=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password else None,
            public_url=public_url.rstrip("/"),
        )


def mail_settings(
    url: str | None, sender: str | None = None, public_url: str | None = None
) -> MailSettings | None:
    """The command line's settings, else the environment's (``PANAL_SMTP_URL``,
    ``PANAL_MAIL_FROM``, ``PANAL_PUBLIC_URL``); None when no SMTP server is configured."""
    url = url or os.environ.get("PANAL_SMTP_URL")
    if not url:
        return None
    return MailSettings.from_url(
        url,
        sender=sender or os.environ.get("PANAL_MAIL_FROM"),
        public_url=public_url or os.environ.get("PANAL_PUBLIC_URL"),
    )
