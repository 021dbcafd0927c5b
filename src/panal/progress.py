"""A progress bar on stderr for the long commands (``panal enjambre tournament``, ``panal
analyse``): redrawn in place on a terminal, a line every tenth of the way otherwise (a log)."""

from __future__ import annotations

import time
from typing import TextIO

__all__ = ["ProgressBar"]


class ProgressBar:
    """Call it with ``(done, total)``; ``unit`` names what is counted (``games``, ``plies``)."""

    def __init__(self, stream: TextIO, width: int = 30, unit: str = "games") -> None:
        self.stream = stream
        self.width = width
        self.unit = unit
        self.start = time.monotonic()
        self.tty = bool(getattr(stream, "isatty", None) and stream.isatty())
        self._last_tenth = -1

    def __call__(self, done: int, total: int) -> None:
        filled = self.width * done // total
        elapsed = time.monotonic() - self.start
        line = (
            f"[{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} {self.unit} "
            f"{elapsed:.0f}s"
        )
        if self.tty:
            self.stream.write("\r" + line + ("\n" if done == total else ""))
        else:
            tenth = 10 * done // total
            if tenth == self._last_tenth:
                return
            self._last_tenth = tenth
            self.stream.write(line + "\n")
        self.stream.flush()
