"""The multiplayer rating for tables (OpenSkill), as another part of the server calls it: in the
transaction that writes a table's result; on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from panal.server.players import PlayerStore, rate_table_game
from panal.server.ratings import TableRating, rate_table
from panal.server.store import Store
from tests.server.conftest import Backend


def test_a_table_result_rates_every_account_once(backend: Backend) -> None:
    store = Store(backend.db_url)
    try:
        players = PlayerStore(store.engine)
        ids = [
            players.create_account(f"seat{i}", f"seat{i}", "hash", None, None).id for i in range(4)
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
            assert shown["shown"] == str(rating.shown) and not shown["provisional"]
        assert after[ids[1]].mu > after[ids[0]].mu > after[ids[2]].mu
        assert after[ids[2]].mu == pytest.approx(after[ids[3]].mu)
        # A second table starts from the stored ratings.
        with store.engine.begin() as conn:
            again = rate_table_game(conn, "table2", "enjambre", {ids[0]: 1, ids[1]: 2})
        assert again[ids[0]].mu > after[ids[0]].mu and again[ids[1]].mu < after[ids[1]].mu
        history = players.rating_history(ids[0])
        assert [h["game"] for h in history] == ["table1", "table2"]
    finally:
        store.close()
