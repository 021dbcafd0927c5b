"""The chat of games and tables (``panal.server.chat``), on SQLite and on PostgreSQL + Redis: the
players' and spectators' channels apart, the limits (length, rate, silence), moderators'
deletions seen live, mutes, reports, and ``panal admin``."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

from fastapi.testclient import TestClient

from panal.cli import main
from tests.server.helpers import hello
from tests.server.players_helpers import Person
from tests.server.tables_helpers import new_table


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def online_game(client: TestClient) -> tuple[str, str, str]:
    """An online game between two guests: its id, black's token and white's."""
    created = client.post("/api/games", json={"mode": "online", "color": "black"}).json()
    joined = client.post(f"/api/games/{created['id']}/join", json={"invite": created["invite"]})
    return created["id"], created["token"], joined.json()["token"]


def say(person: Person | TestClient, path: str, text: str, token: str | None = None) -> Any:
    headers = bearer(token) if token else {}
    if isinstance(person, Person):
        return person.post(f"/api/chat/{path}", {"text": text}, headers=headers)
    return person.post(f"/api/chat/{path}", json={"text": text}, headers=headers)


@contextlib.contextmanager
def chat_socket(
    client: TestClient, path: str, token: str | None = None, person: Person | None = None
) -> Iterator[tuple[Any, dict[str, Any]]]:
    """A chat socket that has said hello, and its welcome."""
    headers = person.headers() if person else {}
    with client.websocket_connect(f"/ws/chat/{path}", headers=headers) as ws:
        ws.send_text(hello(token))
        welcome = ws.receive_json()
        assert welcome["type"] == "chat", welcome
        yield ws, welcome


def texts(messages: list[dict[str, Any]]) -> list[str]:
    return [m["text"] for m in messages]


def admin(db_url: str, *args: str) -> int:
    return main(["admin", *args, "--db", db_url])


def test_players_and_spectators_talk_apart(client: TestClient) -> None:
    game, black, white = online_game(client)
    path = f"game/{game}"
    watcher = Person(client)
    watcher.sign_up("watcher")
    assert say(client, path, "I only watch").json()["error"] == "chat_sign_in"  # a guest

    with (
        chat_socket(client, path, white) as (white_ws, white_welcome),
        chat_socket(client, path, person=watcher) as (watch_ws, watch_welcome),
    ):
        assert white_welcome["reads"] == ["players"] and white_welcome["writes"] == "players"
        assert watch_welcome["reads"] == ["spectators"] and watch_welcome["writes"] == "spectators"
        from_black = say(client, path, "good luck", black)
        assert from_black.status_code == 201, from_black.text
        assert from_black.json()["channel"] == "players"
        assert from_black.json()["seat"] == 1 and from_black.json()["author"] is None
        from_watcher = say(watcher, path, "white wins this")
        assert from_watcher.status_code == 201 and from_watcher.json()["channel"] == "spectators"
        assert from_watcher.json()["author"] == "watcher"
        # Each socket receives its own channel only: the players' message reaches white, the
        # spectators' the watcher, and neither the other's.
        said = white_ws.receive_json()
        assert said["type"] == "said" and said["message"]["text"] == "good luck"
        said = watch_ws.receive_json()
        assert said["type"] == "said" and said["message"]["text"] == "white wins this"
        say(client, path, "thanks", white)
        assert white_ws.receive_json()["message"]["text"] == "thanks"

    # History on a new socket: still apart.
    with chat_socket(client, path, black) as (_, welcome):
        assert texts(welcome["messages"]) == ["good luck", "thanks"]
    with chat_socket(client, path) as (_, welcome):  # a guest reads the spectators' chat
        assert texts(welcome["messages"]) == ["white wins this"]
        assert welcome["writes"] is None

    # Once the game is over the players read the spectators' chat too (never the reverse).
    resigned = client.post(f"/api/my-games/{game}/resign", headers=bearer(black))
    if resigned.status_code != 204:  # an online game is resigned on its socket
        with client.websocket_connect(f"/ws/games/{game}") as ws:
            ws.send_text(hello(black))
            ws.receive_json()
            ws.send_json({"type": "resign"})
            ws.receive_json()
    with chat_socket(client, path, white) as (_, welcome):
        assert welcome["over"] and welcome["reads"] == ["players", "spectators"]
        assert texts(welcome["messages"]) == ["good luck", "white wins this", "thanks"]
        assert say(client, path, "gg", white).json()["channel"] == "players"
    with chat_socket(client, path, person=watcher) as (_, welcome):
        assert texts(welcome["messages"]) == ["white wins this"]


def test_a_seat_token_of_another_game_is_refused(client: TestClient) -> None:
    game, _, _ = online_game(client)
    _, other, _ = online_game(client)
    refused = say(client, f"game/{game}", "hello", other)
    assert refused.status_code == 403 and refused.json()["error"] == "bad_token"
    assert say(client, "game/nosuchgame", "hi").json()["error"] == "unknown_game"
    assert say(client, f"elsewhere/{game}", "hi").json()["error"] == "unknown_chat"


def test_length_text_only_and_rate(client: TestClient) -> None:
    game, black, _ = online_game(client)
    path = f"game/{game}"
    too_long = say(client, path, "x" * 301, black)
    assert too_long.status_code == 422 and too_long.json()["error"] == "chat_too_long"
    assert say(client, path, "   \n ", black).json()["error"] == "chat_empty"
    assert say(client, path, "a\x00b", black).json()["error"] == "chat_bad_text"
    markup = "<b onclick='x()'>bold</b>   &amp;\n"
    stored = say(client, path, markup, black)
    assert stored.json()["text"] == "<b onclick='x()'>bold</b> &amp;"  # kept as text, spaces folded
    assert say(client, path, "y" * 300, black).status_code == 201
    # Two messages are in: three more fill the burst of five, the sixth waits.
    for n in range(3):
        assert say(client, path, f"m{n}", black).status_code == 201
    refused = say(client, path, "one more", black)
    assert refused.status_code == 429 and refused.json()["error"] == "slow_down"
    with chat_socket(client, path, black) as (_, welcome):
        assert "one more" not in texts(welcome["messages"])
        assert len(welcome["messages"]) == 5


def test_silence_moderators_delete_mute_and_report(client: TestClient, db_url: str) -> None:
    game, black, white = online_game(client)
    path = f"game/{game}"
    moderator, rude, polite = Person(client), Person(client), Person(client)
    moderator.sign_up("keeper")
    rude.sign_up("rude")
    polite.sign_up("polite")
    assert admin(db_url, "moderator", "add", "nobody") == 1
    assert admin(db_url, "moderator", "add", "keeper") == 0

    with chat_socket(client, path, person=polite) as (polite_ws, _):
        said = say(rude, path, "you all play badly").json()
        assert polite_ws.receive_json()["message"]["id"] == said["id"]
        # Anyone who reads it may report it; a guest who only watches may not.
        report = f"/api/chat/{path}/messages/{said['id']}/report"
        assert polite.post(report).status_code == 204
        assert polite.post(report).status_code == 204  # once per reporter
        assert client.post(report).json()["error"] == "chat_sign_in"
        # The players cannot see it, so cannot report it.
        hidden = client.post(report, headers=bearer(white))
        assert hidden.status_code == 404
        reports = client.app.state.chat.store.reports()  # type: ignore[attr-defined]
        assert [(r["id"], r["reports"]) for r in reports] == [(said["id"], 1)]

        # Only a moderator deletes; everyone watching sees it go.
        gone = f"/api/chat/{path}/messages/{said['id']}"
        assert polite.request("DELETE", gone).json()["error"] == "not_moderator"
        assert moderator.request("DELETE", gone).status_code == 204
        assert polite_ws.receive_json() == {"type": "deleted", "id": said["id"]}
        assert moderator.request("DELETE", gone).status_code == 404

    assert admin(db_url, "reports") == 0
    assert admin(db_url, "silence", "rude", "--hours", "2") == 0
    silenced = say(rude, path, "again")
    assert silenced.status_code == 403 and silenced.json()["error"] == "chat_silenced"
    assert admin(db_url, "silence", "rude", "--hours", "0") == 0
    assert say(rude, path, "sorry").status_code == 201

    # Mutes are kept per account and come with the chat's welcome.
    rude_key = "u:" + say(rude, path, "me again").json()["sender"].partition(":")[2]
    assert polite.request("PUT", f"/api/chat/mutes/{rude_key}").status_code == 204
    assert polite.get("/api/chat/mutes").json() == {"muted": [rude_key]}
    with chat_socket(client, path, person=polite) as (_, welcome):
        assert welcome["muted"] == [rude_key] and welcome["me"] != rude_key
        assert "you all play badly" not in texts(welcome["messages"])
    assert polite.request("PUT", "/api/chat/mutes/nonsense").json()["error"] == "bad_sender"
    assert polite.request("DELETE", f"/api/chat/mutes/{rude_key}").status_code == 204
    assert polite.get("/api/chat/mutes").json() == {"muted": []}
    assert client.get("/api/chat/mutes").status_code == 401
    del black


def test_a_table_has_its_players_and_spectators(client: TestClient) -> None:
    table = new_table(client)
    path = f"table/{table['id']}"
    token = table["token"]
    assert say(client, path, "hola bots", token).json()["channel"] == "players"
    with chat_socket(client, path, token) as (_, welcome):
        assert welcome["reads"] == ["players"]
        assert texts(welcome["messages"]) == ["hola bots"]
    with chat_socket(client, path) as (_, welcome):
        assert welcome["reads"] == ["spectators"] and welcome["messages"] == []


def test_the_chat_socket_only_listens(client: TestClient) -> None:
    game, black, _ = online_game(client)
    with chat_socket(client, f"game/{game}", black) as (ws, _):
        ws.send_json({"type": "say", "text": "hi"})
        assert ws.receive_json()["code"] == "bad_request"
        ws.send_text(json.dumps({"type": "ping"}))
        assert ws.receive_json() == {"type": "pong"}
