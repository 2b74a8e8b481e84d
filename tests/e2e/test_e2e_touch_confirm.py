"""On a touch screen the last tap of a move shows the whole move and asks to confirm.

A phone-sized, touch-screen browser: the page's script tells the site it is a
touch screen, and the player's "auto" preference then turns the final tap
into one more step on the same page (Confirm / Back), after which the move
is made. After each step the focus is on the next choice: here, Confirm.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engine import registry
from games.lobby import services as lobby
from games.models import Match
from tests.e2e.test_e2e_every_game import log_in, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_touch_screen_confirms_the_last_tap(live_server, browser):
    base = live_server.url
    nogi = registry.get("nogi")
    one, two = make_player("tap-one"), make_player("tap-two")
    match = lobby.create_match(user=one, game_key="nogi", n_seats=2)
    lobby.join_match(user=two, match=match)
    match.refresh_from_db()
    mover = [one, two][nogi.current_seats(match.state)[0]]
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, locale="en-GB"
    )
    page = context.new_page()
    try:
        log_in(page, base, mover.username)
        page.goto(f"{base}/m/{match.pk}/")
        page.reload()  # the first page load told the site about the touch screen
        page.wait_for_function("() => window.htmx !== undefined")
        start = match.version
        heading = page.locator("#choices h2")
        for _tap in range(6):
            if page.locator(".confirm-summary").count():
                break
            before = heading.inner_text()
            if not page.locator("#choices .choice-buttons").is_visible():
                page.locator("#choices > summary").tap()  # folded on a phone: open the list
            page.locator("#choices .choice:not(.back)").first.tap()
            # One step at a time: the next tap waits for this one's swap.
            expect(heading).not_to_have_text(before)
        summary = page.locator(".confirm-summary")
        expect(summary).to_contain_text("Your move will be:")
        assert Match.objects.get(pk=match.pk).version == start  # nothing played yet
        confirm = page.locator("#choices button.final", has_text="Confirm")
        expect(confirm).to_be_focused()
        confirm.tap()
        expect(page.locator("#match-panel")).to_have_attribute("data-version", str(start + 1))
    finally:
        context.close()
