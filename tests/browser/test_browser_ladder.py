"""The engine ladder end to end: a real ``panal serve``, two bots connected by ``panal bot``
(``python -m panal.uhp.players greedy`` and ``panal uhp``) play a ladder round (a pair of games
from one opening, colours swapped) under the ladder's clock, and the ladder page ranks both, on
a phone and on a desktop, in English and Spanish."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.test_browser_phone import OVERFLOW, SMALL_TAP_TARGETS
from tests.server.helpers import ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LADDER_CLOCK = "20+0"  # short games: each side has 20 s for the whole game
ROUND_SECONDS = 240


def _bot(url: str, token: str, engine: str, log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "panal.cli",
            "bot",
            "--engine",
            engine,
            "--server",
            url,
            "--token",
            token,
            "--ladder",
            "--poll",
            "0.5",
        ],
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )


def test_two_bots_play_a_ladder_round_and_the_page_ranks_them(
    tmp_path: Path, browser: Any, artifacts: Path
) -> None:
    server = ServerProcess(
        tmp_path / "ladder.sqlite3",
        tmp_path / "serve.log",
        ("--ai-workers", "1", "--ladder-clock", LADDER_CLOCK),
    )
    server.start()
    bots: list[subprocess.Popen[bytes]] = []
    try:
        owner = httpx.Client(base_url=server.url, headers={"Origin": server.url})
        made = owner.post(
            "/api/account/signup", json={"name": "owner", "password": "correct horse"}
        )
        assert made.status_code == 201, made.text
        # The session cookie is Secure: a plain-HTTP client sends it by hand.
        owner.headers["Cookie"] = f"panal_session={made.cookies['panal_session']}"
        owner.cookies.clear()
        tokens = {}
        for name in ("greedy", "panalbot"):
            answer = owner.post("/api/bots", json={"name": name})
            assert answer.status_code == 201, answer.text
            tokens[name] = answer.json()["token"]
        python = sys.executable
        bots.append(
            _bot(
                server.url,
                tokens["greedy"],
                f"{python} -m panal.uhp.players greedy",
                tmp_path / "greedy.log",
            )
        )
        bots.append(
            _bot(
                server.url, tokens["panalbot"], f"{python} -m panal.cli uhp", tmp_path / "panal.log"
            )
        )
        deadline = time.monotonic() + ROUND_SECONDS
        ladder: dict[str, Any] = {}
        while time.monotonic() < deadline:
            ladder = httpx.get(f"{server.url}/api/ladder").json()
            if ladder["games"] >= 2:
                break
            for bot in bots:
                assert bot.poll() is None, (tmp_path / "greedy.log").read_text() + (
                    tmp_path / "panal.log"
                ).read_text()
            time.sleep(1)
        assert ladder["games"] >= 2, ladder
        for bot in bots:
            bot.terminate()
            bot.wait(10)
        ranked = {row["name"]: row for row in ladder["standings"]}
        assert set(ranked) == {"greedy", "panalbot"}
        assert ranked["greedy"]["engine"]["name"] == "panal (greedy player)"
        assert ranked["panalbot"]["engine"]["version"] == "v0.1.0"
        assert "Level" in ranked["panalbot"]["engine"]["options"]
        for row in ranked.values():
            assert row["games"] >= 2 and row["low"] < row["rating"] < row["high"]
        # The pair: one opening, colours swapped, both games refereed to a result.
        games = ladder["recent"][-2:]
        assert {(g["white"], g["black"]) for g in games} == {
            ("greedy", "panalbot"),
            ("panalbot", "greedy"),
        }
        pgn = httpx.get(f"{server.url}/api/ladder/games.pgn").text
        assert pgn.count('[Event "panal engine ladder"]') == ladder["games"]
        assert f'[TimeControl "{LADDER_CLOCK}"]' in pgn or "[TimeControl" in pgn

        for size, locale, label in ((PHONE, "es-ES", "phone-es"), (DESKTOP, "en-US", "desktop")):
            context = browser.new_context(locale=locale, **size)
            try:
                page = context.new_page()
                page.goto(f"{server.url}/ladder")
                page.wait_for_selector("[data-bot=greedy] [data-rating]")
                page.wait_for_selector("[data-bot=panalbot] [data-rating]")
                shown = page.locator(".ladder-entry").all_inner_texts()
                assert len(shown) == 2
                best = ladder["standings"][0]
                first = page.locator(".ladder-entry").first
                assert first.get_attribute("data-bot") == best["name"]
                assert str(best["rating"]) in first.inner_text()
                names = page.locator("[data-engine-name]").all_inner_texts()
                assert sorted(names) == ["panal", "panal (greedy player)"]
                heading = page.locator("h1").inner_text()
                assert heading == ("Escalera de motores" if locale == "es-ES" else "Engine ladder")
                assert page.locator("[data-download]").get_attribute("href") == (
                    "/api/ladder/games.pgn"
                )
                if size is PHONE:
                    assert page.evaluate(OVERFLOW, 390) == []
                    assert page.evaluate(SMALL_TAP_TARGETS) == []
                page.screenshot(path=str(artifacts / f"ladder-{label}.png"), full_page=True)
            finally:
                context.close()
    finally:
        for bot in bots:
            if bot.poll() is None:
                bot.kill()
                bot.wait(10)
        server.stop()
