"""UHP's durations, ``hh:mm:ss`` (``bestmove time 00:00:05``), read and written one way.

>>> from panal.uhp.duration import format_duration, parse_duration
>>> format_duration(90.5), parse_duration("00:01:30.5")
('00:01:30.5', 90.5)
>>> parse_duration("00:99:00")
Traceback (most recent call last):
...
ValueError: minutes and seconds go from 00 to 59 in hh:mm:ss, not '00:99:00'
"""

from __future__ import annotations

import re

__all__ = ["format_duration", "parse_duration"]

_DURATION = re.compile(r"^(\d{1,2}):(\d{2}):(\d{2}(?:\.\d{1,6})?)$")


def parse_duration(text: str) -> float:
    """``hh:mm:ss`` (minutes and seconds below 60; seconds may have a fraction) → seconds.

    ``ValueError`` names what is wrong; ``00:00:00`` is refused (no time to think).
    """
    match = _DURATION.match(text.strip()) if isinstance(text, str) else None
    if match is None:
        raise ValueError(f"expected a time as hh:mm:ss, not {text!r}")
    hours, minutes, seconds = int(match.group(1)), int(match.group(2)), float(match.group(3))
    if minutes >= 60 or seconds >= 60:
        raise ValueError(f"minutes and seconds go from 00 to 59 in hh:mm:ss, not {text!r}")
    total = hours * 3600 + minutes * 60 + seconds
    if total <= 0:
        raise ValueError("the time must be more than 00:00:00")
    return total


def format_duration(seconds: float) -> str:
    """Seconds → ``hh:mm:ss``, a fraction kept when there is one (``00:00:00.5``)."""
    if seconds < 0:
        raise ValueError("a duration cannot be negative")
    # Milliseconds first: 24.0000001 must not be written "24." nor 59.9999 "60"
    millis = round(seconds * 1000)
    hours, rest = divmod(millis, 3_600_000)
    minutes, thousandths = divmod(rest, 60_000)
    secs = thousandths / 1000
    text = f"{int(secs):02d}" if thousandths % 1000 == 0 else f"{secs:06.3f}".rstrip("0")
    return f"{int(hours):02d}:{int(minutes):02d}:{text}"
