"""Games being played: the authoritative state in memory, seats, and live fan-out.

Every change to a game happens in one synchronous step on the event loop: check it with the rules
engine, write it to the database, then queue the new state for every connection. No ``await``
separates the check from the write, so two moves can never interleave and a refused request never
changes anything.

Each connection has its own outgoing queue drained by its own task: a slow browser never delays
the others, and one that falls too far behind is disconnected (it reconnects and resumes).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import random
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from panal.hex import Hex
from panal.hive import (
    Game,
    GameState,
    GameType,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Options,
    Termination,
)
from panal.hive.pieces import piece_from_name
from panal.server.ai_pool import AiRequest, AiRunner
from panal.server.snapshot import history_entry, legal_moves_json, public_state
from panal.server.store import GameRow, Store, rule_headers

__all__ = ["Connection", "GameHub", "LiveGame", "RequestError", "hash_token", "new_token"]

log = logging.getLogger("panal.server")

MODES = ("ai", "hotseat", "online", "review")
COLOR_NAMES = ("white", "black")
MAX_QUEUED_MESSAGES = 64
MAX_COORDINATE = 1000


class RequestError(Exception):
    """A request refused with a reason; the game is unchanged.

    ``code`` is stable for clients and translations; ``status`` is the HTTP status to use. An
    illegal move names the ``rule`` it breaks, a MoveString that does not parse the ``reason``
    (:class:`panal.hive.InvalidMoveError`'s code); ``details`` fill in either's sentence.
    """

    def __init__(
        self,
        code: str,
        message: str,
        status: int = 400,
        *,
        rule: str | None = None,
        reason: str | None = None,
        details: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.rule = rule
        self.reason = reason
        self.details = details or {}

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.rule is not None:
            body["rule"] = self.rule
        if self.reason is not None:
            body["reason"] = self.reason
        if self.rule is not None or self.reason is not None:
            body["details"] = self.details
        return body


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def new_game_id() -> str:
    return secrets.token_urlsafe(9)


@dataclass(eq=False)
class Connection:
    """One websocket: who it seats, and its outgoing queue."""

    send: Callable[[str], Awaitable[None]]
    seats: frozenset[int]
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    closed: bool = False

    def post(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= MAX_QUEUED_MESSAGES:
            self.closed = True  # too slow: drop it; the browser reconnects and resumes
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    async def pump(self) -> None:
        """Send queued messages in order until the connection is closed."""
        while True:
            text = await self.queue.get()
            if text is None:
                return
            await self.send(text)


@dataclass(eq=False)
class LiveGame:
    row: GameRow
    game: Game
    history: list[dict[str, Any]]
    connections: set[Connection] = field(default_factory=set)
    version: int = 0
    ai_task: asyncio.Task[None] | None = None
    ai_error: str | None = None
    # The legal moves, serialized once per position. Kept as one string rather than a list of
    # dicts: thousands of long-lived small objects would make every full GC pause much longer.
    _legal_cache: tuple[int, str] | None = None

    @property
    def is_finished(self) -> bool:
        return self.row.result is not None

    def seats_for(self, token: str | None) -> frozenset[int]:
        if not token:
            return frozenset()
        digest = hash_token(token)
        seats = set()
        for color, stored in ((0, self.row.white_token), (1, self.row.black_token)):
            if stored is not None and hmac.compare_digest(stored, digest):
                seats.add(color)
        return frozenset(seats)

    def acting_color(self, seats: frozenset[int]) -> int:
        """The colour a seated request speaks for: the side to move when it holds both."""
        if len(seats) == 2:
            return int(self.game.turn)
        (color,) = seats
        return color

    def legal_json(self) -> str:
        if self._legal_cache is None or self._legal_cache[0] != self.version:
            legal = json.dumps(legal_moves_json(self.game), separators=(",", ":"))
            self._legal_cache = (self.version, legal)
        return self._legal_cache[1]

    def may_move(self, seats: frozenset[int]) -> bool:
        return (
            not self.is_finished
            and self.row.mode != "review"
            and int(self.game.turn) in seats
            and not self.is_ai_turn
        )

    @property
    def is_ai_turn(self) -> bool:
        return self.row.mode == "ai" and int(self.game.turn) == self.row.ai_color

    def state_text(self, connection: Connection | None, base: str) -> str:
        """``base`` (the shared state, serialized once) plus what only this connection sees."""
        seats = connection.seats if connection else frozenset()
        extra: dict[str, Any] = {"you": [COLOR_NAMES[c] for c in sorted(seats)]}
        if seats and self.row.mode == "online" and self.row.invite_code:
            extra["invite"] = self.row.invite_code
        text = base[:-1] + "," + json.dumps(extra, separators=(",", ":"))[1:]
        if seats and self.may_move(seats):
            text = text[:-1] + ',"legal":' + self.legal_json() + "}"
        return text

    def base_text(self) -> str:
        state = public_state(self)
        return json.dumps(state, separators=(",", ":"), ensure_ascii=False)

    def broadcast(self) -> None:
        base = self.base_text()
        for connection in list(self.connections):
            connection.post(self.state_text(connection, base))


class GameHub:
    """The games in memory, loaded from the store on demand."""

    def __init__(self, store: Store, ai: AiRunner, levels: tuple[str, ...]) -> None:
        self.store = store
        self.ai = ai
        self.levels = levels
        self.games: dict[str, LiveGame] = {}

    # --- loading ---------------------------------------------------------------------------

    def get(self, game_id: str) -> LiveGame:
        live = self.games.get(game_id)
        if live is not None:
            return live
        if not isinstance(game_id, str) or not 1 <= len(game_id) <= 16:
            raise RequestError("unknown_game", "there is no game with that id", 404)
        loaded = self.store.load_game(game_id)
        if loaded is None:
            raise RequestError("unknown_game", "there is no game with that id", 404)
        row, moves = loaded
        game = Game(row.game_type, options=row.rules)
        history: list[dict[str, Any]] = []
        for text in moves:
            move = game.parse_move(text, lenient=True)
            history.append(history_entry(game, move, len(history) + 1))
            game.push(move)
        live = self.games[game_id] = LiveGame(row, game, history)
        return live

    def release(self, live: LiveGame) -> None:
        """Forget a game nobody watches and no AI works on (it stays in the database)."""
        if not live.connections and live.ai_task is None:
            self.games.pop(live.row.id, None)

    # --- creating --------------------------------------------------------------------------

    def create(
        self,
        *,
        game_type: str,
        mode: str,
        options: Options,
        look: str,
        color: str,
        ai_level: str | None,
        moves: list[str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[LiveGame, dict[str, Any]]:
        """A new game (``moves`` replays an imported record); returns it and the secrets."""
        if mode not in MODES:
            raise RequestError("bad_mode", f"mode must be one of {', '.join(MODES)}")
        try:
            parsed_type = GameType.parse(game_type)
        except ValueError as exc:
            raise RequestError("bad_game_type", str(exc)) from None
        if mode == "ai":
            if not self.levels:
                raise RequestError("no_ai", "the AI is not available on this server", 409)
            if ai_level is None:
                ai_level = "medium" if "medium" in self.levels else self.levels[0]
            if ai_level not in self.levels:
                raise RequestError(
                    "bad_level", f"unknown AI level {ai_level!r}; one of {', '.join(self.levels)}"
                )
        else:
            ai_level = None
        if color == "random":
            color = random.choice(COLOR_NAMES)
        if color not in COLOR_NAMES:
            raise RequestError("bad_color", "color must be white, black or random")
        human = COLOR_NAMES.index(color)
        game = Game(parsed_type, options=options)
        history: list[dict[str, Any]] = []
        for ply, text in enumerate(moves or (), 1):
            try:
                move = game.parse_move(text, lenient=True)
            except ValueError as exc:
                raise RequestError("bad_record", f"move {ply} ({text!r}): {exc}") from None
            history.append(history_entry(game, move, ply))
            game.push(move)
        row = GameRow(
            id=new_game_id(),
            game_type=str(parsed_type),
            mode=mode,
            tournament_opening=options.tournament_opening,
            repetition_draw=options.repetition_draw,
            dragonfly_gates=False,  # the legacy column: these options now travel in headers
            look=look,
            ai_level=ai_level,
            ai_color=1 - human if mode == "ai" else None,
            plies=len(history),
            headers=rule_headers(options, dict(headers or {})),
        )
        secrets_out: dict[str, Any] = {"id": row.id}
        if mode != "review":
            token = new_token()
            if mode == "hotseat":
                row.white_token = row.black_token = hash_token(token)
                secrets_out["seat"] = "both"
            else:
                setattr(row, f"{color}_token", hash_token(token))
                secrets_out["seat"] = color
            secrets_out["token"] = token
            if mode == "online":
                row.invite_code = secrets.token_urlsafe(12)
                secrets_out["invite"] = row.invite_code
        _settle_result(row, game)
        self.store.create_game(row, [entry["move"] for entry in history])
        live = self.games[row.id] = LiveGame(row, game, history)
        self.schedule_ai(live)
        return live, secrets_out

    def join(self, game_id: str, invite: str) -> dict[str, Any]:
        """Claim the open seat of an online game with its invitation code (once)."""
        live = self.get(game_id)
        row = live.row
        if row.mode != "online":
            raise RequestError("not_online", "this game takes no invitations", 409)
        if row.invite_code is None:
            raise RequestError("invite_used", "this invitation has already been used", 409)
        if not hmac.compare_digest(row.invite_code.encode(), invite.encode("utf-8", "replace")):
            raise RequestError("bad_invite", "wrong invitation code", 403)
        color = "black" if row.white_token is not None else "white"
        token = new_token()
        setattr(row, f"{color}_token", hash_token(token))
        row.invite_code = None
        self.store.save(row)
        live.broadcast()
        return {"id": row.id, "seat": color, "token": token}

    # --- requests from players -------------------------------------------------------------

    def handle(self, live: LiveGame, connection: Connection, message: Any) -> None:
        """Apply one websocket request (already decoded JSON). Raises RequestError."""
        if not isinstance(message, dict):
            raise RequestError("bad_request", "a message must be a JSON object")
        kind = message.get("type")
        if kind == "ping":
            connection.post('{"type":"pong"}')
            return
        if kind == "sync":
            connection.post(live.state_text(connection, live.base_text()))
            return
        actions = {
            "move": self.move,
            "undo": self.undo,
            "resign": self.resign,
            "offer_draw": self.offer_draw,
            "accept_draw": self.accept_draw,
            "decline_draw": self.decline_draw,
        }
        action = actions.get(kind) if isinstance(kind, str) else None
        if action is None:
            raise RequestError(
                "bad_request",
                "unknown message type; expected one of: ping, sync, " + ", ".join(actions),
            )
        if not connection.seats:
            raise RequestError("spectator", "spectators can't play: you have no seat here", 403)
        action(live, connection.seats, message)

    def move(self, live: LiveGame, seats: frozenset[int], message: dict[str, Any]) -> None:
        row, game = live.row, live.game
        expected_ply = message.get("ply")
        if expected_ply is not None and (
            not isinstance(expected_ply, int) or isinstance(expected_ply, bool)
        ):
            raise RequestError("bad_request", "'ply' must be an integer")
        self._check_open(live)
        if live.is_ai_turn:
            raise RequestError("not_your_turn", "wait: the AI is thinking", 409)
        if int(game.turn) not in seats:
            raise RequestError("not_your_turn", "it is your opponent's turn", 409)
        if expected_ply is not None and expected_ply != game.ply:
            raise RequestError(
                "stale", "the game has moved on since you chose that move; look again", 409
            )
        move = _requested_move(game, message)
        try:
            if isinstance(move, str):
                move = game.parse_move(move)
            # Before the push: the entry needs the position. An illegal move raises
            # IllegalMoveError here (move_string) or in the push, naming the rule.
            entry = history_entry(game, move, game.ply + 1)
            game.push(move)
        except InvalidMoveError as exc:
            raise RequestError(
                "invalid_move", str(exc), reason=exc.reason, details=exc.details
            ) from None
        except IllegalMoveError as exc:
            raise RequestError(
                "illegal_move", str(exc), 409, rule=exc.rule.key, details=exc.details
            ) from None
        except ValueError as exc:  # e.g. a destination beside no piece cannot be written
            raise RequestError("illegal_move", str(exc), 409, rule="illegal") from None
        live.history.append(entry)
        row.plies = game.ply
        if row.draw_offer is not None and row.draw_offer != entry["color"]:
            row.draw_offer = None  # moving on declines the opponent's offer
        _settle_result(row, game)
        self._commit_move(live, entry["move"])

    def _commit_move(self, live: LiveGame, move_text: str) -> None:
        try:
            self.store.record_move(live.row, move_text)
        except Exception:
            # Memory and database must agree: take the move back and refuse it.
            live.game.pop()
            live.history.pop()
            live.row.plies = live.game.ply
            _settle_result(live.row, live.game, clear=True)
            log.exception("cannot store a move of game %s", live.row.id)
            raise RequestError("storage", "the move could not be saved; try again", 503) from None
        live.version += 1
        live.ai_error = None
        live.broadcast()
        self.schedule_ai(live)

    def undo(self, live: LiveGame, seats: frozenset[int], message: dict[str, Any]) -> None:
        row, game = live.row, live.game
        if row.mode not in ("ai", "hotseat"):
            raise RequestError("no_undo", "undo is only for games against the AI or hot-seat", 409)
        if row.result is not None and not _ended_on_board(row):
            raise RequestError("game_over", "the game is over", 409)
        human_moves = [e for e in live.history if e["color"] != row.ai_color]
        if not human_moves:
            raise RequestError("nothing_to_undo", "there is no move of yours to take back", 409)
        game.pop()
        live.history.pop()
        while row.mode == "ai" and int(game.turn) == row.ai_color and game.ply > 0:
            game.pop()
            live.history.pop()
        row.plies = game.ply
        row.draw_offer = None
        _settle_result(row, game, clear=True)
        self.store.take_back(row)
        live.version += 1  # an AI search of the old position is now stale
        live.ai_error = None
        live.broadcast()
        self.schedule_ai(live)

    def resign(self, live: LiveGame, seats: frozenset[int], message: dict[str, Any]) -> None:
        self._check_open(live)
        loser = live.acting_color(seats)
        self._finish(
            live,
            GameState.BLACK_WINS if loser == 0 else GameState.WHITE_WINS,
            Termination.RESIGNATION,
        )

    def offer_draw(self, live: LiveGame, seats: frozenset[int], message: dict[str, Any]) -> None:
        self._check_open(live)
        if live.row.mode == "ai":
            raise RequestError("no_draw", "the AI does not agree to draws", 409)
        color = live.acting_color(seats)
        if live.row.draw_offer == color:
            raise RequestError("draw_offered", "you have already offered a draw", 409)
        live.row.draw_offer = color
        self.store.save(live.row)
        live.version += 1
        live.broadcast()

    def accept_draw(self, live: LiveGame, seats: frozenset[int], message: dict[str, Any]) -> None:
        self._check_open(live)
        offer = live.row.draw_offer
        if offer is None or (1 - offer) not in seats:
            raise RequestError("no_draw_offer", "there is no draw offer for you to accept", 409)
        self._finish(live, GameState.DRAW, Termination.AGREEMENT)

    def decline_draw(self, live: LiveGame, seats: frozenset[int], message: dict[str, Any]) -> None:
        self._check_open(live)
        if live.row.draw_offer is None:
            raise RequestError("no_draw_offer", "there is no draw offer to decline", 409)
        live.row.draw_offer = None
        self.store.save(live.row)
        live.version += 1
        live.broadcast()

    def _check_open(self, live: LiveGame) -> None:
        if live.row.mode == "review":
            raise RequestError("review", "this is a record to replay, not a game to play", 409)
        if live.is_finished:
            raise RequestError("game_over", "the game is over", 409)

    def _finish(self, live: LiveGame, result: GameState, reason: Termination) -> None:
        live.row.result = result.value
        live.row.end_reason = reason.value
        live.row.draw_offer = None
        self.store.save(live.row)
        live.version += 1
        live.broadcast()

    # --- the AI ----------------------------------------------------------------------------

    def schedule_ai(self, live: LiveGame) -> None:
        if (
            live.row.mode != "ai"
            or live.is_finished
            or not live.is_ai_turn
            or live.ai_task is not None
        ):
            return
        live.ai_task = asyncio.get_running_loop().create_task(self._ai_move(live))

    async def _ai_move(self, live: LiveGame) -> None:
        try:
            while live.is_ai_turn and not live.is_finished:
                version = live.version
                request = AiRequest(
                    game_string=live.game.game_string(),
                    options=live.row.rules,
                    level=live.row.ai_level or "",
                    seed=random.getrandbits(31),
                )
                live.broadcast()  # shows "thinking"
                try:
                    move_text = await self.ai(request)
                except Exception as exc:
                    log.exception("AI failed in game %s", live.row.id)
                    live.ai_error = f"the AI failed: {exc}"
                    live.broadcast()
                    return
                if version != live.version:
                    continue  # undone while it was thinking: think again if still its turn
                try:
                    move = live.game.parse_move(move_text)
                    entry = history_entry(live.game, move, live.game.ply + 1)
                    live.game.push(move)
                except ValueError as exc:
                    log.error("AI played %r in game %s: %s", move_text, live.row.id, exc)
                    live.ai_error = f"the AI played an illegal move ({move_text}): {exc}"
                    live.broadcast()
                    return
                live.history.append(entry)
                live.row.plies = live.game.ply
                _settle_result(live.row, live.game)
                try:
                    self._commit_move(live, entry["move"])
                except RequestError:
                    live.ai_error = "the AI's move could not be saved"
                    live.broadcast()
                    return
        finally:
            live.ai_task = None
            self.release(live)

    def resume_ai_games(self) -> None:
        """After a restart: the AI owes a move in some games; make it."""
        for game_id in self.store.unfinished_ai_games():
            try:
                live = self.get(game_id)
            except (RequestError, ValueError):
                log.exception("cannot resume game %s", game_id)
                continue
            self.schedule_ai(live)
            self.release(live)

    async def close(self) -> None:
        tasks = [live.ai_task for live in self.games.values() if live.ai_task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def _requested_move(game: Game, message: dict[str, Any]) -> Move | str:
    """The move a request names: ``{"move": "wA1 bQ-"}`` or ``{"piece": "wA1", "to": [q, r]}``
    (``"carry": true`` for a Dragonfly taking the piece beneath it) or ``{"move": "pass"}``."""
    text = message.get("move")
    if text is not None:
        if not isinstance(text, str) or not 0 < len(text) <= 64:
            raise RequestError("bad_request", "'move' must be a MoveString (at most 64 characters)")
        return text
    name = message.get("piece")
    to = message.get("to")
    carry = message.get("carry", False)
    if not isinstance(name, str) or len(name) > 8:
        raise RequestError("bad_request", "a move needs 'move' (a MoveString) or 'piece' and 'to'")
    piece = piece_from_name(name)
    if piece is None:
        raise RequestError(
            "invalid_move",
            f"unknown piece {name[:8]!r}",
            reason="unknown_piece",
            details={"name": name[:8]},
        )
    if (
        not isinstance(to, list)
        or len(to) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in to)
        or not all(abs(v) <= MAX_COORDINATE for v in to)
    ):
        raise RequestError("bad_request", "'to' must be two integers [q, r], each within ±1000")
    if not isinstance(carry, bool):
        raise RequestError("bad_request", "'carry' must be true or false")
    return Move(piece, Hex(to[0], to[1]), carry)


def _ended_on_board(row: GameRow) -> bool:
    """Whether the row's game ended on the board (an undo may take that ending back)."""
    return row.end_reason in _ON_BOARD_ENDINGS


_ON_BOARD_ENDINGS = frozenset(t.value for t in Termination if t.on_board)


def _settle_result(row: GameRow, game: Game, *, clear: bool = False) -> None:
    """Copy a result decided on the board into the row (or clear it after an undo)."""
    outcome = game.outcome()
    if outcome is not None:
        row.result = outcome.result.value
        row.end_reason = outcome.termination.value
        row.draw_offer = None
    elif clear:
        row.result = None
        row.end_reason = None
