"""Accounts, sessions, the lobby and ratings through the HTTP API, on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from typing import Any, get_args

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from panal.hive import names
from panal.server.database.store import Store
from panal.server.players.attempts import PER_ADDRESS, PER_NAME_AND_ADDRESS, SIGN_UPS_PER_ADDRESS
from panal.server.players.routes import Language, Look
from panal.server.ratings.glicko2 import Glicko2, rate_game
from tests.server.helpers import game_socket, receive_state
from tests.server.players_helpers import ORIGIN, Person

BLITZ = {"kind": "realtime", "base": 180, "increment": 2}


def test_sign_up_in_and_out(client: TestClient, db_url: str) -> None:
    ana = Person(client)
    assert ana.get("/api/account").json() == {"name": None, "language": None, "look": None}
    ana.sign_up("Ana_Bee", language="es", look="football")
    assert ana.session is not None
    assert ana.get("/api/account").json() == {
        "name": "Ana_Bee",
        "language": "es",
        "look": "football",
    }
    signed_out = ana.post("/api/account/signout")
    assert signed_out.status_code == 204
    assert "panal_session=" in signed_out.headers["set-cookie"]  # the cookie is cleared
    # The old token no longer signs anyone in, even if a browser kept it.
    old = ana.session
    ana.session = old
    assert ana.get("/api/account").json()["name"] is None
    again = Person(client)
    assert (
        again.post("/api/account/signin", {"name": "ANA_bee", "password": "correct horse"}).json()[
            "name"
        ]
        == "Ana_Bee"
    )
    assert again.get("/api/account").json()["name"] == "Ana_Bee"
    # The database keeps the password's Argon2 hash and the session's SHA-256, never either.
    store = Store(db_url)
    try:
        with store.engine.connect() as conn:
            stored = conn.execute(text("SELECT password_hash FROM users")).scalar_one()
            keys = list(conn.execute(text("SELECT key FROM sessions")).scalars())
    finally:
        store.close()
    assert stored.startswith("$argon2id$") and "correct horse" not in stored
    assert again.session not in keys and len(keys) == 1 and len(keys[0]) == 64


def test_the_session_cookie_is_http_only_and_same_site(client: TestClient) -> None:
    response = client.post(
        "/api/account/signup",
        json={"name": "cookie", "password": "correct horse"},
        headers={"Origin": ORIGIN},
    )
    cookie = response.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and "path=/" in cookie
    assert "max-age=2592000" in cookie
    client.cookies.clear()
    secure = client.post(
        "https://testserver/api/account/signup",
        json={"name": "cookie2", "password": "correct horse"},
        headers={"Origin": "https://testserver"},
    )
    assert "secure" in secure.headers["set-cookie"].lower()  # over HTTPS: Secure
    client.cookies.clear()


@pytest.mark.parametrize(
    ("name", "password", "error", "reason"),
    [
        ("ab", "correct horse", "bad_name", "too_short"),
        ("ana maria", "correct horse", "bad_name", "characters"),
        ("9lives", "correct horse", "bad_name", "start"),
        ("admin", "correct horse", "bad_name", "reserved"),
        ("ana", "short", "bad_password", "too_short"),
        ("ana", "ANA", "bad_password", "too_short"),
        ("anabelle", "Anabelle", "bad_password", "same_as_name"),
    ],
)
def test_bad_names_and_passwords_say_why(
    client: TestClient, name: str, password: str, error: str, reason: str
) -> None:
    response = Person(client).post("/api/account/signup", {"name": name, "password": password})
    assert response.status_code == 422
    assert response.json()["error"] == error and response.json()["reason"] == reason


def test_names_are_unique_without_regard_to_case(client: TestClient) -> None:
    Person(client).sign_up("QueenBee")
    for taken in ("queenbee", "QUEENBEE", "QueenBee"):
        response = Person(client).post(
            "/api/account/signup", {"name": taken, "password": "another password"}
        )
        assert response.status_code == 409
        assert response.json()["error"] == "name_taken"
    Person(client).sign_up("Queen_Bee")  # another name


def test_at_the_same_time_one_sign_up_gets_a_name(client: TestClient) -> None:
    results: list[int] = []
    start = threading.Barrier(4)

    def sign_up(name: str) -> None:
        start.wait()
        response = client.post(
            "/api/account/signup",
            json={"name": name, "password": "correct horse"},
            headers={"Origin": ORIGIN},
        )
        results.append(response.status_code)

    threads = [
        threading.Thread(target=sign_up, args=(n,)) for n in ("Twin", "twin", "TWIN", "tWin")
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    client.cookies.clear()
    assert sorted(results) == [201, 409, 409, 409]


def test_guessing_passwords_is_slowed_per_name_and_per_address(client: TestClient) -> None:
    Person(client).sign_up("target")
    guesser = Person(client)
    for _ in range(PER_NAME_AND_ADDRESS):
        wrong = guesser.post("/api/account/signin", {"name": "target", "password": "guess it"})
        assert wrong.status_code == 401 and wrong.json()["error"] == "bad_credentials"
    slowed = guesser.post("/api/account/signin", {"name": "TARGET", "password": "correct horse"})
    assert slowed.status_code == 429  # even the right password waits: nothing is checked
    assert slowed.json()["error"] == "slow_down"
    assert int(slowed.headers["Retry-After"]) >= 1
    # A name that does not exist costs the same and counts against the address.
    for index in range(PER_ADDRESS - PER_NAME_AND_ADDRESS):
        response = guesser.post(
            "/api/account/signin", {"name": f"nobody{index}", "password": "guess it"}
        )
        assert response.status_code == 401
    from_address = guesser.post("/api/account/signin", {"name": "someone", "password": "x" * 8})
    assert from_address.status_code == 429


def test_sign_ups_from_one_address_are_slowed(client: TestClient) -> None:
    for index in range(SIGN_UPS_PER_ADDRESS):
        Person(client).sign_up(f"many{index}")
    slowed = Person(client).post(
        "/api/account/signup", {"name": "onemore", "password": "correct horse"}
    )
    assert slowed.status_code == 429 and slowed.json()["error"] == "slow_down"


def test_requests_from_other_sites_are_refused(client: TestClient) -> None:
    ana = Person(client)
    ana.sign_up("forgery")
    for headers in ({"Origin": "http://evil.example"}, {"Origin": ""}, {}):
        response = client.post(
            "/api/challenges",
            json={"clock": BLITZ},
            headers={**{k: v for k, v in headers.items() if v}, "Cookie": ana.headers()["Cookie"]},
        )
        assert response.status_code == 403 and response.json()["error"] == "bad_origin"
    # Signing someone into another account from another site is refused too.
    forged = client.post(
        "/api/account/signin",
        json={"name": "forgery", "password": "correct horse"},
        headers={"Origin": "http://evil.example"},
    )
    assert forged.status_code == 403
    # Programs without a browser (no cookie, no Origin) use the API as before.
    assert client.post("/api/games", json={"mode": "hotseat"}).status_code == 201
    assert (
        client.post(
            "/api/games", json={"mode": "hotseat"}, headers={"Referer": f"{ORIGIN}/new"}
        ).status_code
        == 201
    )


def test_preferences_are_remembered_per_account(client: TestClient) -> None:
    ana = Person(client)
    ana.sign_up("prefs")
    assert ana.request("PATCH", "/api/account", json={"language": "pt-BR"}).status_code == 200
    assert ana.request("PATCH", "/api/account", json={"look": "football"}).status_code == 200
    other_browser = Person(client)
    other_browser.post("/api/account/signin", {"name": "prefs", "password": "correct horse"})
    assert other_browser.get("/api/account").json() == {
        "name": "prefs",
        "language": "pt-BR",
        "look": "football",
    }
    bad = ana.request("PATCH", "/api/account", json={"language": "klingon"})
    assert bad.status_code == 422
    assert (
        Person(client).request("PATCH", "/api/account", json={"look": "classic"}).status_code == 401
    )


def test_a_guest_claims_their_games_by_signing_up(client: TestClient) -> None:
    guest = Person(client)
    online = guest.post("/api/games", {"mode": "online", "color": "black"}).json()
    ai_game = guest.post("/api/games", {"mode": "ai", "ai_level": "beginner"}).json()
    hotseat = guest.post("/api/games", {"mode": "hotseat"}).json()
    stranger = guest.post("/api/games", {"mode": "online"}).json()  # another's token: not shown
    claims = [
        {"game": online["id"], "token": online["token"]},
        {"game": ai_game["id"], "token": ai_game["token"]},
        {"game": hotseat["id"], "token": hotseat["token"]},
        {"game": stranger["id"], "token": "not the token"},
    ]
    signed = guest.sign_up("claimer", claim=claims)
    assert sorted(signed["claimed"]) == sorted([online["id"], ai_game["id"]])
    profile = client.get("/api/users/claimer").json()
    assert {g["id"] for g in profile["playing"]} == {online["id"], ai_game["id"]}
    state = client.get(f"/api/games/{online['id']}").json()
    assert state["players"] == {"white": None, "black": {"name": "claimer", "rating": None}}
    # Signed in, the account holds the seat on any device, without the token.
    with guest.websocket(online["id"]) as ws:
        assert receive_state(ws)["you"] == ["black"]


def test_a_rated_challenge_from_the_lobby_to_a_result(client: TestClient) -> None:
    ana, bruno, guest = Person(client), Person(client), Person(client)
    ana.sign_up("ana")
    bruno.sign_up("bruno")
    refused = guest.post("/api/challenges", {"clock": BLITZ, "rated": True})
    assert refused.status_code == 401 and refused.json()["error"] == "sign_in"
    untimed = ana.post("/api/challenges", {"rated": True})
    assert untimed.status_code == 422 and untimed.json()["error"] == "rated_untimed"
    posted = ana.post("/api/challenges", {"clock": BLITZ, "rated": True, "color": "white"})
    assert posted.status_code == 201, posted.text
    challenge = posted.json()["id"]
    lobby = client.get("/api/lobby").json()
    assert [c["id"] for c in lobby["challenges"]] == [challenge]
    listed = lobby["challenges"][0]
    assert listed["creator"] == "ana" and listed["creator_rating"] == "1500?"
    assert listed["clock"]["speed"] == "blitz" and listed["rated"] and "token" not in listed
    assert ana.post(f"/api/challenges/{challenge}/accept").json()["error"] == "own_challenge"
    assert guest.post(f"/api/challenges/{challenge}/accept").status_code == 401
    accepted = bruno.post(f"/api/challenges/{challenge}/accept")
    assert accepted.status_code == 200, accepted.text
    game = accepted.json()
    assert game["seat"] == "black"
    assert client.get("/api/lobby").json()["challenges"] == []
    assert [g["id"] for g in client.get("/api/lobby").json()["games"]] == [game["id"]]

    state = client.get(f"/api/games/{game['id']}").json()
    assert state["rated"] and state["clock"]["speed"] == "blitz"
    assert state["players"]["white"]["name"] == "ana"
    assert state["clocks"]["running"] is None  # no clock runs before each side's first move
    with ana.websocket(game["id"]) as white, bruno.websocket(game["id"]) as black:
        assert receive_state(white)["you"] == ["white"]
        assert receive_state(black)["you"] == ["black"]
        white.send_json({"type": "move", "move": "wS1"})
        receive_state(black, lambda s: s["ply"] == 1)
        black.send_json({"type": "move", "move": "bS1 wS1-"})  # two plies: a game, rated
        receive_state(black, lambda s: s["ply"] == 2)
        black.send_json({"type": "resign"})
        over = receive_state(white, lambda s: s["result"] is not None)
    assert over["result"] == "WhiteWins" and over["end_reason"] == "resignation"
    # Both ratings changed by Glicko-2, once.
    white_after, black_after = rate_game(Glicko2(), Glicko2(), 1.0)
    assert over["players"]["white"]["change"] == round(white_after.rating - 1500)
    assert over["players"]["black"]["change"] == round(black_after.rating - 1500)
    profile = client.get("/api/users/ANA").json()
    (rating,) = profile["ratings"]
    assert rating["category"] == "hive:blitz" and rating["games"] == 1
    assert rating["rating"] == pytest.approx(white_after.rating, abs=0.05)
    assert rating["deviation"] == pytest.approx(white_after.deviation, abs=0.05)
    assert rating["provisional"] and rating["shown"] == f"{round(white_after.rating)}?"
    assert profile["results"] == {"games": 1, "wins": 1, "draws": 0, "losses": 0}
    assert [g["id"] for g in profile["recent"]] == [game["id"]]
    assert profile["recent"][0]["opponent"] == {"name": "bruno"}
    assert profile["recent"][0]["rating_change"] == pytest.approx(
        white_after.rating - 1500, abs=0.05
    )
    assert [h["game"] for h in profile["history"]] == [game["id"]]
    assert client.get("/api/users/bruno").json()["results"]["losses"] == 1
    assert client.get("/api/users/nobody").status_code == 404
    export = client.get(f"/api/games/{game['id']}/export?format=pgn").text
    assert '[White "ana"]' in export and '[Black "bruno"]' in export
    assert '[TimeControl "180+2"]' in export


def test_casual_games_and_guests_leave_ratings_alone(client: TestClient) -> None:
    ana, bruno, guest = Person(client), Person(client), Person(client)
    ana.sign_up("casual_a")
    bruno.sign_up("casual_b")
    posted = guest.post("/api/challenges", {"clock": BLITZ})  # a guest's casual challenge
    assert posted.status_code == 201
    guest_token = posted.json()["token"]
    game = bruno.post(f"/api/challenges/{posted.json()['id']}/accept").json()
    with guest.websocket(game["id"], guest_token) as ws:
        state = receive_state(ws)
        assert len(state["you"]) == 1 and not state["rated"]
        ws.send_json({"type": "resign"})
        receive_state(ws, lambda s: s["result"] is not None)
    casual = ana.post("/api/challenges", {"clock": BLITZ, "rated": False}).json()
    game = bruno.post(f"/api/challenges/{casual['id']}/accept").json()
    with bruno.websocket(game["id"]) as ws:
        receive_state(ws)
        ws.send_json({"type": "resign"})
        receive_state(ws, lambda s: s["result"] is not None)
    for name in ("casual_a", "casual_b"):
        profile = client.get(f"/api/users/{name}").json()
        assert profile["ratings"] == [] and profile["history"] == []
    assert client.get("/api/users/casual_b").json()["results"]["games"] == 2


def test_exactly_one_acceptor_wins_a_challenge(client: TestClient) -> None:
    creator = Person(client)
    creator.sign_up("popular")
    takers = [Person(client) for _ in range(6)]
    for index, taker in enumerate(takers):
        taker.sign_up(f"taker{index}")
    for _round in range(3):
        challenge = creator.post("/api/challenges", {"clock": BLITZ}).json()["id"]
        answers: list[int] = []
        start = threading.Barrier(len(takers))

        def accept(
            person: Person,
            out: list[int] = answers,
            cid: str = challenge,
            barrier: threading.Barrier = start,
        ) -> None:
            barrier.wait()
            response = client.post(f"/api/challenges/{cid}/accept", headers=person.headers())
            out.append(response.status_code)

        threads = [threading.Thread(target=accept, args=(taker,)) for taker in takers]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        client.cookies.clear()
        assert sorted(answers) == [200] + [409] * (len(takers) - 1)
    assert len(client.get("/api/users/popular").json()["playing"]) == 3


def test_challenges_are_cancelled_by_their_creator_only(client: TestClient) -> None:
    guest, other = Person(client), Person(client)
    posted = guest.post("/api/challenges", {"color": "black"}).json()
    assert other.post(f"/api/challenges/{posted['id']}/cancel", {}).status_code == 403
    wrong = other.post(f"/api/challenges/{posted['id']}/cancel", {"token": "guess"})
    assert wrong.status_code == 403
    assert (
        guest.post(f"/api/challenges/{posted['id']}/cancel", {"token": posted["token"]}).status_code
        == 204
    )
    assert client.get("/api/lobby").json()["challenges"] == []
    assert other.post(f"/api/challenges/{posted['id']}/accept").json()["error"] == "challenge_taken"
    assert other.post("/api/challenges/nope/accept").status_code == 404
    for bad in (
        {"clock": {"kind": "realtime", "base": 5}},
        {"game_type": "Chess"},
        {"colour": "red"},
    ):
        assert guest.post("/api/challenges", bad).status_code in (400, 422)


def test_the_lobby_socket_follows_challenges(client: TestClient) -> None:
    ana, bruno = Person(client), Person(client)
    ana.sign_up("watcher")
    bruno.sign_up("joiner")
    with client.websocket_connect("/ws/lobby") as lobby:
        assert lobby.receive_json() == {
            "type": "lobby",
            "challenges": [],
            "games": [],
            "named": [],
        }
        posted = ana.post("/api/challenges", {"clock": BLITZ, "rated": True}).json()
        seen = _lobby_until(lobby, lambda m: m["type"] == "lobby" and m["challenges"])
        assert seen["challenges"][0]["id"] == posted["id"]
        game = bruno.post(f"/api/challenges/{posted['id']}/accept").json()
        accepted = _lobby_until(lobby, lambda m: m["type"] == "accepted")
        assert accepted == {"type": "accepted", "challenge": posted["id"], "game": game["id"]}
        playing = _lobby_until(lobby, lambda m: m["type"] == "lobby" and m["games"])
        assert playing["challenges"] == []
        assert playing["games"][0]["white"] in ("watcher", "joiner")


def _lobby_until(ws: Any, until: Any) -> dict[str, Any]:
    for _ in range(20):
        message = ws.receive_json()
        if until(message):
            return message
    raise AssertionError("no such lobby message")


def rated_blitz(client: TestClient, white: str, black: str) -> tuple[Person, Person, Any]:
    """Two new accounts, and the rated blitz game of White's challenge that Black accepted."""
    ana, bruno = Person(client), Person(client)
    ana.sign_up(white)
    bruno.sign_up(black)
    posted = ana.post("/api/challenges", {"clock": BLITZ, "rated": True, "color": "white"}).json()
    return ana, bruno, bruno.post(f"/api/challenges/{posted['id']}/accept").json()


def test_rematch_swaps_colours_and_keeps_the_seats(client: TestClient) -> None:
    ana, bruno, first = rated_blitz(client, "rematch_a", "rematch_b")
    with ana.websocket(first["id"]) as white, bruno.websocket(first["id"]) as black:
        receive_state(white)
        receive_state(black)
        white.send_json({"type": "offer_rematch"})
        assert white.receive_json()["code"] == "not_over"
        white.send_json({"type": "resign"})
        receive_state(black, lambda s: s["result"] is not None)
        black.send_json({"type": "offer_rematch"})
        assert receive_state(white, lambda s: s["rematch_offer"] == 1)
        white.send_json({"type": "accept_rematch"})
        done = receive_state(black, lambda s: s["rematch_game"] is not None)
    second = done["rematch_game"]
    state = client.get(f"/api/games/{second}").json()
    assert state["players"]["white"]["name"] == "rematch_b"
    assert state["players"]["black"]["name"] == "rematch_a"
    assert state["rated"] and state["clock"]["base"] == 180
    assert state["clocks"]["running"] is None and state["clocks"]["first_move_deadline"]
    # A guest's seat token of the first game holds the swapped seat of the rematch.
    with game_socket(client, second, first["token"]) as ws:
        assert receive_state(ws)["you"] == ["white"]


def test_the_archive_names_the_accounts_with_rated_and_clock(client: TestClient) -> None:
    """Issue 25: a finished game between accounts was listed with no names (``white: null``)."""
    _, bruno, game = rated_blitz(client, "archive_a", "archive_b")
    with bruno.websocket(game["id"]) as black:
        receive_state(black)
        black.send_json({"type": "resign"})
        receive_state(black, lambda s: s["result"] is not None)
    listed = {g["id"]: g for g in client.get("/api/archive").json()["games"]}[game["id"]]
    assert listed["white"] == "archive_a" and listed["black"] == "archive_b"
    assert listed["rated"] is True
    assert listed["clock"] == {**BLITZ, "speed": "blitz"}


def test_account_languages_and_looks_are_the_uis() -> None:
    assert get_args(Language) == names.LANGUAGES
    assert get_args(Look) == names.LOOKS
