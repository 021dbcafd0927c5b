"""HTTP API: creating, joining, reading, exporting and importing games; hostile input."""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import Backend
from tests.server.helpers import FORCED_PASS, game_socket, receive_state


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"mode": "hotseat", **body})
    assert response.status_code == 201, response.text
    return response.json()


def test_config_lists_languages_looks_levels_and_names(client: TestClient) -> None:
    config = client.get("/api/config").json()
    assert config["languages"] == ["en", "es", "pt-PT", "pt-BR"]
    assert config["looks"] == ["classic", "football"]
    assert config["ai_levels"] == ["beginner", "medium"]
    football = config["names"]["football"]["es"]
    assert football["bugs"]["Q"] == "Escudo"
    assert football["bugs"]["B"] == "Muro"
    assert football["colors"] == ["Blanco", "Grana"]  # White plays Blanco (issue 25)
    assert config["names"]["classic"]["pt-PT"]["bugs"]["A"] == "Formiga"
    # Brazilian and European Portuguese name the Pillbug and the Beetle differently.
    assert config["names"]["classic"]["pt-PT"]["bugs"]["P"] == "Bicho-de-conta"
    assert config["names"]["classic"]["pt-BR"]["bugs"]["P"] == "Tatuzinho"
    assert config["names"]["classic"]["pt-BR"]["bugs"]["B"] == "Besouro"
    assert config["names"]["football"]["pt-BR"]["bugs"]["P"] == "Goleiro"


def test_hotseat_game_has_one_token_for_both_seats(client: TestClient) -> None:
    created = new_game(client, game_type="Base+MLP")
    assert created["seat"] == "both"
    state = client.get(
        f"/api/games/{created['id']}", headers={"Authorization": f"Bearer {created['token']}"}
    ).json()
    assert state["you"] == ["white", "black"]
    assert state["game_type"] == "Base+MLP"
    assert len(state["legal"]) == 8  # eight bugs in hand, one cell
    public = client.get(f"/api/games/{created['id']}").json()
    assert public["you"] == []
    assert "legal" not in public


def test_rule_options_are_kept_with_the_game(db_url: str, backend: Backend) -> None:
    from panal.hive import Options
    from panal.server.app import create_app
    from tests.server.conftest import first_legal_move

    options = {
        "tournament_opening": True,
        "repetition_draw": False,
        "dragonfly_sidestep": "backward",
        "dragonfly_gaps": True,
        "dragonfly_carry": "next_turn",
        "mosquito_stays_dragonfly": True,
    }
    app = create_app(db_url, ai_runner=first_legal_move, **backend.app_options())
    with TestClient(app) as first:
        created = new_game(first, game_type="Base+MLPD", options=options)
    # A new server on the same database reads the options back from it.
    with TestClient(
        create_app(db_url, ai_runner=first_legal_move, **backend.app_options())
    ) as second:
        state = second.get(f"/api/games/{created['id']}").json()
        pgn = second.get(f"/api/games/{created['id']}/export", params={"format": "pgn"}).text
    assert state["options"] == Options(**options).to_values()  # type: ignore[arg-type]
    assert state["game_type"] == "Base+MLPD"
    # The exported record carries them as tags, once each.
    assert pgn.count('[DragonflySidestep "Backward"]') == 1
    assert '[DragonflyCarry "NextTurn"]' in pgn and '[RepetitionDraw "False"]' in pgn


def test_config_lists_the_rule_options_for_the_form(client: TestClient) -> None:
    from panal.hive import OPTION_SPECS

    listed = client.get("/api/config").json()["rule_options"]
    assert [option["name"] for option in listed] == [spec.name for spec in OPTION_SPECS]
    sidestep = next(o for o in listed if o["name"] == "dragonfly_sidestep")
    assert sidestep == {
        "name": "dragonfly_sidestep",
        "default": "forward",
        "choices": ["forward", "backward", "either"],
        "needs": "D",
    }


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"dragonfly_sidestep": "sideways"}, "forward, backward, either"),
        ({"dragonfly_gates": True}, "unknown rule option"),
        ({"dragonfly_gaps": "yes"}, "true or false"),
    ],
)
def test_bad_rule_options_are_refused(
    client: TestClient, options: dict[str, Any], message: str
) -> None:
    response = client.post("/api/games", json={"mode": "hotseat", "options": options})
    assert response.status_code == 400
    assert response.json()["error"] == "bad_options"
    assert message in response.json()["detail"]


def test_games_stored_with_the_old_gates_option_keep_both_checks(db_url: str) -> None:
    """Before the Dragonfly had two options (gaps, contact), one column said both."""
    from panal.server.hive_games.game_store import GameRow, GameStore

    store = GameStore(db_url)
    row = GameRow(id="oldgates", game_type="Base+D", mode="hotseat", dragonfly_gates=True)
    store.create_game(row, [])
    loaded = store.load_game("oldgates")
    store.close()
    assert loaded is not None
    rules = loaded[0].rules
    assert rules.dragonfly_gaps and rules.dragonfly_contact
    assert rules.dragonfly_sidestep == "forward"


def test_an_imported_record_keeps_its_rule_options(client: TestClient) -> None:
    issue = r"Base+D;InProgress;White[4];wQ;bQ wQ-;wD -wQ;bA1 bQ-;wA1 \wQ;bA2 bA1-"
    record = (
        '[GameType "Base+D"]\n[DragonflySidestep "Backward"]\n\n'
        + "\n".join(f"{n}. {m}" for n, m in enumerate(issue.split(";")[3:], 1))
        + "\n7. wD wA1-\n"  # a backward sidestep: illegal under the default reading
    )
    imported = client.post("/api/import", json={"text": record})
    assert imported.status_code == 201, imported.text
    state = client.get(f"/api/games/{imported.json()['id']}").json()
    assert state["options"]["dragonfly_sidestep"] == "backward"
    assert state["history"][-1]["move"] == "wD wA1-"


def test_online_invitation_works_once(client: TestClient) -> None:
    created = new_game(client, mode="online", color="black")
    assert created["seat"] == "black"
    game_id = created["id"]
    wrong = client.post(f"/api/games/{game_id}/join", json={"invite": "not-the-code"})
    assert wrong.status_code == 403
    assert wrong.json()["error"] == "bad_invite"
    joined = client.post(f"/api/games/{game_id}/join", json={"invite": created["invite"]})
    assert joined.status_code == 200
    assert joined.json()["seat"] == "white"
    again = client.post(f"/api/games/{game_id}/join", json={"invite": created["invite"]})
    assert again.status_code == 409
    assert again.json()["error"] == "invite_used"
    state = client.get(
        f"/api/games/{game_id}", headers={"Authorization": f"Bearer {joined.json()['token']}"}
    ).json()
    assert state["you"] == ["white"]
    assert state["seats"] == {"white": True, "black": True}


def test_ai_game_needs_a_known_level(client: TestClient) -> None:
    response = client.post("/api/games", json={"mode": "ai", "ai_level": "grandmaster"})
    assert response.status_code == 400
    assert "unknown AI level" in response.json()["detail"]
    created = client.post("/api/games", json={"mode": "ai", "color": "black"}).json()
    state = client.get(f"/api/games/{created['id']}").json()
    assert state["ai"] == {"level": "medium", "color": 0}


def test_export_gamestring_and_pgn(client: TestClient) -> None:
    began = time.strftime("%Y.%m.%d", time.gmtime())
    created = new_game(client)
    with game_socket(client, created["id"], created["token"]) as ws:
        receive_state(ws)
        for move in ("wS1", "bG1 wS1-", "wQ -wS1"):
            ws.send_json({"type": "move", "move": move})
            receive_state(ws, lambda s, m=move: s["history"][-1]["move"] == m)
    text = client.get(f"/api/games/{created['id']}/export").text
    assert text.strip() == "Base;InProgress;Black[2];wS1;bG1 wS1-;wQ -wS1"
    pgn = client.get(f"/api/games/{created['id']}/export", params={"format": "pgn"})
    assert pgn.status_code == 200
    assert '[GameType "Base"]' in pgn.text
    assert "3. wQ -wS1" in pgn.text
    with game_socket(client, created["id"], created["token"]) as ws:
        receive_state(ws)
        ws.send_json({"type": "resign"})
        receive_state(ws, lambda s: s["result"] is not None)
    pgn = client.get(f"/api/games/{created['id']}/export", params={"format": "pgn"}).text
    assert '[Result "WhiteWins"]' in pgn  # Black resigned
    # The day the game began and who played it, never empty tags.
    assert f'[Date "{began}"]' in pgn
    assert '[White "Guest"]' in pgn and '[Black "Guest"]' in pgn
    # The exported PGN imports back to the same moves.
    again = client.post("/api/import", json={"text": pgn}).json()
    state = client.get(f"/api/games/{again['id']}").json()
    assert [e["move"] for e in state["history"]] == ["wS1", "bG1 wS1-", "wQ -wS1"]
    assert state["result"] == "WhiteWins"


def test_pgn_names_the_ai_and_keeps_an_imported_records_tags(client: TestClient) -> None:
    created = client.post("/api/games", json={"mode": "ai", "color": "black"}).json()
    pgn = client.get(f"/api/games/{created['id']}/export", params={"format": "pgn"}).text
    assert '[White "panal AI (medium)"]' in pgn and '[Black "Guest"]' in pgn
    assert re.search(r'\[Date "\d{4}\.\d{2}\.\d{2}"\]', pgn)

    record = '[GameType "Base"]\n[Date "2019.05.04"]\n[White "Ana"]\n[Black ""]\n\n1. wS1\n'
    imported = client.post("/api/import", json={"text": record}).json()
    pgn = client.get(f"/api/games/{imported['id']}/export", params={"format": "pgn"}).text
    assert '[Date "2019.05.04"]' in pgn and '[White "Ana"]' in pgn
    assert '[Black "?"]' in pgn  # the record does not say: unknown, as PGN writes it
    bare = client.post("/api/import", json={"text": "Base;InProgress;Black[1];wS1"}).json()
    pgn = client.get(f"/api/games/{bare['id']}/export", params={"format": "pgn"}).text
    assert '[Date "????.??.??"]' in pgn


DRAGONFLY_RECORD = '[GameType "Base+D"]\n[DragonflyGaps "True"]\n\n1. wS1\n2. bD wS1-\n'


def test_import_sets_rule_options_over_the_records_own(client: TestClient) -> None:
    response = client.post(
        "/api/import",
        json={"text": DRAGONFLY_RECORD, "options": {"dragonfly_sidestep": "backward"}},
    )
    assert response.status_code == 201, response.text
    game_id = response.json()["id"]
    options = client.get(f"/api/games/{game_id}").json()["options"]
    assert options["dragonfly_sidestep"] == "backward"  # set by the form
    assert options["dragonfly_gaps"] is True  # the record's own tag, kept
    assert options["dragonfly_contact"] is False
    pgn = client.get(f"/api/games/{game_id}/export", params={"format": "pgn"}).text
    assert '[DragonflySidestep "Backward"]' in pgn and '[DragonflyGaps "True"]' in pgn
    # the archive lists the record with the options that differ from the defaults
    listed = {game["id"]: game for game in client.get("/api/archive").json()["games"]}
    assert listed[game_id]["options"] == {"dragonfly_sidestep": "backward", "dragonfly_gaps": True}

    # a value given against the record's tag wins; an unset option keeps the record's
    response = client.post(
        "/api/import", json={"text": DRAGONFLY_RECORD, "options": {"dragonfly_gaps": False}}
    )
    assert (
        client.get(f"/api/games/{response.json()['id']}").json()["options"]["dragonfly_gaps"]
        is False
    )


@pytest.mark.parametrize(
    "options", [{"dragonfly_sidestep": "sideways"}, {"no_such_rule": True}, {"dragonfly_gaps": "1"}]
)
def test_import_refuses_unknown_rule_options(client: TestClient, options: dict[str, Any]) -> None:
    response = client.post("/api/import", json={"text": DRAGONFLY_RECORD, "options": options})
    assert response.status_code == 400, response.text
    assert response.json()["error"] == "bad_options"
    assert client.get("/api/archive").json()["total"] == 0  # nothing was created


def test_import_gamestring_to_replay_and_to_continue(client: TestClient) -> None:
    response = client.post("/api/import", json={"text": FORCED_PASS, "tournament_opening": True})
    assert response.status_code == 201, response.text
    review = response.json()
    assert review["plies"] == 11
    assert "token" not in review
    state = client.get(f"/api/games/{review['id']}").json()
    assert state["mode"] == "review"
    assert [entry["move"] for entry in state["history"]][:2] == ["wL", "bB1 wL/"]

    response = client.post(
        "/api/import", json={"text": FORCED_PASS, "mode": "hotseat", "tournament_opening": True}
    )
    assert response.status_code == 201
    continued = response.json()
    state = client.get(
        f"/api/games/{continued['id']}", headers={"Authorization": f"Bearer {continued['token']}"}
    ).json()
    assert state["must_pass"] is True
    assert state["legal"] == [{"move": "pass", "piece": None, "to": None}]


def test_import_pgn(client: TestClient) -> None:
    pgn = (
        '[GameType "Base"]\n[White "Ada"]\n[Black "Bob"]\n[Result "*"]\n\n'
        "1. wS1\n2. bG1 wS1-\n3. wQ -wS1\n*\n"
    )
    response = client.post("/api/import", json={"text": pgn})
    assert response.status_code == 201, response.text
    state = client.get(f"/api/games/{response.json()['id']}").json()
    assert state["ply"] == 3
    assert state["headers"]["White"] == "Ada"


def test_import_sgf_from_the_corpus(client: TestClient) -> None:
    from tests.shared_data import shared

    files = sorted(shared("corpus", "mzinga-boardspace-sgf").glob("*.sgf"))
    text = files[0].read_bytes().decode("utf-8", "replace")
    response = client.post("/api/import", json={"text": text})
    assert response.status_code == 201, response.text
    assert response.json()["plies"] > 0


def test_import_refuses_bad_records_with_the_reason(client: TestClient) -> None:
    response = client.post("/api/import", json={"text": "Base;InProgress;White[2];wS1;bQ"})
    assert response.status_code == 422
    assert "ply 2 (bQ)" in response.json()["detail"]
    response = client.post("/api/import", json={"text": "hello"})
    assert response.status_code == 422
    assert response.json()["error"] == "bad_record"


QUEEN_NOT_PLACED_PGN = """[GameType "Base"]
[Result "*"]

1. wS1
2. bS1 wS1-
3. wS1 bS1-
"""


@pytest.mark.parametrize(
    ("text", "where"),
    [
        (
            "Base;InProgress;White[2];wS1;bS1 wS1-;wS1 bS1-",
            {"ply": "3", "move": "wS1 bS1-", "game": "1"},
        ),
        (QUEEN_NOT_PLACED_PGN, {"ply": "3", "move": "wS1 bS1-", "game": "1"}),
    ],
)
def test_import_names_the_broken_rule_by_its_key(
    client: TestClient, text: str, where: dict[str, str]
) -> None:
    """Issue 25: the page said the rule in English; the refusal now carries the library's rule
    key and where the move is, for the page to say it in the player's language."""
    response = client.post("/api/import", json={"text": text})
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["error"] == "bad_record" and body["rule"] == "queen_before_moving"
    assert body["details"] == where
    unparsable = client.post("/api/import", json={"text": "Base;InProgress;White[2];wS1;bX1 -"})
    assert unparsable.json()["reason"] in ("unknown_piece", "syntax", "bad_reference")


def test_a_body_over_the_limit_is_refused_with_the_limit(client: TestClient) -> None:
    response = client.post(
        "/api/import",
        content=b'{"text": "' + b"x" * 1_000_001 + b'"}',
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code == 413
    assert response.json()["details"] == {"limit": 1_000_000}
    config = client.get("/api/config").json()
    assert config["import_max_chars"] == 500_000


def test_archive_lists_finished_games(client: TestClient) -> None:
    created = new_game(client)
    with game_socket(client, created["id"], created["token"]) as ws:
        receive_state(ws)
        ws.send_json({"type": "resign"})
        receive_state(ws, lambda s: s["result"] == "BlackWins")
    new_game(client)  # unfinished: not in the archive
    archive = client.get("/api/archive").json()
    assert archive["total"] == 1
    assert archive["games"][0]["id"] == created["id"]
    assert archive["games"][0]["end_reason"] == "resignation"


def test_pages_and_static_files_are_served(client: TestClient) -> None:
    for path in ("/", "/new", "/archive", "/import", "/game/abc"):
        response = client.get(path)
        assert response.status_code == 200
        assert "<main" in response.text
    for asset in ("/static/js/main.js", "/static/js/board.js", "/static/style.css"):
        assert client.get(asset).status_code == 200


# --- hostile and malformed requests: a 4xx with a message, never a 500 -----------------------


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"mode": "chess"}, 422),
        ({"mode": "hotseat", "game_type": "Base+XYZ"}, 400),
        ({"mode": "hotseat", "game_type": 7}, 422),
        ({"mode": "hotseat", "tournament_opening": "yes"}, 422),
        ({"mode": "hotseat", "color": "green"}, 422),
        ({"mode": "hotseat", "surprise": 1}, 422),
        ({"mode": "hotseat", "game_type": "B" * 5000}, 422),
        ([1, 2, 3], 422),
        ("hotseat", 422),
        (None, 422),
    ],
)
def test_bad_new_game_requests(client: TestClient, body: Any, status: int) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == status, response.text
    assert response.json()["detail"]


def test_bad_json_and_huge_bodies(client: TestClient) -> None:
    response = client.post(
        "/api/games", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 422
    response = client.post(
        "/api/import",
        content=json.dumps({"text": "x" * 2_000_000}),
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code == 413
    assert "limited" in response.json()["detail"]


def test_unknown_games_and_wrong_tokens(client: TestClient) -> None:
    assert client.get("/api/games/doesnotexist").status_code == 404
    assert client.get("/api/games/" + "x" * 300).status_code == 404
    assert client.post("/api/games/nope/join", json={"invite": "x"}).status_code == 404
    assert client.get("/api/games/nope/export").status_code == 404
    created = new_game(client)
    other = new_game(client)
    response = client.get(
        f"/api/games/{created['id']}", headers={"Authorization": f"Bearer {other['token']}"}
    )
    assert response.status_code == 403
    assert response.json()["error"] == "bad_token"
    response = client.get(f"/api/games/{created['id']}", headers={"Authorization": "Basic abc"})
    assert response.status_code == 401
    response = client.get(f"/api/games/{created['id']}/export", params={"format": "exe"})
    assert response.status_code == 422
    assert client.get("/api/archive", params={"limit": -1}).status_code == 422
    assert client.get("/api/archive", params={"limit": "many"}).status_code == 422


def test_random_garbage_never_causes_a_server_error(client: TestClient) -> None:
    rng = random.Random(5)
    values: list[Any] = [None, True, 0, -1, 2**70, 1.5, "", "x" * 300, [], {}, [1, "a"], {"a": 1}]
    keys = ["mode", "game_type", "color", "look", "ai_level", "text", "format", "index", "invite"]
    created = new_game(client)
    paths = ["/api/games", "/api/import", f"/api/games/{created['id']}/join"]
    for _ in range(300):
        body = {rng.choice(keys): rng.choice(values) for _ in range(rng.randint(0, 4))}
        if rng.random() < 0.3:
            body["mode"] = rng.choice(["hotseat", "online", "review", "ai"])
        if rng.random() < 0.3:
            body["text"] = rng.choice([FORCED_PASS, "Base;x;y", "(;GM[1])", "[Event]", "1. wQ"])
        response = client.post(rng.choice(paths), json=body)
        assert response.status_code < 500, (body, response.text)
        assert response.json()
