"""Named challenges (lobby) and takebacks (online games), issue 25: through the HTTP API and the
websockets, on SQLite and on PostgreSQL + Redis; races between two processes on one database."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from panal.server.app import create_app
from panal.server.hive_games.clock import ClockState, TimeControl
from tests.server.conftest import Backend, first_legal_move
from tests.server.helpers import game_socket, receive_error, receive_state
from tests.server.players_helpers import Person

BLITZ = {"kind": "realtime", "base": 180, "increment": 2}
# White's first move, Black's, White's queen beside its spider (three plies, all legal).
MOVES = ("wS1", "bS1 wS1-", "wQ -wS1")


def _lobby_until(ws: Any, until: Any) -> dict[str, Any]:
    for _ in range(20):
        message = ws.receive_json()
        if message["type"] == "lobby" and until(message):
            return message
    raise AssertionError("no such lobby message")


def _people(client: TestClient, *names: str) -> list[Person]:
    people = [Person(client) for _ in names]
    for person, name in zip(people, names, strict=True):
        person.sign_up(name)
    return people


@pytest.fixture
def second(backend: Backend) -> Iterator[TestClient]:
    """A second server process's app on the same database (and, scale-out, the same Redis)."""
    app = create_app(
        backend.db_url, ai_runner=first_legal_move, ai_workers=0, **backend.app_options()
    )
    with TestClient(app) as client:
        yield client


def test_a_named_challenge_is_seen_only_by_its_addressee_and_sender(
    client: TestClient, second: TestClient, backend: Backend
) -> None:
    ana, bruno, carla = _people(client, "ana_n", "bruno_n", "carla_n")
    guest = Person(client)
    assert guest.post("/api/challenges", {"to": "bruno_n"}).json()["error"] == "sign_in"
    assert ana.post("/api/challenges", {"to": "nobody_here"}).json()["error"] == "unknown_player"
    assert ana.post("/api/challenges", {"to": "ANA_N"}).json()["error"] == "own_challenge"
    # The addressee's lobby page, on the other process when scale-out (the bus carries it).
    there = client if backend.name == "sqlite" else second
    bruno_there = Person(there, session=bruno.session)
    with there.websocket_connect("/ws/lobby", headers=bruno_there.headers()) as lobby:
        assert lobby.receive_json()["named"] == []
        posted = ana.post("/api/challenges", {"to": "Bruno_N", "clock": BLITZ, "color": "black"})
        assert posted.status_code == 201, posted.text
        challenge = posted.json()["challenge"]
        assert challenge["to"] == "bruno_n" and challenge["creator"] == "ana_n"
        live = _lobby_until(lobby, lambda m: m["named"])
        assert [c["id"] for c in live["named"]] == [challenge["id"]]
        assert live["challenges"] == []  # never in the open list
    cid = challenge["id"]
    assert client.get("/api/lobby").json()["challenges"] == []
    assert [c["id"] for c in ana.get("/api/lobby").json()["named"]] == [cid]
    assert [c["id"] for c in bruno.get("/api/lobby").json()["named"]] == [cid]
    assert carla.get("/api/lobby").json()["named"] == []
    with client.websocket_connect("/ws/lobby", headers=carla.headers()) as lobby:
        assert lobby.receive_json()["named"] == []
    # To anyone else it does not exist.
    for stranger in (carla, guest):
        assert stranger.get(f"/api/challenges/{cid}").status_code == 404
        assert stranger.post(f"/api/challenges/{cid}/accept").json()["error"] == "unknown_challenge"
        assert stranger.post(f"/api/challenges/{cid}/decline").status_code == 404
    assert ana.post(f"/api/challenges/{cid}/decline").json()["error"] == "not_yours"
    assert bruno.post(f"/api/challenges/{cid}/cancel", {}).json()["error"] == "not_yours"
    assert bruno.post(f"/api/challenges/{cid}/decline").status_code == 204
    assert ana.get(f"/api/challenges/{cid}").json()["status"] == "declined"
    assert bruno.post(f"/api/challenges/{cid}/accept").json()["error"] == "challenge_taken"
    assert bruno.post(f"/api/challenges/{cid}/decline").json()["error"] == "challenge_closed"
    assert bruno.get("/api/lobby").json()["named"] == []


def test_accepted_withdrawn_expired_and_capped(client: TestClient, db_url: str) -> None:
    ana, bruno = _people(client, "ana_a", "bruno_a")
    body = {"to": "bruno_a", "clock": BLITZ, "rated": True, "color": "white", "takebacks": True}
    accepted = ana.post("/api/challenges", body).json()["id"]
    withdrawn = ana.post("/api/challenges", body).json()["id"]
    expired = ana.post("/api/challenges", body).json()["id"]
    # The caps of open challenges count named ones too (3 per account).
    capped = ana.post("/api/challenges", body)
    assert capped.status_code == 429 and capped.json()["error"] == "too_many_challenges"

    game = bruno.post(f"/api/challenges/{accepted}/accept").json()
    assert game["seat"] == "black"
    state = client.get(f"/api/games/{game['id']}").json()
    assert state["takebacks"] and state["rated"] and state["takeback_offer"] is None
    assert state["players"]["white"]["name"] == "ana_a"
    assert ana.get(f"/api/challenges/{accepted}").json()["game"] == game["id"]

    assert ana.post(f"/api/challenges/{withdrawn}/cancel", {}).status_code == 204
    assert bruno.post(f"/api/challenges/{withdrawn}/accept").json()["error"] == "challenge_taken"

    engine = sa.create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(
            sa.text("UPDATE challenges SET expires_at = 1 WHERE id = :id"), {"id": expired}
        )
    engine.dispose()
    assert bruno.get(f"/api/challenges/{expired}").json()["status"] == "expired"
    assert bruno.get("/api/lobby").json()["named"] == []
    assert bruno.post(f"/api/challenges/{expired}/accept").json()["error"] == "challenge_expired"
    # An expired challenge no longer counts towards the cap.
    assert ana.post("/api/challenges", body).status_code == 201


def test_accept_and_withdraw_at_once_one_wins(client: TestClient, db_url: str) -> None:
    """The addressee accepts while the sender withdraws: the database's conditional ``UPDATE``
    lets exactly one through, and a game exists only if the acceptance won."""
    ana, bruno = _people(client, "ana_w", "bruno_w")
    for _round in range(3):
        cid = ana.post("/api/challenges", {"to": "bruno_w"}).json()["id"]
        answers: dict[str, int] = {}
        barrier = threading.Barrier(2)

        def act(
            person: Person,
            verb: str,
            cid: str = cid,
            barrier: Any = barrier,
            answers: dict[str, int] = answers,
        ) -> None:
            barrier.wait()
            response = client.post(
                f"/api/challenges/{cid}/{verb}", json={}, headers=person.headers()
            )
            answers[verb] = response.status_code

        threads = [
            threading.Thread(target=act, args=(bruno, "accept")),
            threading.Thread(target=act, args=(ana, "cancel")),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        client.cookies.clear()
        assert answers in ({"accept": 200, "cancel": 409}, {"accept": 409, "cancel": 204})
        status = ana.get(f"/api/challenges/{cid}").json()
        assert status["status"] == ("accepted" if answers["accept"] == 200 else "cancelled")
        assert (status["game"] is not None) == (answers["accept"] == 200)


def _named_game(client: TestClient, names: tuple[str, str], **extra: Any) -> Any:
    white, black = _people(client, *names)
    body = {"to": names[1], "color": "white", **extra}
    challenge = white.post("/api/challenges", body).json()["id"]
    game = black.post(f"/api/challenges/{challenge}/accept").json()
    return white, black, game["id"]


def test_a_takeback_declined_then_accepted(client: TestClient) -> None:
    white, black, game_id = _named_game(client, ("ana_t", "bruno_t"), takebacks=True)
    with (
        white.websocket(game_id) as ws_white,
        black.websocket(game_id) as ws_black,
        game_socket(client, game_id) as spectator,
    ):
        receive_state(ws_white)
        receive_state(ws_black)
        receive_state(spectator)
        ws_black.send_json({"type": "offer_takeback"})
        assert receive_error(ws_black)["code"] == "nothing_to_take_back"
        sockets = (ws_white, ws_black)
        for ply, move in enumerate(MOVES, start=1):
            sockets[(ply - 1) % 2].send_json({"type": "move", "move": move})
            receive_state(ws_white, lambda s, ply=ply: s["ply"] == ply)
        # White takes back its queen (Black to move: one ply); Black declines first.
        ws_white.send_json({"type": "offer_takeback"})
        assert receive_state(ws_black, lambda s: s["takeback_offer"] == 0)["ply"] == 3
        ws_white.send_json({"type": "offer_takeback"})
        assert receive_error(ws_white)["code"] == "takeback_offered"
        ws_white.send_json({"type": "accept_takeback"})
        assert receive_error(ws_white)["code"] == "no_takeback_offer"  # not one's own
        ws_black.send_json({"type": "decline_takeback"})
        declined = receive_state(ws_white, lambda s: s["takeback_offer"] is None)
        assert declined["ply"] == 3
        ws_white.send_json({"type": "offer_takeback"})
        receive_state(ws_black, lambda s: s["takeback_offer"] == 0)
        ws_black.send_json({"type": "accept_takeback"})
        back = receive_state(ws_white, lambda s: s["ply"] == 2)
        assert back["turn"] == 0 and back["takeback_offer"] is None
        assert [h["move"] for h in back["history"]] == list(MOVES[:2])
        assert receive_state(spectator, lambda s: s["ply"] == 2)["turn"] == 0
        # On White's own turn, White's last move is two plies back (Black's reply goes too).
        ws_white.send_json({"type": "offer_takeback"})
        receive_state(ws_black, lambda s: s["takeback_offer"] == 0)
        ws_black.send_json({"type": "accept_takeback"})
        assert receive_state(ws_white, lambda s: s["ply"] == 0)["turn"] == 0
        # Play on from there: the record keeps the moves as they stand.
        ws_white.send_json({"type": "move", "move": "wG1"})
        receive_state(ws_black, lambda s: s["ply"] == 1)
    record = client.get(f"/api/games/{game_id}/export?format=gamestring").text
    assert "wG1" in record and "wS1" not in record and "wQ" not in record


def test_a_takeback_in_a_game_without_the_option_is_refused(client: TestClient) -> None:
    white, black, game_id = _named_game(client, ("ana_r", "bruno_r"))
    with white.websocket(game_id) as ws_white, black.websocket(game_id) as ws_black:
        receive_state(ws_white)
        ws_white.send_json({"type": "move", "move": MOVES[0]})
        receive_state(ws_black, lambda s: s["ply"] == 1)
        ws_white.send_json({"type": "offer_takeback"})
        refused = receive_error(ws_white)
        assert refused["code"] == "no_takebacks"
        ws_black.send_json({"type": "accept_takeback"})
        assert receive_error(ws_black)["code"] == "no_takebacks"
    assert client.get(f"/api/games/{game_id}").json()["ply"] == 1
    # Against the AI, undo is the takeback (granted at once); proposals are for two players.
    ai = client.post("/api/games", json={"mode": "ai", "ai_level": "beginner"}).json()
    with game_socket(client, ai["id"], ai["token"]) as ws:
        receive_state(ws)
        ws.send_json({"type": "offer_takeback"})
        assert receive_error(ws)["code"] == "no_takebacks"


def test_invitations_and_rematches_carry_takebacks(client: TestClient) -> None:
    online = client.post("/api/games", json={"mode": "online", "takebacks": True}).json()
    assert client.get(f"/api/games/{online['id']}").json()["takebacks"]
    hotseat = client.post("/api/games", json={"mode": "hotseat", "takebacks": True}).json()
    assert not client.get(f"/api/games/{hotseat['id']}").json()["takebacks"]  # online only
    white, black, game_id = _named_game(client, ("ana_m", "bruno_m"), takebacks=True)
    with white.websocket(game_id) as ws_white, black.websocket(game_id) as ws_black:
        receive_state(ws_white)
        ws_white.send_json({"type": "resign"})
        receive_state(ws_black, lambda s: s["result"] is not None)
        ws_black.send_json({"type": "offer_rematch"})
        receive_state(ws_white, lambda s: s["rematch_offer"] == 1)
        ws_white.send_json({"type": "accept_rematch"})
        rematch = receive_state(ws_black, lambda s: s["rematch_game"] is not None)["rematch_game"]
    assert client.get(f"/api/games/{rematch}").json()["takebacks"]


def test_the_database_decides_a_takeback_racing_a_move(
    client: TestClient, second: TestClient, db_url: str
) -> None:
    """Black accepts White's takeback on one process while moving in another tab on another
    process: both were computed from the same version; one is written, the other refused, and
    the game is never both."""
    white, black, game_id = _named_game(client, ("ana_x", "bruno_x"), takebacks=True)
    black_there = Person(second, session=black.session)
    with white.websocket(game_id) as ws_white, black.websocket(game_id) as ws_black:
        receive_state(ws_white)
        sockets = (ws_white, ws_black)
        for ply, move in enumerate(MOVES, start=1):
            sockets[(ply - 1) % 2].send_json({"type": "move", "move": move})
            receive_state(ws_black, lambda s, ply=ply: s["ply"] == ply)
        ws_white.send_json({"type": "offer_takeback"})
        receive_state(ws_black, lambda s: s["takeback_offer"] == 0)
        with black_there.websocket(game_id) as ws_other:
            assert receive_state(ws_other)["takeback_offer"] == 0  # loaded from the database
            barrier = threading.Barrier(2)

            def send(ws: Any, message: dict[str, Any]) -> None:
                barrier.wait()
                ws.send_json(message)

            threads = [
                threading.Thread(target=send, args=(ws_black, {"type": "accept_takeback"})),
                threading.Thread(target=send, args=(ws_other, {"type": "move", "move": "bQ bS1-"})),
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            refused = _settled(ws_black) + _settled(ws_other)
    engine = sa.create_engine(db_url)
    with engine.connect() as conn:
        plies, offer = conn.execute(
            sa.text("SELECT plies, takeback_offer FROM games WHERE id = :id"), {"id": game_id}
        ).one()
        stored = conn.execute(
            sa.text("SELECT count(*) FROM moves WHERE game_id = :id"), {"id": game_id}
        ).scalar_one()
    engine.dispose()
    assert plies == stored and plies in (2, 4) and offer is None
    # Exactly one of the two was refused (stale, or answered after the other was written).
    assert len(refused) == 1, refused
    assert refused[0]["code"] in ("stale", "no_takeback_offer", "not_your_turn")


def _settled(ws: Any) -> list[dict[str, Any]]:
    """The errors the socket got for its requests: read up to the answer to a ping (a
    socket's requests are answered in order)."""
    ws.send_json({"type": "ping"})
    errors = []
    for _ in range(50):
        message = ws.receive_json()
        if message["type"] == "pong":
            return errors
        if message["type"] == "error":
            errors.append(message)
    raise AssertionError("no pong")


def test_clocks_after_a_takeback() -> None:
    """Real time: the running side is charged until the takeback, nothing is given back, and
    the proposer's clock runs; correspondence: a fresh allowance; back before the first moves:
    a first move's window again."""
    blitz = TimeControl.realtime(180, 2)
    running = ClockState((170.0, 150.0), since=1000.0, running=1)  # Black to move since 1000
    after = running.taken_back(blitz, 1010.0, plies=4)  # White's move taken back: White moves
    assert after.left == (170.0, 140.0) and after.running == 0 and after.since == 1010.0
    assert after.deadline == 1180.0 and not after.opening
    days = TimeControl.correspondence(3)
    late = ClockState((days.initial, 100.0), since=0.0, running=1)
    assert late.taken_back(days, 50.0, plies=2).left == (days.initial, 50.0)
    early = running.taken_back(blitz, 1010.0, plies=0)
    assert early.opening and early.deadline == 1010.0 + blitz.first_move_window
