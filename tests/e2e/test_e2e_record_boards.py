"""End-to-end: the printable record draws the board at the end, and the
board every N steps when the reader asks for it; on paper as on screen, and
at a phone's width (issue 39, item 12)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import MatchStatus
from tests.e2e.helpers import log_in, make_player
from tests.e2e.test_e2e_accessibility import serious_violations
from tests.history.test_replay import play, start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_record_draws_the_final_board_and_the_board_every_n_steps(live_server, window):
    game, match, users = start("nogi", lambda name: make_player(name), "rec")
    play(game, match, 300)
    assert match.status == MatchStatus.FINISHED
    reader = window("reader")
    page = reader.page
    log_in(page, live_server.url, users[0].username)
    page.goto(f"{live_server.url}/m/{match.pk}/print/")
    expect(page.locator("#record-boards-title")).to_have_text("The board at the end")
    final = page.locator("#record-board-final figure.board")
    expect(final).to_be_visible()
    expect(page.locator(".record-board figure.board")).to_have_count(1)

    page.locator("form.record-every select").select_option("10")
    page.locator("form.record-every").get_by_role("button", name="Show").click()
    expect(page).to_have_url(re.compile(r"[?&]every=10"))
    steps = list(range(10, match.version, 10))
    expect(page.locator(".record-board figure.board")).to_have_count(len(steps) + 1)
    expect(page.locator("#record-board-10 h3")).to_have_text("After step 10")
    expect(page.locator("#record-board-10 figure.board")).to_be_visible()
    assert not serious_violations(page)

    # On paper: the boards print, the interval's form does not.
    page.emulate_media(media="print")
    expect(final).to_be_visible()
    expect(page.locator("#record-board-10 figure.board")).to_be_visible()
    expect(page.locator("form.record-every")).to_be_hidden()
    page.emulate_media(media="screen")

    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    expect(final).to_be_visible()
    reader.assert_clean()
