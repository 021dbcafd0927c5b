"""Helper processes die with the process that started them, even after ``kill -9``.

Linux's ``PR_SET_PDEATHSIG`` asks the kernel to kill the child when its parent dies; a thread
that watches the parent's pid covers other systems and the moment before the request is made.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time

__all__ = ["die_with_parent"]

PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int | None = None) -> None:
    """Exit at once when ``parent`` (default: the current parent) is gone."""
    parent = parent or os.getppid()
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # it died before the request above was in place
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="lifeline", daemon=True).start()
