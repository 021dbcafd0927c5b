"""The websocket's delta protocol (``?deltas=1``): one whole state on connect, then deltas that
each apply to the state just before; a delta that does not follow is repaired with ``sync``; a
reconnect starts again from a whole state. A delta applied the way the browser does
(``socket.js``'s ``applyDelta``) must give exactly the state a fresh connection receives."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi.testclient import TestClient

from panal.server.room.outbox import Connection
from tests.server.helpers import game_socket, receive_error


def apply_delta(state: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any] | None:
    """``socket.js``'s ``applyDelta``: the next state, or None when ``delta`` does not follow."""
    if delta.get("seq") != state["seq"] + 1:
        return None
    fields = {k: v for k, v in delta.items() if k not in ("type", "moves")}
    following = {**state, **fields}
    moves = delta.get("moves")
    if moves is not None:
        following["history"] = state["history"][: moves["keep"]] + moves["add"]
    return following


class Follower:
    """One websocket followed as the browser follows it: the state it has built."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.state: dict[str, Any] = {}
        self.deltas: list[dict[str, Any]] = []
        self.next()
        assert self.state["type"] == "state"

    def next(self, *, drop: bool = False) -> dict[str, Any]:
        """Read the next game message and apply it (``drop``: read it and forget it, as if it
        were lost); returns the message."""
        while True:
            message = self.ws.receive_json()
            if message["type"] == "error":
                raise AssertionError(f"unexpected error: {message}")
            if message["type"] in ("state", "delta"):
                break
        if drop:
            return message
        if message["type"] == "state":
            self.state = message
        else:
            self.deltas.append(message)
            following = apply_delta(self.state, message)
            if following is None:
                raise GapError(message)
            self.state = following
        return message


class GapError(Exception):
    pass


def online_game(client: TestClient) -> tuple[str, str, str]:
    created = client.post("/api/games", json={"mode": "online", "game_type": "Base+MLP"}).json()
    joined = client.post(
        f"/api/games/{created['id']}/join", json={"invite": created["invite"]}
    ).json()
    return created["id"], created["token"], joined["token"]


def fresh_state(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    """What a new connection (without deltas) receives first."""
    with game_socket(client, game_id, token) as ws:
        message = ws.receive_json()
    assert message["type"] == "state"
    return message


def same_game(followed: dict[str, Any], fresh: dict[str, Any]) -> None:
    """The state built from deltas equals a fresh one (the server's time aside; a delta says
    ``"legal": null`` where a whole state leaves ``legal`` out)."""

    def shown(state: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in state.items() if k != "now" and (k, v) != ("legal", None)}

    assert shown(followed) == shown(fresh)


def test_deltas_carry_what_changed_and_build_the_same_state(client: TestClient) -> None:
    game_id, white_token, black_token = online_game(client)
    with (
        game_socket(client, game_id, white_token, deltas=True) as white_ws,
        game_socket(client, game_id, black_token, deltas=True) as black_ws,
        game_socket(client, game_id, deltas=True) as spectator_ws,
    ):
        white, black, spectator = Follower(white_ws), Follower(black_ws), Follower(spectator_ws)
        assert white.state["legal"] and "legal" not in black.state
        # The spectator's arrival is announced a moment later, as a delta.
        for follower in (white, black):
            assert follower.next()["spectators"] == 1
        assert spectator.next()["spectators"] == 1

        moves = ["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-", "wA1 -wQ"]
        for ply, move in enumerate(moves, start=1):
            mover = white if ply % 2 else black
            mover.ws.send_json({"type": "move", "move": move, "ply": ply - 1})
            deltas = {name: f.next() for name, f in (("w", white), ("b", black), ("s", spectator))}
            for delta in deltas.values():
                assert delta["type"] == "delta"
                assert delta["ply"] == ply
                assert delta["moves"]["keep"] == ply - 1
                assert [entry["move"] for entry in delta["moves"]["add"]] == [move]
                # Only what changed: the game's fixed fields are not sent again.
                assert not {"options", "headers", "mode", "seats", "id"} & delta.keys()
            assert "legal" not in deltas["s"]
            to_move = deltas["b"] if ply % 2 else deltas["w"]
            moved = deltas["w"] if ply % 2 else deltas["b"]
            assert to_move["legal"] and moved["legal"] is None

        same_game(white.state, fresh_state(client, game_id, white_token))
        same_game(black.state, fresh_state(client, game_id, black_token))
        fresh_spectator = fresh_state(client, game_id)
        same_game(spectator.state, fresh_spectator)
        assert [e["move"] for e in spectator.state["history"]] == moves
        # A delta is a fraction of the whole state.
        assert len(str(spectator.deltas[-1])) * 3 < len(str(fresh_spectator))


def test_a_lost_delta_is_repaired_by_sync(client: TestClient) -> None:
    game_id, white_token, black_token = online_game(client)
    with (
        game_socket(client, game_id, white_token, deltas=True) as white_ws,
        game_socket(client, game_id, black_token, deltas=True) as black_ws,
    ):
        white, black = Follower(white_ws), Follower(black_ws)
        white.ws.send_json({"type": "move", "move": "wG1"})
        white.next()
        black.next(drop=True)  # lost on the way
        black.ws.send_json({"type": "move", "move": "bG1 wG1-"})
        white.next()
        try:
            black.next()
        except GapError as gap:
            assert gap.args[0]["seq"] == black.state["seq"] + 2
        else:
            raise AssertionError("the delta after a lost one must not apply")
        # As the browser does: ask for the whole state, ignore deltas until it comes.
        black.ws.send_json({"type": "sync"})
        assert black.next()["type"] == "state"
        assert [e["move"] for e in black.state["history"]] == ["wG1", "bG1 wG1-"]
        white.ws.send_json({"type": "move", "move": "wQ -wG1"})
        white.next()
        assert black.next()["type"] == "delta"  # deltas follow the whole state again
        assert black.state["legal"]
        same_game(black.state, fresh_state(client, game_id, black_token))


def test_a_reconnect_mid_game_starts_from_a_whole_state(client: TestClient) -> None:
    game_id, white_token, black_token = online_game(client)
    with game_socket(client, game_id, white_token, deltas=True) as white_ws:
        white = Follower(white_ws)
        with game_socket(client, game_id, black_token, deltas=True) as black_ws:
            black = Follower(black_ws)
            white.ws.send_json({"type": "move", "move": "wS1"})
            white.next()
            black.next()
            black.ws.send_json({"type": "move", "move": "bS1 wS1-"})
            white.next()
            black.next()
            held = black.state
        # Black's connection dropped; White plays on.
        white.ws.send_json({"type": "move", "move": "wQ -wS1"})
        white.next()
        with game_socket(client, game_id, black_token, deltas=True) as black_ws:
            black = Follower(black_ws)  # a whole state, whatever Black held before
            assert black.state["seq"] > held["seq"]
            assert [e["move"] for e in black.state["history"]] == ["wS1", "bS1 wS1-", "wQ -wS1"]
            assert black.state["legal"]
            black.ws.send_json({"type": "move", "move": "bQ bS1-", "ply": 3})
            black.next()
            white.next()
            same_game(white.state, fresh_state(client, game_id, white_token))
            same_game(black.state, fresh_state(client, game_id, black_token))


def test_an_undo_takes_moves_back_in_a_delta(client: TestClient) -> None:
    created = client.post("/api/games", json={"mode": "hotseat"}).json()
    with game_socket(client, created["id"], created["token"], deltas=True) as ws:
        player = Follower(ws)
        for move in ("wG1", "bG1 wG1-", "wQ -wG1"):
            ws.send_json({"type": "move", "move": move})
            player.next()
        ws.send_json({"type": "undo"})
        delta = player.next()
        assert delta["moves"] == {"keep": 2, "add": []}
        assert delta["ply"] == 2 and delta["legal"]
        ws.send_json({"type": "resign"})
        delta = player.next()
        assert "moves" not in delta and delta["result"] == "BlackWins"
        assert delta["legal"] is None
        ws.send_json({"type": "undo"})
        assert receive_error(ws)["code"] == "game_over"
        same_game(player.state, fresh_state(client, created["id"], created["token"]))


def test_a_page_without_deltas_still_gets_whole_states(client: TestClient) -> None:
    created = client.post("/api/games", json={"mode": "hotseat"}).json()
    with game_socket(client, created["id"], created["token"]) as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "move", "move": "wG1"})
        state = ws.receive_json()
        assert state["type"] == "state"
        assert [e["move"] for e in state["history"]] == ["wG1"]


def test_a_delta_queued_behind_an_unsent_state_becomes_the_whole_state() -> None:
    """A slow socket's outbox keeps one state: a delta after an unsent one cannot apply to what
    the client holds, so both are replaced by the whole new state."""
    sent: list[str] = []

    async def send(text: str) -> None:
        sent.append(text)

    async def scenario() -> None:
        connection = Connection(send, frozenset(), deltas=True)
        connection.post_state('{"type":"state","seq":1}')
        connection.post_state('{"type":"delta","seq":2}', lambda: '{"type":"state","seq":2}')
        connection.post('{"type":"pong"}')
        connection.post_state('{"type":"delta","seq":3}', lambda: '{"type":"state","seq":3}')
        pump = asyncio.ensure_future(connection.pump())
        await asyncio.sleep(0)
        connection.close()
        await pump

    asyncio.run(scenario())
    assert sent == ['{"type":"state","seq":2}', '{"type":"pong"}', '{"type":"delta","seq":3}']
