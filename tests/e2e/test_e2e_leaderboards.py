"""End-to-end: on a new site, where nobody has 5 rated matches yet, the
leaderboards are not empty: the players of a first rated match are listed,
marked provisional, on the game's leaderboard below the (missing) ranked
players, on /leaderboards/ and on the game's tile in the lobby; on a phone
as on a desktop (issue 39, item 5)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from players.models import Rating
from tests.e2e.helpers import log_in, make_player
from tests.players.conftest import finish, start_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_new_sites_leaderboards_list_its_provisional_players(live_server, window):
    ann, ben = make_player("ann"), make_player("ben")
    finish(start_match([ann, ben], "nogi", rated=True), [1, 2])
    won, lost = (Rating.objects.get(user=u, game_key="nogi").display for u in (ann, ben))
    assert won > lost

    me = window("ben")
    page = me.page
    log_in(page, live_server.url, "ben")

    page.goto(live_server.url + "/leaderboards/nogi/")
    expect(page.locator("#nobody-ranked")).to_be_visible()
    rows = page.locator("#leaderboard-provisional tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("ann")
    expect(rows.nth(0)).to_contain_text(f"{won}")
    expect(rows.nth(1)).to_contain_text("ben")
    for row in (rows.nth(0), rows.nth(1)):
        expect(row.locator(".badge")).to_have_text("provisional")
    expect(rows.nth(1)).to_have_class("provisional is-me")

    page.goto(live_server.url + "/leaderboards/")
    nogi = page.locator("#leaders-nogi li")
    expect(nogi).to_have_count(2)
    expect(nogi.nth(0)).to_contain_text("ann")
    expect(nogi.nth(0).locator(".badge")).to_have_text("provisional")
    expect(page.locator("#leaders-drako")).to_contain_text("Nobody has finished a rated match yet.")
    nogi.nth(0).get_by_role("link", name="ann").click()
    expect(page.locator("#player-name")).to_have_text("ann")

    page.goto(live_server.url + "/")
    tile = page.locator("#game-nogi .leaders li")
    expect(tile).to_have_count(2)
    expect(tile.nth(0)).to_contain_text("ann")
    expect(tile.nth(1)).to_contain_text("ben")
    expect(tile.nth(1).locator(".badge")).to_be_visible()
    me.assert_clean()

    page.set_viewport_size({"width": 390, "height": 844})
    for path in ("/", "/leaderboards/", "/leaderboards/nogi/"):
        page.goto(live_server.url + path)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
    expect(page.locator("#leaderboard-provisional")).to_be_visible()
