"""Browser fixtures: Debian's chromium driven by Playwright's sync API.

Browsers cannot be downloaded here, so Playwright always launches the
system's ``/usr/bin/chromium``. The tests are skipped only when that binary
is missing (and in CI, where ``SMOKI_STRICT=1``, a skip counts as a failure).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.core.management.base import CommandError
from django.db import connection, connections
from django.test.testcases import LiveServerThread, TransactionTestCase
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
RESULTS = Path(__file__).resolve().parents[2] / "test-results"

STEP_MS = 10_000  # a click and its htmx swap on the local live server

# Assertions wait as long as actions do (Playwright's default for expect is 5 s);
# the tests pass a longer timeout where they wait for the poll.
expect.set_options(timeout=STEP_MS)


class _OneRequestAtATime(LiveServerThread.server_class):
    """The live server with the in-memory SQLite test database.

    pytest-django hands the test's in-memory connection to the live server,
    and every request thread then uses that one connection: two requests at
    once (a player's poll while the other player's move is posted) ran their
    statements inside each other's transactions, or failed with "database
    table is locked" and answered 500. Here the application serves one
    request at a time. On PostgreSQL each thread has its own connection and
    the server stays fully threaded, as in production; a file-based SQLite
    database (``make run``) has a connection per thread and waits for locks.
    """

    def set_app(self, application):
        lock = threading.Lock()

        def one_at_a_time(environ, start_response):
            with lock:
                return application(environ, start_response)

        super().set_app(one_at_a_time)


FLUSH_TRIES = 50
FLUSH_PAUSE = 0.1  # seconds: a stream's look at the match takes a millisecond


def _flush_between_looks(teardown):
    """Empty the test database once no other connection is reading it.

    A match page's live stream outlives its test by a few seconds: the
    server notices the closed browser only at its next write, and until
    then it looks at the match every ``LIVE_PROBE_SECONDS`` from a thread
    with a connection of its own. In-memory SQLite's shared cache locks a
    table while such a read is under way, and it does not wait: the test's
    flush failed with "couldn't be flushed" (database table is locked), and
    the next test met the last one's players. The flush is one transaction,
    so a failed try changed nothing and is simply made again.
    """

    def flush_when_free(self):
        for attempt in range(FLUSH_TRIES):
            try:
                return teardown(self)
            except CommandError as error:
                if "couldn't be flushed" not in str(error) or attempt == FLUSH_TRIES - 1:
                    raise
                time.sleep(FLUSH_PAUSE)

    return flush_when_free


if connection.vendor == "sqlite":
    LiveServerThread.server_class = _OneRequestAtATime
    TransactionTestCase._fixture_teardown = _flush_between_looks(
        TransactionTestCase._fixture_teardown
    )


@pytest.fixture
def browser(live_server, monkeypatch) -> Iterator[Browser]:
    """Chromium from Debian, for one test.

    Playwright's sync API keeps an asyncio event loop in this thread, so
    Django would refuse the test's own ORM calls as "async unsafe"; they are
    ordinary synchronous calls, hence DJANGO_ALLOW_ASYNC_UNSAFE for the test.

    Inside ``sync_playwright()`` the code runs in another contextvars context,
    so Django hands the test a database connection of its own (not the one
    pytest-django set up). It is closed here, inside that context; left open,
    PostgreSQL refuses to drop the test database at the end of the session.
    """
    if not CHROMIUM.exists():
        pytest.skip("needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)")
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()
            connections.close_all()


class Window:
    """One person's browser (its own context, so its own cookies) and what went wrong in it.

    Collects page errors, console errors (CSP refusals show up there) and
    any 4xx/5xx answer: none is expected in a normal game.
    """

    def __init__(self, context: BrowserContext, name: str):
        self.context = context
        self.name = name
        self.page: Page = context.new_page()
        self.page.set_default_timeout(STEP_MS)
        self.problems: list[str] = []
        self.page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        self.page.on("console", self._console)
        self.page.on("response", self._response)

    def _console(self, message) -> None:
        where = message.location.get("url", "")
        if message.type == "error":
            self.problems.append(f"console: {message.text} ({where})")

    def _response(self, response) -> None:
        # Every answer counts, the site's icon too (a missing favicon is a 404 here).
        if response.status >= 400:
            self.problems.append(f"HTTP {response.status} {response.request.method} {response.url}")

    def assert_clean(self) -> None:
        assert self.problems == [], f"{self.name}'s browser saw problems: {self.problems}"

    def screenshot(self, label: str) -> Path:
        RESULTS.mkdir(exist_ok=True)
        path = RESULTS / f"{label}-{self.name}.png"
        self.page.screenshot(path=path, full_page=True)
        return path


@pytest.fixture
def window(browser) -> Iterator[Callable[[str], Window]]:
    """Open a fresh browser window (a new context) for a named person."""
    opened: list[Window] = []

    def open_window(name: str) -> Window:
        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
        opened.append(Window(context, name))
        return opened[-1]

    yield open_window
    for each in opened:
        each.context.close()


@pytest.fixture(autouse=True)
def poll_while_streaming(settings):
    """The page polls as often with its live stream open as without.

    In the test server the stream's fallback look at the database (from a
    thread of its own) is refused by pytest-django's guard, so a change a
    test makes itself, outside the server, reaches the page by the poll
    alone; with the stream open the poll would wait LIVE_POLL_SECONDS. Live
    mode's own tests (test_e2e_live.py) set a long poll, to show what the
    stream brings."""
    settings.SMOKI = {**settings.SMOKI, "LIVE_POLL_SECONDS": settings.SMOKI["POLL_SECONDS"]}
