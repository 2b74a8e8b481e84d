"""End-to-end smoke of every registered game, in Debian's chromium.

Two players log in through the real pages; the host creates a match of the
game with the new-match form; the guest finds it in the lobby and joins; then
they play several moves by clicking, the board's own clickable choices first
(``.board-choice``, drawn by the board toolkit) and the choice buttons where
the board offers none. After each move the other player's page shows it by
itself, through the poll. Part of the conformance kit: a game gets this test
by registering.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from games.engine import registry
from games.models import Match, MatchStatus
from tests.conformance.kit import keys_for
from tests.e2e.helpers import POLL_MS, log_in, make_player, version_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MOVES = 5
CLICKS_PER_MOVE = 10


def play_one_move(page: Page, start: int) -> bool:
    """Click down the choice tree until the page shows a new version.

    Reads only the page (the live server owns the database meanwhile). Returns
    True if a click on the board was used.
    """
    used_board = False
    for _click in range(CLICKS_PER_MOVE):
        on_board = page.locator("#match-panel .board-choice:visible")
        if on_board.count():
            target, used_board = on_board.first, True
        else:
            target = page.locator("#choices .choice:not(.back):visible").first
        path = target.get_attribute("data-path")
        target.click()
        # A click either posts the move (the panel comes back with a new version)
        # or opens the next level (the panel comes back offering longer paths).
        # On SQLite the test server answers one request at a time, so the click
        # may wait behind both pages' polls on a busy machine: as long as a poll.
        expect(
            page.locator(
                f'#match-panel:not([data-version="{start}"]), #match-panel [data-path^="{path}."]'
            ).first
        ).to_be_attached(timeout=POLL_MS)
        if version_of(page) > start:
            return used_board
    pytest.fail(f"no move after {CLICKS_PER_MOVE} clicks")


def wait_for_turn(pages: list[Page]) -> Page:
    """The page that offers choices: the player to move (the others poll meanwhile)."""
    for _attempt in range(POLL_MS // 500):
        for page in pages:
            if page.locator("#choices").count():
                return page
        pages[0].wait_for_timeout(500)
    pytest.fail("no page offered a move")


@pytest.mark.parametrize("key", keys_for("board"))
def test_two_players_meet_and_play_by_clicking(key, live_server, window):
    game = registry.get(key)
    base = live_server.url
    host_user, guest_user = make_player(f"{key[:10]}-host"), make_player(f"{key[:10]}-guest")
    host, guest = window("host"), window("guest")
    log_in(host.page, base, host_user.username)
    log_in(guest.page, base, guest_user.username)

    host.page.goto(f"{base}/matches/new/")
    form = host.page.locator("main form")
    host.page.locator(f'#choose-game a[href$="?game={key}"]').click()
    form.locator('select[name="n_seats"]').select_option(str(game.min_players))
    form.locator('button[type="submit"]').click()
    expect(host.page.locator("#match-panel")).to_be_visible()
    match = Match.objects.get(game_key=key, created_by=host_user)

    guest.page.goto(f"{base}/")
    guest.page.locator(f'a[href="/m/{match.pk}/"]').first.click()
    guest.page.locator("#join-button").click()
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    for page in (host.page, guest.page):
        page.goto(f"{base}/m/{match.pk}/")

    board_clicks = 0
    version = 0
    for _move in range(MOVES):
        if "Finished" in host.page.locator("#match-panel .status").inner_text():
            break
        mover = wait_for_turn([host.page, guest.page])
        board_clicks += play_one_move(mover, version)
        version = version_of(mover)
        other = guest.page if mover is host.page else host.page
        expect(other.locator("#match-panel")).to_have_attribute(
            "data-version", str(version), timeout=POLL_MS
        )
    match.refresh_from_db()
    assert match.version >= min(MOVES, 3) or match.status == MatchStatus.FINISHED
    assert board_clicks, f"{key}: no move used a click on the board"
    host.assert_clean()
    guest.assert_clean()
