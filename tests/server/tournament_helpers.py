"""Tournaments played to their end through the HTTP API and the games' websockets of real
``panal serve`` processes, and checked against a recomputation from the stored games."""

from __future__ import annotations

import itertools
import json
import random
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import httpx
from sqlalchemy import text
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from panal.server.database.store import Store
from panal.server.players.auth import SESSION_COOKIE
from tests.server.helpers import ServerProcess, game_shown, hello

_LEGACY = "legacy" in ws_connect.__code__.co_varnames
CLOCK = {"kind": "realtime", "base": 600, "increment": 0}


class Player:
    """One account, using whichever server it is told to."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.session: str | None = None

    def headers(self, server: ServerProcess) -> dict[str, str]:
        headers = {"Origin": server.url}
        if self.session:
            headers["Cookie"] = f"{SESSION_COOKIE}={self.session}"
        return headers

    def post(self, server: ServerProcess, path: str, body: Any = None) -> httpx.Response:
        response = httpx.post(
            f"{server.url}{path}", json=body, headers=self.headers(server), timeout=30
        )
        cookie = response.cookies.get(SESSION_COOKIE)
        if cookie:
            self.session = cookie
        return response

    def game(self, server: ServerProcess, game_id: str) -> ClientConnection:
        url = f"{server.ws_url}/ws/games/{game_id}"
        headers = self.headers(server)
        ws = (
            ws_connect(url, legacy=True, additional_headers=headers)
            if _LEGACY
            else ws_connect(url, additional_headers=headers)
        )
        ws.send(hello(None))  # the seat comes from the session
        return ws


def state(ws: ClientConnection, until: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        message = json.loads(ws.recv(timeout=30))
        assert message["type"] != "error", message
        if message["type"] == "state" and until(message):
            return message
    raise AssertionError("no such state")


def play_game(
    white: Player, black: Player, server: ServerProcess, game_id: str, outcome: str
) -> None:
    """Two moves each way through the websockets, then ``outcome``: White or Black resigns
    (``black``/``white`` wins), or a draw by agreement."""
    with white.game(server, game_id) as w, black.game(server, game_id) as b:
        latest = {w: state(w, lambda s: True), b: state(b, lambda s: True)}
        assert latest[w]["you"] == ["white"] and latest[b]["you"] == ["black"]
        for ply, (mover, other) in enumerate(((w, b), (b, w), (w, b), (b, w))):
            seen = latest[mover]
            if seen["ply"] != ply or not seen.get("legal"):
                seen = state(mover, lambda s, p=ply: s["ply"] == p and bool(s.get("legal")))
            mover.send(json.dumps({"type": "move", "move": seen["legal"][0]["move"], "ply": ply}))
            latest[other] = state(other, lambda s, p=ply: s["ply"] == p + 1)
        if outcome == "draw":
            w.send(json.dumps({"type": "offer_draw"}))
            state(b, lambda s: s.get("draw_offer") is not None)
            b.send(json.dumps({"type": "accept_draw"}))
        else:
            (b if outcome == "white" else w).send(json.dumps({"type": "resign"}))
        over = state(w, lambda s: s["result"] is not None)
        expected = {"white": "WhiteWins", "black": "BlackWins", "draw": "Draw"}[outcome]
        assert over["result"] == expected


def play_against_bot(person: Player, server: ServerProcess, game_id: str, moves: int) -> None:
    """The person's side of a game against a bot (whose ``panal bot`` plays its side by
    itself): ``moves`` moves when it is the person's turn, then a resignation."""
    with person.game(server, game_id) as ws:
        seen = state(ws, lambda s: True)
        (colour,) = seen["you"]
        mine = ("white", "black").index(colour)
        answered = -1
        while seen["result"] is None:
            if seen["turn"] == mine and seen["ply"] != answered and seen.get("legal"):
                if seen["ply"] // 2 >= moves:
                    ws.send(json.dumps({"type": "resign"}))
                else:
                    move = seen["legal"][0]["move"]
                    ws.send(json.dumps({"type": "move", "move": move, "ply": seen["ply"]}))
                answered = seen["ply"]
            seen = state(ws, lambda s: True)
        assert seen["result"] == ("BlackWins" if mine == 0 else "WhiteWins")


def sign_up(players: list[Player], server: ServerProcess) -> None:
    for player in players:
        response = player.post(
            server, "/api/account/signup", {"name": player.name, "password": "correct horse"}
        )
        assert response.status_code == 201, response.text


def tournament(server: ServerProcess, tournament_id: str) -> dict[str, Any]:
    response = httpx.get(f"{server.url}/api/tournaments/{tournament_id}", timeout=30)
    assert response.status_code == 200, response.text
    return response.json()


def wait_for(
    server: ServerProcess,
    tournament_id: str,
    until: Callable[[dict[str, Any]], bool],
    seconds: float = 60,
) -> dict[str, Any]:
    """The tournament once ``until`` holds; after ``seconds``, an AssertionError showing it and
    its round's games."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        seen = tournament(server, tournament_id)
        if until(seen):
            return seen
        time.sleep(0.2)
    games = [
        game_shown(game)
        for game in (
            httpx.get(f"{server.url}/api/games/{board['game']}", timeout=30).json()
            for pairing in seen["pairings"]
            if pairing["round"] == seen["round"]
            for board in pairing["boards"]
            if board.get("game") is not None
        )
    ]
    raise AssertionError(f"the tournament did not get there: {seen}\nthe round's games: {games}")


def run_tournament(
    servers: Callable[[], list[ServerProcess]],
    players: list[Player],
    settings: dict[str, Any],
    seed: int,
    in_the_middle: Callable[[], None] | None = None,
    bots: Callable[[str], list[str]] | None = None,
) -> dict[str, Any]:
    """Create, register everyone, start, and play every round to the end; ``in_the_middle``
    runs after the first game of round 2 (a process killed…). ``servers()``: those alive.
    ``bots``: called with the tournament's id, starts bots that register for it by themselves
    (``panal bot --tournament``) and names them; they play their games by themselves, and
    the people resign to them after a few moves."""
    rng = random.Random(seed)
    by_name = {p.name: p for p in players}
    first = servers()[0]
    created = players[0].post(first, "/api/tournaments", {"clock": CLOCK, **settings})
    assert created.status_code == 201, created.text
    tournament_id = created.json()["id"]
    for i, player in enumerate(players):
        joined = player.post(
            servers()[i % len(servers())], f"/api/tournaments/{tournament_id}/join"
        )
        assert joined.status_code == 200, joined.text
    bot_names = set(bots(tournament_id)) if bots is not None else set()
    if bot_names:
        everyone = len(players) + len(bot_names)
        wait_for(first, tournament_id, lambda s: s["player_count"] == everyone)
    started = players[0].post(first, f"/api/tournaments/{tournament_id}/start")
    assert started.status_code == 200, started.text
    played = 0
    round_number = 1
    while True:
        alive = servers()
        seen = wait_for(
            alive[0],
            tournament_id,
            lambda s, n=round_number: s["status"] == "finished" or s["round"] >= n,
        )
        if seen["status"] == "finished":
            return seen
        boards = next(r["boards"] for r in seen["pairings"] if r["round"] == round_number)
        for board in boards:
            if board["game"] is None or {board["white"], board["black"]} <= bot_names:
                continue  # a bye, or two bots: they play it between themselves
            alive = servers()
            server = alive[played % len(alive)]
            if board["white"] in bot_names or board["black"] in bot_names:
                person = board["black"] if board["white"] in bot_names else board["white"]
                play_against_bot(by_name[person], server, board["game"], rng.randint(1, 3))
            else:
                outcome = rng.choice(("white", "black", "draw"))
                play_game(
                    by_name[board["white"]], by_name[board["black"]], server, board["game"], outcome
                )
            played += 1
            if round_number == 2 and in_the_middle is not None:
                in_the_middle()
                in_the_middle = None
        round_number += 1


def stored(db_url: str, tournament_id: str) -> list[dict[str, Any]]:
    """The tournament's games as stored: round, White, Black (names), result, how it ended."""
    store = Store(db_url)
    try:
        with store.engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT p.round, w.name AS white, b.name AS black, g.result, g.end_reason"
                    " FROM tournament_pairings p JOIN games g ON g.id = p.game_id"
                    " JOIN users w ON w.id = g.white_user JOIN users b ON b.id = g.black_user"
                    " WHERE p.tournament_id = :t AND p.color = 0 ORDER BY p.round"
                ),
                {"t": tournament_id},
            ).all()
            byes = conn.execute(
                text(
                    "SELECT p.round, u.name FROM tournament_pairings p JOIN users u"
                    " ON u.id = p.user_id WHERE p.tournament_id = :t AND p.opponent_id IS NULL"
                ),
                {"t": tournament_id},
            ).all()
            per_round = conn.execute(
                text(
                    "SELECT round, user_id, COUNT(*) FROM tournament_pairings"
                    " WHERE tournament_id = :t GROUP BY round, user_id HAVING COUNT(*) > 1"
                ),
                {"t": tournament_id},
            ).all()
            assert per_round == []  # the primary key's promise, read back
    finally:
        store.close()
    games = [dict(r._mapping) for r in rows]
    return games + [{"round": r, "white": name, "black": None, "result": "bye"} for r, name in byes]


def stored_series(db_url: str, tournament_id: str) -> list[dict[str, Any]]:
    """An Enjambre series' stored tables as the pairwise games they stand for, in
    :func:`stored`'s shape: each pair of players at a finished table, the earlier seat as
    "White", the better place winning (a player a bot replaced is placed last), equal places a
    draw; read from the tables' seats and results, not from the tournament's code."""
    store = Store(db_url)
    try:
        with store.engine.connect() as conn:
            seats = conn.execute(
                text(
                    "SELECT p.round, p.table_id, s.seat, s.replaced, u.name, g.result"
                    " FROM tournament_pairings p"
                    " JOIN enjambre_seats s ON s.table_id = p.table_id AND s.user_id = p.user_id"
                    " JOIN enjambre_games g ON g.table_id = p.table_id"
                    " JOIN users u ON u.id = p.user_id"
                    " WHERE p.tournament_id = :t ORDER BY p.round, s.seat"
                ),
                {"t": tournament_id},
            ).all()
    finally:
        store.close()
    tables: dict[tuple[int, str], list[tuple[str, int]]] = {}
    for r in seats:
        assert r.result is not None, f"table {r.table_id} never finished"
        places = json.loads(r.result)["places"]
        place = len(places) if r.replaced else places[r.seat]
        tables.setdefault((r.round, r.table_id), []).append((r.name, place))
    games = []
    for (number, _table), seated in sorted(tables.items()):
        for (white, a), (black, b) in itertools.combinations(seated, 2):
            result = "WhiteWins" if a < b else "Draw" if a == b else "BlackWins"
            games.append({"round": number, "white": white, "black": black, "result": result})
    return games


def recompute(games: list[dict[str, Any]], names: list[str]) -> dict[str, dict[str, float]]:
    """Score, head-to-head, Buchholz, Sonneborn-Berger and wins as Black from the stored
    games, written again here from FIDE's definitions (C.07), independently of panal's
    standings."""
    points = {"WhiteWins": 1.0, "BlackWins": 0.0, "Draw": 0.5}
    score = Counter({n: 0.0 for n in names})
    met: dict[str, list[tuple[str, float]]] = {n: [] for n in names}
    black_wins = Counter({n: 0 for n in names})
    for g in games:
        if g["black"] is None:
            score[g["white"]] += 1.0
            continue
        w = points[g["result"]]
        score[g["white"]] += w
        score[g["black"]] += 1 - w
        met[g["white"]].append((g["black"], w))
        met[g["black"]].append((g["white"], 1 - w))
        black_wins[g["black"]] += g["result"] == "BlackWins"

    def head_to_head(n: str) -> float:
        return sum(p for o, p in met[n] if score[o] == score[n])

    return {
        n: {
            "score": score[n],
            "head_to_head": head_to_head(n),
            "buchholz": sum(score[o] for o, _ in met[n]),
            "sonneborn_berger": sum(p * score[o] for o, p in met[n]),
            "wins_as_black": black_wins[n],
        }
        for n in names
    }


def check_standings(final: dict[str, Any], games: list[dict[str, Any]]) -> None:
    names = [p["name"] for p in final["players"]]
    again = recompute(games, names)
    for row in final["standings"]:
        for key, value in again[row["name"]].items():
            assert row[key] == value, (row["name"], key, row[key], value)
    scores = [row["score"] for row in final["standings"]]
    assert scores == sorted(scores, reverse=True)


def check_swiss(games: list[dict[str, Any]], names: list[str]) -> None:
    """No pair meets twice; every colour difference within one; a bye at most once each."""
    pairs = [frozenset((g["white"], g["black"])) for g in games if g["black"] is not None]
    assert len(pairs) == len(set(pairs)), Counter(pairs).most_common(2)
    for name in names:
        whites = sum(g["white"] == name and g["black"] is not None for g in games)
        blacks = sum(g["black"] == name for g in games)
        assert abs(whites - blacks) <= 1, (name, whites, blacks)
        assert sum(g["white"] == name and g["black"] is None for g in games) <= 1
