"""End-to-end: a player enters a tournament from its page, the clock starts
it, a match ends, and the standings and crosstable show; on a phone the
tournament page and the list fit 390 px without sideways scrolling."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.play import safety
from tests.e2e.helpers import log_in, make_player
from tournaments import services
from tournaments.models import Placement

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_joining_a_tournament_and_seeing_the_standings_on_a_phone(live_server, window):
    alice = make_player("alice")
    make_player("bob")
    start = timezone.now() + timedelta(hours=1)
    tournament = services.create_tournament(
        user=alice,
        name="Phone cup with a rather long name for a narrow screen",
        game_key="nogi",
        table_size=2,
        format="round_robin",
        starts_at=start,
        min_entrants=2,
        max_entrants=8,
    )
    url = f"{live_server.url}/tournaments/{tournament.pk}/"
    bobs = window("bob")
    page = bobs.page
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server.url, "bob")
    page.goto(url)
    page.locator("#join-tournament").click()
    expect(page.locator("#leave-tournament")).to_be_visible()
    expect(page.locator("#entrants")).to_contain_text("bob")

    services.start(tournament.pk, now=start)
    match = Placement.objects.exclude(match=None).first().match
    safety.resign(user=alice, match=match)
    services.advance(tournament.pk)

    page.goto(url)
    expect(page.locator("#standings tbody tr").first).to_contain_text("bob")
    expect(page.locator("#crosstable")).to_be_visible()
    expect(page.locator(f'a[href="/m/{match.pk}/"]')).to_be_visible()
    for path in (f"/tournaments/{tournament.pk}/", "/tournaments/", "/tournaments/new/?game=nogi"):
        page.goto(live_server.url + path)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
    bobs.assert_clean()


def test_a_finished_tournament_shows_its_winner_at_the_top(live_server, window):
    alice, bob = make_player("alice"), make_player("bob")
    start = timezone.now() + timedelta(hours=1)
    tournament = services.create_tournament(
        user=alice,
        name="Winter cup",
        game_key="nogi",
        table_size=2,
        format="round_robin",
        starts_at=start,
        min_entrants=2,
        max_entrants=8,
    )
    services.join(user=bob, tournament=tournament)
    services.start(tournament.pk, now=start)
    match = Placement.objects.exclude(match=None).first().match
    safety.resign(user=alice, match=match)
    services.advance(tournament.pk)

    visitor = window("visitor")
    page = visitor.page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    banner = page.locator("#winner-banner")
    expect(banner).to_contain_text("Winner: bob")
    expect(banner.get_by_role("link", name="bob")).to_be_visible()
    box = banner.bounding_box()
    assert box["y"] + box["height"] <= 844  # on the first screen
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    visitor.assert_clean()
