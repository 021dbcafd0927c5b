"""The lobby: open challenges and the games being played now, live on every screen.

* ``GET /api/lobby`` → ``{"challenges": [...], "games": [...], "named": [...]}``.
* ``POST /api/challenges`` ``{"game_type", "options", "look", "clock", "rated", "color",
  "takebacks", "to"?}`` → 201 ``{"id", "token"}``: the token is the seat the creator will play
  with (a guest's browser keeps it). A rated challenge needs an account and a clock; a named
  challenge (``to``: an account's name) needs an account, and only its creator and addressee
  see it (the lobby's ``named`` list).
* ``POST /api/challenges/{id}/accept`` → ``{"id", "seat", "token"}``: the new game. Exactly
  one acceptor wins (the database decides); the others get 409 ``challenge_taken``.
* ``POST /api/challenges/{id}/cancel`` ``{"token"?}``: by its creator (account or token).
* ``POST /api/challenges/{id}/decline``: a named challenge, by its addressee.
* Websocket ``/ws/lobby``: ``{"type": "lobby", "challenges", "games", "named"}`` (``named``: the
  signed-in account's own named challenges, sent and received) on connect and whenever
  the lists change (any process: the bus's ``lobby`` channel), ``{"type": "accepted",
  "challenge", "game"}`` when a challenge becomes a game (its creator's page goes there).

A challenge to a friend by link is the invitation of an online game (``POST /api/games``).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from typing import Any, Literal

from fastapi import APIRouter, Request, WebSocket
from pydantic import Field

from panal.hive import Options
from panal.server.bots.bot_store import bot_may_accept
from panal.server.hive_games.actions import requested_clock, requested_game_type
from panal.server.hive_games.game_store import GameRow, online_game
from panal.server.hive_games.games import LOBBY_CHANNEL
from panal.server.hive_games.live import COLOR_NAMES
from panal.server.http.models import Look, StrictModel
from panal.server.http.request_error import RequestError
from panal.server.http.websocket_session import serve_watcher
from panal.server.lobby.challenge_store import (
    CHALLENGE_SECONDS,
    CORRESPONDENCE_CHALLENGE_SECONDS,
    Challenge,
    ChallengeStore,
    TooManyChallenges,
)
from panal.server.notifications.notifications import notify
from panal.server.players.accounts import name_key
from panal.server.players.attempts import address_key
from panal.server.players.auth import session_account, socket_account
from panal.server.players.player_store import Account, PlayerStore
from panal.server.room.outbox import Connection
from panal.server.room.tokens import hash_token, new_token
from panal.server.runtime.runtime import Runtime

__all__ = ["Lobby", "lobby_router"]

REFRESH_DELAY = 0.1  # changes within this time are sent as one list
PLAYING_WINDOW = 3600.0  # a game counts as being played if it moved within the last hour
#: Open challenges at once per account, and per client address (guests and accounts together:
#: a few players behind one router can each post one or two). The lobby shows the newest
#: LOBBY_SHOWN, so one client can fill at most a tenth of it.
MAX_OPEN_PER_ACCOUNT = 3
MAX_OPEN_PER_ADDRESS = 10


class ChallengeRequest(StrictModel):
    game_type: str = Field("Base", max_length=16)
    # Rule options by name, as for POST /api/games (panal.hive.OPTION_SPECS).
    options: dict[str, bool | str] = Field(default_factory=dict, max_length=32)
    look: Look = "classic"
    clock: dict[str, Any] | None = None
    rated: bool = False
    color: Literal["white", "black", "random"] = "random"
    takebacks: bool = False  # whether a player may propose to take back a move
    to: str | None = Field(None, min_length=1, max_length=40)  # a named challenge's addressee


class CancelRequest(StrictModel):
    token: str | None = Field(None, max_length=200)


class Lobby:
    """This process's lobby pages: the lists, refreshed from the database on each change."""

    def __init__(self, runtime: Runtime, players: PlayerStore) -> None:
        self.runtime = runtime
        self.players = players
        self.challenges = ChallengeStore(players)
        # Each lobby socket, and the account it is signed in as (its named challenges).
        self.connections: dict[Connection, int | None] = {}
        self._pending = False
        runtime.listen(LOBBY_CHANNEL, self, channel=True)

    def on_bus_message(self, channel: str, message: dict[str, Any]) -> None:
        """A challenge was posted, cancelled or accepted, or a game began or ended (any
        process)."""
        if message.get("op") == "accepted":
            text = json.dumps(
                {
                    "type": "accepted",
                    "challenge": str(message.get("challenge")),
                    "game": str(message.get("game")),
                }
            )
            for connection in list(self.connections):
                connection.post(text)
        self._schedule()

    def on_bus_reconnect(self) -> None:
        self._schedule()  # a change may have been lost: the lists are read again

    def _schedule(self) -> None:
        if self._pending or not self.connections:
            return
        self._pending = True

        async def refresh() -> None:
            await asyncio.sleep(REFRESH_DELAY)
            self._pending = False
            connections = dict(self.connections)
            try:
                lists = await self.lists()
                named = await self.runtime.db(
                    self.challenges.named_challenges,
                    {user for user in connections.values() if user is not None},
                    time.time(),
                )
            except Exception:
                return
            concerned = {c.creator_id for c in named} | {c.addressee_id for c in named}
            shared = _lists_text(lists, [], None)  # encoded once for all without named ones
            for connection, user in connections.items():
                mine = user is not None and user in concerned
                connection.post_state(_lists_text(lists, named, user) if mine else shared)

        self.runtime.spawn(refresh())

    async def lists(self) -> dict[str, Any]:
        """The lobby's public lists: open challenges (never a named one) and games in play."""
        runtime, players = self.runtime, self.players
        now = time.time()
        challenges, games = await asyncio.gather(
            runtime.db(self.challenges.open_challenges, now),
            runtime.db(players.games_in_play, now - PLAYING_WINDOW),
        )
        users = {u for row in games for u in row.users() if u is not None}
        names_by_id = await runtime.db(players.names, users)
        return {
            "type": "lobby",
            "challenges": [c.to_json() for c in challenges],
            "games": [_playing_json(row, names_by_id) for row in games],
        }

    def announce(self, challenge_id: str, game_id: str | None = None) -> None:
        """A challenge was posted, cancelled or accepted (``game_id``): tell every process."""
        message: dict[str, Any] = {"op": "changed"}
        if game_id is not None:
            message = {"op": "accepted", "challenge": challenge_id, "game": game_id}
        self.runtime.announce(LOBBY_CHANNEL, message)

    # --- challenges ------------------------------------------------------------------------

    async def named_for(self, account: Account | None) -> list[Challenge]:
        """The open named challenges this account sent or received."""
        if account is None:
            return []
        return await self.runtime.db(self.challenges.named_challenges, {account.id}, time.time())

    async def create(self, body: ChallengeRequest, request: Request) -> dict[str, Any]:
        runtime = self.runtime
        account = await session_account(request, self.players)
        addressee = await self._addressee(body.to, account)
        game_type = str(requested_game_type(body.game_type))
        control = requested_clock(body.clock)
        try:
            options = Options.from_values(body.options)
        except (TypeError, ValueError) as exc:
            raise RequestError("bad_options", str(exc)) from None
        if body.rated and account is None:
            raise RequestError("sign_in", "sign in to post a rated challenge", 401)
        if body.rated and control is None:
            raise RequestError("rated_untimed", "a rated game needs a clock", 422)
        now = time.time()
        token = new_token()
        lasts = (
            CORRESPONDENCE_CHALLENGE_SECONDS
            if control is not None and control.kind == "correspondence"
            else CHALLENGE_SECONDS
        )
        challenge = Challenge(
            id=secrets.token_urlsafe(9),
            created_at=now,
            expires_at=now + lasts,
            creator_id=account.id if account else None,
            creator_token=hash_token(token),
            game_type=game_type,
            options=options.changed(),
            look=body.look,
            time_control=control,
            rated=body.rated,
            color=body.color,
            addressee_id=addressee.id if addressee is not None else None,
            takebacks=body.takebacks,
            addressee_name=addressee.name if addressee is not None else None,
        )
        address = address_key(request.client.host if request.client else None)
        try:
            await runtime.db(
                self.challenges.create_challenge,
                challenge,
                address,
                MAX_OPEN_PER_ACCOUNT,
                MAX_OPEN_PER_ADDRESS,
            )
        except TooManyChallenges as exc:
            where = "from your address" if exc.by == "address" else "on your account"
            raise RequestError(
                "too_many_challenges",
                f"{exc.open_now} open challenges {where} (at most {exc.cap}): cancel one first",
                429,
                reason=exc.by,
                details={"open": str(exc.open_now), "cap": str(exc.cap)},
            ) from None
        self.announce(challenge.id)  # the addressee's lobby page shows it, on any process
        if account is not None:
            challenge = await runtime.db(self.challenges.with_creator, challenge, account.name)
        if addressee is not None:
            by = account.id if account is not None else None
            notify(runtime, addressee.id, "challenge", url="/lobby", by=by, event="received")
        return {"id": challenge.id, "token": token, "challenge": challenge.to_json()}

    async def _addressee(self, name: str | None, account: Account | None) -> Account | None:
        """The account a named challenge is addressed to (None: an open challenge)."""
        if name is None:
            return None
        if account is None:
            raise RequestError("sign_in", "sign in to challenge a player by name", 401)
        found = await self.runtime.db(self.players.account_by_key, name_key(name))
        if found is None:
            raise RequestError("unknown_player", f"there is no player named {name!r}", 404)
        addressee = found[0]
        if addressee.id == account.id:
            raise RequestError("own_challenge", "you cannot challenge yourself", 409)
        return addressee

    async def challenge(self, challenge_id: str, request: Request) -> Challenge:
        """The challenge, if this request may see it: a named challenge is only its creator's
        and its addressee's (to anyone else it does not exist)."""
        found = None
        if 1 <= len(challenge_id) <= 16:
            found = await self.runtime.db(self.challenges.challenge, challenge_id)
        if found is not None and found.addressee_id is not None:
            account = await session_account(request, self.players)
            if account is None or account.id not in (found.creator_id, found.addressee_id):
                found = None
        if found is None:
            raise RequestError("unknown_challenge", "there is no such challenge", 404)
        return found

    async def cancel(self, challenge_id: str, body: CancelRequest, request: Request) -> None:
        runtime = self.runtime
        challenge = await self.challenge(challenge_id, request)
        account = await session_account(request, self.players)
        by_account = account is not None and account.id == challenge.creator_id
        by_token = body.token is not None and secrets.compare_digest(
            hash_token(body.token), challenge.creator_token
        )
        if not (by_account or by_token):
            raise RequestError("not_yours", "only its creator can cancel a challenge", 403)
        if not await runtime.db(self.challenges.cancel_challenge, challenge_id):
            raise RequestError("challenge_closed", "this challenge is no longer open", 409)
        self.announce(challenge_id)

    async def decline(self, challenge_id: str, request: Request) -> None:
        """A named challenge declined by its addressee."""
        challenge = await self.challenge(challenge_id, request)
        account = await session_account(request, self.players)
        if account is None or account.id != challenge.addressee_id:
            raise RequestError("not_yours", "only its addressee can decline a challenge", 403)
        if not await self.runtime.db(self.challenges.decline_challenge, challenge_id, account.id):
            raise RequestError("challenge_closed", "this challenge is no longer open", 409)
        self.announce(challenge_id)

    async def accept(self, challenge_id: str, request: Request) -> dict[str, Any]:
        """Start the challenge's game with the acceptor in the other seat, if nobody else
        accepted it first (a named challenge: its addressee only)."""
        runtime = self.runtime
        challenge = await self.challenge(challenge_id, request)
        account = await session_account(request, self.players)
        if challenge.status == "open" and challenge.expires_at <= time.time():
            raise RequestError("challenge_expired", "this challenge has expired", 409)
        if challenge.status != "open":
            raise RequestError("challenge_taken", "this challenge is no longer open", 409)
        if challenge.addressee_id is not None and (
            account is None or account.id != challenge.addressee_id
        ):
            raise RequestError("not_for_you", "this challenge is addressed to another player", 403)
        if challenge.rated and account is None:
            raise RequestError("sign_in", "sign in to accept a rated challenge", 401)
        if account is not None and account.id == challenge.creator_id:
            raise RequestError("own_challenge", "you cannot accept your own challenge", 409)
        if account is not None and account.bot:
            await runtime.db(bot_may_accept, self.players, account.id, challenge)
        creator = challenge.color
        if creator == "random":
            creator = secrets.choice(COLOR_NAMES)
        creator_color = COLOR_NAMES.index(creator)
        token = new_token()
        tokens = [challenge.creator_token, hash_token(token)]
        users = [challenge.creator_id, account.id if account else None]
        if creator_color == 1:
            tokens.reverse()
            users.reverse()
        now = runtime.now()
        row = online_game(
            challenge.game_type,
            Options.from_values(challenge.options),
            challenge.look,
            tokens=(tokens[0], tokens[1]),
            users=(users[0], users[1]),
            rated=challenge.rated,
            control=challenge.time_control,
            now=now,
            takebacks=challenge.takebacks,
        )
        won = await runtime.db(self.challenges.accept_challenge, challenge_id, row, time.time())
        if not won:
            raise RequestError("challenge_taken", "someone else accepted this challenge", 409)
        self.announce(challenge_id, row.id)
        acceptor = account.id if account else None
        url = f"/game/{row.id}"
        notify(runtime, challenge.creator_id, "challenge", url=url, by=acceptor, event="accepted")
        seat = COLOR_NAMES[1 - creator_color]
        return {"id": row.id, "seat": seat, "token": token}

    # --- websocket -------------------------------------------------------------------------

    async def watch(self, websocket: WebSocket) -> None:
        connection = Connection(send=websocket.send_text, seats=frozenset())
        account = await socket_account(websocket, self.players)

        async def attach() -> None:
            self.connections[connection] = account.id if account is not None else None
            lists, named = await asyncio.gather(self.lists(), self.named_for(account))
            user = account.id if account is not None else None
            connection.post_state(_lists_text(lists, named, user))

        async def detach() -> None:
            self.connections.pop(connection, None)

        await serve_watcher(websocket, connection, attach, detach)


def _lists_text(lists: dict[str, Any], named: list[Challenge], user: int | None) -> str:
    """The lobby's lists as one account sees them: with the named challenges it sent or
    received (``named``), none of anyone else's."""
    mine = [c.to_json() for c in named if user in (c.creator_id, c.addressee_id)]
    return json.dumps({**lists, "named": mine}, separators=(",", ":"))


def _playing_json(row: GameRow, names_by_id: dict[int, str]) -> dict[str, Any]:
    control = row.control
    return {
        "id": row.id,
        "game_type": row.game_type,
        "white": names_by_id.get(row.white_user) if row.white_user is not None else None,
        "black": names_by_id.get(row.black_user) if row.black_user is not None else None,
        "rated": row.rated,
        "clock": control.shown() if control else None,
        "plies": row.plies,
    }


lobby_router = APIRouter()


def _lobby(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


@lobby_router.get("/api/lobby")
async def lobby_lists(request: Request) -> dict[str, Any]:
    lobby = _lobby(request)
    account = await session_account(request, lobby.players)
    snapshot = await lobby.lists()
    snapshot.pop("type")
    return {**snapshot, "named": [c.to_json() for c in await lobby.named_for(account)]}


@lobby_router.post("/api/challenges", status_code=201)
async def post_challenge(body: ChallengeRequest, request: Request) -> dict[str, Any]:
    return await _lobby(request).create(body, request)


@lobby_router.get("/api/challenges/{challenge_id}")
async def get_challenge(challenge_id: str, request: Request) -> dict[str, Any]:
    """A challenge and what became of it (``status``; ``game`` once accepted)."""
    challenge = await _lobby(request).challenge(challenge_id, request)
    return challenge.to_json()


@lobby_router.post("/api/challenges/{challenge_id}/accept")
async def accept_challenge(challenge_id: str, request: Request) -> dict[str, Any]:
    return await _lobby(request).accept(challenge_id, request)


@lobby_router.post("/api/challenges/{challenge_id}/cancel", status_code=204)
async def cancel_challenge(challenge_id: str, body: CancelRequest, request: Request) -> None:
    await _lobby(request).cancel(challenge_id, body, request)


@lobby_router.post("/api/challenges/{challenge_id}/decline", status_code=204)
async def decline_challenge(challenge_id: str, request: Request) -> None:
    await _lobby(request).decline(challenge_id, request)


@lobby_router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    await websocket.app.state.lobby.watch(websocket)
