"""Game clocks: time controls and the arithmetic of the time each side has left.

The server owns the time. A clock is stored with its game as three numbers: each side's time left
when its clock last stopped, and the moment (server time, seconds since the epoch) the clock of
the side to move started. Everything else follows:

* the side to move has ``left - (now - since)``; the other side's time stands still;
* a move stops the mover's clock (real time: minus the time taken, plus the increment;
  correspondence: the allowance resets to the days per move) and starts the opponent's;
* the moment the side to move runs out, its **deadline**, is stored too, so that any server
  process can find the games whose flag has fallen even when nobody moves
  (:meth:`panal.server.database.store.Store.due_games`);
* time during which no server process ran is not charged: the deadline and the start of the
  running clock move forward by the length of the outage (:meth:`ClockState.credited`).

No clock runs before each side's first move (as on lichess): when the game starts (both seats
taken) White has :attr:`TimeControl.first_move_window` to make its first move, then Black has as
long for its own, and their time stands still meanwhile; Black's first move starts White's clock.
A first move that does not come within its window **aborts** the game: nobody wins, nothing is
rated (:meth:`ClockState.abandoned`). The window is the deadline of those moves, so the same
sweep that finds fallen flags finds abandoned games. A game's clocks stop when it ends.
Nothing here knows Hive: a side is 0 or 1, and the side to move is the caller's to say.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

__all__ = [
    "CORRESPONDENCE_DAYS",
    "FIRST_MOVE_SECONDS",
    "NO_FIRST_MOVE",
    "PRESETS",
    "ClockState",
    "TimeControl",
    "TimeControlError",
]

Kind = Literal["realtime", "correspondence"]

DAY = 86_400
MAX_BASE = 3 * 60 * 60  # three hours each
MIN_BASE = 15  # a quarter of a minute: the shortest game lichess offers
MAX_INCREMENT = 180
CORRESPONDENCE_DAYS = (1, 2, 3, 5, 7, 14)
#: How long each side of a real-time game has for its first move before the game is aborted.
FIRST_MOVE_SECONDS = 60
#: The ``end_reason`` of a game aborted because a first move did not come in time.
NO_FIRST_MOVE = "no_first_move"

#: Speeds by a game's expected length ``base + 40 × increment`` (hivegame.com's and lichess's
#: rule): under 3 minutes bullet, under 8 blitz, under 25 rapid, else classic.
SPEED_LIMITS = (("bullet", 180), ("blitz", 480), ("rapid", 1500))
SPEEDS = ("bullet", "blitz", "rapid", "classic", "correspondence")


class TimeControlError(ValueError):
    """A time control out of bounds; the message says which bound."""


@dataclass(frozen=True)
class TimeControl:
    """Real time (``base`` seconds each, ``increment`` seconds added after each move) or
    correspondence (``days`` per move)."""

    kind: Kind
    base: int = 0
    increment: int = 0
    days: int = 0

    def __post_init__(self) -> None:
        if self.kind == "realtime":
            if not MIN_BASE <= self.base <= MAX_BASE:
                raise TimeControlError(
                    f"the time for each side must be between {MIN_BASE} s and {MAX_BASE // 60} min"
                )
            if not 0 <= self.increment <= MAX_INCREMENT:
                raise TimeControlError(
                    f"the increment must be between 0 and {MAX_INCREMENT} seconds"
                )
            if self.days:
                raise TimeControlError("a real-time clock has no days per move")
        elif self.kind == "correspondence":
            if self.days not in CORRESPONDENCE_DAYS:
                raise TimeControlError(
                    "days per move must be one of " + ", ".join(map(str, CORRESPONDENCE_DAYS))
                )
            if self.base or self.increment:
                raise TimeControlError("a correspondence clock has days per move only")
        else:
            raise TimeControlError("a clock is 'realtime' or 'correspondence'")

    @classmethod
    def realtime(cls, base: int, increment: int = 0) -> TimeControl:
        return cls("realtime", base=base, increment=increment)

    @classmethod
    def correspondence(cls, days: int) -> TimeControl:
        return cls("correspondence", days=days)

    @classmethod
    def from_json(cls, data: Any) -> TimeControl | None:
        """``None`` (untimed), ``{"kind": "realtime", "base": 300, "increment": 3}`` or
        ``{"kind": "correspondence", "days": 3}``; raises :class:`TimeControlError`."""
        if data is None:
            return None
        if not isinstance(data, dict):
            raise TimeControlError("a clock is an object such as {'kind': 'realtime', ...}")
        unknown = set(data) - {"kind", "base", "increment", "days"}
        if unknown:
            raise TimeControlError(f"unknown clock fields: {', '.join(sorted(unknown))}")
        values = {name: data.get(name, 0) for name in ("base", "increment", "days")}
        for name, value in values.items():
            if not isinstance(value, int) or isinstance(value, bool):
                raise TimeControlError(f"the clock's {name} must be a whole number")
        kind = data.get("kind")
        if kind not in ("realtime", "correspondence"):
            raise TimeControlError("a clock is 'realtime' or 'correspondence'")
        return cls(kind, **values)

    def to_json(self) -> dict[str, Any]:
        if self.kind == "realtime":
            return {"kind": self.kind, "base": self.base, "increment": self.increment}
        return {"kind": self.kind, "days": self.days}

    def shown(self) -> dict[str, Any]:
        """The time control as pages show it: its fields and its speed."""
        return {**self.to_json(), "speed": self.speed}

    @property
    def initial(self) -> float:
        """Each side's time at the start (correspondence: one move's allowance)."""
        return float(self.base if self.kind == "realtime" else self.days * DAY)

    @property
    def first_move_window(self) -> float:
        """How long each side has for its first move, its clock standing still, before the game
        is aborted: a minute in real time, one move's days in correspondence."""
        return float(FIRST_MOVE_SECONDS) if self.kind == "realtime" else self.initial

    @property
    def speed(self) -> str:
        """``bullet``, ``blitz``, ``rapid``, ``classic`` or ``correspondence``."""
        if self.kind == "correspondence":
            return "correspondence"
        expected = self.base + 40 * self.increment
        for name, limit in SPEED_LIMITS:
            if expected < limit:
                return name
        return "classic"

    def __str__(self) -> str:
        """The PGN standard's ``TimeControl`` tag: ``300+3``, or one move per period for
        correspondence (``1/259200``: a move every three days)."""
        if self.kind == "correspondence":
            return f"1/{self.days * DAY}"
        return f"{self.base}+{self.increment}"


#: Presets in the spirit of hivegame.com's quick play, by speed.
PRESETS: tuple[TimeControl, ...] = (
    TimeControl.realtime(60, 2),
    TimeControl.realtime(180, 2),
    TimeControl.realtime(300, 4),
    TimeControl.realtime(600, 10),
    TimeControl.realtime(900, 10),
    TimeControl.realtime(1800, 20),
    TimeControl.correspondence(1),
    TimeControl.correspondence(3),
)


@dataclass(frozen=True)
class ClockState:
    """Both sides' time left when their clocks last stopped, and since when the running clock
    runs (``None``: no clock runs, before the game starts and after it ends).

    ``first_moves`` sides have yet to make their first move (2 when a game starts): while any
    has, the side to move's time stands still and it has ``first_move_window`` seconds from
    ``since`` to move, or the game is aborted."""

    left: tuple[float, float]
    since: float | None = None
    running: int | None = None
    first_moves: int = 0
    first_move_window: float = float(FIRST_MOVE_SECONDS)

    @classmethod
    def new(cls, control: TimeControl) -> ClockState:
        return cls(
            (control.initial, control.initial),
            first_moves=2,
            first_move_window=control.first_move_window,
        )

    def started(self, now: float, side: int = 0) -> ClockState:
        """The side to move (White at the start of a game) is on the move from ``now``."""
        return replace(self, since=now, running=side)

    @property
    def opening(self) -> bool:
        """Whether the side to move has yet to make its first move (its time stands still)."""
        return self.running is not None and self.first_moves > 0

    def time_left(self, side: int, now: float) -> float:
        """What ``side`` has left at ``now`` (never below 0)."""
        left = self.left[side]
        if self.running == side and self.since is not None and not self.opening:
            left -= max(0.0, now - self.since)
        return max(0.0, left)

    @property
    def deadline(self) -> float | None:
        """When the running side's time runs out, or before the first moves, when the game is
        aborted unless the side to move moves."""
        if self.running is None or self.since is None:
            return None
        if self.opening:
            return self.since + self.first_move_window
        return self.since + self.left[self.running]

    def flagged(self, now: float) -> int | None:
        """The side whose time has run out at ``now``, if any (never before the first moves)."""
        deadline = self.deadline
        if deadline is not None and now >= deadline and not self.opening:
            return self.running
        return None

    def abandoned(self, now: float) -> bool:
        """Whether a first move did not come in time: the game is then aborted."""
        deadline = self.deadline
        return self.opening and deadline is not None and now >= deadline

    def after_move(self, control: TimeControl, now: float) -> ClockState:
        """The running side moved at ``now`` (its time had not run out): its clock stops and
        the other side's starts. A first move costs no time and earns no increment."""
        mover = self.running
        if mover is None or self.since is None:
            raise ValueError("no clock is running")
        if self.abandoned(now):
            raise ValueError("the first move came too late: the game is aborted")
        if self.flagged(now) is not None:
            raise ValueError("the mover's time has run out")
        left = list(self.left)
        if self.opening:
            pass  # the mover's time stood still
        elif control.kind == "realtime":
            left[mover] = self.time_left(mover, now) + control.increment
        else:
            left[mover] = control.initial  # the next move has a fresh allowance
        return replace(
            self,
            left=(left[0], left[1]),
            since=now,
            running=1 - mover,
            first_moves=max(0, self.first_moves - 1),
        )

    def stopped(self, now: float) -> ClockState:
        """The game ended at ``now``: the running side's time is charged and no clock runs."""
        if self.running is None:
            return self
        left = list(self.left)
        left[self.running] = self.time_left(self.running, now)
        return replace(self, left=(left[0], left[1]), since=None, running=None)

    def taken_back(self, control: TimeControl, now: float, plies: int) -> ClockState:
        """A takeback accepted at ``now`` leaves ``plies`` played: the running side is charged
        its time until ``now`` (as lichess does, no time or increment is given back), and the
        side to move after it runs from ``now``: on a correspondence clock with a fresh
        allowance, before both first moves with a fresh first move's window."""
        stopped = self.stopped(now)
        side = plies % 2
        left = list(stopped.left)
        if control.kind == "correspondence":
            left[side] = control.initial
        return replace(
            stopped,
            left=(left[0], left[1]),
            since=now,
            running=side,
            first_moves=max(0, 2 - plies),
        )

    def credited(self, seconds: float) -> ClockState:
        """``seconds`` during which no server ran are given back to the running side."""
        if self.since is None:
            return self
        return replace(self, since=self.since + seconds)

    def to_json(self, now: float) -> dict[str, Any]:
        """For the browser: each side's time left at ``now`` and which clock runs; the browser
        counts the running one down from there."""
        return {
            "white": round(self.time_left(0, now), 3),
            "black": round(self.time_left(1, now), 3),
            "running": None if self.opening else self.running,
            "first_move_deadline": self.deadline if self.opening else None,
        }
