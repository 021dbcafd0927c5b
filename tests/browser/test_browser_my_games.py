"""A player's unfinished AI games on the new-game page, and the cap's refusal, in the player's
language (issue 19: "Algo salió mal: you have 4 unfinished games against the AI", English inside
Spanish, and no page to resign them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

CREATE_FOUR = """async () => {
    const { api } = await import('/static/js/api.js');
    for (let i = 0; i < 4; i += 1)
        await api('/api/games', { method: 'POST', body: { mode: 'ai', ai_level: 'beginner' } });
}"""


def test_the_cap_speaks_spanish_and_the_list_resigns(open_page: Any, artifacts: Path) -> None:
    page = open_page("/new", locale="es-ES")
    page.evaluate(CREATE_FOUR)  # four games from this browser (its client token)
    page.reload()
    page.wait_for_selector("[data-my-games] li >> nth=3")
    box = page.locator("[data-my-games]")
    assert "Mis partidas sin terminar" in box.inner_text()
    assert box.locator("li").count() == 4
    assert "IA Principiante, juegas con Blancas, 0 jugadas" in box.locator("li").first.inner_text()

    page.check("input[name=mode][value=ai]")
    page.click("button[data-action=start]")
    error = page.locator("[data-form-error]")
    error.wait_for(state="visible")
    assert error.inner_text() == (
        "Tienes 4 partidas sin terminar contra la IA (como mucho 4): termina o abandona una "
        "primero (Mis partidas)."
    )
    page.screenshot(path=str(artifacts / "my-games-cap-es.png"))

    box.locator("button[data-resign]").first.click()
    page.wait_for_selector("[data-mine-status]:not([hidden])")
    assert box.locator("li").count() == 3
    assert page.inner_text("[data-mine-status]") == "Has abandonado esa partida."
    page.click("button[data-action=start]")
    page.wait_for_url("**/game/*")

    page.goto(page.url.split("/game/")[0] + "/new")
    page.click("[data-my-games-link]")  # the "My games" page, linked from the new-game page
    page.wait_for_url("**/my-games")
    page.wait_for_selector("[data-my-games] li >> nth=3")
    assert page.inner_text("[data-my-games] h2") == "Mis partidas sin terminar"
