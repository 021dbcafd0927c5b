"""The caps on AI games and tables with bots per client, per account and per address, in one
process (the real-server proofs with parallel requests are in test_server_fairness.py); and a
record whose import was cut short (kill -9) is dropped when a server starts."""

from __future__ import annotations

import secrets
import time
from pathlib import Path

from fastapi.testclient import TestClient

from panal.server.app import create_app
from panal.server.enjambre_tables.live import TableLimits
from panal.server.hive_games.game_store import GameRow, GameStore
from panal.server.hive_games.live import Limits
from tests.server.conftest import first_legal_move
from tests.server.players_helpers import Person
from tests.server.translations import LANGUAGES, MERGED

BOTS = {"players": 2, "seats": [{"kind": "person"}, {"kind": "bot", "bot": "random"}]}


def app_at(tmp_path: Path) -> TestClient:
    app = create_app(
        f"sqlite:///{tmp_path / 'caps.sqlite3'}",
        ai_runner=first_legal_move,
        levels=("beginner",),
        ai_workers=1,
        limits=Limits(ai_games_per_client=2, ai_games_per_account=3, ai_games_per_address=5),
        table_limits=TableLimits(
            bot_tables_per_client=1, bot_tables_per_account=1, bot_tables_per_address=2
        ),
    )
    return TestClient(app)


def guest() -> dict[str, str]:
    return {"X-Panal-Client": secrets.token_urlsafe(18)}


def test_each_client_behind_one_address_has_its_own_cap_under_the_address_s(
    tmp_path: Path,
) -> None:
    """Players behind one router (one address, the test client's) each have a client token:
    each may open its own games, until the address's larger cap."""
    with app_at(tmp_path) as client:
        ai = {"mode": "ai", "ai_level": "beginner"}
        one, two, three = guest(), guest(), guest()
        for headers in (one, one, two, two):
            assert client.post("/api/games", json=ai, headers=headers).status_code == 201
        refused = client.post("/api/games", json=ai, headers=one)
        assert (refused.status_code, refused.json()["error"]) == (429, "too_many_ai_games")
        assert client.post("/api/games", json=ai, headers=three).status_code == 201
        here = client.post("/api/games", json=ai, headers=three)
        assert (here.status_code, here.json()["error"]) == (429, "too_many_ai_games_here")
        assert here.json()["details"] == {"count": "5", "limit": "5"}
        assert client.post("/api/games", json={"mode": "hotseat"}, headers=one).status_code == 201

        tables = "/api/enjambre/tables"
        assert client.post(tables, json=BOTS, headers=one).status_code == 201
        again = client.post(tables, json=BOTS, headers=one)
        assert (again.status_code, again.json()["error"]) == (429, "too_many_bot_tables")
        assert client.post(tables, json=BOTS, headers=two).status_code == 201
        here = client.post(tables, json=BOTS, headers=three)
        assert (here.status_code, here.json()["error"]) == (429, "too_many_bot_tables_here")
        people = {"players": 2, "seats": [{"kind": "person"}, {"kind": "person"}]}
        assert client.post(tables, json=people, headers=three).status_code == 201
    for code in ("too_many_ai_games_here", "too_many_bot_tables_here", "seat_replaced"):
        assert all(f"error.{code}" in MERGED[language] for language in LANGUAGES), code


def test_an_account_has_one_cap_whatever_its_clients(tmp_path: Path) -> None:
    """An account's games count together, from every browser it signs in on."""
    with app_at(tmp_path) as client:
        person = Person(client)
        person.sign_up("Fairplay")
        ai = {"mode": "ai", "ai_level": "beginner"}
        for headers in (guest(), guest(), guest()):
            assert person.post("/api/games", ai, headers=headers).status_code == 201
        refused = person.post("/api/games", ai, headers=guest())
        assert refused.json()["error"] == "too_many_ai_games"
        assert refused.json()["details"] == {"count": "3", "limit": "3"}
        listed = person.get("/api/my-games", headers=guest()).json()["ai_games"]
        assert len(listed) == 3  # the account's, from any of its browsers


def test_an_import_cut_short_is_dropped_at_start(tmp_path: Path) -> None:
    """kill -9 during a long import left the half-written game for good."""
    url = f"sqlite:///{tmp_path / 'caps.sqlite3'}"
    store = GameStore(url)
    old = time.time() - 3600
    for game_id, created in (("cut-short", old), ("importing", time.time())):
        store.begin_import(GameRow(game_id, "Base", "review", created_at=created))
        store.import_moves(game_id, 1, ["wQ", "bQ wQ-"])
    store.close()
    with app_at(tmp_path):
        pass
    store = GameStore(url, migrate=False)
    try:
        assert store.load_game("cut-short") is None
        assert store.load_game("importing") is not None  # another process may be writing it
    finally:
        store.close()
