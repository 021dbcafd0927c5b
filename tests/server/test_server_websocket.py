"""Websockets: two players and a spectator, reconnects, illegal moves, tokens, malformed input."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from panal.hive.rules import Rule
from panal.server.http import websocket_session
from tests.server.helpers import FORCED_PASS, game_socket, receive_error, receive_state


def online_game(client: TestClient) -> tuple[str, str, str]:
    """An online game with both seats taken: (id, white token, black token)."""
    created = client.post("/api/games", json={"mode": "online", "game_type": "Base+MLP"}).json()
    joined = client.post(
        f"/api/games/{created['id']}/join", json={"invite": created["invite"]}
    ).json()
    return created["id"], created["token"], joined["token"]


def play(ws: Any, move: str) -> dict[str, Any]:
    ws.send_json({"type": "move", "move": move})
    return receive_state(ws, lambda s: bool(s["history"]) and s["history"][-1]["move"] == move)


def stored_moves(client: TestClient, game_id: str) -> list[str]:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    loaded = hub.store.load_game(game_id)
    assert loaded is not None
    return loaded[1]


def test_two_players_and_a_spectator(client: TestClient) -> None:
    game_id, white_token, black_token = online_game(client)
    with (
        game_socket(client, game_id, white_token) as white,
        game_socket(client, game_id, black_token) as black,
        game_socket(client, game_id) as spectator,
    ):
        first = receive_state(white)
        assert first["you"] == ["white"]
        assert first["legal"]
        assert receive_state(black)["you"] == ["black"]
        watching = receive_state(spectator)
        assert watching["you"] == []
        assert "legal" not in watching

        white.send_json({"type": "move", "piece": "wG1", "to": [0, 0]})
        for ws in (white, black, spectator):
            state = receive_state(ws, lambda s: s["ply"] == 1)
            assert state["history"][0] == {
                "ply": 1,
                "color": 0,
                "move": "wG1",
                "piece": "wG1",
                "from": None,
                "to": [0, 0],
            }
            assert state["turn"] == 1

        black.send_json({"type": "move", "move": "bG1 wG1-"})
        state = receive_state(spectator, lambda s: s["ply"] == 2)
        assert state["history"][-1]["to"] == [1, 0]
        assert state["spectators"] == 1

        # Only the seated player to move may move; spectators never.
        spectator.send_json({"type": "move", "move": "wQ -wG1"})
        assert receive_error(spectator)["code"] == "spectator"
        black.send_json({"type": "move", "move": "bQ bG1-"})
        assert receive_error(black)["code"] == "not_your_turn"
        assert stored_moves(client, game_id) == ["wG1", "bG1 wG1-"]


def test_illegal_moves_name_the_rule_and_change_nothing(client: TestClient) -> None:
    created = client.post("/api/games", json={"mode": "hotseat"}).json()
    with game_socket(client, created["id"], created["token"]) as ws:
        receive_state(ws)
        play(ws, "wS1")
        play(ws, "bS1 wS1-")
        ws.send_json({"type": "move", "move": "wQ bS1-"})
        error = receive_error(ws)
        assert error["code"] == "illegal_move"
        assert error["rule"] == Rule.PLACE_NOT_ENEMY.key
        ws.send_json({"type": "move", "move": "wS1 bS1-"})
        assert receive_error(ws)["rule"] == Rule.QUEEN_BEFORE_MOVING.key
        ws.send_json({"type": "move", "piece": "wA1", "to": [5, 5]})
        error = receive_error(ws)
        assert error["rule"] == Rule.PLACE_TOUCH_OWN.key
        ws.send_json({"type": "move", "move": "wZ9 bS1-"})
        error = receive_error(ws)
        assert error["code"] == "invalid_move"
        assert (error["reason"], error["details"]) == ("unknown_piece", {"name": "wZ9"})
        ws.send_json({"type": "move", "move": "wA1 bS1-?"})
        error = receive_error(ws)
        assert (error["reason"], error["details"]) == ("bad_reference", {"reference": "bS1-?"})
        ws.send_json({"type": "move", "move": "wA1 bS1- wS1"})
        assert receive_error(ws)["reason"] == "syntax"
        ws.send_json({"type": "move", "piece": "xx", "to": [0, 0]})
        assert receive_error(ws)["reason"] == "unknown_piece"
        ws.send_json({"type": "move", "move": "pass"})
        assert receive_error(ws)["rule"] == Rule.PASS_WITH_MOVES.key
        ws.send_json({"type": "sync"})
        state = receive_state(ws)
        assert state["ply"] == 2
    assert stored_moves(client, created["id"]) == ["wS1", "bS1 wS1-"]


def test_queen_must_be_placed_by_the_fourth_turn(client: TestClient) -> None:
    created = client.post("/api/games", json={"mode": "hotseat"}).json()
    with game_socket(client, created["id"], created["token"]) as ws:
        receive_state(ws)
        for move in ("wS1", "bS1 wS1-", "wS2 -wS1", "bS2 bS1-", "wB1 -wS2", "bB1 bS2-"):
            state = play(ws, move)
        assert state["must_place_queen"] is True
        assert {m["piece"] for m in state["legal"]} == {"wQ"}
        ws.send_json({"type": "move", "move": "wB2 -wB1"})
        error = receive_error(ws)
        assert error["rule"] == "queen_by_fourth"


def test_reconnect_resumes_where_the_game_is(client: TestClient) -> None:
    game_id, white_token, black_token = online_game(client)
    with game_socket(client, game_id, white_token) as white:
        receive_state(white)
        with game_socket(client, game_id, black_token) as black:
            receive_state(black)
            play(white, "wS1")
            play(black, "bS1 wS1-")
        # Black's connection dropped; White plays on.
        play(white, "wQ -wS1")
        with game_socket(client, game_id, black_token) as black:
            state = receive_state(black)
            assert [e["move"] for e in state["history"]] == ["wS1", "bS1 wS1-", "wQ -wS1"]
            assert state["legal"]
            play(black, "bQ bS1-")
        assert receive_state(white, lambda s: s["ply"] == 4)["turn"] == 0


def test_wrong_token_and_unknown_game_close_the_socket(client: TestClient) -> None:
    game_id, _, _ = online_game(client)
    other = client.post("/api/games", json={"mode": "hotseat"}).json()
    with game_socket(client, game_id, other["token"]) as ws:
        assert ws.receive_json()["code"] == "bad_token"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    with client.websocket_connect("/ws/games/nosuchgame") as ws:
        assert ws.receive_json()["code"] == "unknown_game"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


def test_the_seat_token_in_the_url_is_not_honoured(client: TestClient) -> None:
    """The token goes in the first message ("hello"); one in the URL, where proxies and access
    logs would record it, holds no seat."""
    game_id, white_token, _ = online_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}?token={white_token}") as ws:
        ws.send_json({"type": "hello"})
        watching = receive_state(ws)
        assert watching["you"] == [] and "legal" not in watching
        ws.send_json({"type": "move", "move": "wS1"})
        assert receive_error(ws)["code"] == "spectator"
    with client.websocket_connect(f"/ws/games/{game_id}?token={white_token}") as ws:
        ws.send_json({"type": "move", "move": "wS1"})  # no hello: refused, not played
        assert ws.receive_json()["code"] == "bad_request"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4400
    assert stored_moves(client, game_id) == []
    with game_socket(client, game_id, white_token) as ws:
        assert receive_state(ws)["you"] == ["white"]  # the same token, said hello, holds White


@pytest.mark.parametrize(
    "first",
    [
        '{"type": "move", "move": "wS1"}',
        '{"type": "move", "move": "wS1", "token": "TOKEN"}',
        '{"type": "hello", "token": 42}',
        '{"type": "hello", "token": "' + "x" * 201 + '"}',
        '{"token": "TOKEN"}',
        '["hello", "TOKEN"]',
        "not json",
        "[" * 5000,
    ],
)
def test_a_bad_hello_closes_the_socket_and_changes_nothing(client: TestClient, first: str) -> None:
    game_id, white_token, _ = online_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_text(first.replace("TOKEN", white_token))
        error = ws.receive_json()
        assert error["code"] == "bad_request" and "hello" in error["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4400
    assert stored_moves(client, game_id) == []


def test_a_late_hello_closes_the_socket(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(websocket_session, "HELLO_SECONDS", 0.2)
    game_id, white_token, _ = online_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}?token={white_token}") as ws:
        error = ws.receive_json()  # nothing sent: the server gives up waiting
        assert error["code"] == "no_hello" and error["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4408
    assert stored_moves(client, game_id) == []


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("not json at all", "bad_json"),
        ("[1, 2]", "bad_request"),
        ('"move"', "bad_request"),
        ('{"type": "castle"}', "bad_request"),
        ('{"type": 5}', "bad_request"),
        ('{"type": "move"}', "bad_request"),
        ('{"type": "move", "move": 42}', "bad_request"),
        ('{"type": "move", "move": ""}', "bad_request"),
        ('{"type": "move", "move": "' + "w" * 100 + '"}', "bad_request"),
        ('{"type": "move", "piece": "wQ", "to": "here"}', "bad_request"),
        ('{"type": "move", "piece": "wQ", "to": [1]}', "bad_request"),
        ('{"type": "move", "piece": "wQ", "to": [1, 2, 3]}', "bad_request"),
        ('{"type": "move", "piece": "wQ", "to": [true, false]}', "bad_request"),
        ('{"type": "move", "piece": "wQ", "to": [99999999, 0]}', "bad_request"),
        ('{"type": "move", "piece": "wQ", "to": [0.5, 0]}', "bad_request"),
        ('{"type": "move", "piece": "wQ", "to": [0, 0], "carry": "yes"}', "bad_request"),
        ('{"type": "move", "piece": "xx", "to": [0, 0]}', "invalid_move"),
        ('{"type": "move", "piece": ["wQ"], "to": [0, 0]}', "bad_request"),
        ('{"type": "move", "move": "wQ", "ply": "0"}', "bad_request"),
        ('{"type": "move", "move": "wQ", "ply": 7}', "stale"),
        ('{"type": "move", "move": "' + "x" * 5000 + '"}', "too_large"),
        ('{"type": "accept_draw"}', "no_draw_offer"),
        ('{"type": "decline_draw"}', "no_draw_offer"),
    ],
)
def test_malformed_messages_get_an_error_and_change_nothing(
    client: TestClient, message: str, code: str
) -> None:
    created = client.post("/api/games", json={"mode": "hotseat"}).json()
    with game_socket(client, created["id"], created["token"]) as ws:
        receive_state(ws)
        ws.send_text(message)
        error = receive_error(ws)
        assert error["code"] == code, error
        assert error["message"]
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
        ws.send_bytes(b"\x00\x01")
        assert receive_error(ws)["code"] == "bad_request"
        ws.send_json({"type": "sync"})
        assert receive_state(ws)["ply"] == 0
    assert stored_moves(client, created["id"]) == []


def test_hotseat_undo_resign(client: TestClient) -> None:
    created = client.post("/api/games", json={"mode": "hotseat"}).json()
    with game_socket(client, created["id"], created["token"]) as ws:
        receive_state(ws)
        ws.send_json({"type": "undo"})
        assert receive_error(ws)["code"] == "nothing_to_undo"
        play(ws, "wS1")
        play(ws, "bS1 wS1-")
        ws.send_json({"type": "undo"})
        state = receive_state(ws, lambda s: s["ply"] == 1)
        assert state["turn"] == 1
        assert stored_moves(client, created["id"]) == ["wS1"]
        ws.send_json({"type": "resign"})  # the side to move (Black) resigns
        state = receive_state(ws, lambda s: s["result"] is not None)
        assert (state["result"], state["end_reason"]) == ("WhiteWins", "resignation")
        ws.send_json({"type": "move", "move": "bS1 wS1-"})
        assert receive_error(ws)["code"] == "game_over"
        ws.send_json({"type": "undo"})
        assert receive_error(ws)["code"] == "game_over"


def test_draw_offer_and_acceptance_online(client: TestClient) -> None:
    game_id, white_token, black_token = online_game(client)
    with (
        game_socket(client, game_id, white_token) as white,
        game_socket(client, game_id, black_token) as black,
    ):
        receive_state(white)
        receive_state(black)
        white.send_json({"type": "offer_draw"})
        assert receive_state(black, lambda s: s["draw_offer"] == 0)
        white.send_json({"type": "accept_draw"})
        assert receive_error(white)["code"] == "no_draw_offer"
        black.send_json({"type": "decline_draw"})
        assert receive_state(white, lambda s: s["draw_offer"] is None)
        black.send_json({"type": "offer_draw"})
        receive_state(white, lambda s: s["draw_offer"] == 1)
        white.send_json({"type": "undo"})
        assert receive_error(white)["code"] == "no_undo"
        white.send_json({"type": "accept_draw"})
        state = receive_state(black, lambda s: s["result"] is not None)
        assert (state["result"], state["end_reason"]) == ("Draw", "agreement")


def test_forced_pass_is_offered_and_recorded(client: TestClient) -> None:
    created = client.post(
        "/api/import", json={"text": FORCED_PASS, "mode": "hotseat", "tournament_opening": True}
    ).json()
    with game_socket(client, created["id"], created["token"]) as ws:
        state = receive_state(ws)
        assert state["must_pass"] is True
        state = play(ws, "pass")
        assert state["history"][-1] == {
            "ply": 12,
            "color": 1,
            "move": "pass",
            "piece": None,
            "to": None,
        }
        assert state["must_pass"] is False


def test_ai_game_with_a_stand_in_ai_answers_and_undoes_in_pairs(client: TestClient) -> None:
    created = client.post("/api/games", json={"mode": "ai", "ai_level": "beginner"}).json()
    with game_socket(client, created["id"], created["token"]) as ws:
        receive_state(ws)
        play(ws, "wS1")
        state = receive_state(ws, lambda s: s["ply"] == 2)
        assert state["history"][-1]["color"] == 1
        assert state["legal"]
        ws.send_json({"type": "offer_draw"})
        assert receive_error(ws)["code"] == "no_draw"
        ws.send_json({"type": "undo"})  # takes back the AI's reply and the player's move
        state = receive_state(ws, lambda s: s["ply"] == 0)
        assert state["turn"] == 0
        ws.send_json({"type": "move", "move": "bS1"})
        assert receive_error(ws)["code"] in ("illegal_move", "not_your_turn")
    assert stored_moves(client, created["id"]) == []


def test_a_player_watching_their_own_game_is_not_a_spectator(client: TestClient) -> None:
    game_id, white_token, black_token = online_game(client)
    watch = {"type": "hello", "token": black_token, "watch": True}
    with game_socket(client, game_id, white_token) as white:
        receive_state(white)
        with client.websocket_connect(f"/ws/games/{game_id}") as watcher:
            watcher.send_json(watch)
            seen = receive_state(watcher)
            assert seen["you"] == [] and "legal" not in seen  # the spectators' view
            watcher.send_json({"type": "move", "move": "wS1"})
            assert receive_error(watcher)["code"] == "spectator"
            with game_socket(client, game_id) as spectator:  # someone else: one spectator
                receive_state(spectator)
                assert receive_state(white, lambda s: s["spectators"] > 0)["spectators"] == 1
                assert client.get(f"/api/games/{game_id}").json()["spectators"] == 1
        # a token that holds no seat may still watch, as a spectator
        with client.websocket_connect(f"/ws/games/{game_id}") as stranger:
            stranger.send_json({**watch, "token": "not-a-seat-token"})
            assert receive_state(stranger)["you"] == []
            assert client.get(f"/api/games/{game_id}").json()["spectators"] == 1
    # "watch" is true or false
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect(f"/ws/games/{game_id}") as bad,
    ):
        bad.send_json({**watch, "watch": "yes"})
        assert receive_error(bad)["code"] == "bad_request"
        bad.receive_json()


def test_readers_of_a_record_are_not_spectators(client: TestClient) -> None:
    record = client.post("/api/import", json={"text": FORCED_PASS}).json()
    with game_socket(client, record["id"]) as reader, game_socket(client, record["id"]) as other:
        assert receive_state(reader)["spectators"] == 0
        receive_state(other)
        assert client.get(f"/api/games/{record['id']}").json()["spectators"] == 0
