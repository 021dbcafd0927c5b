"""The SMTP settings an operator gives, the e-mails' texts in each language, and sending: a
message reaches a test SMTP server on loopback; STARTTLS, when asked for, is required."""

from __future__ import annotations

import asyncio

import pytest

from panal.server.mail.sender import Mailer
from panal.server.mail.settings import MailSettings, mail_settings
from panal.server.mail.texts import LANGUAGES, mail_text
from tests.server.mail_helpers import body, smtp_server

PUBLIC = "https://hive.example.org/"


def test_the_url_names_the_security_port_and_credentials() -> None:
    plain = MailSettings.from_url("smtp://user%40mail.org:p%3Ass@mail.org", public_url=PUBLIC)
    assert (plain.security, plain.port, plain.host) == ("starttls", 587, "mail.org")
    assert (plain.username, plain.password) == ("user@mail.org", "p:ss")
    assert plain.sender == "panal@mail.org" and plain.public_url == "https://hive.example.org"
    assert "p:ss" not in repr(plain)
    tls = MailSettings.from_url("smtps://mail.org", sender="a@b.org", public_url=PUBLIC)
    assert (tls.security, tls.port, tls.sender) == ("ssl", 465, "a@b.org")
    relay = MailSettings.from_url("smtp://127.0.0.1:2525?security=none", public_url=PUBLIC)
    assert (relay.security, relay.port) == ("none", 2525)


@pytest.mark.parametrize(
    ("url", "public", "words"),
    [
        ("http://mail.org", PUBLIC, "smtp://"),
        ("smtp://", PUBLIC, "no host"),
        ("smtp://mail.org?security=maybe", PUBLIC, "unknown security"),
        ("smtps://mail.org?security=none", PUBLIC, "unknown security"),
        ("smtp://mail.org:99999", PUBLIC, "port"),
        ("smtp://mail.org", None, "--public-url"),
        ("smtp://mail.org", "hive.example.org", "https://"),
    ],
)
def test_a_bad_setting_says_what_is_wrong(url: str, public: str | None, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        MailSettings.from_url(url, public_url=public)


def test_the_environment_configures_mail(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PANAL_SMTP_URL", raising=False)
    assert mail_settings(None) is None
    monkeypatch.setenv("PANAL_SMTP_URL", "smtps://u:secret@mail.org")
    monkeypatch.setenv("PANAL_PUBLIC_URL", PUBLIC)
    monkeypatch.setenv("PANAL_MAIL_FROM", "panal@example.org")
    settings = mail_settings(None)
    assert settings is not None and settings.password == "secret"
    assert settings.sender == "panal@example.org"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_e_mail_has_its_words_in_every_language(language: str) -> None:
    for key in ("reset", "verify", "reminder"):
        subject = mail_text(language, f"{key}.subject", opponent="bruno")
        text = mail_text(
            language, f"{key}.body", name="ana", link="L1", minutes=60, hours=12, opponent="bruno"
        )
        text += mail_text(language, f"{key}.body", settings="S1")
        assert "{" not in subject and "L1" in text and "ana" in text, (language, key)
    assert mail_text(None, "reset.subject") == mail_text("en", "reset.subject")
    assert mail_text("pt-BR", "reset.subject") != mail_text("pt-PT", "reset.subject")


def test_a_message_reaches_the_smtp_server_and_starttls_is_required() -> None:
    with smtp_server(PUBLIC) as (settings, inbox):
        mailer = Mailer(settings)
        message = mailer.message("ana@example.org", "Olá", "corpo ção\n")
        assert asyncio.run(mailer.send(message)) is True
        received = inbox.wait(1)[0]
        assert received["Subject"] == "Olá" and body(received).rstrip() == "corpo ção"
        # The test server offers no STARTTLS: asked for, it is not skipped, and nothing is sent.
        strict = Mailer(
            MailSettings.from_url(f"smtp://127.0.0.1:{settings.port}", public_url=PUBLIC)
        )
        assert asyncio.run(strict.send(message)) is False
        assert len(inbox.messages) == 1
    with pytest.raises(ValueError):
        Mailer(settings).message("a@b.org\r\nBcc: x@y.org", "s", "b").as_string()


def test_panal_serve_refuses_smtp_without_a_public_url(capsys: pytest.CaptureFixture[str]) -> None:
    from panal.cli import main

    assert main(["serve", "--smtp-url", "smtp://mail.org", "--db", "unused.sqlite3"]) == 2
    assert "--public-url" in capsys.readouterr().err
