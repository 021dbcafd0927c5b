"""Enjambre Tácticas tables over HTTP and websockets, on SQLite and on PostgreSQL + Redis."""

from __future__ import annotations

import contextlib
import faulthandler
import json
import random
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from panal.enjambre import EndTurn, Options
from panal.enjambre.actions import action_to_dict
from panal.enjambre.views import observation_data
from panal.server.app import create_app
from panal.server.database.store import Store
from panal.server.enjambre_tables.live import TableLimits
from panal.server.enjambre_tables.table_store import TableStore, TableWrite
from panal.server.enjambre_tables.tables import TableHub
from tests.server.conftest import Backend, first_legal_move
from tests.server.tables_helpers import (
    PERSON,
    Seat,
    Witness,
    bot,
    choose_move,
    new_table,
    numbers_in,
    play_some,
    stored_log,
    zone_placement,
)

HANG_REPORT = Path(__file__).resolve().parents[2] / "test-artifacts" / "server-hang.txt"
END = action_to_dict(EndTurn())
QUICK = TableLimits(bot_pause=0.0, presence_seconds=0.2, sweep_seconds=3600, min_replace_after=1.0)


def make_client(backend: Backend, limits: TableLimits = QUICK) -> TestClient:
    app = create_app(
        backend.db_url,
        ai_runner=first_legal_move,
        levels=("beginner",),
        ai_workers=1,
        table_limits=limits,
        **backend.app_options(),
    )
    return TestClient(app)


@pytest.fixture
def tables_client(backend: Backend) -> Iterator[TestClient]:
    if backend.name != "sqlite":  # the shared database outlives each test: start empty
        store = Store(backend.db_url)
        TableStore(store).delete_all()
        store.close()
    with watchdog(), make_client(backend) as client:
        try:
            yield client
        finally:
            Seat.close_all()


@contextlib.contextmanager
def watchdog(seconds: float = 150) -> Iterator[None]:
    """A websocket that waits forever must not hang the test run: after ``seconds`` every
    thread's stack is written to ``test-artifacts/server-hang.txt`` and the run stops."""
    HANG_REPORT.parent.mkdir(parents=True, exist_ok=True)
    with HANG_REPORT.open("w") as report:
        faulthandler.dump_traceback_later(seconds, exit=True, file=report)
        try:
            yield
        finally:
            faulthandler.cancel_dump_traceback_later()


def hub_of(client: TestClient) -> TableHub:
    hub: TableHub = client.app.state.tables  # type: ignore[attr-defined]
    return hub


def version(client: TestClient, table: str, token: str | None = None) -> int:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    state = client.get(f"/api/enjambre/tables/{table}", headers=headers).json()
    return int(state["table"]["version"])


# --------------------------------------------------------------------------------- config


def test_config_describes_the_board_every_option_and_the_bots(tables_client: TestClient) -> None:
    config = tables_client.get("/api/enjambre/config").json()
    names = [option["name"] for option in config["options"]]
    assert names == list(Options().to_dict())
    assert len(config["board"]["cells"]) == 127
    assert config["bots"] == ["random", "heuristic", "search"]


# --------------------------------------------------------------------------------- creating


def test_a_table_waits_for_its_people_and_invitations_work_once(
    tables_client: TestClient,
) -> None:
    client = tables_client
    created = new_table(client, players=3, seats=[PERSON, PERSON, bot()])
    table, host = created["id"], created["token"]
    assert set(created["invites"]) == {"1"} and created["seats"] == [0]
    state = client.get(f"/api/enjambre/tables/{table}").json()
    assert state["table"]["status"] == "waiting" and state["viewer"] is None
    assert [s["joined"] for s in state["table"]["seats"]] == [True, False, True]
    wrong = client.post(f"/api/enjambre/tables/{table}/join", json={"seat": 1, "invite": "x"})
    assert wrong.status_code == 403 and wrong.json()["error"] == "bad_invite"
    body = {"seat": 1, "invite": created["invites"]["1"], "name": "Ana"}
    joined = client.post(f"/api/enjambre/tables/{table}/join", json=body)
    assert joined.status_code == 200, joined.text
    again = client.post(f"/api/enjambre/tables/{table}/join", json=body)
    assert again.status_code == 409 and again.json()["error"] == "invite_used"
    guest = joined.json()["token"]
    mine = client.get(
        f"/api/enjambre/tables/{table}", headers={"Authorization": f"Bearer {guest}"}
    ).json()
    assert mine["viewer"] == 1 and mine["table"]["status"] == "playing"
    assert mine["table"]["seats"][1]["name"] == "Ana"
    bad = client.get(f"/api/enjambre/tables/{table}", headers={"Authorization": "Bearer nope"})
    assert bad.status_code == 403
    # The bot arranges its tiles at once; the people still have to.
    host_seat = Seat(client, table, host)
    host_seat.until(lambda s: s["view"]["placed"] == [False, False, True])
    assert host_seat.view["legal"] == {"place": True} and len(host_seat.view["zone"]) == 12
    host_seat.close()


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"players": 7, "seats": [PERSON] * 7}, 422),
        ({"players": 2, "seats": [PERSON]}, 422),
        ({"players": 3, "seats": [PERSON, PERSON]}, 400),
        ({"players": 2, "seats": [bot(), PERSON]}, 400),
        ({"players": 2, "seats": [PERSON, bot("wizard")]}, 400),
        ({"players": 2, "seats": [PERSON, PERSON], "options": {"flying": True}}, 400),
        ({"players": 2, "seats": [PERSON, PERSON], "options": {"rounds": 0}}, 400),
        ({"players": 2, "seats": [PERSON, PERSON], "options": {"memory_play": 3}}, 400),
        ({"players": 2, "seats": [PERSON, PERSON], "options": {"tie_credit": "dice"}}, 400),
        ({"players": 2, "seats": [PERSON, PERSON], "games": 13}, 422),
        ({"players": 2, "seats": [PERSON, PERSON], "mode": "mail"}, 422),
        ({"players": 2, "seats": [PERSON, PERSON], "replace_after": 0.5}, 400),
        ({"players": 2, "seats": [PERSON, PERSON], "colour": "red"}, 422),
        ({"players": "2", "seats": [PERSON, PERSON]}, 422),
    ],
)
def test_a_bad_table_request_is_refused_with_a_reason(
    tables_client: TestClient, body: dict[str, Any], code: int
) -> None:
    response = tables_client.post("/api/enjambre/tables", json=body)
    assert response.status_code == code, response.text
    assert response.json()["error"] and response.json()["detail"]
    assert tables_client.get("/api/enjambre/tables").json()["total"] == 0


def test_every_rule_option_reaches_the_game(tables_client: TestClient) -> None:
    options: dict[str, Any] = {"rounds": 3, "memory_play": True, "eliminated_visible": True}
    options.update(scout_extra_step=True, linked_dark_cells="spoke", tie_credit="none")
    created = new_table(tables_client, options=options, seats=[PERSON, bot()])
    state = tables_client.get(
        f"/api/enjambre/tables/{created['id']}",
        headers={"Authorization": f"Bearer {created['token']}"},
    ).json()
    assert state["view"]["options"] == {**Options().to_dict(), **options}


# --------------------------------------------------------------------------------- playing


def test_setup_moves_scout_and_end_of_turn_over_the_websocket(tables_client: TestClient) -> None:
    client = tables_client
    created = new_table(client, players=2, seats=[PERSON, PERSON], mode="local")
    table, token = created["id"], created["token"]
    assert created["seats"] == [0, 1]  # pass-the-screen: one device holds both seats
    seat = Seat(client, table, token)
    seat.until(lambda s: s["table"]["status"] == "playing")
    assert seat.state["viewer"] is None  # nobody has taken the device yet
    seat.send(type="place", cells=[[0, 0]] * 10)
    assert seat.error()["code"] == "not_your_turn"
    for player in (0, 1):
        seat.send(type="look", seat=player)
        seat.until(lambda s, p=player: s["viewer"] == p)
        zone = seat.view["zone"]
        seat.send(type="place", cells=zone[:9])  # one short
        assert seat.error()["code"] == "bad_request"
        seat.send(type="place", cells=[zone[0]] * 10)
        refused = seat.error()
        assert refused["code"] == "illegal_action" and refused["rule"] == "place_twice"
        seat.send(type="place", cells=zone[:10])
        # Placed: the device falls back to the public view before the next player looks
        # (unless the one who placed last also moves first: they keep it).
        seat.until(
            lambda s, p=player: (
                s["view"]["placed"][p]
                and s["viewer"]
                in (None, s["view"]["turn"] if s["view"]["phase"] == "play" else None)
            )
        )
    first = seat.state["view"]["turn"]
    seat.send(type="look", seat=first)
    seat.until(lambda s: s["viewer"] == first and "legal" in s["view"])
    mine = [t for t in seat.view["tiles"] if t["owner"] == first]
    assert all(t["number"] is not None for t in mine)
    assert all(t["number"] is None for t in seat.view["tiles"] if t["owner"] != first)
    # A whole move, then an illegal step of the same tile (it has moved: its cell is named).
    legal = seat.view["legal"]
    tile, entry = next(iter(sorted(legal["moves"].items())))
    seat.send(type="move", tile=int(tile), path=entry["paths"][0]["cells"])
    seat.until(lambda s: any(e["type"] == "finished" for e in s["events"]))
    seat.send(type="move", tile=int(tile), path=entry["paths"][0]["cells"])
    refused = seat.error()
    assert refused["rule"] == "already_moved" and refused["details"]["cell"]
    assert str(tile) not in refused["message"].split()
    # The scout: the 1 flips (public), then a second scout is refused.
    one = next(t for t in mine if t["number"] == 1)
    seat.send(type="scout", tile=one["id"])
    scouted = seat.until(lambda s: any(e["type"] == "scouted" for e in s["events"]))
    event = next(e for e in scouted["events"] if e["type"] == "scouted")
    assert event["success"] and event["number"] == 1
    assert next(t for t in scouted["view"]["tiles"] if t["id"] == one["id"])["shown"]
    seat.send(type="scout", tile=one["id"])
    assert seat.error()["rule"] == "scout_used"
    seat.send(type="end")
    seat.until(lambda s: s["view"]["turn"] != first and s["viewer"] is None)
    assert not any(t["shown"] for t in seat.view["tiles"])  # hidden again after the turn
    seat.close()


def test_out_of_turn_spectators_wrong_tokens_and_malformed_messages_change_nothing(
    tables_client: TestClient,
) -> None:
    client = tables_client
    created = new_table(client, players=2, seats=[PERSON, PERSON])
    table, host = created["id"], created["token"]
    guest = client.post(
        f"/api/enjambre/tables/{table}/join", json={"seat": 1, "invite": created["invites"]["1"]}
    ).json()["token"]
    rng = random.Random(1)
    seats = {0: Seat(client, table, host), 1: Seat(client, table, guest)}
    for player, seat in seats.items():
        seat.until(lambda s: "legal" in s["view"])
        seat.send(type="place", cells=zone_placement(seat.view, rng))
        seat.until(lambda s, p=player: s["view"]["placed"][p])
    for seat in seats.values():
        seat.until(lambda s: s["view"]["phase"] == "play")
    turn = seats[0].view["turn"]
    waiting = seats[1 - turn]
    before = version(client, table)
    waiting.send(type="end")
    assert waiting.error()["code"] == "not_your_turn"
    spectator = Seat(client, table, None)
    spectator.until(lambda s: s["view"]["phase"] == "play")
    assert spectator.state["viewer"] is None
    assert all(t["number"] is None for t in spectator.view["tiles"])
    spectator.send(type="end")
    assert spectator.error()["code"] == "spectator"
    mover = seats[turn]
    junk: list[Any] = [
        [],
        "end",
        {"type": "fly"},
        {"type": "move"},
        {"type": "move", "tile": "3", "path": [[0, 0]]},
        {"type": "move", "tile": 3, "path": []},
        {"type": "move", "tile": 3, "path": [[0, 0]] * 9},
        {"type": "move", "tile": 3, "path": [[1, 2, 3]]},
        {"type": "move", "tile": 3, "path": [[10**9, 0]]},
        {"type": "move", "tile": True, "path": [[0, 1]]},
        {"type": "move", "tile": 999, "path": [[0, 1]]},
        {"type": "move", "tile": turn * 10, "path": [[0, 0]]},  # the centre
        {"type": "scout", "tile": (1 - turn) * 10},  # not yours
        {"type": "displace", "cell": [0, 1]},
        {"type": "place", "cells": [[0, 1]] * 10},
        {"type": "end", "step": "x"},
        {"type": "end", "step": 0},  # stale
        {"type": "look", "seat": 1 - turn},
        {"type": "start"},
    ]
    for message in junk:
        mover.send(**message) if isinstance(message, dict) else mover.ws.send_json(message)
        error = mover.error()
        assert error["code"] and error["message"], message
    mover.ws.send_text("{not json")
    assert mover.error()["code"] == "bad_json"
    mover.ws.send_text("[" * 5000)
    assert mover.error()["code"] in ("bad_json", "too_large")
    assert version(client, table) == before  # nothing changed
    # A wrong token is refused and the socket closed; an unknown table too.
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": "not-a-token"})
        assert ws.receive_json()["code"] == "bad_token"
    with client.websocket_connect("/ws/tables/nope") as ws:
        assert ws.receive_json()["code"] == "unknown_table"
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "move"})
        assert ws.receive_json()["code"] == "bad_request"  # hello first
    for seat in (*seats.values(), spectator):
        seat.close()


def test_a_returning_player_gets_their_current_observation(tables_client: TestClient) -> None:
    client = tables_client
    created = new_table(client, players=2, seats=[PERSON, bot()])
    table, token = created["id"], created["token"]
    seat = Seat(client, table, token)
    seat.until(lambda s: "legal" in s["view"])
    seat.send(type="place", cells=zone_placement(seat.view, random.Random(2)))
    seat.until(lambda s: s["view"]["phase"] == "play")
    numbers = {t["id"]: t["number"] for t in seat.view["tiles"] if t["owner"] == 0}
    seat.close()
    again = Seat(client, table, token)
    state = again.until(lambda s: s["view"]["phase"] == "play")
    assert state["events_from"] == 0 and state["events"]  # the whole record again
    assert {t["id"]: t["number"] for t in state["view"]["tiles"] if t["owner"] == 0} == numbers
    again.close()


def test_the_host_may_start_early_with_bots_in_the_empty_seats(
    tables_client: TestClient,
) -> None:
    client = tables_client
    created = new_table(client, players=4, seats=[PERSON, PERSON, PERSON, bot()])
    table = created["id"]
    guest = client.post(
        f"/api/enjambre/tables/{table}/join", json={"seat": 1, "invite": created["invites"]["1"]}
    ).json()["token"]
    other = Seat(client, table, guest)
    other.until(lambda s: s["table"]["status"] == "waiting")
    other.send(type="start")
    assert other.error()["code"] == "not_host"
    host = Seat(client, table, created["token"])
    host.until(lambda s: s["host"])
    host.send(type="start", bot="heuristic")
    state = host.until(lambda s: s["table"]["status"] == "playing")
    assert [s["kind"] for s in state["table"]["seats"]] == ["person", "person", "bot", "bot"]
    late = client.post(
        f"/api/enjambre/tables/{table}/join", json={"seat": 2, "invite": created["invites"]["2"]}
    )
    assert late.status_code == 409
    host.until(lambda s: s["view"]["placed"][2] and s["view"]["placed"][3])
    host.close()
    other.close()


# --------------------------------------------------------------------------------- whole games


def play_table(
    client: TestClient,
    created: dict[str, Any],
    tokens: dict[int, str],
    seed: int,
    clients: dict[int, TestClient] | None = None,
    each_round: Callable[[], None] | None = None,
) -> dict[int, Seat]:
    """Play a table with a person on each seat of ``tokens`` until the match is over: each round,
    every seat catches up with the stored version, then the seats whose turn it is play. A seat
    connects through ``clients[seat]`` when given (another process), else through ``client``.
    ``each_round`` is called once a round (to look at the table from outside)."""
    rng = random.Random(seed)
    table = created["id"]
    seats = {
        player: Seat((clients or {}).get(player, client), table, token)
        for player, token in tokens.items()
    }
    for _ in range(20_000):
        current = version(client, table)
        for seat in seats.values():
            if not seat.state or seat.state["table"]["version"] < current:
                seat.send(type="sync")
                seat.until(lambda s, v=current: s["table"]["version"] >= v)
        if each_round is not None:
            each_round()
        if all(s.state["table"]["status"] == "over" for s in seats.values()):
            return seats
        movers = [seat for seat in seats.values() if seat.my_turn()]
        if not movers:
            time.sleep(0.02)  # the bots are playing
            continue
        for seat in movers:
            legal = seat.view["legal"]
            if legal.get("place"):
                me = seat.state["viewer"]
                seat.send(type="place", cells=zone_placement(seat.view, rng))
                seat.until(lambda s, p=me: s["view"]["placed"][p])
            else:
                play_some(seat, rng)
    raise AssertionError("the match did not end")


def test_an_adversarial_player_never_receives_a_number_it_may_not_see(
    tables_client: TestClient, backend: Backend
) -> None:
    """Two people and two bots play a whole 4-player game with the advanced rules that show or
    move numbers. Every websocket message and HTTP response seat 0 receives is compared with the
    engine's own observation for seat 0 at that step (replayed from the stored log): it says
    exactly that, and names no number outside what that observation lets seat 0 see."""
    client = tables_client
    options = {"rounds": 6, "scout_extra_step": True, "colmena_combat": True}
    seats_spec = [PERSON, PERSON, bot(), bot("heuristic")]
    created = new_table(client, players=4, seats=seats_spec, options=options)
    table, host = created["id"], created["token"]
    auth = {"Authorization": f"Bearer {host}"}
    guest = client.post(
        f"/api/enjambre/tables/{table}/join", json={"seat": 1, "invite": created["invites"]["1"]}
    ).json()["token"]
    responses: list[dict[str, Any]] = []

    def look_over_http() -> None:
        responses.append(client.get(f"/api/enjambre/tables/{table}", headers=auth).json())
        if responses[-1]["table"]["status"] != "over":
            replay = client.get(f"/api/enjambre/tables/{table}/replay", params={"view": "0"})
            if replay.status_code != 409:  # no replay while the game goes on: it just ended
                now = client.get(f"/api/enjambre/tables/{table}", headers=auth).json()
                assert now["table"]["status"] == "over", replay.text
            else:
                others.append(replay.json())

    others: list[dict[str, Any]] = [created]
    look_over_http()
    seats = play_table(client, created, {0: host, 1: guest}, seed=5, each_round=look_over_http)
    watched = seats[0]
    responses.append(client.get(f"/api/enjambre/tables/{table}", headers=auth).json())
    witness = Witness(backend.db_url, table)
    states = [m for m in watched.received if m["type"] == "state"] + responses
    numbers = sum(witness.check(message, 0) for message in states)
    assert len(states) > 50 and numbers > 100 and len(responses) > 20
    others += [m for m in watched.received if m["type"] != "state"]
    for message in others:  # the creation, refusals, anything else: no number at all
        assert list(numbers_in(message)) == [], message
    kinds = {e["type"] for e in watched.events}
    assert {"combat", "scouted", "game_ended"} <= kinds, kinds  # numbers were shown and hidden
    assert watched.state["table"]["status"] == "over"
    log = stored_log(backend.db_url, table, 0)
    assert {p for p, _ in log.actions} == {0, 1, 2, 3}  # the bots played


def test_memory_play_and_the_easy_version_reach_the_wire_exactly(
    tables_client: TestClient, backend: Backend
) -> None:
    """Under memory play a player's own numbers leave their screen once the set-up is done (only
    what the turn shows comes back); under the easy version every eliminated tile is sent face
    up, to players and spectators alike. Every state is the engine's observation, exactly."""
    client = tables_client
    options = {"rounds": 8, "memory_play": True, "eliminated_visible": True}
    created = new_table(client, players=2, seats=[PERSON, bot("heuristic")], options=options)
    table = created["id"]
    watched = play_table(client, created, {0: created["token"]}, seed=21)[0]
    witness = Witness(backend.db_url, table)
    states = [m for m in watched.received if m["type"] == "state"]
    assert sum(witness.check(message, 0) for message in states) > 0
    hidden = 0
    for message in states:
        if message["view"]["phase"] != "play":
            continue
        for tile in message["view"]["tiles"]:
            if tile["owner"] == 0 and not tile["shown"]:
                assert tile["number"] is None, "an own number after the set-up (memory play)"
                hidden += 1
    assert hidden > 100
    spectator = client.get(f"/api/enjambre/tables/{table}").json()
    assert spectator["viewer"] is None
    eliminated = spectator["view"]["eliminated"]
    assert eliminated, "no tile was eliminated: pick another seed"
    assert all(item["number"] is not None for item in eliminated)
    watched.close()


def test_a_match_rotates_the_first_player_and_ranks_by_wins(tables_client: TestClient) -> None:
    created = new_table(
        tables_client,
        players=3,
        games=3,
        seats=[PERSON, bot(), bot()],
        options={"rounds": 1},
    )
    seats = play_table(tables_client, created, {0: created["token"]}, seed=3)
    table = seats[0].state["table"]
    firsts = table["first_players"]
    assert len(firsts) == 3 and sorted(firsts) == [0, 1, 2]
    assert [(firsts[0] + k) % 3 for k in range(3)] == firsts
    assert len(table["results"]) == 3 and len(table["match_places"]) == 3
    assert min(table["match_places"]) == 1
    seats[0].close()


def test_a_finished_game_replays_from_each_seat_and_with_every_number(
    tables_client: TestClient, backend: Backend
) -> None:
    created = new_table(tables_client, players=2, seats=[PERSON, bot()], options={"rounds": 2})
    table = created["id"]
    early = tables_client.get(f"/api/enjambre/tables/{table}/replay", params={"step": 1})
    assert early.status_code == 409  # not while the game goes on
    seats = play_table(tables_client, created, {0: created["token"]}, seed=8)
    steps = len(stored_log(backend.db_url, table, 0).actions)
    witness = Witness(backend.db_url, table)
    for view in ("0", "1", "all"):
        for step in (steps, 1, steps // 2, steps // 2 + 1, steps):  # backwards and forwards
            replay = tables_client.get(
                f"/api/enjambre/tables/{table}/replay", params={"step": step, "view": view}
            ).json()
            assert replay["steps"] == steps and replay["step"] == step
            if view == "all":
                observation = witness.referee_at(0, step)
                assert all(t["number"] is not None for t in replay["view"]["tiles"])
            else:
                observation = witness.observation_at(0, step, int(view))
            assert replay["view"] == json.loads(
                json.dumps(observation_data(observation, legal=False))
            )
            assert replay["events"], "each step shows what its action did"
    assert (
        tables_client.get(f"/api/enjambre/tables/{table}/replay", params={"view": "7"}).status_code
        == 400
    )
    seats[0].close()


# --------------------------------------------------------------------------------- leaving


def test_a_player_who_left_is_replaced_by_a_bot_exactly_once(backend: Backend) -> None:
    """Two processes find the same absent player at the same moment: the database lets one of
    them put a bot in the seat, once; then the bot plays on and the game ends."""
    if backend.name != "sqlite":
        store = Store(backend.db_url)
        TableStore(store).delete_all()
        store.close()
    with watchdog(), make_client(backend) as one, make_client(backend) as two:
        created = new_table(one, players=2, seats=[PERSON, bot()], replace_after=1.0)
        table = created["id"]
        seat = Seat(one, table, created["token"])
        seat.until(lambda s: "legal" in s["view"])
        seat.send(type="place", cells=zone_placement(seat.view, random.Random(3)))
        seat.until(lambda s: s["view"]["phase"] == "play" and s["view"]["turn"] == 0)
        seat.close()  # the player leaves on their turn
        time.sleep(1.5)  # longer than the host's time-out
        hubs = [(one, hub_of(one)), (two, hub_of(two))]
        lives = [client.portal.call(hub.get, table) for client, hub in hubs]
        cutoff = time.time() - 1.0
        with ThreadPoolExecutor(2) as pool:
            results = list(
                pool.map(
                    lambda item: item[0][0].portal.call(item[0][1].replace, item[1], 0, cutoff),
                    zip(hubs, lives, strict=True),
                )
            )
        assert sorted(results) == [False, True]
        state = two.get(f"/api/enjambre/tables/{table}").json()
        assert state["table"]["seats"][0] == {
            "seat": 0,
            "kind": "bot",
            "bot": "heuristic",
            "name": None,
            "joined": True,
            "replaced": True,
            "account": False,
            "rating": None,
        }
        # The sweep finds nothing more to do; the bots finish the game (read from the
        # database: without Redis the two processes do not tell each other).
        for client, hub in hubs:
            client.portal.call(hub.sweep)
        store = Store(backend.db_url, migrate=False)
        try:
            for _ in range(600):
                loaded = TableStore(store).load(table)
                assert loaded is not None
                if loaded.row.status == "over":
                    break
                time.sleep(0.05)
            assert loaded.row.status == "over"
            assert [seat.replaced for seat in loaded.seats] == [True, False]
        finally:
            store.close()


def test_the_sweep_replaces_a_player_only_after_the_time_out(tables_client: TestClient) -> None:
    client = tables_client
    created = new_table(client, players=2, seats=[PERSON, bot()], replace_after=2.0)
    table = created["id"]
    hub = hub_of(client)
    seat = Seat(client, table, created["token"])
    seat.until(lambda s: "legal" in s["view"])
    seat.close()
    client.portal.call(hub.sweep)  # away for less than the time-out: nothing happens
    state = client.get(f"/api/enjambre/tables/{table}").json()
    assert state["table"]["seats"][0]["kind"] == "person"
    time.sleep(2.3)
    client.portal.call(hub.sweep)
    state = client.get(f"/api/enjambre/tables/{table}").json()
    assert state["table"]["seats"][0]["replaced"]
    # The player comes back: their token still shows their seat, now played by a bot, and
    # acts for it no more (it raced the bot: issue 19).
    back = Seat(client, table, created["token"])
    assert back.until(lambda s: s["view"]["placed"][0])["viewer"] == 0
    back.send(type="place", cells=[[0, 0]])
    assert back.error()["code"] == "seat_replaced"


def test_restart_mid_game_resumes_the_table(backend: Backend) -> None:
    if backend.name != "sqlite":
        store = Store(backend.db_url)
        TableStore(store).delete_all()
        store.close()
    with watchdog(), make_client(backend) as client:
        created = new_table(client, players=3, seats=[PERSON, bot(), bot()], options={"rounds": 2})
        seat = Seat(client, created["id"], created["token"])
        seat.until(lambda s: "legal" in s["view"])
        seat.send(type="place", cells=zone_placement(seat.view, random.Random(4)))
        seat.until(lambda s: s["view"]["phase"] == "play")
        before = seat.state["view"]
        seat.close()
    with watchdog(), make_client(backend) as client:  # a new process on the same database
        again = Seat(client, created["id"], created["token"])
        state = again.until(lambda s: s["view"]["phase"] == "play")
        mine = lambda view: {t["id"]: t["number"] for t in view["tiles"] if t["owner"] == 0}  # noqa: E731
        assert mine(state["view"]) == mine(before)
        rng = random.Random(6)
        for _ in range(2):  # two rounds: the bots resume and the game goes on to its end
            again.until(lambda s: "legal" in s["view"])
            play_some(again, rng)
        final = again.until(lambda s: s["table"]["status"] == "over")
        assert final["view"]["result"] is not None
        ended = [e for e in again.events if e["type"] == "turn_ended"]
        assert [e["player"] for e in ended].count(1) == 2  # the bots played both rounds
        again.close()


def test_two_processes_serve_one_table(backend: Backend) -> None:
    """Scale-out: the host plays through one process, the guest through another (PostgreSQL and
    Redis between them); both see every change, and what each saw is what the engine says."""
    if backend.name == "sqlite":
        pytest.skip("several processes share a table through Redis")
    store = Store(backend.db_url)
    TableStore(store).delete_all()
    store.close()
    with watchdog(), make_client(backend) as one, make_client(backend) as two:
        try:
            created = new_table(
                one, players=3, seats=[PERSON, PERSON, bot()], options={"rounds": 3}
            )
            table = created["id"]
            guest = two.post(
                f"/api/enjambre/tables/{table}/join",
                json={"seat": 1, "invite": created["invites"]["1"]},
            ).json()["token"]
            seats = play_table(
                one, created, {0: created["token"], 1: guest}, seed=9, clients={1: two}
            )
            witness = Witness(backend.db_url, table)
            for seat, connection in seats.items():
                states = [m for m in connection.received if m["type"] == "state"]
                assert len(states) > 10
                for message in states:
                    witness.check(message, seat)
            final = [seat.state["table"]["version"] for seat in seats.values()]
            assert final[0] == final[1]
        finally:
            Seat.close_all()


def test_a_table_is_read_from_one_snapshot(tables_client: TestClient, backend: Backend) -> None:
    """Another process's change that lands while a process reads a table (its row, seats,
    games and log, in several statements) is either wholly in what it reads or not at all: a
    version paired with a later log would offer moves the stored game has already made."""
    if backend.name == "sqlite":
        pytest.skip("one process serves a SQLite database; its hub changes a table at a time")
    table = new_table(tables_client, players=2, seats=[PERSON, PERSON])["id"]
    store = Store(backend.db_url, migrate=False)
    tables = TableStore(store)
    try:
        before = tables.load(table)
        assert before is not None
        version, game, ply = before.row.version, before.games[-1].number, len(before.actions)
        armed = [True]

        def change_midway(conn: Any, cursor: Any, statement: str, *_: Any) -> None:
            if armed[0] and statement.lstrip().upper().startswith("SELECT"):
                armed[0] = False  # right after the table's row is read
                tables.change(
                    table, version, TableWrite(game=game, first_ply=ply, actions=[(0, END)])
                )

        event.listen(store.engine, "after_cursor_execute", change_midway)
        try:
            loaded = tables.load(table)
        finally:
            event.remove(store.engine, "after_cursor_execute", change_midway)
        assert not armed[0]  # the change landed during the read
        assert loaded is not None
        assert (loaded.row.version, len(loaded.actions)) == (version, ply)
        after = tables.load(table)
        assert after is not None
        assert (after.row.version, len(after.actions)) == (version + 1, ply + 1)
    finally:
        store.close()


def test_a_combat_shows_both_numbers_to_everyone_until_the_end_of_the_turn(
    tables_client: TestClient,
) -> None:
    """Two people walk their tiles at each other until one attacks: both see both numbers (and
    the survivor face up) during that turn, and neither sees them once the turn is over."""
    client = tables_client
    created = new_table(client, players=2, seats=[PERSON, PERSON], options={"rounds": 10})
    table = created["id"]
    guest = client.post(
        f"/api/enjambre/tables/{table}/join", json={"seat": 1, "invite": created["invites"]["1"]}
    ).json()["token"]
    rng = random.Random(11)
    seats = {0: Seat(client, table, created["token"]), 1: Seat(client, table, guest)}
    for player, seat in seats.items():
        seat.until(lambda s: "legal" in s["view"])
        seat.send(type="place", cells=zone_placement(seat.view, rng))
        seat.until(lambda s, p=player: s["view"]["placed"][p])
    for _ in range(20):  # turns
        current = version(client, table)
        for seat in seats.values():
            seat.send(type="sync")
            seat.until(lambda s, v=current: s["table"]["version"] >= v)
        mover = next(seat for seat in seats.values() if seat.my_turn())
        other = next(seat for seat in seats.values() if seat is not mover)
        while mover.my_turn():
            move = choose_move(mover, rng) if mover.view["legal"]["moves"] else None
            if move is None:
                break
            before = mover.state["table"]["version"]
            mover.send(type="move", tile=move[0], path=move[1])
            state = mover.until(lambda s, v=before: s["table"]["version"] > v)
            combats = [e for e in state["events"] if e["type"] == "combat"]
            if combats:
                combat = combats[-1]
                assert combat["attacker_number"] and combat["defender_number"]
                step = state["table"]["step"]
                seen = other.until(lambda s, n=step: s["table"]["step"] >= n)
                assert combat in other.events  # the other player sees both numbers too
                survivors = [t for t in seen["view"]["tiles"] if t["shown"]]
                fighters = {combat["attacker"], combat["defender"]}
                survivor_ids = fighters - set(combat["eliminated"])
                assert survivor_ids <= {t["id"] for t in survivors}  # the survivor face up
                for tile in survivors:
                    assert tile["number"] is not None
                mover.send(type="end")
                after = other.until(lambda s, n=step: s["table"]["step"] > n)
                hidden = {t["id"]: t["number"] for t in after["view"]["tiles"]}
                for tile in survivors:
                    if tile["owner"] != other.state["viewer"]:
                        assert hidden.get(tile["id"]) is None  # face down again
                return
            if not mover.view.get("legal", {}).get("moves"):
                break
            if rng.random() < 0.5:
                break
        if mover.my_turn():
            mover.send(type="end")
            mover.until(lambda s: not s["view"].get("legal"))
    raise AssertionError("no combat in 20 turns")
