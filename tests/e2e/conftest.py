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
from django.db import OperationalError, connection, connections
from django.db.backends.signals import connection_created
from django.test.testcases import LiveServerThread
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


LOCK_TRIES = 100
LOCK_PAUSE = 0.05  # seconds


def _wait_for_table_locks(execute, sql, params, many, context):
    """Run a statement again while in-memory SQLite answers "database table
    is locked" (a ``connection.execute_wrappers`` entry on every connection).

    A browser test's database has readers on connections of their own: the
    test's thread inside Playwright, and a match page's live stream, which
    outlives its test by a few seconds and looks at the match every
    ``LIVE_PROBE_SECONDS``. In-memory SQLite's shared cache locks a table
    while such a read is under way and refuses a write at once, where a
    database file (``make run``) or PostgreSQL waits. CI met it twice: the
    flush between tests failed ("couldn't be flushed", and the next test met
    the last one's players), and a test's ``Profile.objects.update(...)``
    failed while the live server read the profiles. A refused statement
    changed nothing, so it is made again once the read is over."""
    for attempt in range(LOCK_TRIES):
        try:
            return execute(sql, params, many, context)
        except OperationalError as error:
            if "table is locked" not in str(error) or attempt == LOCK_TRIES - 1:
                raise
            time.sleep(LOCK_PAUSE)


def _on_every_sqlite_connection(sender, connection, **kwargs):
    if connection.vendor == "sqlite" and _wait_for_table_locks not in connection.execute_wrappers:
        connection.execute_wrappers.append(_wait_for_table_locks)


if connection.vendor == "sqlite":
    LiveServerThread.server_class = _OneRequestAtATime
    connection_created.connect(_on_every_sqlite_connection)


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
