"""Account care on SQLite and on PostgreSQL + Redis: a reset e-mail reaches a test SMTP server
on loopback and its link sets a new password once; an expired link is refused; a change of
password signs out the other sessions; a deleted account's games stay with its name gone; bad
input gets its own error and changes nothing; a correspondence reminder is mailed once."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from panal.server.app import create_app
from panal.server.chat.chat_store import chat_messages_table
from panal.server.hive_games.game_store import games_table
from panal.server.players.account_store import DELETED_NAME
from panal.server.players.accounts import session_key
from panal.server.players.attempts import MAILS_PER_TARGET
from tests.server.conftest import Backend, first_legal_move
from tests.server.helpers import receive_state
from tests.server.mail_helpers import Inbox, body, link_token, smtp_server
from tests.server.players_helpers import Person

PASSWORD = "correct horse"


@pytest.fixture
def mailing(backend: Backend) -> Iterator[tuple[TestClient, Inbox]]:
    with smtp_server("http://testserver") as (settings, inbox):
        app = create_app(
            backend.db_url,
            ai_runner=first_legal_move,
            levels=("beginner",),
            ai_workers=1,
            mail=settings,
            **backend.app_options(),
        )
        with TestClient(app) as client:
            yield client, inbox


def _with_email(client: TestClient, inbox: Inbox, name: str, address: str) -> Person:
    person = Person(client)
    person.sign_up(name, PASSWORD, language="es")
    sent = person.post("/api/account/email", {"email": address.upper()})
    assert sent.status_code == 202, sent.text
    message = inbox.wait(len(inbox.messages) + 1)[-1]
    assert message["To"] == address and "panal" in message["Subject"]
    token = link_token(message, "/verify")
    assert person.post("/api/account/email/verify", {"token": token}).json() == {"email": address}
    assert person.get("/api/account/settings").json()["email"] == address
    return person


def test_a_reset_link_sets_a_new_password_once(mailing: tuple[TestClient, Inbox]) -> None:
    client, inbox = mailing
    ana = _with_email(client, inbox, "resetana", "ana@example.org")
    phone = Person(client)
    assert (
        phone.post("/api/account/signin", {"name": "resetana", "password": PASSWORD}).status_code
        == 200
    )
    stranger = Person(client)
    asked = stranger.post("/api/account/reset", {"email": "ana@example.org", "language": "en"})
    unknown = stranger.post("/api/account/reset", {"email": "nobody@example.org"})
    assert asked.status_code == unknown.status_code == 202  # the same answer: no enumeration
    message = inbox.wait(2)[1]
    assert message["To"] == "ana@example.org"
    assert message["Subject"] == "Elige una contraseña nueva en panal"  # the account's language
    assert "resetana" in body(message)
    token = link_token(message, "http://testserver/reset")
    short = stranger.post("/api/account/reset/confirm", {"token": token, "password": "short"})
    assert short.status_code == 422 and short.json()["reason"] == "too_short"
    done = stranger.post("/api/account/reset/confirm", {"token": token, "password": "new horse 2"})
    assert done.status_code == 200 and done.json()["name"] == "resetana"
    assert stranger.get("/api/account").json()["name"] == "resetana"  # signed in afresh
    assert ana.get("/api/account").json()["name"] is None  # every other session signed out
    assert phone.get("/api/account").json()["name"] is None
    again = stranger.post("/api/account/reset/confirm", {"token": token, "password": "third one"})
    assert again.status_code == 410 and again.json()["error"] == "bad_link"
    old = Person(client).post("/api/account/signin", {"name": "resetana", "password": PASSWORD})
    assert old.status_code == 401
    new = Person(client).post(
        "/api/account/signin", {"name": "resetana", "password": "new horse 2"}
    )
    assert new.status_code == 200
    time.sleep(0.2)
    assert len(inbox.messages) == 2  # nothing was sent for the unknown address


def test_an_expired_or_made_up_link_is_refused(mailing: tuple[TestClient, Inbox]) -> None:
    client, inbox = mailing
    _with_email(client, inbox, "expiring", "exp@example.org")
    care = client.app.state.account_mail  # type: ignore[attr-defined]
    user_id = care.store.account_by_email("exp@example.org").id
    care.store.new_token(session_key("expired-token-0123456789"), user_id, "reset", -1.0)
    for token in ("expired-token-0123456789", "made-up-token-0123456789"):
        answer = Person(client).post(
            "/api/account/reset/confirm", {"token": token, "password": "new horse 2"}
        )
        assert answer.status_code == 410 and answer.json()["error"] == "bad_link"
    signin = Person(client).post("/api/account/signin", {"name": "expiring", "password": PASSWORD})
    assert signin.status_code == 200  # the password did not change


def test_resets_are_limited_per_address(mailing: tuple[TestClient, Inbox]) -> None:
    client, _ = mailing
    asking = Person(client)
    for _ in range(MAILS_PER_TARGET):
        assert asking.post("/api/account/reset", {"email": "x@example.org"}).status_code == 202
    refused = asking.post("/api/account/reset", {"email": "x@example.org"})
    assert refused.status_code == 429 and refused.json()["error"] == "slow_down"
    bad = asking.post("/api/account/reset", {"email": "not an address"})
    assert bad.status_code == 422 and bad.json()["error"] == "bad_email"


def test_changing_the_password_signs_out_the_other_sessions(client: TestClient) -> None:
    laptop, phone = Person(client), Person(client)
    laptop.sign_up("changing", PASSWORD)
    assert (
        phone.post("/api/account/signin", {"name": "changing", "password": PASSWORD}).status_code
        == 200
    )
    wrong = laptop.post(
        "/api/account/password", {"current": "not it at all", "password": "new one 12"}
    )
    assert wrong.status_code == 401 and wrong.json()["error"] == "bad_credentials"
    same = laptop.post("/api/account/password", {"current": PASSWORD, "password": "CHANGING"})
    assert same.status_code == 422 and same.json()["reason"] == "same_as_name"
    assert phone.get("/api/account").json()["name"] == "changing"  # nothing changed yet
    changed = laptop.post("/api/account/password", {"current": PASSWORD, "password": "new one 12"})
    assert changed.status_code == 204
    assert laptop.get("/api/account").json()["name"] == "changing"  # this session stays
    assert phone.get("/api/account").json()["name"] is None
    signin = Person(client).post(
        "/api/account/signin", {"name": "changing", "password": "new one 12"}
    )
    assert signin.status_code == 200


def test_without_smtp_there_is_no_reset_by_e_mail(client: TestClient) -> None:
    person = Person(client)
    assert person.get("/api/account/settings").json()["mail"] is False
    answer = person.post("/api/account/reset", {"email": "a@example.org"})
    assert answer.status_code == 503 and answer.json()["error"] == "mail_off"
    person.sign_up("nomail", PASSWORD)
    assert person.post("/api/account/email", {"email": "a@example.org"}).status_code == 503


def test_a_deleted_accounts_games_stay_with_its_name_gone(client: TestClient) -> None:
    ana, bruno = Person(client), Person(client)
    ana.sign_up("leaving")
    bruno.sign_up("staying")
    posted = ana.post(
        "/api/challenges", {"clock": {"kind": "realtime", "base": 180, "increment": 2}}
    )
    game = bruno.post(f"/api/challenges/{posted.json()['id']}/accept").json()
    bot_token = ana.post("/api/bots", {"name": "exitbot"}).json()["token"]
    as_bot = {"Authorization": f"Bearer {bot_token}"}
    assert client.get("/api/account", headers=as_bot).json()["name"] == "exitbot"
    open_challenge = ana.post("/api/challenges", {}).json()["id"]
    # Said in a game of its own: chatting loads a game's room, and a room in memory keeps the
    # names it loaded until it is reloaded (docs/web.md, "Account care and e-mail").
    chatted = ana.post("/api/games", {"mode": "online"}).json()["id"]
    assert ana.post(f"/api/chat/game/{chatted}", {"text": "good luck"}).status_code == 201
    wrong = ana.post("/api/account/delete", {"password": "not my password"})
    assert wrong.status_code == 401
    assert client.get("/api/users/leaving").status_code == 200  # nothing changed
    assert ana.post("/api/account/delete", {"password": PASSWORD}).status_code == 204
    assert ana.get("/api/account").json()["name"] is None
    assert client.get("/api/users/leaving").status_code == 404
    players = client.get(f"/api/games/{game['id']}").json()["players"]
    names = {players["white"]["name"], players["black"]["name"]}
    assert names == {DELETED_NAME, "staying"}
    playing = client.get("/api/users/staying").json()["playing"]
    assert [g["opponent"] for g in playing] == [{"name": DELETED_NAME}]
    assert client.get("/api/players", params={"q": "leav"}).json()["players"] == []
    assert client.get("/api/account", headers=as_bot).json()["name"] is None  # token revoked
    assert client.get(f"/api/challenges/{open_challenge}").json()["status"] == "cancelled"
    gone = Person(client).post("/api/account/signin", {"name": "leaving", "password": PASSWORD})
    assert gone.status_code == 401
    Person(client).sign_up("leaving", "another horse")  # the name is free again
    engine = client.app.state.account_mail.store.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        authors = conn.execute(select(chat_messages_table.c.author)).scalars().all()
    assert authors == [DELETED_NAME]  # what it said stays, under the neutral label
    assert client.get(f"/api/games/{game['id']}").json()["players"] == players


def test_a_correspondence_reminder_is_mailed_once(mailing: tuple[TestClient, Inbox]) -> None:
    client, inbox = mailing
    ana = _with_email(client, inbox, "slowana", "slow@example.org")
    bruno = Person(client)
    bruno.sign_up("quickbruno")
    posted = ana.post(
        "/api/challenges", {"clock": {"kind": "correspondence", "days": 1}, "color": "white"}
    )
    game = bruno.post(f"/api/challenges/{posted.json()['id']}/accept").json()
    care = client.app.state.account_mail  # type: ignore[attr-defined]
    portal = client.portal  # type: ignore[attr-defined]

    def most_of_the_day_gone() -> None:
        now = time.time()
        with care.store.engine.begin() as conn:  # 13 hours of the move's day gone
            conn.execute(
                update(games_table)
                .where(games_table.c.id == game["id"])
                .values(clock_since=now - 13 * 3600, deadline=now + 11 * 3600)
            )

    assert portal.call(care.remind) == 0  # a fresh day: not yet
    most_of_the_day_gone()
    assert portal.call(care.remind) == 1  # White (ana) to move
    assert portal.call(care.remind) == 0  # once per move
    message = inbox.wait(2)[1]
    assert message["To"] == "slow@example.org" and "quickbruno" in message["Subject"]
    assert message["Subject"] == "Te toca jugar contra quickbruno en panal"  # ana's language
    assert f"http://testserver/game/{game['id']}" in body(message)
    assert "http://testserver/account" in body(message)
    with ana.websocket(game["id"]) as white, bruno.websocket(game["id"]) as black:
        white.send_json({"type": "move", "move": "wS1"})
        receive_state(black, lambda s: s["ply"] == 1)
        most_of_the_day_gone()
        assert portal.call(care.remind) == 0  # Black has no address
        black.send_json({"type": "move", "move": "bS1 wS1-"})
        receive_state(white, lambda s: s["ply"] == 2)
    most_of_the_day_gone()
    off = ana.request("PATCH", "/api/account/settings", json={"reminders": False})
    assert off.json()["reminders"] is False
    assert portal.call(care.remind) == 0  # switched off
    ana.request("PATCH", "/api/account/settings", json={"reminders": True})
    assert portal.call(care.remind) == 1  # a new move awaited: a new reminder
    assert len(inbox.wait(3)) == 3


def test_an_operator_prints_a_reset_link_without_smtp(
    client: TestClient, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from panal.cli import main

    person, other_device = Person(client), Person(client)
    person.sign_up("forgetful", PASSWORD)
    signed = other_device.post("/api/account/signin", {"name": "forgetful", "password": PASSWORD})
    assert signed.status_code == 200, signed.text
    assert main(["account", "reset-password", "nobody_here", "--db", db_url]) == 1
    assert "no account named 'nobody_here'" in capsys.readouterr().err
    assert (
        main(
            [
                "account",
                "reset-password",
                "Forgetful",
                "--url",
                "https://hive.example/",
                "--db",
                db_url,
            ]
        )
        == 0
    )
    link = capsys.readouterr().out.strip()
    assert link.startswith("https://hive.example/reset#")
    token = link.split("#", 1)[1]
    # The player opens it and chooses the password (the operator never knows it), once.
    helper = Person(client)
    answer = helper.post("/api/account/reset/confirm", {"token": token, "password": "a new horse"})
    assert answer.status_code == 200 and answer.json()["name"] == "forgetful", answer.text
    again = helper.post("/api/account/reset/confirm", {"token": token, "password": "another horse"})
    assert again.status_code == 410 and again.json()["error"] == "bad_link"
    assert other_device.get("/api/account").json()["name"] is None  # signed out
    old = Person(client).post("/api/account/signin", {"name": "forgetful", "password": PASSWORD})
    assert old.status_code == 401
    fresh = Person(client).post(
        "/api/account/signin", {"name": "forgetful", "password": "a new horse"}
    )
    assert fresh.status_code == 200, fresh.text
