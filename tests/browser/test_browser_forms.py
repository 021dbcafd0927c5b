"""The new-game and import forms: what does not apply is hidden, and a choice keeps the focus."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from panal.hive import OPTION_SPECS, Options
from tests.browser.helpers import game_id, game_state, seat_token
from tests.server.helpers import ServerProcess

pytestmark = pytest.mark.browser

LEVEL = "label:has(select[name=level])"
COLOR = "label:has(select[name=color])"
SIDESTEP = "label:has(select[data-field=dragonfly_sidestep])"
GAPS = "label:has(input[data-field=dragonfly_gaps])"
MOSQUITO_FLIES = "label:has(input[data-field=mosquito_stays_dragonfly])"


def test_hidden_parts_stay_hidden(open_page: Any, server: ServerProcess, artifacts: Path) -> None:
    page = open_page("/new")
    page.check("input[name=mode][value=ai]")
    assert page.is_visible(LEVEL) and page.is_visible(COLOR)
    page.check("input[name=mode][value=hotseat]")
    assert not page.is_visible(LEVEL), "the AI level shows in a hot-seat game"
    assert not page.is_visible(COLOR), "'You play' shows in a hot-seat game"
    page.check("input[name=mode][value=online]")
    assert not page.is_visible(LEVEL) and page.is_visible(COLOR)
    assert not page.is_visible(SIDESTEP), "the Dragonfly options show without the Dragonfly"
    assert not page.is_visible(GAPS)
    page.uncheck("input[name=expansion][value=M]")
    page.check("input[name=expansion][value=D]")
    assert page.is_visible(SIDESTEP) and page.is_visible(GAPS)
    assert not page.is_visible(MOSQUITO_FLIES), "it is about the Mosquito and the Dragonfly"
    page.check("input[name=expansion][value=M]")
    assert page.is_visible(MOSQUITO_FLIES)
    page.select_option("select[data-field=dragonfly_sidestep]", "backward")
    page.check("input[data-field=dragonfly_gaps]")
    page.screenshot(path=str(artifacts / "new-game-form.png"), full_page=True)

    # Every rule option of the list reaches the server.
    page.check("input[name=mode][value=hotseat]")
    page.check("input[data-field=tournament_opening]")
    page.click("button[data-action=start]")
    game = game_id(page)
    options = game_state(server.url, game, seat_token(page, game))["options"]
    assert options == {
        **Options().to_values(),
        "tournament_opening": True,
        "dragonfly_sidestep": "backward",
        "dragonfly_gaps": True,
    }

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


def test_every_rule_option_and_choice_speaks_every_language(open_page: Any) -> None:
    """The form's options come from the server's table: each needs its texts in every language."""
    page = open_page("/new")
    missing = page.evaluate(
        """async (names) => {
            const i18n = await import('/static/js/i18n.js');
            await Promise.all(i18n.LANGUAGES.map(i18n.load));
            const out = [];
            for (const lang of i18n.LANGUAGES)
                for (const key of names)
                    if (!i18n.hasKey(lang, key)) out.push(lang + ':' + key);
            return out;
        }""",
        [
            key
            for spec in OPTION_SPECS
            for key in [f"option.{spec.name}"]
            + [f"option.{spec.name}.{choice}" for choice in spec.choices or ()]
            # a yes/no option that is on by default is shown, when off, in words of its own
            + ([f"option.{spec.name}.off"] if spec.default is True else [])
        ],
    )
    assert missing == []


DRAGONFLY_PGN = '[GameType "Base+D"]\n[DragonflyGaps "True"]\n\n1. wS1\n2. bD wS1-\n'


def test_imported_rules_are_set_on_the_form_and_shown_with_the_game(
    open_page: Any, server: ServerProcess, artifacts: Path
) -> None:
    page = open_page("/import")
    page.fill("textarea[name=text]", DRAGONFLY_PGN)
    # "as the record says" unless chosen: the record's tag stays, the form's choice is set over
    assert page.input_value("select[data-field=dragonfly_gaps]") == ""
    page.select_option("select[data-field=dragonfly_sidestep]", "backward")
    page.select_option("select[data-field=repetition_draw]", "false")
    page.click("form.import-game button[type=submit]")
    game = game_id(page)
    options = game_state(server.url, game)["options"]
    assert options == {
        **Options().to_values(),
        "dragonfly_sidestep": "backward",
        "dragonfly_gaps": True,
        "repetition_draw": False,
    }

    rules = "[data-rules] li"
    page.wait_for_selector(rules)
    assert page.locator(rules).all_inner_texts() == [
        "Threefold repetition is not a draw",
        "Dragonfly: the step after its jump turns: 120° (back-left or back-right)",
        "Dragonfly: its step cannot pass through a gap too narrow to slide through",
    ]
    page.screenshot(path=str(artifacts / "game-rules.png"), full_page=True)
    expected = {
        "es": "La triple repetición no es tablas",
        "pt-PT": "A tripla repetição não é empate",
        "pt-BR": "A repetição tripla não é empate",
    }
    for language, first in expected.items():
        page.evaluate(
            "async (lang) => (await import('/static/js/i18n.js')).setLanguage(lang)", language
        )
        assert page.locator(rules).first.inner_text() == first
        assert "120°" in page.locator(rules).nth(1).inner_text()

    # The archive lists the record with its rules (a game with panal's rules lists none).
    page = open_page("/archive")
    row = page.locator(f"tr:has(a[href^='/game/{game}'])")
    row.wait_for()  # the list arrives after the page is drawn
    assert row.locator("[data-rules] li").count() == 3
    assert "Threefold repetition is not a draw" in row.inner_text()
