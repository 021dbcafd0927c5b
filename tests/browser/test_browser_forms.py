"""The new-game and import forms: what does not apply is hidden, and a choice keeps the focus."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.helpers import game_id, game_state, seat_token
from tests.server.helpers import ServerProcess

pytestmark = pytest.mark.browser

LEVEL = "label:has(select[name=level])"
COLOR = "label:has(select[name=color])"
GATES = "label:has(input[data-field=dragonfly_gates])"


def test_hidden_parts_stay_hidden(open_page: Any, server: ServerProcess, artifacts: Path) -> None:
    page = open_page("/new")
    page.check("input[name=mode][value=ai]")
    assert page.is_visible(LEVEL) and page.is_visible(COLOR)
    page.check("input[name=mode][value=hotseat]")
    assert not page.is_visible(LEVEL), "the AI level shows in a hot-seat game"
    assert not page.is_visible(COLOR), "'You play' shows in a hot-seat game"
    page.check("input[name=mode][value=online]")
    assert not page.is_visible(LEVEL) and page.is_visible(COLOR)
    assert not page.is_visible(GATES), "the Dragonfly option shows without the Dragonfly"
    page.check("input[name=expansion][value=D]")
    assert page.is_visible(GATES)
    page.check("input[data-field=dragonfly_gates]")
    page.screenshot(path=str(artifacts / "new-game-form.png"), full_page=True)

    # Every rule option of the list reaches the server.
    page.check("input[name=mode][value=hotseat]")
    page.check("input[data-field=tournament_opening]")
    page.click("button[data-action=start]")
    game = game_id(page)
    options = game_state(server.url, game, seat_token(page, game))["options"]
    assert options == {"tournament_opening": True, "repetition_draw": True, "dragonfly_gates": True}

    page = open_page("/import")
    assert not page.is_visible(LEVEL) and not page.is_visible(COLOR)
    page.check("input[name=mode][value=online]")
    assert not page.is_visible(LEVEL) and page.is_visible(COLOR)


def test_a_choice_keeps_the_keyboard_focus(open_page: Any) -> None:
    page = open_page("/new")
    focused = "document.activeElement.name + ':' + document.activeElement.value"
    page.focus("input[name=mode][value=ai]")
    page.keyboard.press("ArrowDown")  # the next radio button: a change in the form
    assert page.is_checked("input[name=mode][value=hotseat]")
    assert page.evaluate(focused) == "mode:hotseat"
    page.keyboard.press("Tab")
    page.keyboard.press("Space")  # the first extra piece, by keyboard
    assert page.evaluate(focused) == "expansion:M"
    assert not page.is_checked("input[name=expansion][value=M]")
    # A new language redraws the form in place: the focus stays on the same control.
    page.evaluate("""async () => (await import('/static/js/i18n.js')).setLanguage('es')""")
    assert page.inner_text("[data-action=start]") == "Empezar"
    assert page.evaluate(focused) == "expansion:M"

    page = open_page("/import")
    page.focus("input[name=mode][value=review]")
    page.keyboard.press("ArrowDown")
    assert page.evaluate(focused) == "mode:hotseat"
