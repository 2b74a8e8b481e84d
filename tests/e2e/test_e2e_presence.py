"""End-to-end on a phone (390 px): "online now" and "last seen" on a player's
page and in a match's players list, and the profile setting that hides it.

Bob logs in; Alice sees him online on his page and beside his name in their
match. Three hours later (his key moved back) she reads "last seen 3 hours
ago". Bob then hides his presence in his profile: Alice sees nothing.
"""

from __future__ import annotations

import time

import pytest
from django.core.cache import cache
from playwright.sync_api import expect

from accounts import presence
from tests.e2e.helpers import log_in, make_player
from tests.e2e.test_e2e_axe_states import serious_violations
from tests.players.conftest import start_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_presence_on_the_player_page_and_the_match_page(live_server, window):
    presence.forget_memo()
    alice, bob = make_player("alice"), make_player("bob")
    match = start_match([alice, bob])

    his = window("bob").page
    log_in(his, live_server.url, "bob")

    me = window("alice")
    page = me.page
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/players/bob/")
    expect(page.locator("#presence")).to_have_text("online now")
    fits(page)
    assert serious_violations(page) == []
    page.goto(f"{live_server.url}/m/{match.pk}/")
    row = page.locator("ol.seats li", has_text="bob")
    expect(row.locator(".presence")).to_have_text("online now")
    expect(page.locator("ol.seats li.me .presence")).to_have_count(0)
    fits(page)
    assert serious_violations(page) == []

    cache.set(presence.seen_key(bob.pk), int(time.time() - 3 * 3600 - 60), presence.KEEP_SECONDS)
    page.goto(f"{live_server.url}/players/bob/")
    expect(page.locator("#presence")).to_have_text("last seen 3 hours ago")
    me.assert_clean()

    # Bob hides it from his profile.
    his.goto(f"{live_server.url}/profile/")
    his.locator('input[name="show_presence"]').uncheck()
    his.locator('main form.stack button[type="submit"]').first.click()
    expect(his.locator("main")).to_contain_text("Your profile was saved.")
    page.goto(f"{live_server.url}/players/bob/")
    expect(page.locator("#player-name")).to_be_visible()
    expect(page.locator("#presence")).to_have_count(0)
    page.goto(f"{live_server.url}/m/{match.pk}/")
    expect(page.locator("ol.seats .presence")).to_have_count(0)
