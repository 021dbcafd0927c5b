"""The suite runs on every core: pytest-xdist (``-n auto`` in pyproject.toml) with the scheduler
below. Shared reference data is reached through tests/shared_data.py.

The server's and the browser's tests share services: one PostgreSQL database that each test
empties, one Redis with server-wide counters, a package's server and browser, and loopback ports
they pick free. They run one after another in a single worker, in file order, as in one process;
every other test (the library's, pure CPU and self-contained) goes to whichever worker is free,
and the first worker free of the services takes library tests too. ``-n 0`` runs the whole suite
in one process.
"""

from __future__ import annotations

from typing import Any

import pytest
from xdist.scheduler import LoadScopeScheduling

#: Test packages whose tests share services and so run in order, in one worker.
SERVICE_PACKAGES = ("tests/server/", "tests/browser/")


class ServicesInOneWorker(LoadScopeScheduling):
    """xdist's scope scheduling with one scope for every service test and one per other test.

    Scopes go out largest first, so the services' scope starts at once on one worker while the
    other workers take the library's tests one at a time. ``_split_scope`` is the method xdist's
    own schedulers override to define a scope (``LoadFileScheduling`` does). xdist's ``--dist
    loadgroup`` would say the same with a marker, but it marks its groups by renaming node ids,
    which pytest 9 no longer lets a plugin do: the groups are silently ignored, so the grouping
    is done here.
    """

    def _split_scope(self, nodeid: str) -> str:
        if nodeid.startswith(SERVICE_PACKAGES):
            return "services"
        return nodeid


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> ServicesInOneWorker:
    return ServicesInOneWorker(config, log)
