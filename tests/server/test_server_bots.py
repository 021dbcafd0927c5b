"""Bot accounts through the API: tokens made, refused and revoked by their owner, a bot that
plays as itself and nobody else, bot games rated in their own pool, the engine ladder's pairs."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from panal.hive import Game
from tests.server.helpers import hello, receive_state
from tests.server.players_helpers import Person

BLITZ = {"kind": "realtime", "base": 180, "increment": 2}


class Bot:
    """A bot program: its token, no cookie, no Origin (it is no browser)."""

    def __init__(self, client: TestClient, token: str) -> None:
        self.client = client
        self.token = token

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def request(self, method: str, path: str, body: Any = None) -> Any:
        return self.client.request(method, path, json=body, headers=self.headers())

    def websocket(self, game_id: str) -> Any:
        return self.client.websocket_connect(f"/ws/games/{game_id}", headers=self.headers())


def make_bot(owner: Person, name: str, **limits: Any) -> Bot:
    body: dict[str, Any] = {"name": name}
    if limits:
        body["limits"] = limits
    made = owner.post("/api/bots", body)
    assert made.status_code == 201, made.text
    token = made.json()["token"]
    assert token.startswith("bot_") and made.json()["bot"]["token"] == "active"
    return Bot(owner.client, token)


def test_an_owner_makes_refreshes_and_revokes_a_bots_token(client: TestClient) -> None:
    ana = Person(client)
    ana.sign_up("ana")
    assert Person(client).post("/api/bots", {"name": "nobot"}).status_code == 401
    bot = make_bot(ana, "anabot")
    me = bot.request("GET", "/api/bot").json()
    assert me["name"] == "anabot" and me["owner"] == "ana"
    assert me["limits"] == {
        "speeds": ["bullet", "blitz", "rapid"],
        "game_types": ["Base"],
        "rated": "any",
        "max_games": 2,
    }
    # A wrong token, a seat-like token, no token: refused, nothing learned.
    for headers in (
        {"Authorization": "Bearer bot_wrongwrongwrongwrongwrong"},
        {"Authorization": "Bearer " + bot.token[4:]},
        {},
    ):
        refused = client.get("/api/bot", headers=headers)
        assert refused.status_code == 401 and refused.json()["error"] == "bad_token"
    # Only a hash is stored.
    from sqlalchemy import select

    from panal.server.bots.bot_table import bots_table

    with client.app.state.players.engine.connect() as conn:  # type: ignore[attr-defined]
        stored = conn.execute(select(bots_table.c.token_hash)).scalar_one()
    assert bot.token not in stored and len(stored) == 64
    # A new token: the old one stops working.
    fresh = ana.post("/api/bots/anabot/token").json()["token"]
    assert bot.request("GET", "/api/bot").status_code == 401
    bot = Bot(client, fresh)
    assert bot.request("GET", "/api/bot").status_code == 200
    # Revoked: refused everywhere, and the bot cannot sign in with a password either.
    assert ana.request("DELETE", "/api/bots/AnaBot/token").status_code == 204
    assert bot.request("GET", "/api/bot").status_code == 401
    assert bot.request("POST", "/api/ladder/join").status_code == 401
    listed = ana.get("/api/bots").json()["bots"]
    assert [(b["name"], b["token"]) for b in listed] == [("anabot", "revoked")]
    signin = Person(client).post("/api/account/signin", {"name": "anabot", "password": "x" * 12})
    assert signin.status_code in (401, 403, 429) and signin.json()["error"] != "ok"
    # Limits: checked, stored.
    bad = ana.request("PUT", "/api/bots/anabot/limits", json={"speeds": ["warp"]})
    assert bad.status_code == 422 and bad.json()["error"] == "bad_limits"
    bad = ana.request("PUT", "/api/bots/anabot/limits", json={"game_types": ["Chess"]})
    assert bad.status_code == 422 and bad.json()["error"] == "bad_limits"
    good = ana.request(
        "PUT", "/api/bots/anabot/limits", json={"speeds": ["blitz"], "rated": "rated"}
    )
    assert good.json()["limits"]["speeds"] == ["blitz"]
    assert ana.post("/api/bots", {"name": "ana"}).json()["error"] == "name_taken"


def test_a_bot_acts_for_itself_only(client: TestClient) -> None:
    ana, bruno = Person(client), Person(client)
    ana.sign_up("owner_a")
    bruno.sign_up("other_b")
    bot = make_bot(ana, "helper")
    # A bot manages no bots, its owner's included; another person cannot touch ana's bot.
    assert bot.request("POST", "/api/bots", {"name": "minion"}).json()["error"] == "not_for_bots"
    assert bot.request("POST", "/api/bots/helper/token").json()["error"] == "not_for_bots"
    assert bruno.post("/api/bots/helper/token").json()["error"] == "unknown_bot"
    assert bruno.request("DELETE", "/api/bots/helper/token").status_code == 404
    # The owner's challenge is not the bot's: it can neither cancel nor play it as the owner.
    posted = ana.post("/api/challenges", {"clock": BLITZ, "rated": True, "color": "white"}).json()
    cancel = bot.request("POST", f"/api/challenges/{posted['id']}/cancel", {})
    assert cancel.status_code == 403 and cancel.json()["error"] == "not_yours"
    game = bruno.post(f"/api/challenges/{posted['id']}/accept").json()
    with bot.websocket(game["id"]) as ws:
        ws.send_text(hello(None))
        state = receive_state(ws)
        assert state["you"] == []  # a spectator of its owner's game
        ws.send_json({"type": "move", "move": "wS1"})
        assert ws.receive_json()["type"] == "error"
    # A person's account holds no bot's seat either: the bot's token is the only key.
    assert client.get("/api/bot/games").status_code == 401


def _finish_by_resignation(white: Any, black: Any) -> dict[str, Any]:
    white.send_json({"type": "move", "move": "wS1"})
    receive_state(black, lambda s: s["ply"] == 1)
    black.send_json({"type": "move", "move": "bS1 wS1-"})  # two plies: a game, rated
    receive_state(white, lambda s: s["ply"] == 2)
    black.send_json({"type": "resign"})
    return receive_state(white, lambda s: s["result"] is not None)


def test_bot_games_are_marked_and_rated_in_their_own_pool(client: TestClient) -> None:
    ana, bruno = Person(client), Person(client)
    ana.sign_up("pool_a")
    bruno.sign_up("pool_b")
    bot = make_bot(bruno, "poolbot", speeds=["blitz"], rated="rated")
    # A person against a person: hive:blitz.
    posted = ana.post("/api/challenges", {"clock": BLITZ, "rated": True, "color": "white"}).json()
    game = bruno.post(f"/api/challenges/{posted['id']}/accept").json()
    with ana.websocket(game["id"]) as white, bruno.websocket(game["id"]) as black:
        receive_state(white), receive_state(black)
        _finish_by_resignation(white, black)
    # The bot sees the challenges its limits allow (rated blitz), not the casual one.
    casual = ana.post("/api/challenges", {"clock": BLITZ, "rated": False}).json()
    rated = ana.post("/api/challenges", {"clock": BLITZ, "rated": True, "color": "white"}).json()
    offers = bot.request("GET", "/api/bot/challenges").json()
    assert [c["id"] for c in offers["challenges"]] == [rated["id"]]
    assert casual["id"] not in [c["id"] for c in offers["challenges"]]
    outside = bot.request("POST", f"/api/challenges/{casual['id']}/accept")
    assert outside.status_code == 403 and outside.json()["error"] == "outside_limits"
    game = bot.request("POST", f"/api/challenges/{rated['id']}/accept").json()
    assert game["seat"] == "black"
    assert bot.request("GET", "/api/bot/games").json()["games"] == [game["id"]]
    # Its owner allows one game at once: a second challenge waits.
    bruno.request("PUT", "/api/bots/poolbot/limits", json={"speeds": ["blitz"], "max_games": 1})
    more = ana.post("/api/challenges", {"clock": BLITZ, "rated": True}).json()
    busy = bot.request("POST", f"/api/challenges/{more['id']}/accept")
    assert busy.status_code == 429 and busy.json()["error"] == "too_many_games"
    with ana.websocket(game["id"]) as white, bot.websocket(game["id"]) as black:
        black.send_text(hello(None))
        assert receive_state(black)["you"] == ["black"]
        receive_state(white)
        over = _finish_by_resignation(white, black)
    assert over["players"]["black"]["bot"] is True and "bot" not in over["players"]["white"]
    assert bot.request("GET", "/api/bot/games").json()["games"] == []
    ratings = {r["category"]: r["games"] for r in client.get("/api/users/pool_a").json()["ratings"]}
    assert ratings == {"hive:blitz": 1, "bot:blitz": 1}
    ratings = {
        r["category"]: r["games"] for r in client.get("/api/users/poolbot").json()["ratings"]
    }
    assert ratings == {"bot:blitz": 1}
    ratings = {r["category"]: r["games"] for r in client.get("/api/users/pool_b").json()["ratings"]}
    assert ratings == {"hive:blitz": 1}
    # A bot's own challenge shows its rating in its own pool (it lost one game there), not the
    # people's pool, where it has none.
    from panal.server.ratings.glicko2 import Glicko2

    offered = bot.request("POST", "/api/challenges", {"clock": BLITZ, "rated": True}).json()
    lobby = client.get("/api/lobby").json()
    shown = [c["creator_rating"] for c in lobby["challenges"] if c["id"] == offered["id"]]
    own = client.get("/api/users/poolbot").json()["ratings"]
    assert shown == [r["shown"] for r in own if r["category"] == "bot:blitz"]
    assert shown != [Glicko2().shown()]


def test_the_ladder_pairs_free_bots_once_with_colours_swapped(client: TestClient) -> None:
    owner = Person(client)
    owner.sign_up("ladder_owner")
    bots = [make_bot(owner, name) for name in ("first", "second", "third")]
    assert owner.post("/api/ladder/join").status_code == 401  # people do not join
    for bot in bots[:2]:
        joined = bot.request("POST", "/api/ladder/join").json()
        assert joined["joined"] and joined["clock"]["base"] == 60
    ladder = client.app.state.ladder  # type: ignore[attr-defined]
    # The app's own sweep (every 2 s) may pair them first: count the games, not who made them.
    ladder.pair_free_bots(ladder.runtime.now())
    assert len(ladder.store.meetings()) == 1 and sum(ladder.store.meetings().values()) == 2
    assert ladder.pair_free_bots(ladder.runtime.now()) == 0  # both are busy now
    games = [bot.request("GET", "/api/bot/games").json()["games"] for bot in bots]
    assert sorted(games[0]) == sorted(games[1]) and len(games[0]) == 2 and games[2] == []
    states = [client.get(f"/api/games/{g}").json() for g in games[0]]
    names = [(s["players"]["white"]["name"], s["players"]["black"]["name"]) for s in states]
    assert sorted(names) == [("first", "second"), ("second", "first")]
    openings = [[m["move"] for m in s["history"]] for s in states]
    assert openings[0] == openings[1] and len(openings[0]) == 4
    assert all(s["rated"] and s["options"]["tournament_opening"] for s in states)
    assert all(s["players"]["white"]["bot"] and s["seats"]["white"] for s in states)
    # Each bot plays its seats by its account; the ply-4 position is White's turn.
    for game_id in games[0]:
        state = client.get(f"/api/games/{game_id}").json()
        white = bots[0] if state["players"]["white"]["name"] == "first" else bots[1]
        black = bots[1] if white is bots[0] else bots[0]
        with white.websocket(game_id) as w, black.websocket(game_id) as b:
            w.send_text(hello(None))
            b.send_text(hello(None))
            seen = receive_state(w)
            assert seen["you"] == ["white"] and seen["turn"] == 0
            receive_state(b)
            replay = Game("Base", tournament_opening=True)
            for move in openings[0]:
                replay.push(move)
            w.send_json(
                {"type": "move", "move": replay.move_string(min(replay.legal_move_codes()))}
            )
            receive_state(b, lambda s: s["ply"] == 5)
            b.send_json({"type": "resign"})
            receive_state(w, lambda s: s["result"] is not None)
    bots[2].request("POST", "/api/ladder/join")
    ladder.pair_free_bots(ladder.runtime.now())  # one pair of the three free bots
    assert sum(ladder.store.meetings().values()) == 4
    table = client.get("/api/ladder").json()
    assert table["games"] == 2 and "Bradley-Terry" in table["method"]
    ranked = {row["name"]: row for row in table["standings"]}
    assert set(ranked) == {"first", "second", "third"}
    assert ranked["first"]["games"] == 2 and ranked["first"]["score"] == 1.0
    assert ranked["third"]["games"] == 0
    low, high = ranked["first"]["low"], ranked["first"]["high"]
    assert low < ranked["first"]["rating"] < high
    pgn = client.get("/api/ladder/games.pgn")
    assert pgn.text.count('[Event "panal engine ladder"]') == 2
    assert "attachment" in pgn.headers["content-disposition"]


@pytest.mark.parametrize("text", ["60", "60+1", "15+0"])
def test_the_ladder_clock_reads_base_and_increment(text: str) -> None:
    from panal.server.ladder.ladder import parse_ladder_clock

    control = parse_ladder_clock(text)
    assert f"{control.base}+{control.increment}" in (text, text + "+0")
    with pytest.raises(ValueError, match="BASE\\+INC"):
        parse_ladder_clock("5+0")
    assert json.dumps(control.to_json())
