"""``panal bot``: a UHP engine on a panal server, as a bot account (hivegame.com's bot bridge
does the same for its site).

The bridge talks to the server the way the browser does (docs/web.md): HTTP for the lists and
the challenges, the game's websocket for the moves, always with ``Authorization: Bearer
<bot token>`` (the bot's account holds its seats, so no seat token is needed and a restarted
bridge resumes every game). It runs the engine through :class:`panal.uhp.client.UhpClient`, one
process per game:

* every ``poll`` seconds it asks for its unfinished games (``/api/bot/games``) and plays each
  one it is not playing yet (after a disconnect or a restart, that is every one), and, while it
  plays fewer than its owner's ``max_games``, accepts one open challenge its limits allow
  (``/api/bot/challenges``, then the lobby's ``accept``);
* with ``--ladder`` it joins the engine ladder, and says it is still there every
  :data:`LADDER_EVERY` seconds;
* with ``--tournament ID`` (any number of them) it registers for those tournaments, trying
  again on each poll until the server has answered (registered, or why not: full, started);
  its tournament games are then among its games like any other;
* on its turn it tells the engine the game's rule options it knows (``options set``: a
  GameString does not carry them, and a tournament opening or a Pillbug rule the engine does
  not share would make it refuse the game or play illegal moves), then gives it the game
  (``newgame`` with the GameString of the moves so far)
  and ``bestmove time`` of a share of its clock (:func:`move_budget`), then sends the move;
* a lost connection is retried with back-off (½ s doubling to 8 s); a refused token stops it;
* a game socket silent for :data:`QUIET_SECONDS` asks for the state again (``sync``) and answers
  it afresh, so that a state or a move lost on the way never leaves both sides waiting;
* an engine that fails ends that game's task with a warning, and the next poll plays the game
  again with a new engine process.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from panal.hive import OPTION_SPECS, Game, Options
from panal.uhp.client import EngineError, UhpClient

__all__ = ["BotBridge", "BridgeError", "BridgeSettings", "engine_identity", "move_budget"]

log = logging.getLogger("panal.bot")

COLORS = ("white", "black")  # a state's ``you`` names its seats
LADDER_EVERY = 10.0
MOVES_TO_GO = 25  # the clock is shared as if this many moves were left
MIN_BUDGET = 0.05
HTTP_TIMEOUT = 15.0
QUIET_SECONDS = 20.0


class BridgeError(Exception):
    """The server refused the bot (a wrong or revoked token): nothing to retry."""


@dataclass
class BridgeSettings:
    engine: str
    server: str
    token: str
    ladder: bool = False
    tournaments: list[str] = field(default_factory=list)
    options: dict[str, str] = field(default_factory=dict)
    poll: float = 1.0


def engine_identity(info: str) -> tuple[str, str]:
    """UHP ``id`` → (name, version): the version is the first word after the name with a
    dotted number ("nokamute cargo-1.0.3", "Mzinga.Engine v0.10.6", "panal v0.1.0 (greedy
    player)" → "panal (greedy player)", "v0.1.0")."""
    words = info.split()
    for index, word in enumerate(words[1:], 1):
        if re.search(r"\d+\.\d+", word):
            return " ".join(words[:index] + words[index + 1 :]), word
    return info.strip(), ""


def move_budget(left: float, increment: float) -> float:
    """Seconds to think: a share of what is left plus most of the increment, never more than a
    third of the clock (so a slow reply never loses on time)."""
    budget = min(left / MOVES_TO_GO + 0.8 * increment, left / 3)
    return max(MIN_BUDGET, budget)


def clock_left(state: dict[str, Any], color: int) -> tuple[float, float] | None:
    """``color``'s time left now and the increment, from a game state (None: untimed)."""
    clocks, control = state.get("clocks"), state.get("clock")
    if not clocks or not control or control.get("kind") != "realtime":
        return None
    left = float(clocks["white" if color == 0 else "black"])
    if clocks.get("running") == color and clocks.get("since") is not None:
        left -= max(0.0, float(state.get("now") or time.time()) - float(clocks["since"]))
    return max(0.0, left), float(control.get("increment", 0))


class BotBridge:
    def __init__(self, settings: BridgeSettings) -> None:
        self.settings = settings
        base = settings.server.rstrip("/")
        self.base = base
        self.socket_base = "ws" + base[4:] if base.startswith("http") else base
        self.playing: dict[str, asyncio.Task[None]] = {}
        self.name = ""
        self.to_join = list(settings.tournaments)
        self.engine_info: dict[str, Any] = {}

    # --- HTTP ------------------------------------------------------------------------------

    def _request(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path,
            data=data,
            method=method,
            headers={
                "Authorization": f"Bearer {self.settings.token}",
                "Content-Type": "application/json",
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT) as answer:
                text = answer.read()
        except urllib.error.HTTPError as exc:
            if exc.code in (401, 403) and path.startswith("/api/bot"):
                raise BridgeError(f"the server refused the bot's token ({exc.code})") from None
            raise
        return json.loads(text) if text else None

    async def call(self, method: str, path: str, body: Any = None) -> Any:
        return await asyncio.to_thread(self._request, method, path, body)

    # --- the bot's life --------------------------------------------------------------------

    async def describe_engine(self) -> dict[str, Any]:
        """Start the engine once: its name and version (UHP ``info``) and options."""
        engine = await self._engine()
        try:
            name, version = engine_identity(await engine.info())
            options = {k: str(o.value) for k, o in (await engine.options()).items()}
        finally:
            await _stop(engine)
        options.update(self.settings.options)
        return {"name": name.strip(), "version": version.strip(), "options": options}

    async def run(self, until: float | None = None) -> None:
        """Play until cancelled (or until the ``until`` time, for tests)."""
        me = await self.call("GET", "/api/bot")
        self.name = me["name"]
        self.engine_info = await self.describe_engine()
        await self.call("PUT", "/api/bot/engine", self.engine_info)
        log.info("bot %s runs %s", self.name, self.engine_info)
        joined_at = 0.0
        backoff = 0.5
        try:
            while until is None or time.time() < until:
                try:
                    if self.settings.ladder and time.time() - joined_at > LADDER_EVERY:
                        await self.call("POST", "/api/ladder/join")
                        joined_at = time.time()
                    await self.join_tournaments()
                    await self.poll()
                    backoff = 0.5
                except BridgeError:
                    raise
                except (OSError, urllib.error.URLError, ValueError) as exc:
                    log.warning("server unreachable (%s); retrying in %.1f s", exc, backoff)
                    await asyncio.sleep(backoff)
                    backoff = min(8.0, backoff * 2)
                    continue
                await asyncio.sleep(self.settings.poll)
        finally:
            for task in self.playing.values():
                task.cancel()
            await asyncio.gather(*self.playing.values(), return_exceptions=True)

    async def join_tournaments(self) -> None:
        """Register for the tournaments asked for, each until the server has answered."""
        for tournament_id in list(self.to_join):
            try:
                await self.call("POST", f"/api/tournaments/{tournament_id}/join")
                log.info("registered for tournament %s", tournament_id)
            except urllib.error.HTTPError as exc:
                if exc.code >= 500:
                    continue  # the server's trouble: next poll
                # full, started, registered already: said once
                log.warning("tournament %s refused the bot (%s)", tournament_id, exc.code)
            self.to_join.remove(tournament_id)

    async def poll(self) -> None:
        for game_id in (await self.call("GET", "/api/bot/games"))["games"]:
            self._play(game_id)
        offers = await self.call("GET", "/api/bot/challenges")
        if self._busy() >= offers["max_games"]:
            return
        for challenge in offers["challenges"]:
            try:
                accepted = await self.call("POST", f"/api/challenges/{challenge['id']}/accept")
            except urllib.error.HTTPError:
                continue  # someone else was first, or it expired
            self._play(accepted["id"])
            return  # one at a time: the limits are checked again on the next poll

    def _busy(self) -> int:
        return sum(1 for task in self.playing.values() if not task.done())

    def _play(self, game_id: str) -> None:
        task = self.playing.get(game_id)
        if task is None or task.done():
            self.playing[game_id] = asyncio.get_running_loop().create_task(self.play(game_id))

    # --- one game --------------------------------------------------------------------------

    async def _engine(self) -> UhpClient:
        engine = await UhpClient.popen(self.settings.engine, name=self.settings.engine)
        for option, value in self.settings.options.items():
            await engine.set_option(option, value)
        return engine

    async def play(self, game_id: str) -> None:
        """Play one game to its end, reconnecting as often as needed. An engine that fails
        ends the task (the next poll plays the game again with a new engine)."""
        try:
            engine = await self._engine()
        except EngineError as exc:
            log.warning("game %s: the engine did not start (%s)", game_id, exc)
            return
        try:
            await self._connected(game_id, engine)
        except EngineError as exc:
            log.warning("game %s: the engine failed (%s); starting another", game_id, exc)
        finally:
            await _stop(engine)

    async def _connected(self, game_id: str, engine: UhpClient) -> None:
        """Follow the game's socket to the game's end, reconnecting with back-off: a server
        that is down, restarting (a handshake cut short) or closing the socket."""
        import websockets

        rules = await _rule_options(engine)
        backoff = 0.5
        while True:
            try:
                async with websockets.connect(
                    f"{self.socket_base}/ws/games/{game_id}",
                    additional_headers={"Authorization": f"Bearer {self.settings.token}"},
                ) as socket:
                    await socket.send(json.dumps({"type": "hello", "token": None}))
                    backoff = 0.5
                    await self.follow(socket, engine, rules)
                    return
            except EngineError:
                raise  # an engine's timeout is a TimeoutError too: not the connection's
            except (OSError, websockets.WebSocketException) as exc:
                log.warning("game %s: connection lost (%s); reconnecting", game_id, exc)
            await asyncio.sleep(backoff)
            backoff = min(8.0, backoff * 2)

    async def follow(self, socket: Any, engine: UhpClient, rules: dict[str, str]) -> None:
        """Answer the game's states until it ends (a closed connection raises
        ``ConnectionClosed``); ``rules``: the engine's rule options as last set."""
        answered = -1
        while True:
            try:
                text = await asyncio.wait_for(socket.recv(), QUIET_SECONDS)
            except TimeoutError:
                # Quiet for long: a human thinking, or a state or a move of ours lost on the
                # way. The state again, answered afresh (a move already played is refused as
                # stale, which costs nothing).
                await socket.send('{"type":"sync"}')
                answered = -1
                continue
            message = json.loads(text)
            if message.get("type") == "error":
                log.warning("refused: %s", message.get("message"))
                await socket.send('{"type":"sync"}')
                answered = -1
                continue
            if message.get("type") != "state":
                continue
            if message.get("result"):
                return
            ply, turn = message["ply"], message["turn"]
            if COLORS[turn] not in message.get("you", []) or ply == answered:
                continue
            move = await self._think(engine, message, rules)
            await socket.send(json.dumps({"type": "move", "move": move, "ply": ply}))
            answered = ply

    async def _think(self, engine: UhpClient, state: dict[str, Any], rules: dict[str, str]) -> str:
        game = Game(state["game_type"], options=Options.from_values(state.get("options") or {}))
        for entry in state["history"]:
            game.push(entry["move"])
        if state.get("must_pass"):
            return "pass"
        for spec in OPTION_SPECS:
            value = str(spec.plain(getattr(game.options, spec.name)))
            if spec.uhp in rules and rules[spec.uhp].lower() != value.lower():
                await engine.set_option(spec.uhp, value)
                rules[spec.uhp] = value
        await engine.newgame(game.game_string())
        clock = clock_left(state, state["turn"])
        if clock is None:
            return await engine.bestmove(timeout=None)
        budget = move_budget(*clock)
        # A crashed or stuck engine raises EngineError: this game's task ends, and the next
        # poll plays the game again with a new engine process (the clock decides meanwhile).
        return await engine.bestmove(time=budget, timeout=budget * 1.5 + 5.0)


async def _rule_options(engine: UhpClient) -> dict[str, str]:
    """The engine's options as it states them (those of panal's rule options it knows are
    set to each game's), none if it lists none."""
    try:
        return {name: option.value for name, option in (await engine.options()).items()}
    except EngineError:
        return {}


async def _stop(engine: UhpClient) -> None:
    try:
        await engine.quit()
    except EngineError:
        await engine.kill()
