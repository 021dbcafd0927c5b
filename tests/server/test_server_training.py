"""The trainer's API: puzzles judged move by move, ratings changed once per first try, the
puzzle of the day and streaks, lessons judged with the rule a wrong move breaks."""

from __future__ import annotations

import contextlib
import datetime
import threading
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from panal.hive import Game
from panal.puzzles import load_puzzles, select
from panal.puzzles.lessons import load_lessons
from panal.server.training.puzzle_play import LADDER_RUNGS, PuzzleBook, judge
from tests.server.helpers import ServerProcess
from tests.server.players_helpers import Person
from tests.server.translations import LANGUAGES, MERGED

PUZZLES = load_puzzles()
ONE = select(PUZZLES, kind="surround", moves=1)[0]
TWO = select(PUZZLES, kind="surround", moves=2)[0]
DEFENCE = select(PUZZLES, kind="defence")[0]


def _wrong_legal_move(puzzle_game: Game, right: str) -> str:
    for code in puzzle_game.legal_move_codes():
        text = puzzle_game.move_string(code)
        if text != right:
            return text
    raise AssertionError("no other legal move")


def test_a_guest_solves_a_surround_in_two_and_gets_a_guest_rating(client: TestClient) -> None:
    shown = client.get(f"/api/puzzles/{TWO.id}").json()
    assert shown["side"] == TWO.side and shown["moves"] == 2
    assert "solution" not in shown
    legal = {m["move"] for m in shown["board"]["legal"]}
    assert TWO.solution[0] in legal
    guest = {"rating": 1500.0, "deviation": 350.0, "volatility": 0.06}
    first = client.post(
        f"/api/puzzles/{TWO.id}/move",
        json={"played": [], "move": TWO.solution[0], "rated": True, "guest": guest},
    ).json()
    assert first["correct"] and not first["solved"]
    assert first["reply"] == TWO.solution[1]
    assert first["before_reply"]["ply"] + 1 == first["board"]["ply"]  # the reply drawn after
    assert "guest_rating" not in first  # not finished yet
    second = client.post(
        f"/api/puzzles/{TWO.id}/move",
        json={"played": [TWO.solution[0]], "move": TWO.solution[2], "rated": True, "guest": guest},
    ).json()
    assert second["correct"] and second["solved"]
    assert second["board"]["state"] in ("WhiteWins", "BlackWins")
    assert second["guest_rating"]["rating"] > 1500.0


def test_a_wrong_move_is_refuted(client: TestClient) -> None:
    wrong = _wrong_legal_move(TWO.game(), TWO.solution[0])
    answer = client.post(f"/api/puzzles/{TWO.id}/move", json={"move": wrong}).json()
    assert answer["correct"] is False
    assert answer["why"] in ("no_forced_win", "draw", "own_queen")
    if answer["why"] == "no_forced_win":
        game = TWO.game()
        game.push(wrong)
        game.push(answer["refutation"])  # legal, and after it no surround within one move
        from panal.puzzles.solver import Solver

        assert not Solver(game).wins_within(1)


def test_a_wrong_defence_shows_the_surround_it_allows(client: TestClient) -> None:
    wrong = _wrong_legal_move(DEFENCE.game(), DEFENCE.solution[0])
    answer = client.post(f"/api/puzzles/{DEFENCE.id}/move", json={"move": wrong}).json()
    assert answer["correct"] is False and answer["why"] == "no_defence"
    assert answer["board"]["state"] in ("WhiteWins", "BlackWins")


def test_an_illegal_move_is_refused_with_its_rule(client: TestClient) -> None:
    game = ONE.game()
    queen = "wQ" if ONE.side == "white" else "bQ"
    cell = game.position_of(queen)
    assert cell is not None
    far = [cell.q + 7, cell.r]  # beside nothing: the piece would lose the hive
    response = client.post(f"/api/puzzles/{ONE.id}/move", json={"piece": queen, "to": far})
    assert response.status_code == 409
    body = response.json()
    assert body["error"] == "illegal_move" and body["rule"]
    bad = client.post(f"/api/puzzles/{ONE.id}/move", json={"move": "wQ"})
    assert bad.status_code in (400, 409)
    unknown = client.post(f"/api/puzzles/{ONE.id}/move", json={"played": ["nonsense"], "move": "x"})
    assert unknown.status_code == 400


def test_hint_and_solution(client: TestClient) -> None:
    hint = client.post(f"/api/puzzles/{TWO.id}/hint", json={}).json()
    assert hint["piece"] == TWO.solution[0].split()[0]
    steps = client.post(f"/api/puzzles/{TWO.id}/solution", json={}).json()["steps"]
    assert [s["move"] for s in steps] == list(TWO.solution)
    assert steps[-1]["board"]["state"] in ("WhiteWins", "BlackWins")


def test_a_signed_in_players_rating_changes_once_per_puzzle(client: TestClient) -> None:
    person = Person(client)
    person.sign_up("solver")
    assert person.get("/api/puzzles").json()["rating"] is None
    answer = person.post(
        f"/api/puzzles/{ONE.id}/move", {"move": ONE.solution[0], "rated": True}
    ).json()
    assert answer["solved"] and answer["rating"]["change"] > 0
    assert answer["rating"]["puzzle"] < round(ONE.rating.rating)  # the puzzle lost
    again = person.post(
        f"/api/puzzles/{ONE.id}/move", {"move": ONE.solution[0], "rated": True}
    ).json()
    assert "rating" not in again  # only the first try is rated
    missed = person.post(f"/api/puzzles/{TWO.id}/solution", {"rated": True}).json()
    assert missed["rating"]["change"] < 0
    overview = person.get("/api/puzzles").json()
    assert overview["tried"] == 2 and overview["solved"] == 1
    assert overview["rating"] == f"{missed['rating']['rating']}?"
    profile = person.get("/api/users/solver").json()
    assert any(r["category"] == "puzzle" for r in profile["ratings"])
    shown = person.get(f"/api/puzzles/{ONE.id}").json()
    assert shown["rating"] == answer["rating"]["puzzle"]
    # The next puzzle is one not tried yet.
    for _ in range(5):
        assert person.get("/api/puzzles/next").json()["id"] not in (ONE.id, TWO.id)


def test_next_by_theme_daily_and_streak(client: TestClient) -> None:
    overview = client.get("/api/puzzles").json()
    assert overview["count"] == len(PUZZLES) and overview["themes"]["beetle_drop"] > 0
    themed = client.get("/api/puzzles/next", params={"theme": "pillbug_throw"}).json()
    assert "pillbug_throw" in themed["themes"]
    assert client.get("/api/puzzles/next", params={"theme": "nonsense"}).status_code == 400
    daily = client.get("/api/puzzles/daily").json()
    assert daily["id"] == overview["daily"]
    first = client.get("/api/puzzles/streak", params={"seed": 7, "index": 0}).json()
    assert first == client.get("/api/puzzles/streak", params={"seed": 7, "index": 0}).json()
    assert client.get("/api/puzzles/no-such").status_code == 404


def test_the_daily_puzzle_depends_on_the_date_only() -> None:
    book = PuzzleBook(PUZZLES)
    day = datetime.date(2026, 11, 27)
    assert book.daily(day) is PuzzleBook(list(reversed(PUZZLES))).daily(day)
    days = {book.daily(day + datetime.timedelta(days=n)).id for n in range(30)}
    assert len(days) > 20


def test_a_streak_rises() -> None:
    book = PuzzleBook(PUZZLES)
    ratings = [book.streak(3, n).rating.rating for n in range(LADDER_RUNGS)]
    assert ratings == sorted(ratings)
    beyond = [book.streak(3, n).rating.rating for n in range(LADDER_RUNGS, LADDER_RUNGS + 5)]
    assert min(beyond) >= ratings[-2]  # a long streak stays on the top rung
    assert ratings[-1] > ratings[0]


def test_lessons_are_judged_and_progress_kept(client: TestClient) -> None:
    listing = client.get("/api/lessons", params={"language": "es"}).json()
    assert listing["done"] is None
    hive = [x["id"] for x in listing["lessons"] if x["game"] == "hive"]
    assert hive == [x.id for x in load_lessons()]
    ant = next(x for x in load_lessons() if x.id == "ant")
    shown = client.get("/api/lessons/ant", params={"language": "es"}).json()
    assert shown["title"] == "La hormiga" and shown["board"]["stacks"]
    forbidden = ant.forbids[0]
    refused = client.post("/api/lessons/ant/move", json={"move": forbidden.move})
    assert refused.status_code == 409 and refused.json()["rule"] == forbidden.rule
    person = Person(client)
    person.sign_up("learner")
    done = person.post("/api/lessons/ant/move", {"move": ant.asks[0]}).json()
    assert done["asked"] is True
    assert person.get("/api/lessons").json()["done"] == ["ant"]
    person.post("/api/lessons/done", {"lessons": ["queen", "ant"]})
    assert sorted(person.get("/api/lessons").json()["done"]) == ["ant", "queen"]
    assert person.post("/api/lessons/done", {"lessons": ["nope"]}).status_code == 404
    assert client.post("/api/lessons/done", json={"lessons": ["ant"]}).status_code == 401


def test_every_lessons_asked_move_completes_it_on_the_server(client: TestClient) -> None:
    for lesson in load_lessons():
        answer = client.post(f"/api/lessons/{lesson.id}/move", json={"move": lesson.asks[0]})
        assert answer.status_code == 200 and answer.json()["asked"], lesson.id
        if lesson.outcome is not None:
            assert answer.json()["board"]["state"] == lesson.outcome


def test_the_enjambre_lessons_are_judged_by_the_engine(client: TestClient) -> None:
    from panal.enjambre.lessons import load_table_lessons

    listing = client.get("/api/lessons").json()["lessons"]
    games = [item["game"] for item in listing]
    assert games == sorted(games, key=lambda g: g != "hive")  # Hive first, then Enjambre
    assert games.count("enjambre") == len(load_table_lessons())
    shown = client.get("/api/lessons/enjambre_combat", params={"language": "pt-BR"}).json()
    assert shown["game"] == "enjambre" and shown["view"]["legal"]["moves"]
    assert shown["table"]["cells"] and "H8" in shown["prompt"]
    mine = [t for t in shown["view"]["tiles"] if t["owner"] == shown["view"]["viewer"]]
    assert all(t["number"] is not None for t in mine)  # the learner sees its own numbers
    theirs = [t for t in shown["view"]["tiles"] if t["owner"] != shown["view"]["viewer"]]
    assert all(t["number"] is None for t in theirs)  # and none of the opponent's
    refused = client.post("/api/lessons/enjambre_combat/move", json={"action": "H8-H7"})
    assert refused.status_code == 409
    assert refused.json()["error"] == "illegal_action"
    assert refused.json()["rule"] == "foreign_colmena"
    assert (
        client.post("/api/lessons/enjambre_combat/move", json={"action": "??"}).status_code == 400
    )
    done = client.post("/api/lessons/enjambre_combat/move", json={"action": "H8-F5"}).json()
    assert done["asked"] is True
    scored = client.post("/api/lessons/enjambre_scoring/move", json={"action": "H8-G8"}).json()
    assert scored["asked"] and scored["score"] >= 10


def test_the_trainer_pages_are_the_app(client: TestClient) -> None:
    for path in ("/puzzles", "/puzzles/daily", f"/puzzles/{ONE.id}", "/learn", "/learn/ant"):
        page = client.get(path)
        assert page.status_code == 200 and 'data-nav="puzzles"' in page.text, path


def _slow_refutation(at_least: float) -> tuple[str, str]:
    """A puzzle and a wrong first move whose refutation takes the solver ``at_least`` seconds
    here (the longest of a few, if none does)."""
    slowest = (0.0, "", "")
    for puzzle in select(PUZZLES, kind="surround", moves=3)[:6]:
        game = puzzle.game()
        for code in list(game.legal_move_codes())[:12]:
            move = game.move_string(code)
            if move == puzzle.solution[0]:
                continue
            started = time.perf_counter()
            judge(puzzle, [], {"move": move})
            slowest = max(slowest, (time.perf_counter() - started, puzzle.id, move))
            if slowest[0] >= at_least:
                return slowest[1], slowest[2]
    return slowest[1], slowest[2]


def _heavy_workers_of(server: ServerProcess) -> list[int]:
    """The server's heavy-pool worker processes (started on first use), read from /proc."""
    assert server.process is not None
    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        with contextlib.suppress(OSError):
            parent = next(line for line in status.read_text().splitlines() if line[:5] == "PPid:")
            command = (status.parent / "cmdline").read_bytes().split(b"\0")
            if int(parent.split()[1]) == server.process.pid and b"panal.hive.records" in command:
                found.append(int(status.parent.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
@pytest.mark.slow
def test_a_clients_refutations_run_one_at_a_time_in_the_heavy_pool(tmp_path: Path) -> None:
    """Four requests of one client for a slow refutation, sent at once to a real server: one
    is answered (by the heavy pool's worker process), the others refused with the translated
    429; another client's request at the same moment is answered too."""
    puzzle_id, wrong = _slow_refutation(0.5)
    server = ServerProcess(tmp_path / "trainer.sqlite3", tmp_path / "serve.log")
    server.start()
    try:
        answers: dict[str, list[httpx.Response]] = {"one": [], "other": []}
        start = threading.Barrier(5)

        def ask(client_token: str, who: str) -> None:
            start.wait()
            answers[who].append(
                httpx.post(
                    f"{server.url}/api/puzzles/{puzzle_id}/move",
                    json={"move": wrong},
                    headers={"X-Panal-Client": client_token},
                    timeout=60,
                )
            )

        tokens = [("one-client-token-0001", "one")] * 4 + [("another-client-token-02", "other")]
        threads = [threading.Thread(target=ask, args=pair) for pair in tokens]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(90)
        heavy_workers = _heavy_workers_of(server)
    finally:
        server.stop()
    ones = sorted(answers["one"], key=lambda answer: answer.status_code)
    assert [answer.status_code for answer in ones] == [200, 429, 429, 429]
    assert ones[0].json()["correct"] is False and ones[0].json()["why"]
    refused = ones[1].json()
    assert refused["error"] == "too_many_puzzle_answers"
    assert refused["details"] == {"count": "1", "limit": "1"}
    assert translated("too_many_puzzle_answers")
    (other,) = answers["other"]
    assert other.status_code == 200 and other.json() == ones[0].json()
    assert heavy_workers  # the solver ran in the heavy pool's worker process


def translated(code: str) -> bool:
    return all(f"error.{code}" in MERGED[language] for language in LANGUAGES)
