"""Languages picked from the browser and switchable; the football look and its names."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.helpers import game_id, wait_for_ply

pytestmark = pytest.mark.browser


def test_language_from_the_browser_and_switching(open_page: Any, artifacts: Path) -> None:
    page = open_page("/new", locale="pt-PT")
    assert page.inner_text("[data-nav=new]") == "Novo jogo"
    assert page.inner_text("form.new-game button[type=submit]") == "Começar"
    assert page.evaluate("document.documentElement.lang") == "pt-PT"
    page.screenshot(path=str(artifacts / "language-pt.png"))

    page.select_option("select[name=language]", "es")
    # The page speaks Spanish once its texts are fetched (a language is loaded when first chosen).
    page.wait_for_function("document.documentElement.lang === 'es'")
    assert page.inner_text("[data-nav=new]") == "Nueva partida"
    assert page.inner_text("form.new-game button[type=submit]") == "Empezar"
    assert "Hormiga" in page.inner_text(".legend")
    page.select_option("select[name=language]", "en")
    assert page.inner_text("[data-nav=archive]") == "Archive"
    assert "Soldier Ant" in page.inner_text(".legend")

    # The choice is remembered, and a game page switches at once.
    page.select_option("select[name=language]", "es")
    page.check("input[name=mode][value=hotseat]")
    page.click("button[data-action=start]")
    game_id(page)
    page.wait_for_selector(".hand button[data-piece=wQ]")
    assert page.inner_text(".status") == "Tu turno (Blancas)"
    page.select_option("select[name=language]", "pt-PT")
    assert page.inner_text(".status") == "A tua vez (Brancas)"
    assert page.inner_text(".moves-panel h2") == "Jogadas"
    page.reload()
    page.wait_for_selector(".hand button[data-piece=wQ]")
    assert page.inner_text(".status") == "A tua vez (Brancas)"


def test_english_has_no_untranslated_keys(open_page: Any) -> None:
    page = open_page("/new")
    missing = page.evaluate(
        """async () => {
            const i18n = await import('/static/js/i18n.js');
            await Promise.all(i18n.LANGUAGES.map(i18n.load));
            const out = [];
            for (const lang of i18n.LANGUAGES)
                for (const key of i18n.allKeys())
                    if (!i18n.hasKey(lang, key)) out.push(lang + ':' + key);
            return out;
        }"""
    )
    assert missing == []
    rule_keys = page.evaluate("async () => (await import('/static/js/i18n.js')).ruleKeys()")
    from panal.hive.rules import Rule

    assert sorted(rule_keys) == sorted(rule.key for rule in Rule)


def test_counts_agree_with_their_nouns(open_page: Any) -> None:
    """One game won reads "1 partida: 1 ganada", never "1 ganadas"; zero and many are plural."""
    page = open_page("/new")
    said = page.evaluate(
        """async () => {
            const i18n = await import('/static/js/i18n.js');
            const out = {};
            for (const lang of i18n.LANGUAGES) {
                await i18n.setLanguage(lang);
                out[lang] = [
                    i18n.t('profile.results', { games: 1, wins: 1, losses: 0, draws: 0 }),
                    i18n.t('profile.results', { games: 3, wins: 2, losses: 1, draws: 0 }),
                    i18n.t('profile.games', { n: 1 }),
                    i18n.t('enj.setup.left', { n: 1 }),
                    i18n.t('enj.setup.left', { n: 2 }),
                    i18n.t('enj.seat.eliminations', { n: 1 }),
                ];
            }
            return out;
        }"""
    )
    assert said == {
        "en": [
            "1 game: 1 won, 0 lost, 0 drawn",
            "3 games: 2 won, 1 lost, 0 drawn",
            "1 game",
            "1 tile to place",
            "2 tiles to place",
            "1 eliminated",
        ],
        "es": [
            "1 partida: 1 ganada, 0 perdidas, 0 en tablas",
            "3 partidas: 2 ganadas, 1 perdida, 0 en tablas",
            "1 partida",
            "Falta 1 ficha",
            "Faltan 2 fichas",
            "1 eliminada",
        ],
        "pt-PT": [
            "1 jogo: 1 ganho, 0 perdidos, 0 empatados",
            "3 jogos: 2 ganhos, 1 perdido, 0 empatados",
            "1 jogo",
            "Falta 1 peça",
            "Faltam 2 peças",
            "1 eliminada",
        ],
        "pt-BR": [
            "1 partida: 1 vitória, 0 derrotas, 0 empates",
            "3 partidas: 2 vitórias, 1 derrota, 0 empates",
            "1 partida",
            "Falta 1 peça",
            "Faltam 2 peças",
            "1 eliminada",
        ],
    }


def test_football_look_shows_its_names(open_page: Any, artifacts: Path) -> None:
    page = open_page("/new", locale="es-ES")
    page.select_option("select[name=look]", "football")
    legend = page.inner_text(".legend")
    for name in ("Escudo", "Muro", "Rayo", "Balón", "Bota", "Escudo Imperial", "Acho Pimentón"):
        assert name in legend
    assert "Blanco / Grana" in legend  # White plays Blanco: the names keep their sides
    # Each piece also gives its Hive name: the Escudo is the queen (issue 25).
    assert "Escudo (Abeja Reina)" in legend and "Escudo Imperial (Mosquito)" in legend
    # The crown is the Escudo's: the Escudo Imperial, taken for the queen, has none.
    crowns = page.evaluate(
        """() => [...document.querySelectorAll('.legend li')].map((item) =>
            [item.querySelector('[data-hive-name]').textContent,
             item.querySelectorAll('path[d^="M-10 -12 L-10 -21"]').length])"""
    )
    assert [name for name, crowned in crowns if crowned] == ["(Abeja Reina)"]
    page.screenshot(path=str(artifacts / "football-legend.png"))

    page.check("input[name=mode][value=hotseat]")
    page.check("input[name=expansion][value=D]")
    page.click("button[data-action=start]")
    game_id(page)
    page.wait_for_selector(".hand button[data-piece=wQ]")
    assert page.inner_text(".status") == "Tu turno (Blanco)"
    hand = page.inner_text(".hand.to-move")
    for name in ("Escudo", "Muro", "Rayo", "Balón", "Bota", "Portero", "Extremo"):
        assert name in hand
    assert page.get_attribute(".hand button[data-piece=wQ]", "aria-label") == "Escudo ×1 (Blanco)"

    # Three turns each without the Escudo: the reminder, in the football names.
    moves = ["wS1", "bS1 wS1-", "wS2 -wS1", "bS2 bS1-", "wB1 -wS2", "bB1 bS2-"]
    for ply, move in enumerate(moves, 1):
        page.fill("form.type-move input", move)
        page.keyboard.press("Enter")
        wait_for_ply(page, ply)
    page.wait_for_selector("[data-banner=queen]")
    assert page.inner_text("[data-banner=queen]") == "Hay que poner Escudo en este turno."
    page.click(".hand button[data-piece=wQ]")
    page.screenshot(path=str(artifacts / "football-game.png"))
    page.select_option("select[name=language]", "en")
    assert page.inner_text("[data-banner=queen]") == "The Crest must be placed this turn."


def test_the_ais_error_is_said_in_the_pages_language(open_page: Any) -> None:
    """The server says why the AI did not move with a code (and English text): the game page
    says it in the reader's language, and shows the English text for a code it does not know."""
    page = open_page("/new")
    said = page.evaluate(
        """async () => {
            const i18n = await import('/static/js/i18n.js');
            const { aiErrorText } = await import('/static/js/game_view.js');
            const out = {};
            for (const lang of i18n.LANGUAGES) {
                await i18n.setLanguage(lang);
                out[lang] = ['ai_failed', 'ai_illegal_move', 'ai_unheard_of'].map((code) =>
                    aiErrorText({ ai_error: 'the AI failed: it broke', ai_error_code: code }));
            }
            return out;
        }"""
    )
    assert said["en"][0].startswith("The computer could not move: its search failed")
    assert said["es"][0].startswith("El ordenador no pudo mover: su búsqueda falló")
    assert said["pt-PT"][1].startswith("O computador escolheu uma jogada que as regras não")
    assert "Recarregue" in said["pt-BR"][1] and "Recarrega " in said["pt-PT"][1]
    for language, (failed, illegal, unknown) in said.items():
        assert "it broke" not in failed + illegal, language  # no English inside the translation
        assert failed != illegal
        assert unknown.endswith(": the AI failed: it broke"), (language, unknown)
    assert said["es"][2] == "El ordenador no pudo mover: the AI failed: it broke"
