"""A tournament in the browser: one person creates a Swiss on a computer, another finds it on a
phone, in Brazilian Portuguese, and registers; it starts when full, both pages show the pairings
at once (live, no reload), one resigns from the game's page and both pages' standings show the
point. No page scrolls sideways on the phone; the tournament page's buttons and result links
are tap-sized."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.helpers import box
from tests.browser.test_browser_players import sign_up

pytestmark = pytest.mark.browser


def test_register_see_pairings_and_standings(open_page: Any, artifacts: Path) -> None:
    ana = open_page("/")
    sign_up(ana, "tourney_ana")
    ana.click("a[data-nav=tournaments]")
    ana.wait_for_selector("form.tournament-form")
    ana.fill("input[name=name]", "Friday Swiss")
    ana.select_option("select[name=format]", "swiss")
    ana.fill("input[name=rounds]", "1")
    ana.fill("input[name=max_players]", "2")
    ana.select_option("select[name=start]", "full")
    # Rule options: the Dragonfly's rules appear with the Dragonfly; one refused is named in
    # words (a tampered value), then the tournament opening is chosen and shown.
    assert ana.locator("select[data-field=dragonfly_carry]").count() == 0
    ana.check("input[name=expansion][value=D]")
    ana.wait_for_selector("select[data-field=dragonfly_carry]")
    ana.evaluate(
        "document.querySelector('select[data-field=dragonfly_carry]').insertAdjacentHTML("
        "'beforeend', '<option value=\"never\">never</option>')"
    )
    ana.select_option("select[data-field=dragonfly_carry]", "never")
    ana.click("[data-action=create]")
    ana.wait_for_selector("[data-form-error]:not([hidden])")
    refused = ana.inner_text("[data-form-error]")
    assert "dragonfly_carry" not in refused and "Dragonfly" in refused, refused
    ana.select_option("select[data-field=dragonfly_carry]", "later")
    ana.uncheck("input[name=expansion][value=D]")
    ana.check("input[data-field=tournament_opening]")
    ana.click("[data-action=create]")
    ana.wait_for_url("**/tournament/*")
    ana.wait_for_selector(".tournament-page[data-status=registering]")
    ana.wait_for_selector("[data-tournament-rules]")
    ana.click("[data-action=join]")
    ana.wait_for_selector("[data-action=withdraw]")
    ana.wait_for_selector("tr[data-standing=tourney_ana]")

    bruno = open_page("/", phone=True, locale="pt-BR")
    bruno.tap(".settings-toggle")
    sign_up(bruno, "tourney_bruno")
    bruno.goto(bruno.url.split("/@/")[0] + "/tournaments")
    bruno.wait_for_selector("[data-tournament-row] a")
    # the form with its pieces and rules fits the phone's width
    bruno.wait_for_selector("form.tournament-form fieldset.rule-options label")
    bruno.check("input[name=expansion][value=D]")
    bruno.wait_for_selector("select[data-field=dragonfly_carry]")
    width = bruno.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    bruno.screenshot(path=str(artifacts / "tournaments-phone-form.png"), full_page=True)
    assert "Friday Swiss" in bruno.inner_text(".tournament-list")
    assert bruno.inner_text("a[data-nav=tournaments]") == "Torneios"
    bruno.click("[data-tournament-row] a")
    bruno.wait_for_selector(".tournament-page")
    assert "Classificação" in bruno.inner_text(".tournament-page h2")
    bruno.click("[data-action=join]")
    # full: it starts, and both pages show round 1 without a reload
    for page in (ana, bruno):
        page.wait_for_selector(".tournament-page[data-status=running]")
        page.wait_for_selector(".tournament-round[data-round='1'] td.result a")
    assert "tourney_ana" in bruno.inner_text(".pairings")
    assert "tourney_bruno" in ana.inner_text(".pairings")
    width = bruno.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    for selector in ("[data-action=withdraw]", ".pairings td.result a"):
        found = box(bruno, selector)
        assert found["height"] >= 44, (selector, found)
    bruno.screenshot(path=str(artifacts / "tournaments-phone-pairings.png"), full_page=True)

    bruno.click(".pairings td.result a")
    bruno.wait_for_selector("[data-action=resign]")
    bruno.click("[data-action=resign]")
    bruno.click("[data-action=resign-yes]")
    bruno.go_back()
    for page in (ana, bruno):
        page.wait_for_selector(".tournament-page[data-status=finished]")
    winner = ana.inner_text(".standings tbody tr:first-child")
    assert "tourney_ana" in winner and "1" in winner
    assert "tourney_bruno" in ana.inner_text(".standings tbody tr:nth-child(2)")
    assert ana.inner_text(".pairings td.result") in ("1–0", "0–1")
    ana.screenshot(path=str(artifacts / "tournaments-standings.png"), full_page=True)


def test_an_enjambre_series_on_a_phone(open_page: Any, artifacts: Path) -> None:
    """An Enjambre series: created on a computer (no clock, no pieces: its tables have none),
    joined on a phone in Spanish; when full it starts, both pages show round 1's table live,
    seat by seat, and the phone's player takes their seat and lands on the table, as that
    seat. A refusal is translated; nothing scrolls sideways."""
    ana = open_page("/")
    sign_up(ana, "swarm_ana")
    ana.click("a[data-nav=tournaments]")
    ana.wait_for_selector("form.tournament-form")
    ana.fill("input[name=name]", "Enjambre night")
    ana.select_option("select[name=format]", "series")
    ana.wait_for_selector("[data-series-help]:not([hidden])")
    assert ana.locator("[data-hive-settings]").is_hidden()
    ana.fill("input[name=rounds]", "1")
    # the field stops at six; past a tampered field the server refuses seven, in words
    assert ana.get_attribute("input[name=max_players]", "max") == "6"
    ana.evaluate("document.querySelector('input[name=max_players]').max = '64'")
    ana.fill("input[name=max_players]", "7")
    ana.click("[data-action=create]")
    ana.wait_for_selector("[data-form-error]:not([hidden])")
    assert "2 to 6" in ana.inner_text("[data-form-error]")
    ana.fill("input[name=max_players]", "2")
    ana.select_option("select[name=start]", "full")
    ana.click("[data-action=create]")
    ana.wait_for_url("**/tournament/*")
    ana.wait_for_selector(".tournament-page[data-status=registering]")
    assert "Enjambre" in ana.inner_text(".tournament-facts")
    ana.click("[data-action=join]")
    ana.wait_for_selector("[data-action=withdraw]")

    bruno = open_page("/", phone=True, locale="es")
    bruno.tap(".settings-toggle")
    sign_up(bruno, "swarm_bruno")
    bruno.goto(bruno.url.split("/@/")[0] + "/tournaments")
    bruno.wait_for_selector("[data-tournament-row] a")
    assert "Serie de Enjambre" in bruno.inner_text(".tournament-list")
    bruno.click("[data-tournament-row] a")
    bruno.wait_for_selector(".tournament-page")
    bruno.click("[data-action=join]")
    for page in (ana, bruno):
        page.wait_for_selector(".tournament-page[data-status=running]")
        page.wait_for_selector(".tournament-round[data-round='1'] [data-take-seat]")
    seats = bruno.inner_text(".pairings tbody")
    assert seats.index("swarm_ana") < seats.index("swarm_bruno")  # seeds in seat order
    assert "Asiento" in bruno.inner_text(".pairings thead")
    width = bruno.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    seat = box(bruno, "[data-take-seat]")
    assert seat["height"] >= 44 and seat["x"] + seat["width"] <= 390, seat
    bruno.screenshot(path=str(artifacts / "tournaments-series-phone.png"), full_page=True)
    bruno.click("[data-take-seat]")
    bruno.wait_for_url("**/table/*")
    bruno.wait_for_selector(".enj-page")
    table_id = bruno.url.rsplit("/", 1)[1]
    assert bruno.evaluate(f"localStorage.getItem('panal.table.{table_id}')")
