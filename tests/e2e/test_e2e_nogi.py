"""End-to-end: two people sign up, meet in a Nogi za pas! match and play it in real browsers.

Drives Debian's chromium (``/usr/bin/chromium``) through Playwright's sync API
against pytest-django's ``live_server``. Everything a player does goes through
the real pages: sign-up, the verification link from the email, the create
form, the lobby, the Join button and the clicks that build each move. The
other player's page must show each move by itself, through the panel's poll
(every 5 seconds), without a reload.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core import mail
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from games.catalog.nogi import presenter as nogi_presenter
from games.catalog.nogi.rules import shield_colours
from games.models import Match, MatchStatus, Move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

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

PASSWORD = "Dragon-Castle-4821!"
STEP_MS = 10_000  # a click and its htmx swap on a local server
POLL_MS = 20_000  # the panel polls every 5 s; allow a few rounds
MOVES = 6  # moves played in the two-player match (at least 4 asked for)
PRIVATE_MARK = "Only you see this"


# -- Browser plumbing ---------------------------------------------------------------------------


@pytest.fixture
def browser(live_server, monkeypatch) -> Browser:
    """Chromium from Debian; skipped (only) when the binary is not installed.

    Playwright's sync API keeps an asyncio loop in this thread, so Django
    would refuse ORM calls made here; the test's own reads are synchronous
    and safe, hence DJANGO_ALLOW_ASYNC_UNSAFE for the duration of the test.
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


class Watch:
    """A page plus what went wrong in it: JS errors, CSP refusals, failed requests."""

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
        # The site has no favicon; chromium's request for it is the one expected 404.
        where = message.location.get("url", "")
        if message.type == "error" and not where.endswith("/favicon.ico"):
            self.problems.append(f"console: {message.text}")

    def _response(self, response) -> None:
        # 4xx answers carry a refusal message in the panel; none is expected here.
        if response.status >= 400 and not response.url.endswith("/favicon.ico"):
            self.problems.append(f"HTTP {response.status} {response.request.method} {response.url}")

    def assert_clean(self) -> None:
        assert self.problems == [], f"{self.name}'s browser saw problems: {self.problems}"


def new_watch(browser: Browser, name: str) -> Watch:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    return Watch(context, name)


# -- Accounts -----------------------------------------------------------------------------------


def confirmation_link(address: str) -> str:
    """The verification link from the last email sent to ``address``."""
    letters = [m for m in mail.outbox if address in m.to]
    assert letters, f"no email was sent to {address}; outbox: {[m.to for m in mail.outbox]}"
    found = re.search(r"https?://\S+/accounts/confirm-email/[^/\s]+/", letters[-1].body)
    assert found, f"no confirmation link in:\n{letters[-1].body}"
    return found.group(0)


def sign_up(watch: Watch, base: str, username: str) -> None:
    """Sign up, follow the emailed link, confirm, and make sure we end up logged in."""
    page = watch.page
    email = f"{username}@example.com"
    page.goto(f"{base}/accounts/signup/")
    form = page.locator('main form[action="/accounts/signup/"]')
    form.locator('input[name="email"]').fill(email)
    form.locator('input[name="username"]').fill(username)
    form.locator('input[name="password1"]').fill(PASSWORD)
    form.locator('input[name="password2"]').fill(PASSWORD)
    form.locator('button[type="submit"]').click()
    # Verification is mandatory: allauth says an email went out, and nobody is logged in yet.
    expect(page).to_have_url(re.compile(r"/accounts/confirm-email/$"))

    link = confirmation_link(email)
    assert link.startswith(base), f"the link {link} does not point at this site ({base})"
    page.goto(link)
    expect(page.locator("main")).to_contain_text(email)
    page.locator('main form[action^="/accounts/confirm-email/"] button[type="submit"]').click()
    page.wait_for_load_state()

    if page.locator("header.topbar").get_by_role("link", name="Log in").count():
        page.goto(f"{base}/accounts/login/")
        form = page.locator('main form[action="/accounts/login/"]')
        form.locator('input[name="login"]').fill(username)
        form.locator('input[name="password"]').fill(PASSWORD)
        form.locator('button[type="submit"]').click()
    # Logged in: the top bar names the player and offers a new match.
    expect(page.locator("header.topbar nav")).to_contain_text(username)
    expect(page.locator("header.topbar").get_by_role("link", name="New match")).to_be_visible()


# -- The match page -----------------------------------------------------------------------------


def version_of(page: Page) -> int:
    return int(page.locator("#match-panel").get_attribute("data-version"))


def wait_for_version(page: Page, version: int, timeout: int = POLL_MS) -> None:
    expect(page.locator("#match-panel")).to_have_attribute(
        "data-version", str(version), timeout=timeout
    )


def log_lines(page: Page) -> list[tuple[int, str, str]]:
    """(number, who, text) for each line of the move log."""
    rows = []
    for item in page.locator("#match-panel ol.move-log > li").all():
        rows.append(
            (
                int(item.get_attribute("value")),
                item.locator(".who").inner_text().strip(),
                item.inner_text(),
            )
        )
    return rows


def play_one_move(page: Page) -> list[str]:
    """Click through the choices to a complete move; return the labels clicked.

    Prefers a step that leads deeper (an ``a.choice`` link, answered by an
    htmx GET) so both kinds of click are exercised, then submits the final
    button (an htmx POST).
    """
    choices = page.locator("#choices")
    clicked = []
    for _depth in range(4):
        links = choices.locator("a.choice:not(.back)")
        finals = choices.locator("button.choice.final")
        if links.count():
            link = links.first
            path = link.get_attribute("data-path")
            clicked.append(link.inner_text().strip())
            link.click()
            # The deeper level: every choice's path extends the one clicked.
            expect(choices.locator(f'[data-path^="{path}."]').first).to_be_visible()
            expect(choices.locator("a.choice.back")).to_be_visible()
            continue
        assert finals.count(), "a choice level with nothing to click"
        clicked.append(finals.first.inner_text().strip())
        finals.first.click()
        return clicked
    raise AssertionError(f"no complete move after clicking {clicked}")


def expected_shields(match: Match, seat: int) -> list[list[str]]:
    return [
        [nogi_presenter.colour_name(c) for c in shield]
        for shield in shield_colours(match.state, seat)
    ]


def shown_shields(page: Page) -> list[list[str]]:
    secrets = page.locator("#my-secrets")
    return [
        [s.get_attribute("data-colour") for s in shield.locator(".swatch").all()]
        for shield in secrets.locator(".shield").all()
    ]


def check_page(page: Page, match: Match, seat: int, names: list[str]) -> None:
    """What one seated player's page must show at any moment of play."""
    # The board: the SVG with all seven knights (on the track or in the castle) and 8 dice.
    svg = page.locator("#match-panel figure.nogi-board svg")
    expect(svg).to_be_visible()
    expect(svg.locator("circle.knight")).to_have_count(7)
    expect(svg.locator("g.die")).to_have_count(8)
    # Each die is drawn with the status the server holds.
    for colour, status in match.state["dice"].items():
        expect(svg.locator(f'g.die[data-die="{colour}"]')).to_have_class(
            re.compile(rf"\bdie-{status}\b")
        )
    # Exactly one secrets section, and it holds this seat's shields, nobody else's.
    html = page.content()
    assert html.count('id="my-secrets"') == 1
    assert "secrets revealed" not in html
    assert shown_shields(page) == expected_shields(match, seat)
    # Private log sentences (bunny values) only ever on the viewer's own lines.
    for number, who, text in log_lines(page):
        if PRIVATE_MARK in text:
            assert who == names[seat], f"line {number} shows {who}'s private sentence"
    # The seat list marks me.
    expect(page.locator("ol.seats li.me")).to_contain_text(names[seat])


# -- The test -----------------------------------------------------------------------------------


def test_two_players_sign_up_meet_and_play_nogi(live_server, browser):
    base = live_server.url
    alice = new_watch(browser, "alda")
    bob = new_watch(browser, "bruno")

    # 1. Both sign up through the real pages and verify their email addresses.
    sign_up(alice, base, "alda")
    sign_up(bob, base, "bruno")

    # 2. Alda creates a public two-player Nogi match through the form.
    a = alice.page
    a.locator("header.topbar").get_by_role("link", name="New match").click()
    form = a.locator("form#create-match")
    form.locator('select[name="game"]').select_option("nogi")
    form.locator('select[name="n_seats"]').select_option("2")
    form.locator('select[name="visibility"]').select_option("public")
    form.locator('select[name="opt_nogi_first_player"]').select_option("random")
    form.locator('button[type="submit"]').click()
    expect(a).to_have_url(re.compile(r"/m/\d+/$"))
    pk = int(re.search(r"/m/(\d+)/$", a.url).group(1))
    match = Match.objects.get(pk=pk)
    assert (match.game_key, match.n_seats, match.visibility) == ("nogi", 2, "public")
    assert match.status == MatchStatus.OPEN
    expect(a.locator("#match-panel .status")).to_contain_text("Waiting for players")
    expect(a.locator("#join-button")).to_have_count(0)  # she already has her seat

    # 3. Bruno finds it in the lobby's open matches and joins with the Join button.
    b = bob.page
    b.goto(f"{base}/")
    row_link = b.locator("#open-matches").get_by_role("link", name=f"#{pk} Nogi za pas!")
    expect(row_link).to_be_visible()
    row_link.click()
    expect(b).to_have_url(re.compile(rf"/m/{pk}/$"))
    b.locator("#join-button").click()
    expect(b.locator("ul.messages")).to_contain_text("You joined the match.")
    expect(b.locator("#join-button")).to_have_count(0)
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    assert match.version == 0
    names = ["alda", "bruno"]

    # Alda's page does not learn of the start by polling: the version is 0
    # both before and after the start, so the poll answers 204 (see the report).
    a.reload()
    for page in (a, b):
        expect(page.locator("#match-panel .status")).to_contain_text("In play")
        assert version_of(page) == 0
        expect(page.locator("#match-panel ol.move-log")).to_have_count(0)
        # A mark in each window: it survives only if the page is never reloaded.
        page.evaluate("window.__e2eMark = 'no reload'")

    watches = {0: alice, 1: bob}
    for seat, watch in watches.items():
        check_page(watch.page, match, seat, names)
    assert shown_shields(a) != shown_shields(b)

    # 4. They alternate moves by clicking; the other page follows through the poll.
    for version in range(1, MOVES + 1):
        match.refresh_from_db()
        active = match.state["active"]
        mover, watcher = watches[active], watches[1 - active]
        # Only the player to move is offered choices.
        expect(mover.page.locator("#choices")).to_be_visible()
        expect(mover.page.locator("strong.your-turn")).to_be_visible()
        expect(watcher.page.locator("#choices")).to_have_count(0)
        expect(watcher.page.locator("#match-panel .status")).to_contain_text(
            f"Waiting for {names[active]}"
        )

        clicked = play_one_move(mover.page)

        # The mover's panel is replaced by the answer to the POST.
        wait_for_version(mover.page, version, timeout=STEP_MS)
        expect(mover.page.locator("#match-panel .error")).to_have_count(0)
        expect(mover.page.locator("#choices")).to_have_count(0)
        # The other page catches up on its own, within a few polls.
        wait_for_version(watcher.page, version)
        expect(watcher.page.locator("#choices")).to_be_visible()

        move = Move.objects.get(match=match, seq=version)
        assert move.seat == active
        die = move.action["die"]
        assert clicked[0].lower().startswith(nogi_presenter.colour_name(die))
        match.refresh_from_db()
        assert match.version == version
        for page in (mover.page, watcher.page):
            expect(page.locator("#match-panel ol.move-log > li")).to_have_count(version)
            lines = log_lines(page)
            assert [n for n, _who, _text in lines] == list(range(1, version + 1))
            number, who, text = lines[-1]
            assert who == names[active]
            assert f"used the {nogi_presenter.colour_name(die)} die" in text
            # Every move ends the turn and rolls for the next player.
            assert f"{names[1 - active]} rolled:" in text
        for seat, watch in watches.items():
            check_page(watch.page, match, seat, names)

    # 5. Neither page was ever reloaded, and nothing went wrong in either browser.
    for watch in (alice, bob):
        assert watch.page.evaluate("window.__e2eMark") == "no reload"
        watch.assert_clean()

    RESULTS.mkdir(exist_ok=True)
    for watch in (alice, bob):
        watch.page.screenshot(path=RESULTS / f"e2e-nogi-{watch.name}.png", full_page=True)
        watch.context.close()
