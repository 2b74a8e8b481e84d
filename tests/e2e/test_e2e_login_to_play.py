"""End-to-end: a "your turn" link opened while logged out.

The player sees the match with "Log in to play" (not only "Waiting for
..."), logs in through it and is back on the match with their move to make;
the header's "Log in" returns to the page it was clicked on as well.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.engine import registry
from games.lobby import services as lobby
from tests.e2e.helpers import PASSWORD, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_your_turn_link_opened_logged_out_leads_back_to_the_move(live_server, window):
    alice, bob = make_player("alice"), make_player("bob")
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=match)
    match.refresh_from_db()
    seat = registry.get("nogi").current_seats(match.state)[0]
    player = match.seats.get(index=seat).user
    url = f"{live_server.url}/m/{match.pk}/"

    visitor = window(player.username)
    page = visitor.page
    page.goto(url)
    expect(page.locator(".match-head .status")).to_contain_text("Waiting for")
    prompt = page.get_by_role("link", name="Log in to play")
    expect(prompt).to_be_visible()
    # The header's link returns here too.
    header_link = page.locator("header.topbar").get_by_role("link", name="Log in", exact=True)
    assert header_link.get_attribute("href") == f"/accounts/login/?next=%2Fm%2F{match.pk}%2F"

    prompt.click()
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next="))
    form = page.locator('main form[action^="/accounts/login/"]')
    form.locator('input[name="login"]').fill(player.username)
    form.locator('input[name="password"]').fill(PASSWORD)
    form.locator('button[type="submit"]').click()
    expect(page).to_have_url(url)
    expect(page.locator(".match-head .your-turn")).to_have_text("Your turn")
    expect(page.locator("#choices")).to_be_visible()
    expect(page.get_by_role("link", name="Log in to play")).to_have_count(0)
    visitor.assert_clean()


def test_the_header_login_returns_to_the_page_it_was_clicked_on(live_server, window):
    make_player("carol")
    visitor = window("carol")
    page = visitor.page
    page.goto(f"{live_server.url}/games/drako/how-to-play/")
    page.locator("header.topbar").get_by_role("link", name="Log in", exact=True).click()
    form = page.locator('main form[action^="/accounts/login/"]')
    form.locator('input[name="login"]').fill("carol")
    form.locator('input[name="password"]').fill(PASSWORD)
    form.locator('button[type="submit"]').click()
    expect(page).to_have_url(f"{live_server.url}/games/drako/how-to-play/")
    expect(page.locator("header.topbar nav")).to_contain_text("carol")
    visitor.assert_clean()
