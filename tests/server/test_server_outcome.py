"""The server names endings with the library's Termination values, and the web UI translates
every one of them (an imported draw shows "by agreement", never a raw key)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from panal.hive import Termination
from tests.server.translations import LANGUAGES, TABLES

WON_BY_SURROUND = (
    "Base;WhiteWins;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;"
    "bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bA1 bG2/;wQ /bG1"
)


@pytest.mark.parametrize("reason", [*(t.value for t in Termination), "record"])
def test_every_ending_is_translated_in_every_language(reason: str) -> None:
    languages, _ = TABLES["hive"]
    assert set(languages) == set(LANGUAGES)
    for code, table in languages.items():
        assert f"reason.{reason}" in table, (code, reason)


def _archive_entry(client: TestClient, game_id: str) -> dict:
    games = client.get("/api/archive").json()["games"]
    return next(game for game in games if game["id"] == game_id)


def test_an_imported_draw_on_an_unfinished_board_is_an_agreement(client: TestClient) -> None:
    pgn = '[GameType "Base"]\n[Result "Draw"]\n\n1. wS1\n2. bS1 wS1-\n'
    imported = client.post("/api/import", json={"text": pgn}).json()
    entry = _archive_entry(client, imported["id"])
    assert (entry["result"], entry["end_reason"]) == ("Draw", Termination.AGREEMENT.value)


def test_a_surround_is_named_by_the_board(client: TestClient) -> None:
    imported = client.post("/api/import", json={"text": WON_BY_SURROUND}).json()
    state = client.get(f"/api/games/{imported['id']}").json()
    assert (state["result"], state["end_reason"]) == ("WhiteWins", Termination.SURROUNDED.value)
