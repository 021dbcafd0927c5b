"""The actions of a Hive game: pure functions from the live copy and a request to the change
it makes (nothing is changed here; the hub commits it). A refused request raises
:class:`~panal.server.http.request_error.RequestError` with the rule's key or the reason."""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from panal.hex import Hex
from panal.hive import (
    Game,
    GameState,
    GameType,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Termination,
)
from panal.hive.pieces import piece_from_name
from panal.server.hive_games.clock import NO_FIRST_MOVE, ClockState, TimeControl, TimeControlError
from panal.server.hive_games.game_store import GameWrite, clock_values, insert_game, online_game
from panal.server.hive_games.live import LiveGame
from panal.server.hive_games.snapshot import (
    board_fields,
    history_entry,
    legal_moves_json,
    settle_result,
)
from panal.server.http.request_error import RequestError

__all__ = [
    "ACTIONS",
    "GameChange",
    "abort_change",
    "both_writes",
    "checked_move",
    "flag_change",
    "play",
    "requested_clock",
    "requested_game_type",
    "requested_move",
    "timed",
]

MAX_COORDINATE = 1000
Seats = frozenset[int]  # the colours a request's token holds
Request = dict[str, Any]  # a websocket request, decoded
# Endings an undo may take back: decided on the board, not by a player.
ON_BOARD_ENDINGS = frozenset(t.value for t in Termination if t.on_board)


@dataclass(frozen=True)
class GameChange(GameWrite):
    """One change to a game: what the store writes (row fields, moves added or taken back, more
    writes for the same transaction), and what checking it computed (move codes, history
    entries, the next position's board fields and legal moves), so that applying it repeats no
    rules work."""

    entries: tuple[str, ...] = ()  # the history entries of add_moves, as JSON text
    codes: tuple[int, ...] = ()  # their move codes (only in the process that checked them)
    board: dict[str, Any] | None = None
    legal: str | None = None  # the legal moves after it (snapshot.legal_moves_json)


def flag_change(clock: ClockState, loser: int, now: float) -> GameChange:
    """The side to move ran out of time: it loses, and the clocks stop."""
    result = GameState.BLACK_WINS if loser == 0 else GameState.WHITE_WINS
    values = {
        "result": result.value,
        "end_reason": Termination.TIME.value,
        "draw_offer": None,
        **clock_values(clock.stopped(now)),
    }
    return GameChange(values)


def abort_change(clock: ClockState, now: float) -> GameChange:
    """A first move did not come in time (:meth:`ClockState.abandoned`): the game is aborted,
    as lichess does: nobody wins and the clocks stop. Its result, ``NotStarted``, counts for
    no one's rating (:func:`panal.server.ratings.rating_store.settle_ratings` scores wins and
    draws only)."""
    values = {
        "result": GameState.NOT_STARTED.value,
        "end_reason": NO_FIRST_MOVE,
        "draw_offer": None,
        **clock_values(clock.stopped(now)),
    }
    return GameChange(values)


def both_writes(
    first: Callable[[Any], object] | None, second: Callable[[Any], object]
) -> Callable[[Any], object]:
    """Two writes for one transaction, one after the other."""
    if first is None:
        return second

    def run(conn: Any) -> None:
        first(conn)
        second(conn)

    return run


def requested_game_type(text: str) -> GameType:
    """The game type a request names (``"Base+MLP"``), or ``bad_game_type``."""
    try:
        return GameType.parse(text)
    except ValueError as exc:
        raise RequestError("bad_game_type", str(exc)) from None


def requested_clock(value: dict[str, Any] | None) -> TimeControl | None:
    """The clock a request names (None: untimed), or ``422 bad_clock``."""
    try:
        return TimeControl.from_json(value)
    except TimeControlError as exc:
        raise RequestError("bad_clock", str(exc), 422) from None


def requested_move(message: dict[str, Any]) -> Move | str:
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


def move(live: LiveGame, seats: Seats, message: Request, now: float) -> GameChange:
    expected_ply = message.get("ply")
    if expected_ply is not None and (
        not isinstance(expected_ply, int) or isinstance(expected_ply, bool)
    ):
        raise RequestError("bad_request", "'ply' must be an integer")
    check_open(live)
    if live.is_ai_turn:
        raise RequestError("not_your_turn", "wait: the AI is thinking", 409)
    if live.turn not in seats:
        raise RequestError("not_your_turn", "it is your opponent's turn", 409)
    if expected_ply is not None and expected_ply != live.board["ply"]:
        raise RequestError(
            "stale", "the game has moved on since you chose that move; look again", 409
        )
    return play(live, requested_move(message))


def checked_move(game: Game, requested: Move | str) -> tuple[Move, str, bool]:
    """The requested move against ``game``: the move, its MoveString, and whether the rules
    engine checked it whole (a MoveString is parsed and checked; a piece and a cell are checked
    as far as writing them goes, and again when pushed). A move that breaks a rule is refused
    naming it (409 ``illegal_move``), one that does not parse with its reason."""
    try:
        if isinstance(requested, str):
            move = game.parse_move(requested)  # checks it, naming the rule it breaks
            return move, game.move_string(move), True
        return requested, game.move_string(requested), False  # an illegal move raises
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


def play(live: LiveGame, requested: Move | str) -> GameChange:
    """Check a move with the rules engine; the change it makes (the game is left as is)."""
    game = live.game
    assert game is not None
    move, text, checked = checked_move(game, requested)
    mover = int(game.turn)
    values: dict[str, Any] = {"plies": game.ply + 1}
    if live.row.draw_offer is not None and live.row.draw_offer != mover:
        values["draw_offer"] = None  # moving on declines the opponent's offer
    if live.row.takeback_offer is not None:
        values["takeback_offer"] = None  # a move answers a takeback offer: the position moved on
    try:
        if checked:
            game.push_code(move.code)
        else:
            game.push(move)
    except IllegalMoveError as exc:
        raise RequestError(
            "illegal_move", str(exc), 409, rule=exc.rule.key, details=exc.details
        ) from None
    try:
        settle_result(values, game)
        board = board_fields(game)
        legal = legal_moves_json(game)  # the moves just found for board_fields, formatted
    finally:
        game.pop()
    entry = json.dumps(history_entry(game, move, game.ply + 1), separators=(",", ":"))
    return GameChange(
        values,
        add_moves=(text,),
        entries=(entry,),
        codes=(move.code,),
        board=board,
        legal=legal,
    )


def undo(live: LiveGame, seats: Seats, message: Request, now: float) -> GameChange:
    row = live.row
    if row.mode not in ("ai", "hotseat"):
        raise RequestError("no_undo", "undo is only for games against the AI or hot-seat", 409)
    if row.time_control is not None:
        raise RequestError("timed_no_undo", "a game on the clock takes no undo", 409)
    if row.result is not None and row.end_reason not in ON_BOARD_ENDINGS:
        raise RequestError("game_over", "the game is over", 409)
    ply = live.board["ply"]
    human = 1 - row.ai_color if row.mode == "ai" and row.ai_color is not None else 0
    if ply < human + 1:
        raise RequestError("nothing_to_undo", "there is no move of yours to take back", 409)
    keep = ply - 1
    while row.mode == "ai" and keep % 2 == row.ai_color and keep > 0:
        keep -= 1  # take back the AI's replies too, back to the player's turn
    values = {"plies": keep, "draw_offer": None, "result": None, "end_reason": None}
    return GameChange(values, keep_plies=keep)


def resign(live: LiveGame, seats: Seats, message: Request, now: float) -> GameChange:
    check_open(live)
    loser = live.acting_color(seats)
    result = GameState.BLACK_WINS if loser == 0 else GameState.WHITE_WINS
    return GameChange(
        {
            "result": result.value,
            "end_reason": Termination.RESIGNATION.value,
            "draw_offer": None,
            "takeback_offer": None,
        }
    )


@dataclass(frozen=True)
class Offer:
    """A proposal one player makes and the other accepts or declines (a draw, a rematch, a
    takeback): ``column`` holds the proposing colour; its refusals are ``<what>_offered`` and
    ``no_<what>_offer``."""

    column: str
    what: str

    def made(self, live: LiveGame, seats: Seats) -> GameChange:
        """The acting player's offer (once)."""
        color = live.acting_color(seats)
        if getattr(live.row, self.column) == color:
            raise RequestError(
                f"{self.what}_offered", f"you have already offered a {self.what}", 409
            )
        return GameChange({self.column: color})

    def answered(self, live: LiveGame, seats: Seats) -> int:
        """The colour whose offer the acting player answers, or ``no_<what>_offer``."""
        offer = getattr(live.row, self.column)
        if offer is None or (1 - offer) not in seats:
            raise RequestError(
                f"no_{self.what}_offer", f"there is no {self.what} offer for you to accept", 409
            )
        return int(offer)

    def declined(self, live: LiveGame) -> GameChange:
        """Declined by the other player, or withdrawn by the one who made it."""
        if getattr(live.row, self.column) is None:
            raise RequestError(
                f"no_{self.what}_offer", f"there is no {self.what} offer to decline", 409
            )
        return GameChange({self.column: None})


DRAW = Offer("draw_offer", "draw")
REMATCH = Offer("rematch_offer", "rematch")
TAKEBACK = Offer("takeback_offer", "takeback")


def offer_draw(live: LiveGame, seats: Seats, message: Request, now: float) -> GameChange:
    check_open(live)
    if live.row.mode == "ai":
        raise RequestError("no_draw", "the AI does not agree to draws", 409)
    return DRAW.made(live, seats)


def accept_draw(live: LiveGame, seats: Seats, message: Request, now: float) -> GameChange:
    check_open(live)
    DRAW.answered(live, seats)
    return GameChange(
        {
            "result": GameState.DRAW.value,
            "end_reason": "agreement",
            "draw_offer": None,
            "takeback_offer": None,
        }
    )


def decline_draw(live: LiveGame, seats: Seats, message: Request, now: float) -> GameChange:
    check_open(live)
    return DRAW.declined(live)


def offer_rematch(live: LiveGame, seats: Seats, message: Request, now: float) -> GameChange:
    row = live.row
    check_rematch(live)
    if row.rematch_offer is not None and row.rematch_offer != live.acting_color(seats):
        return accept_rematch(live, seats, message, now)  # both want it: that is an agreement
    return REMATCH.made(live, seats)


def accept_rematch(live: LiveGame, seats: Seats, message: Request, now: float) -> GameChange:
    """The rematch: the same game with the colours swapped, its seats held by the same
    tokens and accounts, created in the transaction that records the agreement."""
    row = live.row
    check_rematch(live)
    REMATCH.answered(live, seats)
    rematch = online_game(
        row.game_type,
        row.rules,
        row.look,
        tokens=(row.black_token, row.white_token),
        users=(row.black_user, row.white_user),
        rated=row.rated,
        control=row.control,
        now=now,
        takebacks=row.takebacks,
    )
    return GameChange(
        {"rematch_offer": None, "rematch_game": rematch.id},
        also=functools.partial(insert_game, row=rematch),
    )


def decline_rematch(live: LiveGame, seats: Seats, message: Request, now: float) -> GameChange:
    check_rematch(live)
    return REMATCH.declined(live)


def offer_takeback(live: LiveGame, seats: Seats, message: Request, now: float) -> GameChange:
    """Propose to take back one's last move (see :func:`takeback_plies`)."""
    check_takebacks(live)
    takeback_plies(live, live.acting_color(seats))
    return TAKEBACK.made(live, seats)


def accept_takeback(live: LiveGame, seats: Seats, message: Request, now: float) -> GameChange:
    """The opponent's last move taken back: the moves after it are deleted in the game's
    compare-and-set write, as an undo's are, and the clocks rewound
    (:meth:`ClockState.taken_back`)."""
    check_takebacks(live)
    keep = takeback_plies(live, TAKEBACK.answered(live, seats))
    values: dict[str, Any] = {"plies": keep, "takeback_offer": None, "draw_offer": None}
    row = live.row
    control, clock = row.control, row.clock
    if control is not None and clock is not None and clock.running is not None:
        values.update(clock_values(clock.taken_back(control, now, keep)))
    return GameChange(values, keep_plies=keep)


def decline_takeback(live: LiveGame, seats: Seats, message: Request, now: float) -> GameChange:
    check_takebacks(live)
    return TAKEBACK.declined(live)


def takeback_plies(live: LiveGame, proposer: int) -> int:
    """How many plies stay when ``proposer``'s last move is taken back, as lichess does: one
    ply when it is the opponent's turn (the move just played), two when it is the proposer's
    own (the opponent's reply goes too). The proposer is then to move again."""
    ply = live.board["ply"]
    keep = ply - 1 if live.turn != proposer else ply - 2
    if keep < 0:
        raise RequestError("nothing_to_take_back", "you have no move to take back", 409)
    return keep


def check_takebacks(live: LiveGame) -> None:
    check_open(live)
    row = live.row
    if row.mode != "online":
        raise RequestError(
            "no_takebacks", "takebacks are for online games; against the AI, use undo", 409
        )
    if not row.takebacks:
        raise RequestError("no_takebacks", "this game was created without takebacks", 409)


def check_rematch(live: LiveGame) -> None:
    row = live.row
    if row.mode != "online" or row.white_token is None or row.black_token is None:
        raise RequestError("no_rematch", "a rematch is for online games between two", 409)
    if row.result is None:
        raise RequestError("not_over", "a rematch follows a finished game", 409)
    if row.rematch_game is not None:
        raise RequestError("rematch_agreed", "the rematch has already begun", 409)


def check_open(live: LiveGame) -> None:
    if live.row.mode == "review" or live.game is None:
        raise RequestError("review", "this is a record to replay, not a game to play", 409)
    if live.is_finished:
        raise RequestError("game_over", "the game is over", 409)


def timed(live: LiveGame, change: GameChange, now: float) -> GameChange:
    """The change with the clocks it stops and starts: a move stops the mover's clock and
    starts the other; an ending stops both; any change that comes after the side to move ran
    out of time becomes the loss on time instead, and after a first move's window passed, the
    abort."""
    row = live.row
    control, clock = row.control, row.clock
    if control is None or clock is None or clock.running is None or row.result is not None:
        return change
    if clock.abandoned(now):
        return abort_change(clock, now)
    loser = clock.flagged(now)
    if loser is not None:
        return flag_change(clock, loser, now)
    if change.add_moves:
        after = clock.after_move(control, now)
        if change.values.get("result") is not None:
            after = after.stopped(now)
    elif change.values.get("result") is not None:
        after = clock.stopped(now)
    else:
        return change
    return dataclasses.replace(change, values={**change.values, **clock_values(after)})


Action = Callable[[LiveGame, Seats, Request, float], GameChange]
#: The requests a seated player may make, by their ``type``.
ACTIONS: dict[str, Action] = {
    "move": move,
    "undo": undo,
    "resign": resign,
    "offer_draw": offer_draw,
    "accept_draw": accept_draw,
    "decline_draw": decline_draw,
    "offer_rematch": offer_rematch,
    "accept_rematch": accept_rematch,
    "decline_rematch": decline_rematch,
    "offer_takeback": offer_takeback,
    "accept_takeback": accept_takeback,
    "decline_takeback": decline_takeback,
}
