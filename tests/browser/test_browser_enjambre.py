"""Enjambre Tácticas in Chromium: a 4-player table with two people in two browser contexts and
two bots, played to the final scoreboard and replayed; the pass-the-screen mode with its
hand-over screens; a phone; memory play and the easy version. Screenshots go to
``test-artifacts/browser/``."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.browser.helpers import box, window_listeners
from tests.browser.test_browser_phone import OVERFLOW, SMALL_TAP_TARGETS
from tests.server.helpers import ServerProcess
from tests.server.tables_helpers import choose_move

pytestmark = pytest.mark.browser

GAME_SECONDS = 240


def table_id(page: Any) -> str:
    page.wait_for_url("**/table/*")
    return str(page.url.rstrip("/").split("/table/")[1].split("#")[0])


def new_table(
    page: Any,
    players: int,
    seats: dict[int, str],
    mode: str = "online",
    rounds: int = 2,
    switches: tuple[str, ...] = (),
) -> str:
    """Fill in the new-table form: ``seats`` maps a seat to "person" or a bot level;
    ``switches`` names the rule options to tick."""
    page.wait_for_selector("form.new-table")
    page.select_option("select[name=players]", str(players))
    page.check(f"input[name=mode][value={mode}]")
    for seat, choice in seats.items():
        page.select_option(f"select[data-seat='{seat}']", choice)
    page.fill("input[data-option=rounds]", str(rounds))
    page.dispatch_event("input[data-option=rounds]", "change")
    for name in switches:
        page.check(f"input[data-option={name}]")
    page.click("[data-action=open-table]")
    return table_id(page)


def centre(page: Any, selector: str) -> tuple[float, float]:
    found = box(page, selector)
    return found["x"] + found["width"] / 2, found["y"] + found["height"] / 2


def arrange(page: Any, *, by_taps: bool = False, by_drag: bool = False) -> None:
    """The secret set-up: tap a tray tile then a lit cell (twice), or drag a tray tile onto a
    lit cell, then "Random", then confirm."""
    page.wait_for_selector(".enj-tray")
    if by_drag:
        start = centre(page, ".enj-tray [data-tray='10']")
        goal = centre(page, ".enj-board .cell.lit-place")
        page.mouse.move(*start)
        page.mouse.down()
        page.mouse.move(start[0] + 20, start[1] - 20, steps=4)
        page.mouse.move(*goal, steps=8)
        page.mouse.up()
        page.wait_for_selector(".enj-board .tile.pending")
        assert page.locator(".enj-board .tile.pending").count() == 1
        assert page.locator(".enj-tray [data-tray='10']").is_disabled()
    if by_taps:
        for number in (1, 2):
            page.click(f".enj-tray [data-tray='{number}']")
            page.click(".enj-board .cell.lit-place >> nth=0")
        assert page.locator(".enj-board .tile.pending").count() == 2
    page.click("[data-action=random]")
    assert page.locator(".enj-board .tile.pending").count() == 10
    page.click("[data-action=confirm]")
    page.wait_for_selector(".enj-tray", state="detached")


def scout_with_the_one(page: Any) -> None:
    """On this page's turn: pick the own tile numbered 1 and use it as the scout."""
    page.wait_for_selector("[data-action=end]:not([disabled])")
    one = page.locator(".enj-board .tile.selectable").filter(
        has=page.locator("text.tile-number", has_text=re.compile(r"^1$"))
    )
    assert one.count() == 1
    one.click()
    page.click("[data-action=scout]")
    page.wait_for_selector(".enj-turn .hint")  # "scout used" replaces the button


def take_turn(page: Any) -> bool:
    """On this page's turn: move one tile to a lit cell, then end the turn. False if it is not
    this page's turn."""
    end = page.locator("[data-action=end]:not([disabled])")
    if not end.count():
        return False
    step = page.locator(".enj-board .tile.selectable")
    if step.count():
        step.first.click()
        lit = page.locator(".enj-board .cell.lit")
        if lit.count():
            lit.first.click(force=True)  # an enemy tile may stand on it (an attack)
            page.wait_for_timeout(150)
    if page.locator("[data-action=end]:not([disabled])").count():
        page.click("[data-action=end]")
        page.wait_for_function("!document.querySelector('[data-action=end]')")
    return True


def take_turn_is(page: Any) -> bool:
    """Whether it is this page's turn (its end-of-turn button is live)."""
    return bool(page.locator("[data-action=end]:not([disabled])").count())


def scoreboard(page: Any) -> bool:
    return bool(page.locator(".enj-score-card").count())


def no_numbers_on_screen(page: Any) -> None:
    assert page.locator(".enj-board .tile").count() == 0
    assert page.locator(".enj-tray").count() == 0


def test_four_players_two_people_and_two_bots_play_to_the_scoreboard(
    open_page: Any, server: ServerProcess, artifacts: Path
) -> None:
    host = open_page("/enjambre", locale="en-GB")
    table = new_table(host, 4, {1: "person", 2: "random", 3: "heuristic"})
    host.wait_for_selector("[data-invite='1']")
    assert "Waiting for the players" in host.inner_text(".status")
    invite = host.input_value("[data-invite='1']")
    assert "#seat=1&invite=" in invite  # the secret travels in the fragment, never to a log
    host.screenshot(path=str(artifacts / "enjambre-waiting.png"))

    guest = open_page(invite.replace(server.url, ""), locale="es-ES")
    guest.fill("input[name=name]", "Lucía")
    guest.click("[data-action=join]")
    guest.wait_for_selector(".enj-tray")
    assert "invite=" not in guest.url
    assert "Colocación" in guest.inner_text(".status")  # the guest reads Spanish
    host.wait_for_selector(".enj-tray")
    # On the desktop the chat sits in the side column beside the board, not below its edge.
    board, chat = box(host, ".enj-board-wrap"), box(host, "details.chat")
    assert chat["x"] >= board["x"] + board["width"], (board, chat)
    assert chat["y"] + chat["height"] <= board["y"] + board["height"], (board, chat)
    arrange(host, by_taps=True)
    host.screenshot(path=str(artifacts / "enjambre-setup-done.png"))
    arrange(guest, by_drag=True)

    # The scout: whoever of the two people plays first flips their 1; everyone reads what it
    # found, each in their own language.
    while not (take_turn_is(host) or take_turn_is(guest)):
        host.wait_for_timeout(100)
    first = host if take_turn_is(host) else guest
    scout_with_the_one(first)
    host.wait_for_function("document.querySelector('.enj-side').textContent.includes('(the 1)')")
    guest.wait_for_function("document.querySelector('.enj-side').textContent.includes('(el 1)')")
    first.screenshot(path=str(artifacts / "enjambre-scout.png"))

    deadline = time.monotonic() + GAME_SECONDS
    shots = 0
    while not (scoreboard(host) and scoreboard(guest)):
        assert time.monotonic() < deadline, "the game did not end"
        moved = False
        for page in (host, guest):
            if not scoreboard(page) and take_turn(page):
                moved = True
                if shots < 2:
                    page.screenshot(path=str(artifacts / f"enjambre-turn-{shots}.png"))
                    shots += 1
        if not moved:
            host.wait_for_timeout(100)
    host.screenshot(path=str(artifacts / "enjambre-scoreboard.png"))
    guest.screenshot(path=str(artifacts / "enjambre-scoreboard-es.png"))
    rows = host.locator(".enj-score-card .enj-scores tbody tr")
    assert rows.count() == 4
    assert "Game over" in host.inner_text(".enj-score-card h2")
    assert "Lucía" in host.inner_text(".enj-score-card")
    state = httpx.get(f"{server.url}/api/enjambre/tables/{table}").json()
    assert state["table"]["status"] == "over"
    assert sum(1 for e in state["events"] if e["type"] == "turn_ended") == 8  # 4 seats × 2 rounds

    # The replay: from the host's seat, then with every number.
    host.click(".enj-score-card [data-action=replay]")
    host.wait_for_selector(".enj-replay")
    host.click("[data-action=replay-step][data-to=nextTurn]")
    host.wait_for_timeout(300)
    host.select_option("select[name=replay-view]", "all")
    host.wait_for_function(
        "document.querySelectorAll('.enj-board .tile-number:not(.hidden-number)').length >= 40"
    )
    host.screenshot(path=str(artifacts / "enjambre-replay-all.png"))


def test_pass_the_screen_hands_over_and_hides_the_previous_players_tiles(
    open_page: Any, artifacts: Path
) -> None:
    page = open_page("/enjambre", locale="pt-PT")
    new_table(page, 3, {1: "person", 2: "random"}, mode="local")
    handovers = 0
    deadline = time.monotonic() + GAME_SECONDS
    while not scoreboard(page):
        assert time.monotonic() < deadline, "the game did not end"
        cover = page.locator(".enj-handover [data-look]")
        if cover.count():
            no_numbers_on_screen(page)  # nothing of the previous player's behind the cover
            if handovers == 0:
                page.screenshot(path=str(artifacts / "enjambre-handover.png"))
            handovers += 1
            cover.click()
            page.wait_for_selector(".enj-handover", state="hidden")
            continue
        if page.locator(".enj-tray").count():
            arrange(page)
            continue
        if not take_turn(page):
            page.wait_for_timeout(100)
    # Two people: two set-ups, then (at most) one hand-over per turn of theirs.
    assert handovers >= 3
    assert "Fim do jogo" in page.inner_text(".enj-score-card h2")
    page.screenshot(path=str(artifacts / "enjambre-local-scoreboard.png"))


def test_brazilian_portuguese_speaks_brazilian_and_shares_the_rest(open_page: Any) -> None:
    """The pt-BR table takes the pt-PT one and changes only what Brazilians say differently."""
    page = open_page("/enjambre", locale="pt-BR")
    page.wait_for_selector("form.new-table")
    assert "Você (anfitrião)" in page.inner_text(".enj-seat-choice")  # not "Tu"
    assert page.inner_text("[data-action=open-table]") == "Abrir a mesa"  # shared with pt-PT
    differ = page.evaluate(
        """async () => {
            const i18n = await import('/static/js/i18n.js');
            const say = async (lang, key) => { await i18n.setLanguage(lang); return i18n.t(key); };
            const out = [];
            for (const key of ['enj.status.watching', 'enj.option.rounds', 'enj.board'])
                out.push([await say('pt-PT', key), await say('pt-BR', key)]);
            return out;
        }"""
    )
    assert differ == [
        ["Estás a assistir", "Você está assistindo"],
        ["Rondas", "Rodadas"],
        ["O tabuleiro", "O tabuleiro"],
    ]


def test_a_table_on_a_phone(open_page: Any, artifacts: Path) -> None:
    page = open_page("/enjambre", locale="en-US", phone=True)
    page.wait_for_selector("form.new-table")
    assert page.evaluate(OVERFLOW, 390) == []
    assert page.evaluate(SMALL_TAP_TARGETS) == []
    page.screenshot(path=str(artifacts / "enjambre-phone-form.png"), full_page=True)
    new_table(page, 2, {1: "heuristic"})
    page.wait_for_selector(".enj-tray")
    assert page.evaluate(OVERFLOW, 390) == []
    assert page.evaluate(SMALL_TAP_TARGETS) == []
    # The set-up zooms in on the own zone: its cells are big enough to tap. Found and measured
    # in one step in the page: a state arriving redraws the board, and a cell found first and
    # measured after may be gone by then (a busy machine made it so).
    lit = box(page, ".enj-board .cell.lit-place")
    width, height = lit["width"], lit["height"]
    assert width >= 44 and height >= 44, (width, height)
    page.screenshot(path=str(artifacts / "enjambre-phone-setup.png"))
    arrange(page, by_taps=True)
    page.wait_for_selector(".enj-board .tile.selectable")
    assert page.evaluate(OVERFLOW, 390) == []
    assert page.evaluate(SMALL_TAP_TARGETS) == []
    page.screenshot(path=str(artifacts / "enjambre-phone-turn.png"))
    # On to the scoreboard: it fits the phone too.
    deadline = time.monotonic() + GAME_SECONDS
    while not scoreboard(page):
        assert time.monotonic() < deadline, "the game did not end"
        if not take_turn(page):
            page.wait_for_timeout(100)
    page.screenshot(path=str(artifacts / "enjambre-phone-scoreboard.png"))
    assert page.evaluate(OVERFLOW, 390) == []
    assert page.evaluate(SMALL_TAP_TARGETS) == []


class SocketSeat:
    """A seat played from Python over the table's websocket (``view`` as the helpers expect)."""

    def __init__(self, ws: Any, token: str) -> None:
        self.ws = ws
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.state: dict[str, Any] = {}
        self.next_state()

    def next_state(self) -> dict[str, Any]:
        while True:
            message = json.loads(self.ws.recv(timeout=30))
            if message["type"] == "error":
                raise AssertionError(f"unexpected error: {message}")
            if message["type"] == "state":
                self.state = message
                return message

    @property
    def view(self) -> dict[str, Any]:
        return dict(self.state["view"])

    def act(self, **message: Any) -> None:
        before = self.state["table"]["version"]
        self.ws.send(json.dumps(message))
        while self.next_state()["table"]["version"] <= before:
            pass

    def play_to_the_end(self, rng: random.Random) -> None:
        """One whole move a turn (an attack when one is offered, else towards the enemy), then
        the end of the turn; the bot plays in between."""
        deadline = time.monotonic() + GAME_SECONDS
        moved_in: tuple[int, int] | None = None
        while self.state["table"]["status"] != "over":
            assert time.monotonic() < deadline, "the game did not end"
            view = self.view
            legal = view.get("legal")
            turn = (view["round"], view["turn"])
            move = choose_move(self, rng) if legal and legal["moves"] else None  # type: ignore[arg-type]
            if not legal:
                self.next_state()  # the bot is playing
            elif "displace" in legal:
                self.act(type="displace", cell=legal["displace"][0])
            elif move is not None and moved_in != turn:
                moved_in = turn
                self.act(type="move", tile=move[0], path=move[1])
            elif legal["end"] or move is None:
                self.act(type="end")
            else:  # the rules want a move first
                self.act(type="move", tile=move[0], path=move[1])


def test_memory_play_hides_own_numbers_and_the_easy_version_shows_eliminated_tiles(
    open_page: Any, server: ServerProcess, artifacts: Path
) -> None:
    page = open_page("/enjambre", locale="en-GB")
    switches = ("memory_play", "eliminated_visible")
    table = new_table(page, 2, {1: "heuristic"}, rounds=10, switches=switches)
    arrange(page)
    # Play has begun: the host's ten tiles are on the board, and not one number shows (nothing
    # can have been fought or scouted in the first round: the zones are far apart).
    page.wait_for_function("document.querySelectorAll('.enj-board .tile').length === 20")
    assert page.locator(".enj-board .tile-number:not(.hidden-number)").count() == 0
    page.screenshot(path=str(artifacts / "enjambre-memory-play.png"))

    token = page.evaluate(f"localStorage.getItem('panal.table.{table}')")
    with connect(f"{server.ws_url}/ws/tables/{table}") as ws:
        SocketSeat(ws, token).play_to_the_end(random.Random(5))
    spectator = httpx.get(f"{server.url}/api/enjambre/tables/{table}").json()
    eliminated = spectator["view"]["eliminated"]
    assert eliminated, "no tile was eliminated: pick another seed"
    page.wait_for_selector(".enj-score-card")
    page.click("[data-action=close-score]")
    shown = page.locator(".enj-lost-tile")
    assert shown.count() == len(eliminated)
    assert page.locator(".enj-lost-tile.hidden-number").count() == 0
    for item in eliminated:
        text = page.inner_text(f".enj-lost-tile[data-eliminated='{item['id']}']")
        assert text == str(item["number"])
    page.screenshot(path=str(artifacts / "enjambre-easy-eliminated.png"))
    # Each combat is in what happened, with both numbers (they were shown to everyone).
    combats = [e for e in spectator["events"] if e["type"] == "combat"]
    assert combats
    log = page.inner_text(".enj-side")
    for combat in combats:
        assert f"{combat['attacker_number']} against {combat['defender_number']}" in log


def test_a_drag_under_way_when_the_page_is_left_leaves_nothing_behind(open_page: Any) -> None:
    page = open_page("/enjambre", locale="en-US")
    kinds = ("pointermove", "pointerup", "pointercancel")
    before = {kind: window_listeners(page, kind) for kind in kinds}
    new_table(page, 2, {1: "heuristic"})
    page.wait_for_selector(".enj-tray [data-tray]")
    x, y = centre(page, ".enj-tray [data-tray]")
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 40, y - 40, steps=4)  # a tile on its way to the board
    page.wait_for_selector(".drag-ghost")
    assert window_listeners(page, "pointermove") == before["pointermove"] + 1
    page.evaluate("async () => (await import('/static/js/main.js')).navigate('/archive')")
    page.wait_for_selector(".archive-page")
    assert {kind: window_listeners(page, kind) for kind in kinds} == before
    assert page.locator(".drag-ghost").count() == 0
    page.mouse.up()
