"""End-to-end: two players finish a rated match, see their new ratings on
the end banner with why a new rating moves so much, follow each other's
name to the player page and see the rating chart there."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.lobby import services as lobby
from games.models import TimeoutPolicy
from players.models import Rating
from tests.conftest import each_seat_moves
from tests.e2e.helpers import log_in, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CHANGE = re.compile(r"Your .+ rating: 1,000 → [\d,]+ \([+-]\d+\)")


def test_a_rated_match_ends_with_new_ratings_and_linked_player_pages(live_server, window):
    alice, bob = make_player("alice"), make_player("bob")
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, timeout_policy=TimeoutPolicy.LOSS, rated=True
    )
    lobby.join_match(user=bob, match=match)
    each_seat_moves(match)  # resigning before that would abort the match (below)
    url = f"{live_server.url}/m/{match.pk}/"

    bobs = window("bob")
    log_in(bobs.page, live_server.url, "bob")
    bobs.page.goto(url)
    bobs.page.locator("details.resign summary").click()
    bobs.page.locator("#resign-button").click()
    expect(bobs.page.locator("#final")).to_be_visible()
    expect(bobs.page.locator("#my-rating-change")).to_have_text(CHANGE)
    # A first rated match moves a rating a lot; the banner says why.
    expect(bobs.page.locator("#my-rating-why")).to_contain_text("provisional until 5 rated matches")

    alices = window("alice")
    log_in(alices.page, live_server.url, "alice")
    alices.page.goto(url)
    expect(alices.page.locator("#my-rating-change")).to_have_text(CHANGE)
    after = Rating.objects.get(user=alice, game_key="nogi").display
    assert after > 1000 > Rating.objects.get(user=bob, game_key="nogi").display
    expect(alices.page.locator("#my-rating-change")).to_contain_text(f"{after:,}")

    # Each follows the other's name from the banner to the player page and its chart.
    for win, other in ((alices, "bob"), (bobs, "alice")):
        win.page.locator("#final a.player-link", has_text=other).click()
        expect(win.page).to_have_url(re.compile(rf"/players/{other}/$"))
        expect(win.page.locator("#player-name")).to_have_text(other)
        chart = win.page.locator("#rating-nogi .rating-chart svg")
        expect(chart).to_be_visible()
        expect(chart.locator("circle.chart-dot")).to_have_count(1)
        expect(win.page.locator("#rating-nogi table")).to_have_count(1)
        win.assert_clean()

    # On a phone the player page, its chart and the leaderboard fit the width.
    page = alices.page
    page.set_viewport_size({"width": 390, "height": 844})
    for path in ("/players/bob/", "/players/alice/", "/leaderboards/nogi/"):
        page.goto(live_server.url + path)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
    page.goto(live_server.url + "/players/alice/")
    box = page.locator("#rating-nogi .rating-chart svg").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390


def test_resigning_before_each_seat_moved_aborts_the_match_and_says_so(live_server, window):
    """A second account that joins and resigns at once feeds no rating: the
    banner says the match was aborted and why, and no rating changed."""
    alice, bob = make_player("alice"), make_player("bob")
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, timeout_policy=TimeoutPolicy.LOSS, rated=True
    )
    lobby.join_match(user=bob, match=match)
    bobs = window("bob")
    log_in(bobs.page, live_server.url, "bob")
    bobs.page.goto(f"{live_server.url}/m/{match.pk}/")
    bobs.page.locator("details.resign summary").click()
    bobs.page.locator("#resign-button").click()
    final = bobs.page.locator("#final")
    expect(final.locator("#final-title")).to_have_text("The match was aborted.")
    expect(final.locator(".final-reason")).to_contain_text(
        "bob resigned before each player had moved."
    )
    expect(final.locator(".final-reason")).to_contain_text("no rating changes")
    expect(bobs.page.locator("#my-rating-change")).to_have_count(0)
    assert not Rating.objects.filter(rated_matches__gt=0).exists()
    bobs.assert_clean()
