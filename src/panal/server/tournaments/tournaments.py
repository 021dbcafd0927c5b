"""Running tournaments: registration, the start, rounds paired and advanced, no-shows, the end.

The database is the truth and no process holds a tournament: every process runs the same
**tick** (every ``tick_seconds``) over the tournaments that are running or due to start, reads
each one in one transaction, decides what comes next (start, forfeit the no-shows, pair the next
round, pair the arena's waiting players, finish) with the pure functions of :mod:`.pairing` and
:mod:`.standings`, and writes it with a compare-and-set on the tournament's ``version`` in one
transaction with the new pairings (primary key ``(tournament, round, player)``) and their games.
When two processes compute the same step, one transaction commits and the other writes nothing;
a process killed in the middle of a step leaves no trace, and the next tick of any process takes
the step again. A round advances when its last game ends: the tick sees every game of the round
finished.

Games are made as a lobby challenge's are (a :class:`GameRow` with both accounts, the clock
started for White, written with :func:`insert_game` in the step's transaction) and played as any
Hive game (``/ws/games/{id}``, seats from the players' sessions); a no-show is ended through
:class:`GameHub`'s compare-and-set like a flag fall.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Sequence
from typing import Any

from panal.hive import GameState, Termination
from panal.server.enjambre_tables.series import SeriesTable, series_table
from panal.server.hive_games.actions import GameChange
from panal.server.hive_games.game_store import GameRow, clock_values, online_game
from panal.server.hive_games.games import GameHub
from panal.server.http.request_error import RequestError
from panal.server.notifications.notifications import notify
from panal.server.players.player_store import PlayerStore
from panal.server.room.outbox import Connection
from panal.server.room.tokens import hash_token, new_token
from panal.server.runtime.runtime import Runtime
from panal.server.tournaments.pairing import (
    PlayerHistory,
    arena_pairings,
    round_robin,
    round_robin_rounds,
    swiss_pairings,
)
from panal.server.tournaments.series import seating, series_results
from panal.server.tournaments.standings import (
    GameResult,
    Standing,
    arena_scores,
    standings,
)
from panal.server.tournaments.tournament_store import (
    FINISHED,
    REGISTERING,
    RUNNING,
    Snapshot,
    TournamentRow,
    TournamentStore,
)

__all__ = ["CHANNEL", "TIE_BREAKS_BY_FORMAT", "Tournaments", "results", "table"]

log = logging.getLogger("panal.server")
CHANNEL = "tournament"  # the bus channels tournament:<id>
WHITE_POINTS = {GameState.WHITE_WINS.value: 1.0, GameState.BLACK_WINS.value: 0.0, "Draw": 0.5}
BYE_POINTS = 1.0  # FIDE's pairing-allocated bye: a win's points
# hivegame.com's round robins: head-to-head, wins as Black, Sonneborn-Berger; a Swiss: FIDE's
# usual Buchholz first; an arena: lichess's score, then Buchholz and Sonneborn-Berger.
TIE_BREAKS_BY_FORMAT = {
    "round_robin": ("head_to_head", "wins_as_black", "sonneborn_berger"),
    "swiss": ("buchholz", "sonneborn_berger", "head_to_head", "wins_as_black"),
    "arena": ("buchholz", "sonneborn_berger"),
    # an Enjambre series: every pair meets every round, so Buchholz is everyone's same sum
    "series": ("head_to_head", "sonneborn_berger"),
}


def results(snapshot: Snapshot) -> list[GameResult]:
    """The finished pairings that count, one per game, bye or forfeit (a series: a finished
    table's pairs)."""
    if snapshot.row.format == "series":
        return series_results(snapshot)
    found = []
    for p in snapshot.pairings:
        if not p.counted:
            continue
        if p.opponent is None:
            found.append(GameResult(p.round, p.player, None, p.points or 0.0))
        elif p.color == 0 and p.game_id is None and p.points is not None:
            found.append(GameResult(p.round, p.player, p.opponent, p.points, played=False))
        elif p.color == 0 and p.result == GameState.NOT_STARTED.value:
            # aborted by the game's clock (a first move that never came, hive_games.clock's
            # window): a no-show, so the side whose first move it was loses by forfeit
            points = 0.0 if p.plies == 0 else 1.0
            found.append(GameResult(p.round, p.player, p.opponent, points, played=False))
        elif p.color == 0 and p.result is not None:
            played = p.end_reason != Termination.FORFEIT.value
            found.append(
                GameResult(p.round, p.player, p.opponent, WHITE_POINTS[p.result], played=played)
            )
    return found


def table(snapshot: Snapshot) -> list[Standing]:
    """The standings, with the format's tie-breaks."""
    row = snapshot.row
    done = results(snapshot)
    scores = arena_scores(done) if row.format == "arena" else None
    seeds = [player for player, _ in snapshot.players]
    return standings(seeds, done, TIE_BREAKS_BY_FORMAT[row.format], scores)


def histories(snapshot: Snapshot) -> dict[int, PlayerHistory]:
    """What the Swiss pairing needs of each player: score, opponents, colours, byes."""
    found = {player: PlayerHistory(player) for player, _ in snapshot.players}
    for standing in table(snapshot):
        found[standing.player].score = standing.score
    for p in sorted(snapshot.pairings, key=lambda p: p.round):
        history = found[p.player]
        if p.opponent is None:
            history.byes += 1
            continue
        history.opponents.append(p.opponent)
        if p.game_id is not None and p.color is not None:
            history.colours.append(p.color)
    return found


class Tournaments:
    """This process's part in running tournaments: the tick, the requests, the watchers."""

    def __init__(
        self,
        runtime: Runtime,
        hub: GameHub,
        players: PlayerStore,
        *,
        tick_seconds: float = 1.0,
    ) -> None:
        self.runtime = runtime
        self.hub = hub
        self.players = players
        self.store = TournamentStore(runtime.store.engine)
        self.tick_seconds = tick_seconds
        self.watchers: dict[str, set[Connection]] = {}
        self.shown: dict[str, str] = {}
        runtime.listen(CHANNEL, self)
        runtime.on_start(self.start)

    async def start(self) -> None:
        self.runtime.spawn(self.runtime.every(self.tick_seconds, self.tick, "tournaments"))

    # --- the bus -----------------------------------------------------------------------------

    def on_bus_message(self, channel: str, message: Any) -> None:
        tournament_id = channel.partition(":")[2]
        if tournament_id in self.watchers:
            self.runtime.spawn(self.push(tournament_id))

    def on_bus_reconnect(self) -> None:
        for tournament_id in list(self.watchers):
            self.runtime.spawn(self.push(tournament_id))

    def changed(self, tournament_id: str) -> None:
        self.runtime.announce(f"{CHANNEL}:{tournament_id}", {"op": "changed"})

    # --- the tick ----------------------------------------------------------------------------

    async def tick(self) -> None:
        """Every process, every ``tick_seconds``: take each tournament's next step, then show
        the watched ones again (a game that ended changes the standings)."""
        for tournament_id in await self.runtime.db(self.store.to_advance, self.runtime.now()):
            try:
                await self.advance(tournament_id)
            except Exception:
                log.exception("advancing tournament %s", tournament_id)
        for tournament_id in list(self.watchers):
            await self.push(tournament_id)

    async def advance(self, tournament_id: str) -> bool:
        """Take the tournament's next step if one is due; whether this process wrote one."""
        snapshot = await self.runtime.db(self.store.load, tournament_id)
        if snapshot is None:
            return False
        row, now = snapshot.row, self.runtime.now()
        if row.status == REGISTERING:
            full = row.start_when_full and len(snapshot.active()) >= row.max_players
            due = row.starts_at is not None and now >= row.starts_at
            return (full or due) and await self.begin(snapshot)
        if row.status != RUNNING:
            return False
        await self._forfeit_no_shows(snapshot, now)
        if row.format == "arena":
            return await self._arena_step(snapshot, now)
        if row.format == "series":
            return await self._series_step(snapshot, now)
        current = [p for p in snapshot.pairings if p.round == row.round]
        if any(p.game_id is not None and p.result is None for p in current):
            return False  # the round is still being played
        if row.round >= (row.rounds or 0):
            return await self._write(snapshot, {"status": FINISHED})
        try:
            pairs = await asyncio.to_thread(self._next_round, snapshot)
        except ValueError:  # a Swiss with no round left without a rematch: it ends here
            return await self._write(snapshot, {"status": FINISHED})
        return await self._pair(snapshot, row.round + 1, pairs, now)

    async def begin(self, snapshot: Snapshot) -> bool:
        """Start: fewer than two players ends it at once; else the first round."""
        row, now = snapshot.row, self.runtime.now()
        players = snapshot.active()
        if len(players) < 2:
            return await self._write(snapshot, {"status": FINISHED})
        values: dict[str, Any] = {"status": RUNNING}
        if row.format == "round_robin":
            values["rounds"] = round_robin_rounds(len(players), row.cycles)
        elif row.format in ("swiss", "series"):
            values["rounds"] = min(row.rounds or 1, len(players) - 1 + len(players) % 2)
        else:
            values["ends_at"] = now + (row.minutes or 0) * 60
        if row.format == "series":
            return await self._seat(snapshot, 1, now, values)
        started = _started(snapshot, values)
        if row.format == "arena":  # players are paired as they wait, from now on
            written = await self._write(snapshot, values)
            if written:
                await self.advance(row.id)
            return written
        pairs = await asyncio.to_thread(self._next_round, started, True)
        return await self._pair(snapshot, 1, pairs, now, values)

    def _next_round(self, snapshot: Snapshot, first: bool = False) -> list[tuple[int, int | None]]:
        row = snapshot.row
        number = 1 if first else row.round + 1
        if row.format == "round_robin":
            seeds = [player for player, _ in snapshot.players]
            return round_robin(seeds, row.cycles)[number - 1]
        everyone = histories(snapshot)
        seed = {player: i for i, (player, _) in enumerate(snapshot.players)}
        ranked = sorted(
            (everyone[p] for p in snapshot.active()), key=lambda h: (-h.score, seed[h.player])
        )
        # look ahead: never a round after which the declared rounds cannot all be paired
        return swiss_pairings(ranked, rounds_left=(row.rounds or 0) - number)

    async def _series_step(self, snapshot: Snapshot, now: float) -> bool:
        """A series' round ends when its table does; then the next table, or the end."""
        row = snapshot.row
        playing = {p.table_id for p in snapshot.pairings if p.round == row.round and p.table_id}
        if any(table_id not in snapshot.places for table_id in playing):
            return False
        if row.round >= (row.rounds or 0) or len(snapshot.active()) < 2:
            return await self._write(snapshot, {"status": FINISHED})
        return await self._seat(snapshot, row.round + 1, now)

    async def _seat(
        self, snapshot: Snapshot, number: int, now: float, values: dict[str, Any] | None = None
    ) -> bool:
        """Write a series' round ``number``: one Enjambre table of every active player (the
        seats turned), made in the round's own transaction."""
        row = snapshot.row
        players = seating(snapshot.active(), number)
        names = await self.runtime.db(self.players.names, set(players))
        table = series_table(
            [(player, names.get(player, "?")) for player in players],
            rated=row.rated,
            replace_after=row.no_show_seconds,
            now=now,
            options=json.loads(row.options),
        )
        rows = [
            {**_pairing(number, seat + 1, player, None, None, None, None), "table_id": table.id}
            for seat, player in enumerate(players)
        ]
        step = {"round": number, "round_started_at": now, **(values or {})}
        written = await self._write(snapshot, step, rows, tables=[table])
        if written:  # each player takes their seat from the tournament's page ("Sit down")
            for player in players:
                notify(
                    self.runtime,
                    player,
                    "tournament_round",
                    url=f"/tournament/{row.id}",
                    round=number,
                    tournament=row.name,
                    table=True,
                )
        return written

    async def _arena_step(self, snapshot: Snapshot, now: float) -> bool:
        row = snapshot.row
        playing = {
            p.player for p in snapshot.pairings if p.game_id is not None and p.result is None
        }
        if row.ends_at is not None and now >= row.ends_at:
            # lichess: games still going at the end are finished but do not count
            unfinished = {
                p.game_id for p in snapshot.pairings if p.game_id is not None and p.result is None
            }
            return await self._write(snapshot, {"status": FINISHED}, uncount=sorted(unfinished))
        waiting = [p for p in snapshot.active() if p not in playing]
        if len(waiting) < 2:
            return False
        last: dict[int, int] = {}
        colours: dict[int, list[int]] = {}
        for p in sorted(snapshot.pairings, key=lambda p: p.round):
            if p.opponent is not None:
                last[p.player] = p.opponent
            if p.color is not None:
                colours.setdefault(p.player, []).append(p.color)
        ranking = [s.player for s in table(snapshot)]
        pairs = await asyncio.to_thread(arena_pairings, waiting, ranking, last, colours)
        if not pairs:
            return False
        return await self._pair(snapshot, row.round + 1, list(pairs), now)

    async def _pair(
        self,
        snapshot: Snapshot,
        number: int,
        pairs: Sequence[tuple[int, int | None]],
        now: float,
        values: dict[str, Any] | None = None,
    ) -> bool:
        """Write round ``number``: its pairings and their games, in one compare-and-set."""
        row = snapshot.row
        withdrawn = {player for player, gone in snapshot.players if gone}
        rows: list[dict[str, Any]] = []
        games: list[GameRow] = []
        for board, (white, black) in enumerate(pairs, 1):
            if black is None:
                points = 0.0 if white in withdrawn else BYE_POINTS  # nobody to give it to
                rows.append(_pairing(number, board, white, None, None, None, points))
                continue
            if white in withdrawn or black in withdrawn:
                # a round robin goes on without a player who withdrew: a forfeit
                white_points = 0.0 if white in withdrawn else 1.0
                rows.append(_pairing(number, board, white, black, 0, None, white_points))
                rows.append(_pairing(number, board, black, white, 1, None, 1.0 - white_points))
                continue
            game = self._game(row, white, black, now)
            games.append(game)
            rows.append(_pairing(number, board, white, black, 0, game.id, None))
            rows.append(_pairing(number, board, black, white, 1, game.id, None))
        step = {"round": number, "round_started_at": now, **(values or {})}
        written = await self._write(snapshot, step, rows, games)
        if written and games:
            self.hub.lobby_changed()  # games being played now
            for game in games:
                seated = game.users()
                for color in (0, 1):
                    notify(
                        self.runtime,
                        seated[color],
                        "tournament_round",
                        url=f"/game/{game.id}",
                        by=seated[1 - color],
                        round=number,
                        tournament=row.name,
                    )
        return written

    def _game(self, row: TournamentRow, white: int, black: int, now: float) -> GameRow:
        """A tournament game, made as a lobby challenge's: both accounts seated (each plays
        with its session; the seat tokens are random and never shown), the clock running."""
        game = online_game(
            row.game_type,
            row.rules,
            "classic",
            tokens=(hash_token(new_token()), hash_token(new_token())),
            users=(white, black),
            rated=row.rated,
            control=row.control,
            now=now,
        )
        game.headers["Event"] = row.name
        game.created_at = game.updated_at = now
        return game

    async def _write(
        self,
        snapshot: Snapshot,
        values: dict[str, Any],
        pairings: Sequence[dict[str, Any]] = (),
        games: Sequence[GameRow] = (),
        uncount: Sequence[str] = (),
        tables: Sequence[SeriesTable] = (),
    ) -> bool:
        row = snapshot.row
        written = await self.runtime.db(
            self.store.advance,
            row.id,
            row.version,
            values,
            pairings,
            games,
            uncount,
            self.runtime.now(),
            tables,
        )
        if written:
            self.changed(row.id)
        return written

    async def _forfeit_no_shows(self, snapshot: Snapshot, now: float) -> None:
        """A player who has not made a first move ``no_show_seconds`` after the game began
        (White) or after White's first move (Black) loses by forfeit."""
        for p in snapshot.pairings:
            if p.game_id is None or p.result is not None or p.color != 0 or p.plies >= 2:
                continue
            since = p.game_updated_at or now
            if now - since >= snapshot.row.no_show_seconds:
                await self.forfeit(p.game_id, loser=p.plies, plies=p.plies)

    async def forfeit(self, game_id: str, *, loser: int, plies: int) -> None:
        """End a game as lost by ``loser`` (0 White) by forfeit, through the game's
        compare-and-set (once, whichever processes try), if it is still at ``plies``."""
        try:
            live = await self.hub.get(game_id)
        except RequestError:
            return
        async with live.lock:
            if live.is_finished or live.row.plies != plies:
                return
            result = GameState.BLACK_WINS if loser == 0 else GameState.WHITE_WINS
            values: dict[str, Any] = {
                "result": result.value,
                "end_reason": Termination.FORFEIT.value,
                "draw_offer": None,
            }
            clock = live.row.clock
            if clock is not None:
                values.update(clock_values(clock.stopped(self.runtime.now())))
            with contextlib.suppress(RequestError):  # stale: another process wrote first
                await self.hub.commit(live, GameChange(values))

    # --- what pages see ----------------------------------------------------------------------

    async def state(self, tournament_id: str, viewer: int | None = None) -> dict[str, Any]:
        snapshot = await self.runtime.db(self.store.load, tournament_id)
        if snapshot is None:
            raise RequestError("unknown_tournament", "there is no tournament with that id", 404)
        return await self.describe(snapshot, viewer)

    async def describe(self, snapshot: Snapshot, viewer: int | None) -> dict[str, Any]:
        row = snapshot.row
        ids = {player for player, _ in snapshot.players} | {row.creator_id}
        names = await self.runtime.db(self.players.names, ids)
        rounds: dict[int, list[dict[str, Any]]] = {}
        for p in snapshot.pairings:
            if p.table_id is not None:  # a series: one entry per seat, in seat order
                place = snapshot.places.get(p.table_id, {}).get(p.player)
                seat = {"table": p.table_id, "name": names.get(p.player), "place": place}
                rounds.setdefault(p.round, []).append(seat)
                continue
            if p.color == 1:
                continue
            board: dict[str, Any] = {
                "white": names.get(p.player),
                "black": names.get(p.opponent) if p.opponent is not None else None,
                "game": p.game_id,
                "result": p.result,
                "end_reason": p.end_reason,
                "counted": p.counted,
            }
            if p.game_id is None:
                board["points"] = p.points  # a bye's or a forfeit's
            rounds.setdefault(p.round, []).append(board)
        withdrawn = {player for player, gone in snapshot.players if gone}
        return {
            **summary(row, len(snapshot.active()), names),
            "now": self.runtime.now(),
            "players": [
                {"name": names.get(player), "withdrawn": gone} for player, gone in snapshot.players
            ],
            "pairings": [{"round": n, "boards": boards} for n, boards in sorted(rounds.items())],
            "standings": [
                {**s.to_json(), "name": names.get(s.player), "withdrawn": s.player in withdrawn}
                for s in table(snapshot)
            ],
            "tie_breaks": list(TIE_BREAKS_BY_FORMAT[row.format]),
            "registered": viewer is not None
            and any(p == viewer and not gone for p, gone in snapshot.players),
            "creator_view": viewer == row.creator_id,
        }

    async def push(self, tournament_id: str) -> None:
        """Send this process's watchers of the tournament its state, if it changed."""
        connections = self.watchers.get(tournament_id)
        if not connections:
            return
        try:
            state = await self.state(tournament_id)
        except RequestError:
            return
        state.pop("now")
        text = json.dumps({"type": "tournament", **state}, separators=(",", ":"))
        if self.shown.get(tournament_id) == text:
            return
        self.shown[tournament_id] = text
        for connection in list(connections):
            connection.post_state(text)

    async def watch(self, tournament_id: str, connection: Connection) -> None:
        first = tournament_id not in self.watchers
        self.watchers.setdefault(tournament_id, set()).add(connection)
        if first:
            await self.runtime.bus.subscribe(f"{CHANNEL}:{tournament_id}")
        self.shown.pop(tournament_id, None)
        await self.push(tournament_id)

    async def unwatch(self, tournament_id: str, connection: Connection) -> None:
        connections = self.watchers.get(tournament_id, set())
        connections.discard(connection)
        if not connections and self.watchers.pop(tournament_id, None) is not None:
            self.shown.pop(tournament_id, None)
            await self.runtime.bus.unsubscribe(f"{CHANNEL}:{tournament_id}")


def summary(row: TournamentRow, players: int, names: dict[int, str]) -> dict[str, Any]:
    """A tournament's row as pages show it (lists and the tournament's page)."""
    return {
        "id": row.id,
        "name": row.name,
        "format": row.format,
        "cycles": row.cycles,
        "rounds": row.rounds,
        "minutes": row.minutes,
        "game_type": row.game_type,
        "options": row.rules.changed(),
        "clock": None if row.format == "series" else row.control.shown(),
        "rated": row.rated,
        "max_players": row.max_players,
        "starts_at": row.starts_at,
        "start_when_full": row.start_when_full,
        "no_show_seconds": row.no_show_seconds,
        "creator": names.get(row.creator_id),
        "status": row.status,
        "round": row.round,
        "round_started_at": row.round_started_at,
        "ends_at": row.ends_at,
        "player_count": players,
    }


def _pairing(
    number: int,
    board: int,
    player: int,
    opponent: int | None,
    color: int | None,
    game_id: str | None,
    points: float | None,
) -> dict[str, Any]:
    return {
        "round": number,
        "board": board,
        "user_id": player,
        "opponent_id": opponent,
        "color": color,
        "game_id": game_id,
        "points": points,
    }


def _started(snapshot: Snapshot, values: dict[str, Any]) -> Snapshot:
    """The snapshot as it will be once started (the rounds known), to pair round 1."""
    fields = {**snapshot.row.__dict__, **values}
    return Snapshot(TournamentRow(**fields), snapshot.players, snapshot.pairings)
