"""The server names endings with the library's Termination values, and the web UI translates
every one of them (an imported draw shows "by agreement", never a raw key)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from panal.hive import Termination

I18N = Path(__file__).resolve().parents[2] / "src" / "panal" / "web" / "js" / "i18n.js"
WON_BY_SURROUND = (
    "Base;WhiteWins;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;"
    "bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bA1 bG2/;wQ /bG1"
)


def _languages() -> dict[str, str]:
    """Each language block of i18n.js: its code → its text."""
    text = I18N.read_text(encoding="utf-8")
    starts = list(re.finditer(r'^  "?([a-zA-Z-]+)"?: \{$', text, re.MULTILINE))
    return {
        match.group(1): text[match.end() : (starts[i + 1].start() if i + 1 < len(starts) else None)]
        for i, match in enumerate(starts)
    }


@pytest.mark.parametrize("reason", [*(t.value for t in Termination), "record"])
def test_every_ending_is_translated_in_every_language(reason: str) -> None:
    languages = _languages()
    assert set(languages) >= {"en", "es", "pt-PT", "pt-BR"}
    for code, block in languages.items():
        assert f'"reason.{reason}":' in block, (code, reason)


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
