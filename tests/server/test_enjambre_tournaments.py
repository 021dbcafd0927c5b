"""Enjambre tournaments (a series) through the HTTP API, on SQLite and PostgreSQL + Redis (the
``backend`` fixture): what is refused and why, and a series played to its end, its standings
equal to a recomputation from the stored tables' places."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from panal.server.app import create_app
from panal.server.enjambre_tables.live import TableLimits
from tests.server.conftest import Backend, first_legal_move
from tests.server.players_helpers import Person
from tests.server.test_server_tournaments import wait
from tests.server.tournament_helpers import check_standings, stored_series

QUICK = TableLimits(bot_pause=0.0, presence_seconds=0.2, sweep_seconds=0.2, stall_seconds=2.0)
SERIES = {"name": "Enjambre night", "format": "series", "game_type": "Enjambre"}


@pytest.fixture
def site(backend: Backend) -> Iterator[TestClient]:
    app = create_app(
        backend.db_url,
        ai_runner=first_legal_move,
        levels=("beginner",),
        ai_workers=1,
        table_limits=QUICK,
        **backend.app_options(),
    )
    with TestClient(app) as client:
        yield client


def people(client: TestClient, count: int) -> list[Person]:
    found = [Person(client) for _ in range(count)]
    for i, person in enumerate(found):
        person.sign_up(f"swarm{i}")
    return found


def refused(person: Person, body: dict[str, Any]) -> str:
    response = person.post("/api/tournaments", {**SERIES, **body})
    assert response.status_code == 422, response.text
    return str(response.json()["error"])


def test_a_series_refuses_what_enjambre_cannot_play(site: TestClient) -> None:
    (ana,) = people(site, 1)
    assert refused(ana, {"max_players": 7}) == "series_players"
    assert refused(ana, {"format": "swiss"}) == "enjambre_series_only"
    assert refused(ana, {"game_type": "Base"}) == "enjambre_series_only"
    assert refused(ana, {"options": {"rounds": "3"}}) == "series_options"
    clock = {"kind": "realtime", "base": 600, "increment": 0}
    assert refused(ana, {"clock": clock}) == "series_clock"
    assert ana.get("/api/tournaments").json()["tournaments"] == []


@pytest.mark.slow  # about 13 s: two no-show times and two bot games
def test_a_series_runs_to_its_end(site: TestClient, backend: Backend) -> None:
    """Three players, two rounds: each round one table of all three, seats turned; nobody
    comes, so each seat goes to a bot after the no-show time and the bots play it out. One
    player takes their seat's token first (as the page does) and sees the table as that seat."""
    ana, bea, cid = people(site, 3)
    made = ana.post(
        "/api/tournaments", {**SERIES, "rounds": 2, "max_players": 3, "no_show_seconds": 5}
    )
    assert made.status_code == 201, made.text
    tournament_id = made.json()["id"]
    for person in (ana, bea, cid):
        assert person.post(f"/api/tournaments/{tournament_id}/join").status_code == 200
    started = ana.post(f"/api/tournaments/{tournament_id}/start")
    assert started.status_code == 200, started.text
    first = started.json()["pairings"][0]["boards"]
    assert [seat["name"] for seat in first] == ["swarm0", "swarm1", "swarm2"]
    table_id = first[0]["table"]
    taken = bea.post(f"/api/enjambre/tables/{table_id}/seats/mine").json()
    assert taken["seat"] == 1
    seen_by_seat = bea.get(
        f"/api/enjambre/tables/{table_id}", headers={"Authorization": f"Bearer {taken['token']}"}
    )
    assert seen_by_seat.status_code == 200, seen_by_seat.text
    assert seen_by_seat.json()["you"] == [1]
    outsider = Person(site)
    outsider.sign_up("outsider")
    mine = outsider.post(f"/api/enjambre/tables/{table_id}/seats/mine")
    assert (mine.status_code, mine.json()["error"]) == (403, "no_seat")
    seen = wait(ana, tournament_id, lambda s: s["status"] == "finished", seconds=90)
    rounds = seen["pairings"]
    assert [r["round"] for r in rounds] == [1, 2]
    assert [s["name"] for s in rounds[1]["boards"]] == ["swarm1", "swarm2", "swarm0"]
    games = stored_series(backend.db_url, tournament_id)
    assert len(games) == 2 * 3  # three pairs a round, two rounds
    check_standings(seen, games)
