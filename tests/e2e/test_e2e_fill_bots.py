"""The match page's "fill with bots" on a phone (390 px): the creator picks the
bots' level in the form, nothing scrolls sideways, and the seats get that level."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.lobby import services as lobby
from tests.e2e.helpers import log_in, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def test_the_creator_picks_the_strong_level_on_a_phone(live_server, window):
    user = make_player("bot-filler")
    match = lobby.create_match(user=user, game_key="nogi", n_seats=3)
    person = window("player")
    page = person.page
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, user.username)
    page.goto(f"{live_server.url}/m/{match.pk}/")
    form = page.locator("form.fill-bots-form")
    level = form.locator('select[name="level"]')
    expect(level).to_have_value("heuristic")
    for part in (level, form.locator('button[type="submit"]')):
        box = part.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    person.screenshot("fill-bots-phone")
    level.select_option("strong")
    form.locator('button[type="submit"]').click()
    expect(page.locator("form.fill-bots-form")).to_have_count(0)
    match.refresh_from_db()
    assert sorted(match.seats.filter(is_bot=True).values_list("bot_level", flat=True)) == [
        "strong",
        "strong",
    ]
