"""The leaderboard, the player search and the archive's filters, on SQLite and PostgreSQL.

The accounts, ratings and finished games are written straight into the database (signing up
through the API costs an Argon2 hash each); everything is read back through the HTTP API.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.community_helpers import BLITZ, BULLET, POST, World

NAMES = ("Ana_Bee", "ana-2", "Anabel", "Bruno", "carla", "Dario")


@pytest.fixture
def world(client: TestClient, db_url: str) -> Iterator[World]:
    seeded = World(db_url)  # the app made the schema; this writes into it
    try:
        seeded.accounts(*NAMES)
        yield seeded
    finally:
        seeded.store.close()


def ids(response: Any) -> list[str]:
    assert response.status_code == 200, response.text
    return [game["id"] for game in response.json()["games"]]


def refused(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["error"] == code


# --- the leaderboard -----------------------------------------------------------------------


def test_the_leaderboard_ranks_one_speed_and_lists_provisional_players_apart(
    client: TestClient, world: World
) -> None:
    world.rating("Ana_Bee", "hive:blitz", 1720.0, 60.0, 40)
    world.rating("Bruno", "hive:blitz", 1810.0, 70.0, 25)
    world.rating("carla", "hive:blitz", 1650.0, 50.0, 90)
    world.rating("Dario", "hive:blitz", 1900.0, 200.0, 3)  # provisional: not ranked
    world.rating("Anabel", "hive:blitz", 1500.0, 95.0, 5)  # at the threshold: provisional
    world.rating("Dario", "hive:bullet", 1600.0, 60.0, 30)
    world.rating("ana-2", "enjambre", 30.0, 3.0, 12)  # shown 1500 + 20 × (30 − 9) = 1920
    world.rating("Bruno", "enjambre", 35.0, 4.5, 10)  # 1500 + 20 × 21.5 = 1930
    world.rating("carla", "enjambre", 25.0, 25.0 / 3.0, 0)  # a newcomer: provisional

    blitz = client.get("/api/leaderboard?game=hive&speed=blitz").json()
    assert blitz["category"] == "hive:blitz" and blitz["total"] == 3
    assert [(p["rank"], p["name"], p["shown"]) for p in blitz["players"]] == [
        (1, "Bruno", "1810"),
        (2, "Ana_Bee", "1720"),
        (3, "carla", "1650"),
    ]
    apart = client.get("/api/leaderboard?game=hive&speed=blitz&provisional=true").json()
    assert apart["total"] == 2
    assert [(p["rank"], p["name"], p["shown"]) for p in apart["players"]] == [
        (None, "Anabel", "1500?"),  # most games first
        (None, "Dario", "1900?"),
    ]
    # Paging: the second of three, ranked as on the whole list.
    page = client.get("/api/leaderboard?game=hive&speed=blitz&limit=1&offset=1").json()
    assert [(p["rank"], p["name"]) for p in page["players"]] == [(2, "Ana_Bee")]
    assert page["total"] == 3
    # Each speed is its own leaderboard.
    bullet = client.get("/api/leaderboard?game=hive&speed=bullet").json()
    assert [p["name"] for p in bullet["players"]] == ["Dario"]
    assert client.get("/api/leaderboard?game=hive&speed=classic").json()["players"] == []
    # Enjambre: ranked by μ − 3σ (what players read), not by μ.
    tables = client.get("/api/leaderboard?game=enjambre").json()
    assert [(p["name"], p["shown"]) for p in tables["players"]] == [
        ("Bruno", "1930"),
        ("ana-2", "1920"),
    ]
    newcomers = client.get("/api/leaderboard?game=enjambre&provisional=true").json()
    assert [(p["name"], p["shown"]) for p in newcomers["players"]] == [("carla", "1500?")]


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("game=hive", "bad_leaderboard"),  # Hive's leaderboards are per speed
        ("game=hive&speed=turbo", "bad_leaderboard"),
        ("game=chess&speed=blitz", "bad_leaderboard"),
        ("game=enjambre&speed=blitz", "bad_leaderboard"),
        ("game=hive&speed=blitz&limit=0", "bad_request"),
        ("game=hive&speed=blitz&offset=-1", "bad_request"),
        ("game=hive&speed=blitz&provisional=perhaps", "bad_request"),
    ],
)
def test_a_leaderboard_that_does_not_exist_is_refused(
    client: TestClient, query: str, code: str
) -> None:
    refused(client.get(f"/api/leaderboard?{query}"), 422, code)


# --- the player search ---------------------------------------------------------------------


def test_the_search_finds_names_by_prefix_in_any_case(client: TestClient, world: World) -> None:
    def found(q: str, limit: int = 10) -> list[str]:
        response = client.get("/api/players", params={"q": q, "limit": limit})
        assert response.status_code == 200, response.text
        return [p["name"] for p in response.json()["players"]]

    assert found("ana") == ["ana-2", "Ana_Bee", "Anabel"]
    assert found("ANA") == found("ana") == found("aNa")
    assert found("ana_") == ["Ana_Bee"]  # "_" is a character here, not SQL's wildcard
    assert found("ana-") == ["ana-2"]
    assert found("anab") == ["Anabel"]
    assert found("a", limit=2) == ["ana-2", "Ana_Bee"]
    assert found("carlos") == []
    assert found("darío".replace("í", "i")) == ["Dario"]


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("q=", "bad_search"),
        ("q=a%25", "bad_search"),  # "%": no name has it
        ("q=a%20b", "bad_search"),
        ("q=" + "a" * 21, "bad_search"),
        ("q=ana&limit=0", "bad_request"),
        ("q=ana&limit=21", "bad_request"),
    ],
)
def test_a_search_no_name_could_match_is_refused(client: TestClient, query: str, code: str) -> None:
    refused(client.get(f"/api/players?{query}"), 422, code)


# --- the archive's filters -----------------------------------------------------------------


@pytest.fixture
def archive(world: World) -> World:
    world.game("g1", "Ana_Bee", "Bruno", "WhiteWins", day=0, clock=BLITZ, rated=True)
    world.game("g2", "Bruno", "Ana_Bee", "Draw", day=1, clock=BLITZ, rated=True)
    world.game("g3", "Ana_Bee", "carla", "BlackWins", day=2, clock=BULLET)
    world.game("g4", "carla", "Bruno", "WhiteWins", day=3, clock=POST, game_type="Base+MLP")
    world.game("g5", "Ana_Bee", None, "BlackWins", day=4)  # against a guest, untimed
    world.game("g6", "Bruno", "Ana_Bee", "BlackWins", day=5, clock=BULLET, game_type="Base+M")
    return world


def test_the_archive_filters_combine(client: TestClient, archive: World) -> None:
    def listed(**query: str) -> list[str]:
        return ids(client.get("/api/archive", params=query))

    assert listed() == ["g6", "g5", "g4", "g3", "g2", "g1"]  # newest first
    assert listed(player="ana_bee") == ["g6", "g5", "g3", "g2", "g1"]  # any case
    assert listed(player="Ana_Bee", opponent="BRUNO") == ["g6", "g2", "g1"]
    assert listed(player="Ana_Bee", opponent="Bruno", result="WhiteWins") == ["g1"]
    assert listed(player="Bruno", result="BlackWins") == ["g6"]
    assert listed(speed="blitz") == ["g2", "g1"]
    assert listed(speed="bullet", player="carla") == ["g3"]
    assert listed(speed="correspondence") == ["g4"]
    assert listed(speed="untimed") == ["g5"]
    assert listed(rated="true") == ["g2", "g1"]
    assert listed(rated="false", player="Bruno") == ["g6", "g4"]
    assert listed(game_type="Base+MLP") == ["g4"]
    assert listed(game_type="Base") == ["g5", "g3", "g2", "g1"]
    # Days in UTC, both ends included.
    assert listed(since="2026-01-02", until="2026-01-04") == ["g4", "g3", "g2"]
    assert listed(since="2026-01-05") == ["g6", "g5"]
    assert listed(until="2026-01-01") == ["g1"]
    assert listed(since="2026-01-03", until="2026-01-03", speed="bullet") == ["g3"]
    assert listed(player="Dario") == []  # an account with no games


def test_the_archive_pages_through_filtered_games(client: TestClient, archive: World) -> None:
    first = client.get("/api/archive?player=Ana_Bee&limit=2").json()
    second = client.get("/api/archive?player=Ana_Bee&limit=2&offset=2").json()
    third = client.get("/api/archive?player=Ana_Bee&limit=2&offset=4").json()
    assert first["total"] == second["total"] == third["total"] == 5
    pages = [[g["id"] for g in page["games"]] for page in (first, second, third)]
    assert pages == [["g6", "g5"], ["g3", "g2"], ["g1"]]


@pytest.mark.parametrize(
    ("query", "status", "code"),
    [
        ("result=white", 422, "bad_result"),
        ("speed=turbo", 422, "bad_speed"),
        ("rated=yes", 422, "bad_rated"),
        ("game_type=Base%2BX", 422, "bad_game_type"),
        ("game_type=Chess", 422, "bad_game_type"),
        ("since=2026-13-01", 422, "bad_date"),
        ("until=yesterday", 422, "bad_date"),
        ("since=2026-1-5", 422, "bad_date"),
        ("since=2026-02-01&until=2026-01-01", 422, "bad_dates"),
        ("player=nobody_here", 404, "unknown_user"),
        ("player=Ana_Bee&opponent=ana_bee", 422, "same_players"),
        ("player=" + "a" * 40, 422, "bad_request"),
        ("colour=white", 422, "bad_request"),  # a filter that does not exist
        ("limit=201", 422, "bad_request"),
    ],
)
def test_a_bad_filter_is_refused_with_its_code(
    client: TestClient, archive: World, query: str, status: int, code: str
) -> None:
    refused(client.get(f"/api/archive?{query}"), status, code)


def test_a_new_game_stores_its_clocks_speed(client: TestClient, world: World) -> None:
    """The speed column is written with every game (the archive's speed filter reads it)."""
    world.game("c1", "Ana_Bee", "Bruno", "Draw", day=0, clock={**BLITZ, "base": 600})
    assert ids(client.get("/api/archive?speed=rapid")) == ["c1"]


def test_the_migration_gives_old_games_the_speed_the_clock_has() -> None:
    """Revision 0013_social fills ``games.speed`` of existing games with a frozen copy of the
    speed rule: it agrees with :attr:`TimeControl.speed` on every clock a game can have."""
    import importlib

    from panal.server.hive_games.clock import CORRESPONDENCE_DAYS, MAX_BASE, TimeControl

    migration = importlib.import_module("panal.server.database.migrations.versions.0013_social")
    controls = [TimeControl.correspondence(days) for days in CORRESPONDENCE_DAYS]
    controls += [
        TimeControl.realtime(base, increment)
        for base in range(60, MAX_BASE + 1, 30)
        for increment in (0, 1, 2, 3, 5, 10, 15, 30)
    ]
    for control in controls:
        assert migration._speed(json.dumps(control.to_json())) == control.speed, control
    assert migration._speed("not json") is None
