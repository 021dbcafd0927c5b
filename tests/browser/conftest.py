"""Browser tests: Playwright drives Debian's Chromium against a real ``panal serve``.

Never downloads a browser: Chromium comes from the system (``apt-get install chromium``).
Screenshots go to ``test-artifacts/browser/``. The server and the browser live for this package
only, so Playwright's event loop is gone before other packages' tests run.
"""

from __future__ import annotations

import itertools
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.helpers import ServerProcess

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"


@pytest.fixture(scope="session")
def chromium_path() -> str:
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        if os.environ.get("CI"):
            pytest.fail("Chromium is missing: apt-get install chromium")
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    return CHROMIUM if Path(CHROMIUM).exists() else str(shutil.which("chromium"))


@pytest.fixture(scope="package")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    directory = tmp_path_factory.mktemp("browser-server")
    process = ServerProcess(
        directory / "games.sqlite3",
        directory / "serve.log",
        # Each browser context comes from an address of its own (X-Forwarded-For, below), as
        # different people do: the per-address caps (sign-ups, sign-ins, challenges) are then
        # those of one person, not of the whole package's tests together.
        ("--ai-workers", "1", "--bot-pause", "0.05", "--forwarded-allow-ips", "127.0.0.1"),
    )
    process.start()
    yield process
    process.stop()


@pytest.fixture(scope="package")
def browser(chromium_path: str) -> Iterator[Any]:
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


#: Numbers the tests' browser contexts, so that each has a client address of its own.
CONTEXT_NUMBERS = itertools.count()

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1366, "height": 900}}


@pytest.fixture
def open_page(browser: Any, server: ServerProcess) -> Iterator[Any]:
    """``open_page(path, locale="en-US", phone=False, prepare=None)`` → a page in a fresh browser
    context (on a 390×844 touch screen with ``phone``); ``prepare(page)`` runs before the page
    is opened (to route its requests)."""
    contexts: list[Any] = []
    errors: list[str] = []

    def open_(
        path: str = "/",
        locale: str = "en-US",
        phone: bool = False,
        prepare: Callable[[Any], None] | None = None,
    ) -> Any:
        number = next(CONTEXT_NUMBERS)
        address = f"10.{number // 62_500 % 250}.{number // 250 % 250}.{number % 250 + 1}"
        context = browser.new_context(
            locale=locale,
            extra_http_headers={"X-Forwarded-For": address},
            **(PHONE if phone else DESKTOP),
        )
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.set_default_timeout(20_000)
        if prepare:
            prepare(page)
        page.goto(server.url + path)
        page.wait_for_selector("body[data-ready]")
        return page

    yield open_
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"
