"""Two browsers play each other online through an invitation; a third one watches."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.helpers import (
    click_move,
    game_id,
    game_state,
    host_online_game,
    seat_token,
    wait_for_ply,
)
from tests.server.helpers import ServerProcess

pytestmark = pytest.mark.browser


def test_online_game_with_a_spectator(
    open_page: Any, server: ServerProcess, artifacts: Path
) -> None:
    host, game, invite = host_online_game(open_page, locale="en-GB")
    assert "Waiting for your friend" in host.inner_text(".status")
    watch = host.input_value("[data-link-kind=watch] input")

    guest = open_page(invite.replace(server.url, ""), locale="es-ES")
    guest.wait_for_selector(".move-list, .moves-panel")
    guest_game = game_id(guest)
    assert guest_game == game
    assert "invite=" not in guest.url
    spectator = open_page(watch.replace(server.url, ""), locale="pt-PT")
    spectator.wait_for_selector(".moves-panel")

    host.wait_for_function("!document.querySelector('[data-link-kind=invite]')")
    assert host.inner_text(".status") == "Your turn (White)"
    assert guest.inner_text(".status") == "Esperando a Blancas"
    assert "Estás a assistir" in spectator.inner_text(".status")

    players = {0: (host, seat_token(host, game)), 1: (guest, seat_token(guest, game))}
    assert players[0][1] and players[1][1] and players[0][1] != players[1][1]
    for ply in range(6):
        page, token = players[ply % 2]
        state = game_state(server.url, game, token)
        move = state["legal"][len(state["legal"]) // 2]
        click_move(page, move, state["hands"])
        for viewer in (host, guest, spectator):
            wait_for_ply(viewer, ply + 1)
        assert spectator.locator(".move-list [data-ply]").count() == ply + 1
        # The spectator can pick nothing.
        assert spectator.locator(".hand button:not([disabled])").count() == 0
        assert spectator.locator(".board .selectable").count() == 0

    # The guest reads the rule error in Spanish: a piece placed next to the opponent.
    state = game_state(server.url, game, players[0][1])
    assert state["turn"] == 0
    wait_for_ply(guest, 6)
    host.bring_to_front()
    guest_state = game_state(server.url, game, players[1][1])
    assert "legal" not in guest_state
    guest.screenshot(path=str(artifacts / "online-guest.png"))
    host.screenshot(path=str(artifacts / "online-host.png"))
    spectator.screenshot(path=str(artifacts / "online-spectator.png"))

    # The host offers a draw; the guest accepts in Spanish.
    host.click("[data-action=offer-draw]")
    guest.wait_for_selector("[data-action=accept-draw]")
    assert "ofrece tablas" in guest.inner_text("[data-banner=draw]")
    guest.click("[data-action=accept-draw]")
    for page, text in ((host, "Draw"), (guest, "Tablas"), (spectator, "Empate")):
        page.wait_for_selector(".status.over")
        assert page.inner_text(".status").startswith(text)
    spectator.screenshot(path=str(artifacts / "online-spectator-draw.png"))


def test_rule_errors_are_translated(open_page: Any, server: ServerProcess) -> None:
    page = open_page("/new", locale="es-ES")
    page.check("input[name=mode][value=hotseat]")
    page.click("button[data-action=start]")
    game_id(page)
    page.wait_for_selector(".hand button[data-piece=wQ]:not([disabled])")
    page.fill("form.type-move input", "wS1")
    page.keyboard.press("Enter")
    wait_for_ply(page, 1)
    page.fill("form.type-move input", "bS1 wS1-")
    page.keyboard.press("Enter")
    wait_for_ply(page, 2)
    page.click(".hand button[data-piece=wA1]")
    page.click('.board [data-cell="2,0"]')  # touches only Black's spider
    page.wait_for_selector("[data-banner=notice]")
    notice = page.inner_text("[data-banner=notice]")
    assert notice == "Jugada ilegal: una pieza nueva no puede tocar piezas del rival."
