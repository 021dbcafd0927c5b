"""Page-wide: what a reader types (or opens) while a page's data is still on its way survives
the data's arrival. Each page's loads are held back by route interception, the fields are
filled and opened, then the loads are let through; a page that drew itself whole again on the
load would lose them (the reset and archive pages did, one by one)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from tests.server.helpers import ServerProcess

PASSWORD = "typed loads horse"


def holding(
    pattern: str, held: list[Any], sign_up: str | None = None, url: str = ""
) -> Callable[[Any], None]:
    """A ``prepare`` for ``open_page``: GETs matching ``pattern`` wait in ``held``."""

    def prepare(page: Any) -> None:
        if sign_up:
            made = page.request.post(
                f"{url}/api/account/signup", data={"name": sign_up, "password": PASSWORD}
            )
            assert made.ok, made.text()
        page.route(
            re.compile(pattern),
            lambda route: (
                held.append(route) if route.request.method == "GET" else route.continue_()
            ),
        )

    return prepare


def release(page: Any, held: list[Any], pattern: str) -> None:
    """Let the held loads through and wait until the page has drawn what they brought."""
    page.wait_for_function("() => true")  # the page's own handlers ran
    assert held, f"no load matching {pattern} was held"
    with page.expect_response(re.compile(pattern)):
        for route in held:
            route.continue_()
        held.clear()
    page.wait_for_timeout(300)  # the answer's JSON parsed and drawn


def test_typed_input_survives_each_pages_loads(open_page: Any, server: ServerProcess) -> None:
    # The tournaments list arrives under a half-filled creation form.
    held: list[Any] = []
    made: list[str] = []

    def prepare_tournaments(page: Any) -> None:
        holding(r"/api/tournaments$", held, "typedloads", server.url)(page)
        created = page.request.post(
            f"{server.url}/api/tournaments",
            data={
                "name": "Typed loads cup",
                "format": "swiss",
                "clock": {"kind": "realtime", "base": 180, "increment": 2},
            },
            headers={"Origin": server.url},
        )
        assert created.ok, created.text()
        made.append(created.json()["id"])

    page = open_page("/tournaments", prepare=prepare_tournaments)
    page.fill("form.tournament-form input[name=name]", "Half typed")
    page.focus("form.tournament-form input[name=rounds]")
    page.keyboard.press("Control+A")
    page.keyboard.type("7")
    assert page.locator("[data-tournament-row]").count() == 0
    release(page, held, r"/api/tournaments$")
    page.wait_for_selector(f"[data-tournament-row='{made[0]}']")
    assert page.input_value("form.tournament-form input[name=name]") == "Half typed"
    assert page.input_value("form.tournament-form input[name=rounds]") == "7"
    assert page.evaluate("document.activeElement.name") == "rounds"

    # The account page: its password forms are there before the settings, and keep what is typed.
    page = open_page(
        "/account", prepare=holding(r"/api/account/settings$", held, "typedacct", server.url)
    )
    page.fill("form[data-form=password] input[name=current]", "half a password")
    page.fill("form[data-form=delete] input[name=password]", "another")
    release(page, held, r"/api/account/settings$")
    page.wait_for_selector("[data-mail-part] .account-form")
    assert page.input_value("form[data-form=password] input[name=current]") == "half a password"
    assert page.input_value("form[data-form=delete] input[name=password]") == "another"

    # The leaderboard: the search field, typed (with a space) while the boards load.
    page = open_page("/leaderboard", prepare=holding(r"/api/leaderboard\?", held))
    page.focus("input[name=q]")
    page.keyboard.type("nobody at al")
    release(page, held, r"/api/leaderboard\?")
    assert page.input_value("input[name=q]") == "nobody at al"
    assert page.evaluate("document.activeElement.name") == "q"

    # The archive: the filters, opened and half filled while the list loads.
    page = open_page("/archive", prepare=holding(r"/api/archive\?", held))
    page.click("form[data-archive-filters] summary")
    page.fill("input[name=player]", "half")
    release(page, held, r"/api/archive\?")
    page.wait_for_selector(
        "[data-archive-list] [data-archive-empty], [data-archive-list] table.archive"
    )
    assert page.input_value("input[name=player]") == "half"
    assert page.locator("form[data-archive-filters] details[open]").count() == 1
