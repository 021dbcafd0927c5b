"""The multiplayer rating for Enjambre tables (OpenSkill): in the transaction that writes a table's
result, and a rated table between accounts played to its end; on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest

from panal.server.database.store import Store
from panal.server.enjambre_tables.table_store import TableStore
from panal.server.players.player_store import PlayerStore
from panal.server.ratings.glicko2 import TableRating, rate_table
from panal.server.ratings.rating_store import rate_table_game
from tests.server.conftest import Backend
from tests.server.players_helpers import Person
from tests.server.tables_helpers import PERSON, Seat, bot
from tests.server.test_server_tables import make_client, play_table, watchdog


def test_a_table_result_rates_every_account_once(backend: Backend) -> None:
    store = Store(backend.db_url)
    try:
        players = PlayerStore(store.engine)
        ids = [
            players.create_account(f"seat{i}", f"seat{i}", f"seat{i}", "hash", None, None).id
            for i in range(4)
        ]
        places = {ids[0]: 2, ids[1]: 1, ids[2]: 3, ids[3]: 3}  # two share third place
        with store.engine.begin() as conn:
            after = rate_table_game(conn, "table1", "enjambre", places)
        expected = rate_table([TableRating()] * 4, [2, 1, 3, 3])
        for user, rating in zip(ids, expected, strict=True):
            assert after[user].mu == pytest.approx(rating.mu)
            assert after[user].sigma == pytest.approx(rating.sigma)
            (stored,) = players.ratings(user)
            assert stored.category == "enjambre" and stored.games == 1
            assert stored.rating == pytest.approx(rating.mu)
            shown = stored.to_json()
            # one game leaves an OpenSkill rating uncertain: shown with its "?", as Glicko-2's
            assert shown["shown"] == f"{rating.shown}?" and shown["provisional"]
        assert after[ids[1]].mu > after[ids[0]].mu > after[ids[2]].mu
        assert after[ids[2]].mu == pytest.approx(after[ids[3]].mu)
        # A second table starts from the stored ratings.
        with store.engine.begin() as conn:
            again = rate_table_game(conn, "table2", "enjambre", {ids[0]: 1, ids[1]: 2})
        assert again[ids[0]].mu > after[ids[0]].mu and again[ids[1]].mu < after[ids[1]].mu
        history = players.rating_history(ids[0])
        assert [h["game"] for h in history] == ["table1", "table2"]
        # The history is on the scale players read (a newcomer: 1500), as the chart draws it.
        first_shown = after[ids[0]].shown
        assert history[0]["rating"] == first_shown and history[0]["change"] == first_shown - 1500
        assert history[1]["change"] == again[ids[0]].shown - first_shown
    finally:
        store.close()


def test_a_rated_table_between_accounts_changes_their_ratings(backend: Backend) -> None:
    """Three accounts meet at a rated table (invitations, each signed in), play a game to its
    end over the websockets, and each one's Enjambre rating is OpenSkill's for the places they
    finished in, shown on their profile with its history line."""
    if backend.name != "sqlite":  # the shared database outlives each test: start empty
        store = Store(backend.db_url)
        TableStore(store).delete_all()
        store.close()
    with watchdog(), make_client(backend) as client:
        try:
            ana, bruno, carla, guest = (Person(client) for _ in range(4))
            for person, name in ((ana, "ana"), (bruno, "bruno"), (carla, "carla")):
                person.sign_up(name)
            body = {"players": 3, "seats": [PERSON] * 3, "options": {"rounds": 1}, "rated": True}
            refused = guest.post("/api/enjambre/tables", body)
            assert refused.status_code == 401 and refused.json()["error"] == "sign_in"
            with_bot = {**body, "seats": [PERSON, PERSON, bot()]}
            assert ana.post("/api/enjambre/tables", with_bot).json()["error"] == "rated_bots"
            local = {**body, "mode": "local"}
            assert ana.post("/api/enjambre/tables", local).json()["error"] == "rated_local"
            created = ana.post("/api/enjambre/tables", body)
            assert created.status_code == 201, created.text
            table, invites = created.json()["id"], created.json()["invites"]

            def join(person: Person, seat: int) -> Any:
                invite = {"seat": seat, "invite": invites[str(seat)]}
                return person.post(f"/api/enjambre/tables/{table}/join", invite)

            assert join(guest, 1).json()["error"] == "sign_in"
            assert join(ana, 1).json()["error"] == "already_seated"
            tokens = {0: created.json()["token"]}
            for seat, person in ((1, bruno), (2, carla)):
                joined = join(person, seat)
                assert joined.status_code == 200, joined.text
                tokens[seat] = joined.json()["token"]
            state = client.get(f"/api/enjambre/tables/{table}").json()["table"]
            assert state["rated"] and state["status"] == "playing"
            assert [(s["name"], s["account"], s["rating"]) for s in state["seats"]] == [
                ("ana", True, "1500?"),  # newcomers: uncertain
                ("bruno", True, "1500?"),
                ("carla", True, "1500?"),
            ]
            seats = play_table(client, created.json(), tokens, seed=11)
            (result,) = seats[0].state["table"]["results"]
            final = client.get(f"/api/enjambre/tables/{table}").json()["table"]["seats"]
        finally:
            Seat.close_all()
        expected = rate_table([TableRating()] * 3, result["places"])
        for seat, name in enumerate(("ana", "bruno", "carla")):
            profile = client.get(f"/api/users/{name}").json()
            (rating,) = profile["ratings"]
            assert rating["category"] == "enjambre" and rating["games"] == 1
            assert rating["rating"] == pytest.approx(expected[seat].mu, abs=0.05)
            assert rating["shown"] == expected[seat].shown_text() == f"{expected[seat].shown}?"
            assert final[seat]["rating"] == rating["shown"]  # the seat shows the new rating
            (line,) = profile["history"]
            assert line["game"] == f"{table}/0" and line["rating"] == expected[seat].shown
