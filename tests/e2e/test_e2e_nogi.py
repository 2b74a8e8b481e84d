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

import pytest
from django.core import mail
from playwright.sync_api import Page, expect

from games.catalog.nogi import presenter as nogi_presenter
from games.catalog.nogi.rules import shield_colours
from games.models import Match, MatchStatus, Move
from tests.e2e.helpers import new_match, version_of, wait_for_version

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "Dragon-Castle-4821!"
STEP_MS = 10_000  # a click and its htmx swap on the local live server
MOVES = 6  # moves played in all (at least 4 asked for), 3 by each player
PRIVATE_MARK = "Only you see this"


# -- Accounts -----------------------------------------------------------------------------------


def confirmation_link(address: str) -> str:
    """The verification link from the last email sent to ``address``."""
    letters = [m for m in mail.outbox if address in m.to]
    assert letters, f"no email was sent to {address}; outbox: {[m.to for m in mail.outbox]}"
    assert letters[-1].subject.startswith("[Smoki] ")
    found = re.search(r"https?://\S+/accounts/confirm-email/[^/\s]+/", letters[-1].body)
    assert found, f"no confirmation link in:\n{letters[-1].body}"
    return found.group(0)


def sign_up(page: Page, base: str, username: str) -> None:
    """Sign up, follow the emailed link, confirm, and make sure we end up logged in."""
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
    expect(page.locator("header.topbar").get_by_role("link", name="Log in")).to_be_visible()

    link = confirmation_link(email)
    assert link.startswith(base), f"the link {link} does not point at this site ({base})"
    page.goto(link)
    expect(page.locator("main")).to_contain_text(email)
    page.locator('main form[action^="/accounts/confirm-email/"] button[type="submit"]').click()
    # With ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION (allauth's default: off) this lands
    # in the lobby, logged in; otherwise on the login page.
    expect(page).to_have_url(re.compile(rf"^{re.escape(base)}/(accounts/login/.*)?$"))
    if "/accounts/login/" in page.url:
        page.goto(f"{base}/accounts/login/")
        form = page.locator('main form[action="/accounts/login/"]')
        form.locator('input[name="login"]').fill(username)
        form.locator('input[name="password"]').fill(PASSWORD)
        form.locator('button[type="submit"]').click()
    # Logged in: the top bar names the player and offers a new match.
    expect(page.locator("header.topbar nav")).to_contain_text(username)
    expect(page.locator("header.topbar").get_by_role("link", name="New match")).to_be_visible()


# -- The match page -----------------------------------------------------------------------------


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


def play_one_move(page: Page, pick: int) -> list[str]:
    """Click through the choices to a complete move; return the labels clicked.

    Prefers a step that leads deeper (an ``a.choice`` link, answered by an
    htmx GET) so both kinds of click are exercised, then submits a final
    button (an htmx POST). ``pick`` varies which die and knight are chosen.
    """
    choices = page.locator("#choices")
    clicked = []
    for _depth in range(4):
        links = choices.locator("a.choice:not(.back)")
        finals = choices.locator("button.choice.final")
        if links.count():
            link = links.nth(pick % links.count())
            path = link.get_attribute("data-path")
            clicked.append(link.inner_text().strip())
            link.click()
            # The deeper level: every choice's path extends the one clicked.
            expect(choices.locator(f'[data-path^="{path}."]').first).to_be_visible()
            expect(choices.locator("a.choice.back")).to_be_visible()
            continue
        assert finals.count(), "a choice level with nothing to click"
        final = finals.nth(pick % finals.count())
        clicked.append(final.inner_text().strip())
        final.click()
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
    # The board: a track of small SVG fields with all seven knights (on the track or in
    # the castle) and 8 dice.
    svg = page.locator("#match-panel figure.nogi-board")
    expect(svg.locator("ol.track > li > svg")).to_have_count(36)
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
    mine = expected_shields(match, seat)
    assert shown_shields(page) == mine
    secrets_text = page.locator("#my-secrets").inner_text()
    assert all(", ".join(shield) in secrets_text for shield in mine)
    # The other seats' shields, written the same way, appear nowhere on the page.
    body = page.locator("body").inner_text()
    for other in range(match.n_seats):
        if other != seat:
            for shield in expected_shields(match, other):
                assert ", ".join(shield) not in body, f"seat {other}'s shield {shield} leaked"
    # Private log sentences (bunny values) only ever on the viewer's own lines.
    for number, who, line in log_lines(page):
        if PRIVATE_MARK in line:
            assert who == names[seat], f"line {number} shows {who}'s private sentence"
    # The seat list marks me.
    expect(page.locator("ol.seats li.me")).to_contain_text(names[seat])


# -- The test -----------------------------------------------------------------------------------


def test_two_players_sign_up_meet_and_play_nogi(live_server, window):
    base = live_server.url
    alda, bruno = window("alda"), window("bruno")
    a, b = alda.page, bruno.page

    # 1. Both sign up through the real pages and verify their email addresses.
    sign_up(a, base, "alda")
    sign_up(b, base, "bruno")

    # 2. Alda creates a public two-player Nogi match through the form.
    pk = new_match(a, "nogi", n_seats="2", visibility="public", opt_nogi_first_player="random")
    match = Match.objects.get(pk=pk)
    assert (match.game_key, match.n_seats, match.visibility) == ("nogi", 2, "public")
    assert match.status == MatchStatus.OPEN
    expect(a.locator("#match-panel .status")).to_contain_text("Waiting for players")
    expect(a.locator("#join-button")).to_have_count(0)  # she already has her seat

    # 3. Bruno finds it among the lobby's open matches and joins with the Join button.
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

    # Alda's waiting page learns of the start by polling alone: the poll's
    # stamp changes with the status even though the version is still 0.
    for page in (a, b):
        expect(page.locator("#match-panel .status")).to_contain_text("In play", timeout=20_000)
        assert version_of(page) == 0
        # Only the opening entry (seq 0): the first roll.
        expect(page.locator("#match-panel ol.move-log > li")).to_have_count(1)
        # A mark in each window: it survives only if the page is never reloaded again.
        page.evaluate("window.__e2eMark = 'no reload'")

    windows = {0: alda, 1: bruno}
    for seat, each in windows.items():
        check_page(each.page, match, seat, names)
    assert shown_shields(a) != shown_shields(b)

    # 4. They alternate moves by clicking; the other page follows through the poll alone.
    for version in range(1, MOVES + 1):
        match.refresh_from_db()
        active = match.state["active"]
        mover, watcher = windows[active].page, windows[1 - active].page
        # Only the player to move is offered choices.
        expect(mover.locator("#choices")).to_be_visible()
        expect(mover.locator("strong.your-turn")).to_be_visible()
        expect(watcher.locator("#choices")).to_have_count(0)
        expect(watcher.locator("#match-panel .status")).to_contain_text(
            f"Waiting for {names[active]}"
        )

        with mover.expect_response(lambda r: r.url.endswith("/act/")) as answer:
            clicked = play_one_move(mover, pick=version)
        # The mover's page shows the log of the version just before its move (its
        # hx-headers say so; from the first move on, the opening roll is a line),
        # so the answer carries the move's lines alone, to go on top of the kept
        # list (selectors.log_answer); the checks below see the whole log on the
        # page all the same.
        assert 'hx-swap-oob="afterbegin"' in answer.value.text()

        # The mover's panel is replaced by the answer to the POST ...
        wait_for_version(mover, version, timeout=STEP_MS)
        refusals = mover.locator("#match-panel .error").all_inner_texts()
        assert refusals == [], f"move {version} ({clicked}) was refused: {refusals}"
        expect(mover.locator("#choices")).to_have_count(0)
        # ... and the other page catches up on its own within a few polls.
        wait_for_version(watcher, version)
        expect(watcher.locator("#choices")).to_be_visible()

        move = Move.objects.get(match=match, seq=version)
        assert move.seat == active
        die = nogi_presenter.colour_name(move.action["die"])
        assert clicked[0].lower().startswith(die), (clicked, move.action)
        match.refresh_from_db()
        assert match.version == version
        for page in (mover, watcher):
            expect(page.locator("#match-panel ol.move-log > li")).to_have_count(version + 1)
            lines = log_lines(page)
            # Newest first, numbered by move.
            assert [number for number, _who, _text in lines] == list(range(version, -1, -1))
            _number, who, text = lines[0]
            assert who == names[active]
            assert f"used the {die} die" in text
            # Every move ends the turn, and the next player's dice are rolled at once.
            assert f"{names[1 - active]} rolled:" in text
        for seat, each in windows.items():
            check_page(each.page, match, seat, names)

    # 5. Neither page was reloaded, and nothing went wrong in either browser.
    for each in (alda, bruno):
        assert each.page.evaluate("window.__e2eMark") == "no reload"
        each.assert_clean()
        each.screenshot("e2e-nogi")
