"""The chat of an online game between two browsers (a desktop and a 390×844 phone): they talk,
text stays text, a player mutes the other and no longer sees them (after a reload too), and the
chat panel, open or closed, never covers the board."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.helpers import box, game_id, host_online_game
from tests.server.helpers import ServerProcess

pytestmark = pytest.mark.browser


def apart(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two boxes do not overlap."""
    return (
        a["x"] + a["width"] <= b["x"] + 0.5
        or b["x"] + b["width"] <= a["x"] + 0.5
        or a["y"] + a["height"] <= b["y"] + 0.5
        or b["y"] + b["height"] <= a["y"] + 0.5
    )


def say(page: Any, text: str) -> None:
    page.fill(".chat-form input", text)
    page.click(".chat-form button[type=submit]")
    page.wait_for_function("() => document.querySelector('.chat-form input').value === ''")


def log_texts(page: Any) -> list[str]:
    return [str(text) for text in page.locator(".chat-log .chat-text").all_inner_texts()]


def test_two_players_chat_and_a_muted_player_is_silenced(
    open_page: Any, server: ServerProcess, artifacts: Path
) -> None:
    host, game, invite = host_online_game(open_page, locale="en-GB")
    guest = open_page(invite.replace(server.url, ""), locale="es-ES", phone=True)
    guest.wait_for_selector(".board-area .board, .board-holder svg")
    assert game_id(guest) == game
    host.wait_for_function("!document.querySelector('[data-link-kind=invite]')")

    # Closed at first on both; the phone's panel sits below the board, not over it.
    for page in (host, guest):
        page.wait_for_selector("details.chat summary")
        assert page.evaluate("document.querySelector('details.chat').open") is False
    assert apart(box(guest, "details.chat"), box(guest, ".board-area"))
    # On the desktop it sits in the side column beside the board, not below the board's edge.
    board, chat = box(host, ".board-area"), box(host, "details.chat")
    assert chat["x"] >= board["x"] + board["width"], (board, chat)
    assert chat["y"] + chat["height"] <= board["y"] + board["height"], (board, chat)

    host.click("details.chat summary")
    say(host, "Good luck!")
    guest.wait_for_selector(".chat-unread:not([hidden])")  # the closed panel counts it
    assert guest.inner_text(".chat-unread") == "1"
    guest.click("details.chat summary")
    guest.wait_for_selector(".chat-log li")
    assert log_texts(guest) == ["Good luck!"]
    assert guest.inner_text(".chat-log .chat-author") == "Blancas (invitado)"
    markup = "<img src=x onerror=\"document.title='owned'\"> suerte"
    say(guest, markup)
    host.wait_for_function("() => document.querySelectorAll('.chat-log li').length === 2")
    assert log_texts(host)[-1] == markup  # shown as the text it is
    assert host.locator(".chat-log img").count() == 0
    assert host.title() != "owned"

    # The phone's open panel still leaves the board alone, and the page never scrolls sideways.
    board, chat = box(guest, ".board-area"), box(guest, "details.chat")
    assert apart(board, chat), (board, chat)
    assert guest.evaluate("document.documentElement.scrollWidth") <= 390
    assert apart(box(host, ".board-area"), box(host, "details.chat"))
    guest.screenshot(path=str(artifacts / "chat-phone.png"), full_page=True)
    host.screenshot(path=str(artifacts / "chat-desktop.png"))

    # The guest mutes the host: the host's words are gone for the guest alone.
    guest.click(".chat-log li >> nth=0 >> button.chat-author")  # the name opens its actions
    guest.click(".chat-log li >> nth=0 >> button[data-chat-action=mute]")
    guest.wait_for_function("() => document.querySelectorAll('.chat-log li').length === 1")
    assert log_texts(guest) == [markup]
    say(host, "Can you read me?")
    host.wait_for_function("() => document.querySelectorAll('.chat-log li').length === 3")
    say(guest, "¿Sigues ahí?")
    host.wait_for_function("() => document.querySelectorAll('.chat-log li').length === 4")
    assert log_texts(guest) == [markup, "¿Sigues ahí?"]
    assert guest.inner_text(".chat-unmute") == "Volver a mostrar 1 jugador silenciado"

    # A guest's mutes are kept in their browser: still muted after a reload.
    guest.reload()
    guest.wait_for_selector("body[data-ready]")
    guest.click("details.chat summary")
    guest.wait_for_function("() => document.querySelectorAll('.chat-log li').length === 2")
    assert log_texts(guest) == [markup, "¿Sigues ahí?"]
    guest.click(".chat-unmute")
    guest.wait_for_function("() => document.querySelectorAll('.chat-log li').length === 4")


def test_a_table_chat_on_a_phone_leaves_the_board_alone(
    open_page: Any, server: ServerProcess, artifacts: Path
) -> None:
    body = {"players": 2, "seats": [{"kind": "person"}, {"kind": "bot", "bot": "random"}]}
    table = httpx.post(
        f"{server.url}/api/enjambre/tables", json=body, headers={"Origin": server.url}
    ).json()
    page = open_page(f"/table/{table['id']}#token={table['token']}", locale="pt-BR", phone=True)
    page.wait_for_selector(".enj-board-area svg")
    page.wait_for_selector("details.chat summary")
    assert apart(box(page, "details.chat"), box(page, ".enj-board-wrap"))
    page.click("details.chat summary")
    say(page, "Olá, robô")
    page.wait_for_function("() => document.querySelectorAll('.chat-log li').length === 1")
    assert page.inner_text(".chat-log .chat-author") == "Assento 1 (convidado)"
    assert apart(box(page, "details.chat"), box(page, ".enj-board-wrap"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(artifacts / "chat-table-phone.png"), full_page=True)


def test_against_the_ai_the_player_has_no_chat_and_a_spectator_has_theirs(
    open_page: Any, server: ServerProcess
) -> None:
    player = open_page("/new")
    player.check("input[name=mode][value=ai]")
    player.select_option("select[name=color]", "white")
    player.click("button[data-action=start]")
    game = game_id(player)
    player.wait_for_selector(".hand button[data-piece=wQ]:not([disabled])")
    assert player.locator("details.chat").is_hidden()
    spectator = open_page(f"/game/{game}?watch=1")
    spectator.wait_for_selector("details.chat summary")
    spectator.click("details.chat summary")
    assert spectator.is_visible(".chat-note")  # a guest who watches reads, and is told to sign in
    assert spectator.locator(".chat-form").is_hidden()
