"""Tournaments through the HTTP API, on SQLite and PostgreSQL (the ``backend`` fixture): what
is refused and why, registration and withdrawal, a no-show's forfeit, an arena from its start
to its end, the compare-and-set that lets one process write a round, and the watchers' socket."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from panal.server.app import create_app
from panal.server.tournaments.standings import GameResult
from panal.server.tournaments.tournament_store import Pairing, Snapshot, TournamentRow
from panal.server.tournaments.tournaments import Tournaments, results, table
from tests.server.conftest import Backend, first_legal_move
from tests.server.helpers import receive_state
from tests.server.players_helpers import Person

CLOCK = {"kind": "realtime", "base": 600, "increment": 0}


class HandClock:
    """The server's time, moved by the test (from the real time: stored times agree)."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def hand() -> HandClock:
    return HandClock()


@pytest.fixture
def site(backend: Backend, hand: HandClock) -> Iterator[TestClient]:
    app = create_app(
        backend.db_url,
        ai_runner=first_legal_move,
        levels=("beginner",),
        ai_workers=1,
        clock=hand,
        **backend.app_options(),
    )
    with TestClient(app) as client:
        yield client


def people(client: TestClient, count: int, first: int = 0) -> list[Person]:
    found = [Person(client) for _ in range(count)]
    for i, person in enumerate(found, first):
        person.sign_up(f"entrant{i}")
    return found


def create(person: Person, **settings: Any) -> dict[str, Any]:
    body = {"name": "Spring cup", "format": "round_robin", "clock": CLOCK, **settings}
    response = person.post("/api/tournaments", body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def wait(person: Person, tournament_id: str, until: Any, seconds: float = 10) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        seen = person.get(f"/api/tournaments/{tournament_id}").json()
        if until(seen):
            return dict(seen)
        time.sleep(0.1)
    raise AssertionError(f"not reached: {seen}")


def test_refusals_say_why_and_change_nothing(site: TestClient, hand: HandClock) -> None:
    guest = Person(site)
    ana, bea = people(site, 2)
    assert (
        guest.post("/api/tournaments", {"name": "x", "format": "swiss", "clock": CLOCK}).json()[
            "error"
        ]
        == "sign_in"
    )
    cases = [
        ({"clock": None}, 422, "bad_clock"),
        ({"clock": {"kind": "realtime", "base": 1}}, 422, "bad_clock"),
        ({"max_players": 30}, 422, "too_many_players"),
        ({"starts_at": hand.now - 5}, 422, "bad_start"),
        ({"starts_at": hand.now + 31 * 86400}, 422, "bad_start"),
        ({"game_type": "Base+Z"}, 400, "bad_game_type"),
        ({"name": "   "}, 400, "bad_name"),
        ({"options": {"queen_first": True}}, 422, "unknown_option"),
        ({"options": {"tournament_opening": "yes"}}, 422, "bad_option_value"),
        ({"options": {"dragonfly_sidestep": "sideways"}}, 422, "bad_option_value"),
        ({"game_type": "Base+M", "options": {"dragonfly_gaps": True}}, 422, "option_needs_pieces"),
        # a real-time game is aborted, and so forfeited, a minute without a first move
        ({"no_show_seconds": 61}, 422, "no_show_too_long"),
    ]
    for change, status, code in cases:
        body = {"name": "Cup", "format": "round_robin", "clock": CLOCK, **change}
        response = ana.post("/api/tournaments", body)
        assert (response.status_code, response.json().get("error")) == (status, code), change
    assert ana.post("/api/tournaments", {"name": "Cup", "format": "knockout"}).status_code == 422
    assert site.get("/api/tournaments").json()["tournaments"] == []
    assert site.get("/api/tournaments/nope").json()["error"] == "unknown_tournament"
    refused = ana.post(
        "/api/tournaments",
        {"name": "Cup", "format": "swiss", "clock": CLOCK, "no_show_seconds": 90},
    )
    assert refused.json()["details"] == {"seconds": "60"}
    cup = create(ana, max_players=2)
    assert cup["no_show_seconds"] == 60  # the real-time first-move window, unless set shorter
    path = f"/api/tournaments/{cup['id']}"
    assert ana.post(f"{path}/start").json()["error"] == "too_few_players"
    assert ana.post(f"{path}/join").status_code == 200
    assert ana.post(f"{path}/join").json()["error"] == "already_registered"
    assert bea.post(f"{path}/withdraw").json()["error"] == "not_registered"
    assert bea.post(f"{path}/start").json()["error"] == "not_yours"
    assert bea.post(f"{path}/join").status_code == 200
    assert Person(site).post(f"{path}/join").json()["error"] == "sign_in"
    carla = people(site, 1, first=2)[0]
    assert carla.post(f"{path}/join").json()["error"] == "tournament_full"
    # a registration before the start is taken back entirely
    left = bea.post(f"{path}/withdraw").json()
    assert [p["name"] for p in left["players"]] == ["entrant0"] and not left["registered"]
    listed = site.get("/api/tournaments").json()["tournaments"]
    assert [(t["name"], t["player_count"], t["status"]) for t in listed] == [
        ("Spring cup", 1, "registering")
    ]
    correspondence = create(ana, clock={"kind": "correspondence", "days": 3}, no_show_seconds=90)
    assert correspondence["no_show_seconds"] == 90  # within its window of three days


def test_rule_options_are_every_games(site: TestClient) -> None:
    ana, bea = people(site, 2)
    refused = ana.post(
        "/api/tournaments",
        {"name": "Cup", "format": "swiss", "clock": CLOCK, "options": {"dragonfly_carry": "x"}},
    ).json()
    assert refused["details"] == {"option": "dragonfly_carry"}  # the page names it in words
    rules = {"tournament_opening": True, "dragonfly_carry": "next_turn", "repetition_draw": True}
    cup = create(ana, game_type="Base+MLPD", options=rules, max_players=2, start_when_full=True)
    # what differs from panal's defaults is kept and shown (repetition_draw is the default)
    assert cup["options"] == {"tournament_opening": True, "dragonfly_carry": "next_turn"}
    assert cup["game_type"] == "Base+MLPD"
    path = f"/api/tournaments/{cup['id']}"
    for person in (ana, bea):
        assert person.post(f"{path}/join").status_code == 200
    running = wait(ana, cup["id"], lambda s: s["status"] == "running")
    game_id = running["pairings"][0]["boards"][0]["game"]
    game = site.get(f"/api/games/{game_id}").json()
    assert game["game_type"] == "Base+MLPD"
    assert game["options"]["tournament_opening"] is True
    assert game["options"]["dragonfly_carry"] == "next_turn"
    with ana.websocket(game_id) as ws:
        state = receive_state(ws)
        assert state["you"] == ["white"]
        # the tournament opening: no queen on the first move
        assert state["legal"] and not any(m["move"].startswith("wQ") for m in state["legal"])


def test_start_when_full_and_a_no_show_forfeits(site: TestClient, hand: HandClock) -> None:
    ana, bea = people(site, 2)
    cup = create(ana, max_players=2, start_when_full=True, no_show_seconds=30)
    path = f"/api/tournaments/{cup['id']}"
    for person in (ana, bea):
        assert person.post(f"{path}/join").status_code == 200
    running = wait(ana, cup["id"], lambda s: s["status"] == "running")
    board = running["pairings"][0]["boards"][0]
    assert (board["white"], board["black"]) == ("entrant0", "entrant1")  # Berger: 1-2
    assert ana.post(f"{path}/join").json()["error"] == "registration_closed"
    hand.now += 31  # White never moves
    over = wait(ana, cup["id"], lambda s: s["status"] == "finished")
    board = over["pairings"][0]["boards"][0]
    assert (board["result"], board["end_reason"]) == ("BlackWins", "forfeit")
    table = {row["name"]: row for row in over["standings"]}
    assert table["entrant1"]["score"] == 1 and table["entrant1"]["games"] == 0  # not played
    game = site.get(f"/api/games/{board['game']}").json()
    assert game["end_reason"] == "forfeit" and game["players"]["white"]["name"] == "entrant0"


def test_a_start_time_and_a_withdrawal_in_a_round_robin(site: TestClient, hand: HandClock) -> None:
    ana, bea, carla = people(site, 3)
    cup = create(ana, starts_at=hand.now + 60)
    path = f"/api/tournaments/{cup['id']}"
    for person in (ana, bea, carla):
        assert person.post(f"{path}/join").status_code == 200
    time.sleep(1.5)
    assert ana.get(path).json()["status"] == "registering"
    hand.now += 61
    running = wait(ana, cup["id"], lambda s: s["status"] == "running")
    assert running["rounds"] == 3  # three players: three rounds, one bye each
    first = running["pairings"][0]["boards"]
    assert [(b["white"], b["black"]) for b in first] == [
        ("entrant1", "entrant2"),
        ("entrant0", None),
    ]
    # entrant2 withdraws during round 1; the game is resigned, and its later games are forfeits
    assert carla.post(f"{path}/withdraw").status_code == 200
    with bea.websocket(first[0]["game"]) as ws:
        receive_state(ws)
        ws.send_json({"type": "move", "move": "wS1"})
        receive_state(ws, lambda s: s["ply"] == 1)
    with carla.websocket(first[0]["game"]) as ws:
        receive_state(ws)
        ws.send_json({"type": "resign"})
        receive_state(ws, lambda s: s["result"] is not None)
    second = wait(ana, cup["id"], lambda s: s["round"] == 2)["pairings"][1]["boards"]
    assert [(b["white"], b["black"], b.get("points")) for b in second] == [
        ("entrant0", "entrant1", None),
        ("entrant2", None, 0.0),  # a bye is no point for who has withdrawn
    ]
    with bea.websocket(second[0]["game"]) as ws:
        receive_state(ws)
        ws.send_json({"type": "resign"})
        receive_state(ws, lambda s: s["result"] is not None)
    over = wait(ana, cup["id"], lambda s: s["status"] == "finished")
    third = over["pairings"][2]["boards"]
    assert [(b["white"], b["black"], b["game"], b.get("points")) for b in third] == [
        ("entrant2", "entrant0", None, 0.0),  # no game: entrant0 wins by forfeit
        ("entrant1", None, None, 1.0),
    ]
    table = {row["name"]: (row["score"], row["games"]) for row in over["standings"]}
    assert table == {"entrant0": (3, 1), "entrant1": (2, 2), "entrant2": (0, 1)}
    assert over["standings"][0]["name"] == "entrant0"


def test_one_process_writes_a_round_and_a_player_is_paired_once(site: TestClient) -> None:
    ana, bea, carla, dan = people(site, 4)
    cup = create(ana, format="swiss", rounds=3)
    path = f"/api/tournaments/{cup['id']}"
    for person in (ana, bea, carla, dan):
        assert person.post(f"{path}/join").status_code == 200
    manager: Tournaments = site.app.state.tournaments  # type: ignore[attr-defined]
    store = manager.store
    snapshot = store.load(cup["id"])
    assert snapshot is not None
    version = snapshot.row.version
    first = snapshot.players[0][0]
    pairing = {"round": 1, "board": 1, "user_id": first, "opponent_id": None, "color": None}
    step = {"round": 1, "status": "running"}
    extra = {**pairing, "game_id": None, "points": 1.0}
    assert store.advance(cup["id"], version, step, [extra], [])  # this process wins
    assert not store.advance(cup["id"], version, step, [extra], [])  # the other: refused
    # a newer version but the same (tournament, round, player): refused, nothing written
    again = store.advance(cup["id"], version + 1, {"round": 2}, [extra], [])
    assert not again
    after = store.load(cup["id"])
    assert after is not None and after.row.version == version + 1 and after.row.round == 1
    assert len(after.pairings) == 1


def test_an_arena_pairs_players_as_they_finish_and_ends_on_time(
    site: TestClient, hand: HandClock
) -> None:
    ana, bea, carla = people(site, 3)
    cup = create(ana, format="arena", minutes=5, name="Arena")
    path = f"/api/tournaments/{cup['id']}"
    for person in (ana, bea):
        assert person.post(f"{path}/join").status_code == 200
    started = ana.post(f"{path}/start").json()
    assert started["status"] == "running" and started["ends_at"] == pytest.approx(hand.now + 300)
    first = wait(ana, cup["id"], lambda s: s["pairings"])["pairings"][0]["boards"][0]
    # an arena takes players while it runs; carla waits for someone to be free
    assert carla.post(f"{path}/join").status_code == 200
    by_name = {"entrant0": ana, "entrant1": bea}
    with by_name[first["black"]].websocket(first["game"]) as ws:
        receive_state(ws)
        ws.send_json({"type": "resign"})
        receive_state(ws, lambda s: s["result"] is not None)
    # the winner and carla are paired next (not the last opponents again): then the loser waits
    seen = wait(ana, cup["id"], lambda s: len(s["pairings"]) >= 2)
    second = seen["pairings"][1]["boards"]
    assert len(second) == 1 and "entrant2" in (second[0]["white"], second[0]["black"])
    hand.now += 301
    over = wait(ana, cup["id"], lambda s: s["status"] == "finished")
    table = {row["name"]: row["score"] for row in over["standings"]}
    assert table[first["white"]] == 2  # lichess: a win is 2
    assert over["pairings"][-1]["boards"][0]["counted"] is False  # unfinished at the end


def test_watchers_see_registrations_and_results_live(site: TestClient) -> None:
    ana, bea = people(site, 2)
    cup = create(ana, max_players=2)
    path = f"/api/tournaments/{cup['id']}"
    with site.websocket_connect(f"/ws/tournaments/{cup['id']}") as ws:
        assert ws.receive_json()["players"] == []
        ana.post(f"{path}/join")
        assert [p["name"] for p in ws.receive_json()["players"]] == ["entrant0"]
        bea.post(f"{path}/join")
        ws.receive_json()
        ana.post(f"{path}/start")
        running = ws.receive_json()
        while running["status"] != "running":
            running = ws.receive_json()
        game = running["pairings"][0]["boards"][0]["game"]
        with bea.websocket(game) as game_ws:
            receive_state(game_ws)
            game_ws.send_json({"type": "resign"})
            receive_state(game_ws, lambda s: s["result"] is not None)
        seen = ws.receive_json()
        while not seen["standings"][0]["score"]:
            seen = ws.receive_json()
        assert seen["standings"][0]["name"] == "entrant0"


def test_a_game_aborted_for_no_first_move_is_a_no_show_forfeit() -> None:
    """A tournament game the game's clock aborted (no first move within its window, result
    ``NotStarted``) counts as the no-show's forfeit; before, it raised KeyError in the tick and
    the tournament page (seen when a round's games waited over a minute on a loaded machine)."""
    row = TournamentRow(
        "t", "cup", "swiss", 1, 1, None, "Base", "{}", False, 4, None, False, 120.0, 1
    )

    def game(white: int, black: int, plies: int) -> list[Pairing]:
        common = {"game_id": f"g{white}", "points": None, "counted": True, "plies": plies}
        return [
            Pairing(1, white, black, 0, result="NotStarted", end_reason="no_first_move", **common),
            Pairing(1, black, white, 1, result="NotStarted", end_reason="no_first_move", **common),
        ]

    snapshot = Snapshot(row, [(1, False), (2, False), (3, False), (4, False)], [])
    snapshot.pairings = game(1, 2, 0) + game(3, 4, 1)  # White never moved; Black never did
    assert results(snapshot) == [
        GameResult(1, 1, 2, 0.0, played=False),
        GameResult(1, 3, 4, 1.0, played=False),
    ]
    assert [(s.player, s.score) for s in table(snapshot)][:2] == [(2, 1.0), (3, 1.0)]
