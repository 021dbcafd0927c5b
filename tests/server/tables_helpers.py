"""Helpers for the Enjambre table tests: a seat's websocket that records what it receives, a
simple player, and the check of a received message against the engine's own observation."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

from panal.enjambre import Game, GameLog, Options
from panal.enjambre.actions import action_from_dict
from panal.enjambre.views import events_data, observation_data
from panal.server.database.store import Store
from panal.server.enjambre_tables.table_store import TableStore

PERSON = {"kind": "person"}


def bot(level: str = "random") -> dict[str, str]:
    return {"kind": "bot", "bot": level}


def new_table(client: Any, **fields: Any) -> dict[str, Any]:
    body = {"players": 2, "seats": [PERSON, bot()], "options": {"rounds": 2}, **fields}
    response = client.post("/api/enjambre/tables", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


class Seat:
    """One websocket on a table, recording every message it receives (in order). Every seat
    still open is closed by :meth:`close_all` (a failed test must not leave sockets behind)."""

    opened: ClassVar[list[Seat]] = []

    def __init__(self, client: Any, table: str, token: str | None) -> None:
        self.context = client.websocket_connect(f"/ws/tables/{table}")
        self.ws = self.context.__enter__()
        self.closed = False
        self.sent: list[tuple[int, dict[str, Any]]] = []
        Seat.opened.append(self)
        self.ws.send_json({"type": "hello", "token": token})
        self.received: list[dict[str, Any]] = []
        self.state: dict[str, Any] = {}
        self.events: list[dict[str, Any]] = []

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.context.__exit__(None, None, None)

    @classmethod
    def close_all(cls) -> None:
        while cls.opened:
            cls.opened.pop().close()

    def receive(self) -> dict[str, Any]:
        message: dict[str, Any] = self.ws.receive_json()
        self.received.append(message)
        if message["type"] == "state":
            self.state = message
            start = message["events_from"]
            if start == 0:
                self.events = []
            assert start == len(self.events), "events arrive once, in order"
            self.events.extend(message["events"])
        return message

    def until(self, done: Callable[[dict[str, Any]], bool], limit: int = 2000) -> dict[str, Any]:
        """The latest state if it satisfies ``done``, else the next one that does (an error
        message fails the test)."""
        if self.state and done(self.state):
            return self.state
        for _ in range(limit):
            message = self.receive()
            if message["type"] == "error":
                raise AssertionError(f"unexpected error: {message}; {self.trail()}")
            if message["type"] == "state" and done(message):
                return message
        raise AssertionError("no matching state")

    def error(self) -> dict[str, Any]:
        for _ in range(200):
            message = self.receive()
            if message["type"] == "error":
                return message
        raise AssertionError("no error message")

    def send(self, **message: Any) -> None:
        self.sent.append((len(self.received), message))
        self.ws.send_json(message)

    def trail(self) -> str:
        """The last messages sent and received (for a failure's report)."""
        lines = [f"sent after message {n}: {m}" for n, m in self.sent[-4:]]
        for message in self.received[-4:]:
            if message["type"] == "state":
                table, view = message["table"], message["view"]
                lines.append(
                    f"state v{table['version']} step {table['step']} turn {view['turn']} "
                    f"phase {view['phase']} legal {'legal' in view} viewer {message['viewer']}"
                )
            else:
                lines.append(str(message))
        return "; ".join(lines)

    @property
    def view(self) -> dict[str, Any]:
        return dict(self.state["view"])

    def my_turn(self) -> bool:
        return "legal" in self.state.get("view", {})


def zone_placement(view: dict[str, Any], rng: random.Random) -> list[list[int]]:
    return rng.sample(view["zone"], 10)


def distance(a: list[int], b: list[int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def choose_move(seat: Seat, rng: random.Random) -> tuple[int, list[list[int]]] | None:
    """An attack when one is offered, else a step towards the nearest enemy tile."""
    view = seat.view
    moves = view["legal"]["moves"]
    options = [
        (int(tile), path) for tile, entry in sorted(moves.items()) for path in entry["paths"]
    ]
    if not options:
        return None
    attacks = [(tile, path) for tile, path in options if path["attack"] is not None]
    if attacks:
        tile, path = rng.choice(attacks)
        return tile, path["cells"]
    enemies = [t["cell"] for t in view["tiles"] if t["owner"] != view["viewer"]]
    if not enemies or rng.random() < 0.3:
        tile, path = rng.choice(options)
        return tile, path["cells"]
    tile, path = min(
        options,
        key=lambda o: (min(distance(o[1]["cells"][-1], e) for e in enemies), rng.random()),
    )
    return tile, path["cells"]


def play_some(seat: Seat, rng: random.Random, max_moves: int = 3) -> None:
    """On the seat's turn: a few whole moves (attacks first, else towards the enemy), a scout
    now and then, then the end of the turn (what the view offers, nothing else)."""
    for _ in range(max_moves):
        legal = seat.view["legal"]
        if "place" in legal:
            return  # a new game of the match has begun
        move = choose_move(seat, rng) if "moves" in legal else None
        if "displace" in legal:
            seat.send(type="displace", cell=legal["displace"][0], step=seat.state["table"]["step"])
        elif legal["scout"] and rng.random() < 0.25:
            seat.send(type="scout", tile=rng.choice(legal["scout"]))
        elif move is not None and rng.random() < 0.9:
            seat.send(type="move", tile=move[0], path=move[1])
        else:
            break
        before = seat.state["table"]["version"]
        seat.until(lambda s, v=before: s["table"]["version"] > v)
        if not seat.my_turn():
            return
    while seat.my_turn():
        legal = seat.view["legal"]
        if "place" in legal:
            return
        if legal.get("end"):
            seat.send(type="end")
        elif "displace" in legal:
            seat.send(type="displace", cell=legal["displace"][0])
        else:  # the rules want a move first (a tile passing over another, must-move rules)
            tile, entry = sorted(legal["moves"].items())[0]
            seat.send(type="move", tile=int(tile), path=entry["paths"][0]["cells"])
        before = seat.state["table"]["version"]
        seat.until(lambda s, v=before: s["table"]["version"] > v)


# --- the leak check ------------------------------------------------------------------------------


def stored_log(db_url: str, table: str, game: int) -> GameLog:
    """The table's game log, straight from the database (every secret in it)."""
    store = Store(db_url, migrate=False)
    try:
        tables = TableStore(store)
        loaded = tables.load(table)
        assert loaded is not None
        found = tables.game_log(table, game)
        assert found is not None
        header, actions = found
        return GameLog(
            players=loaded.row.players,
            options=Options.from_dict(dict(loaded.row.options)),
            seed=header.seed,
            first_player=header.first_player,
            actions=[(p, action_from_dict(a)) for p, a in actions],
        )
    finally:
        store.close()


def numbers_in(data: Any) -> Iterator[tuple[int, int]]:
    """Every (tile, number) pair a message states: tiles, eliminated tiles, combats, scouts,
    final queens."""
    if isinstance(data, dict):
        if "id" in data and "number" in data and data["number"] is not None:
            yield data["id"], data["number"]
        kind = data.get("type")
        if kind == "combat":
            for side in ("attacker", "defender"):
                if data.get(f"{side}_number") is not None:
                    yield data[side], data[f"{side}_number"]
        elif kind == "scouted":
            if data.get("number") is not None:
                yield data["tile"], data["number"]
            for tile, number in data.get("revealed", []):
                if number is not None:
                    yield tile, number
        elif kind == "game_ended":
            for _, tile, number in data.get("queens", []):
                yield tile, number
        for value in data.values():
            yield from numbers_in(value)
    elif isinstance(data, list):
        for value in data:
            yield from numbers_in(value)


class Witness:
    """Replays a table's stored log to check what one seat was sent at each moment."""

    def __init__(self, db_url: str, table: str) -> None:
        self.db_url = db_url
        self.table = table
        self.logs: dict[int, GameLog] = {}

    def game_at(self, game: int, step: int) -> Game:
        log = self.logs.get(game)
        if log is None or len(log.actions) < step:
            log = self.logs[game] = stored_log(self.db_url, self.table, game)
        replayed = Game(
            log.players, options=log.options, seed=log.seed, first_player=log.first_player
        )
        for player, action in log.actions[:step]:
            replayed.apply(player, action)
        return replayed

    def observation_at(self, game: int, step: int, seat: int | None) -> Any:
        return self.game_at(game, step).observe(seat)

    def referee_at(self, game: int, step: int) -> Any:
        return self.game_at(game, step).observe_all()

    def check(self, message: dict[str, Any], seat: int | None) -> int:
        """``message`` (a state) is exactly what the engine's observation for ``seat`` said at
        that moment, and names no number outside it; returns how many numbers it named."""
        table = message["table"]
        observation = self.observation_at(table["game"], table["step"], message["viewer"])
        assert message["viewer"] == seat
        legal = "legal" in message["view"]
        expected = json.loads(json.dumps(observation_data(observation, legal=legal)))
        assert message["view"] == expected
        events = json.loads(json.dumps(events_data(observation, message["events_from"])))
        assert message["events"] == events
        allowed = dict(observation.revealed)
        allowed.update(observation.numbers)
        count = 0
        for tile, number in numbers_in(message):
            assert allowed.get(tile) == number, f"tile {tile} = {number} was not visible"
            count += 1
        assert '"seed"' not in json.dumps(message)
        return count
