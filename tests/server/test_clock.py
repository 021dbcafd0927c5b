"""Clock arithmetic: increments, flag fall, correspondence, no clock before each side's first
move (and the abort when it never comes), and time given back after an outage."""

from __future__ import annotations

import pytest

from panal.server.hive_games.clock import (
    FIRST_MOVE_SECONDS,
    PRESETS,
    ClockState,
    TimeControl,
    TimeControlError,
)

T0 = 1_800_000_000.0  # any moment: clocks count in server seconds since the epoch


def playing(control: TimeControl) -> ClockState:
    """The clocks once each side has made its first move: from here on, time runs."""
    return ClockState((control.initial, control.initial))


def test_no_clock_runs_before_each_sides_first_move() -> None:
    control = TimeControl.realtime(180, 2)
    clock = ClockState.new(control).started(T0)
    assert clock.opening and clock.deadline == T0 + FIRST_MOVE_SECONDS
    assert clock.time_left(0, T0 + 50) == 180  # White's time stands still
    assert clock.flagged(T0 + 10_000) is None and not clock.abandoned(T0 + 59.999)
    clock = clock.after_move(control, T0 + 50)  # no time taken, no increment
    assert clock.left == (180, 180) and clock.running == 1 and clock.opening
    assert clock.deadline == T0 + 50 + FIRST_MOVE_SECONDS
    assert clock.time_left(1, T0 + 100) == 180
    clock = clock.after_move(control, T0 + 100)  # Black's first move starts White's clock
    assert not clock.opening and clock.running == 0 and clock.deadline == T0 + 100 + 180
    assert clock.time_left(0, T0 + 110) == 170
    assert clock.to_json(T0 + 110)["running"] == 0


def test_a_first_move_that_does_not_come_in_time_abandons_the_game() -> None:
    control = TimeControl.realtime(180, 2)
    clock = ClockState.new(control).started(T0).after_move(control, T0 + 1)
    assert not clock.abandoned(T0 + 1 + 59.999)
    assert clock.abandoned(T0 + 1 + 60) and clock.flagged(T0 + 1 + 60) is None
    with pytest.raises(ValueError, match="aborted"):
        clock.after_move(control, T0 + 1 + 60)
    stopped = clock.stopped(T0 + 1 + 60)
    assert stopped.left == (180, 180) and stopped.deadline is None
    assert not stopped.abandoned(T0 + 10_000)
    # Correspondence: the first move has one move's days.
    days = TimeControl.correspondence(3)
    assert ClockState.new(days).started(T0).deadline == T0 + 3 * 86_400


def test_a_move_charges_the_time_taken_and_adds_the_increment() -> None:
    control = TimeControl.realtime(300, 5)
    clock = playing(control).started(T0)
    assert clock.running == 0 and clock.deadline == T0 + 300
    assert clock.time_left(0, T0 + 12.5) == 287.5
    assert clock.time_left(1, T0 + 12.5) == 300  # the other clock stands still
    clock = clock.after_move(control, T0 + 12.5)  # White took 12.5 s
    assert clock.left == (292.5, 300) and clock.running == 1 and clock.since == T0 + 12.5
    clock = clock.after_move(control, T0 + 12.5 + 40)  # Black took 40 s
    assert clock.left == (292.5, 265) and clock.running == 0
    assert clock.deadline == T0 + 52.5 + 292.5


def test_the_increment_can_raise_a_clock_above_its_start() -> None:
    control = TimeControl.realtime(60, 2)
    clock = playing(control).started(T0)
    for ply in range(10):  # each side answers in half a second
        clock = clock.after_move(control, T0 + 0.5 * (ply + 1))
    assert clock.left == (67.5, 67.5)


def test_the_flag_falls_at_the_deadline_exactly() -> None:
    control = TimeControl.realtime(15)
    clock = playing(control).started(T0).after_move(control, T0 + 3)
    assert clock.deadline == T0 + 3 + 15
    assert clock.flagged(T0 + 17.999) is None
    assert clock.flagged(T0 + 18) == 1
    assert clock.time_left(1, T0 + 30) == 0  # never below zero
    with pytest.raises(ValueError, match="run out"):
        clock.after_move(control, T0 + 18.001)


def test_a_finished_game_stops_the_clocks() -> None:
    control = TimeControl.realtime(180, 2)
    clock = playing(control).started(T0).after_move(control, T0 + 10)
    stopped = clock.stopped(T0 + 25)
    assert stopped.left == (172, 165) and stopped.running is None and stopped.deadline is None
    assert stopped.time_left(1, T0 + 1000) == 165
    assert stopped.flagged(T0 + 10_000) is None


def test_correspondence_gives_each_move_its_days() -> None:
    control = TimeControl.correspondence(3)
    clock = playing(control).started(T0)
    assert clock.deadline == T0 + 3 * 86_400
    clock = clock.after_move(control, T0 + 2 * 86_400)  # two days to answer: no bank
    assert clock.left == (3 * 86_400, 3 * 86_400) and clock.deadline == T0 + 5 * 86_400
    assert clock.flagged(T0 + 5 * 86_400) == 1


def test_an_outage_is_given_back_to_the_running_side() -> None:
    """A restart: no server ran for 40 s while Black's clock ran; Black keeps those 40 s."""
    control = TimeControl.realtime(60)
    clock = playing(control).started(T0).after_move(control, T0 + 5)
    assert clock.flagged(T0 + 5 + 70) == 1  # charged for the outage, Black would have lost
    credited = clock.credited(40)
    assert credited.flagged(T0 + 5 + 70) is None
    assert credited.time_left(1, T0 + 5 + 70) == pytest.approx(30)
    assert credited.time_left(0, T0 + 75) == 55  # White's clock was not running: unchanged
    assert ClockState.new(control).credited(40) == ClockState.new(control)  # not started


def test_speeds_follow_the_expected_length() -> None:
    speeds = {str(c): c.speed for c in PRESETS}
    assert speeds == {
        "60+2": "bullet",
        "180+2": "blitz",
        "300+4": "blitz",
        "600+10": "rapid",
        "900+10": "rapid",
        "1800+20": "classic",
        "1/86400": "correspondence",
        "1/259200": "correspondence",
    }
    assert TimeControl.realtime(15).speed == "bullet"
    assert TimeControl.realtime(179).speed == "bullet"  # base + 40 × increment < 180
    assert TimeControl.realtime(180).speed == "blitz"
    assert TimeControl.realtime(60, 3).speed == "blitz"  # 60 + 120


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "realtime", "base": 5}, "between 15 s"),
        ({"kind": "realtime", "base": 11_000}, "between 15 s"),
        ({"kind": "realtime", "base": 60, "increment": -1}, "increment"),
        ({"kind": "realtime", "base": 60, "increment": 181}, "increment"),
        ({"kind": "realtime", "base": 60.5}, "whole number"),
        ({"kind": "realtime", "base": True}, "whole number"),
        ({"kind": "correspondence", "days": 4}, "days per move"),
        ({"kind": "correspondence", "days": 3, "base": 60}, "days per move only"),
        ({"kind": "sundial"}, "realtime"),
        ({"kind": "realtime", "base": 60, "moves": 40}, "unknown clock fields"),
        ("5+3", "object"),
    ],
)
def test_bad_time_controls_are_refused_with_a_reason(data: object, message: str) -> None:
    with pytest.raises(TimeControlError, match=message):
        TimeControl.from_json(data)


def test_json_round_trip() -> None:
    assert TimeControl.from_json(None) is None
    for control in PRESETS:
        assert TimeControl.from_json(control.to_json()) == control
    clock = playing(TimeControl.realtime(60)).started(T0)
    assert clock.to_json(T0 + 1.25) == {
        "white": 58.75,
        "black": 60,
        "running": 0,
        "first_move_deadline": None,
    }
    opening = ClockState.new(TimeControl.realtime(60)).started(T0).to_json(T0 + 1.25)
    assert opening == {"white": 60, "black": 60, "running": None, "first_move_deadline": T0 + 60}
