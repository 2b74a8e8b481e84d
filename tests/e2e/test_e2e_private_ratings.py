"""End-to-end: a private match cannot be rated (the new-match form says why),
and a private rated match (a ladder challenge's) is listed in a player's
rating history only to its players."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Match
from ladders import services as ladders
from tests.e2e.helpers import log_in, make_player
from tests.players.conftest import finish, start_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PRIVATE_RATED = "A private match cannot be rated"


def test_the_form_refuses_a_private_rated_match_and_says_why(live_server, window):
    make_player("alice")
    me = window("alice")
    page = me.page
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/matches/new/?game=nogi")
    form = page.locator("form#create-match")
    form.locator('select[name="visibility"]').select_option("private")
    expect(form.locator('input[name="rated"]')).to_be_checked()  # ticked by default
    form.locator('button[type="submit"]').click()
    expect(page.locator("form#create-match")).to_contain_text(PRIVATE_RATED)
    assert not Match.objects.exists()
    form = page.locator("form#create-match")
    form.locator('input[name="rated"]').uncheck()
    form.locator('button[type="submit"]').click()
    expect(page).to_have_url(re.compile(r"/m/\d+/$"))
    assert not Match.objects.get().rated
    # The one problem seen: the refused form's answer, a 400 (and its console line).
    assert me.problems and all("400" in problem for problem in me.problems), me.problems


def test_a_private_rated_match_is_in_the_rating_history_only_for_its_players(live_server, window):
    alice, bob = make_player("alice"), make_player("bob")
    make_player("eve")
    public = finish(start_match([alice, bob]), [1, 2])
    ladders.join(alice, "nogi")
    ladders.join(bob, "nogi")
    challenge = ladders.challenge(bob, "nogi", "alice")
    ladders.accept(alice, challenge.pk)
    private = finish(challenge.match, [2, 1])
    assert private.rated

    for who, rows in ((None, 1), ("eve", 1), ("bob", 2)):
        win = window(who or "anonymous")
        if who:
            log_in(win.page, live_server.url, who)
        win.page.goto(f"{live_server.url}/players/alice/")
        history = win.page.locator("#rating-nogi table tbody tr")
        expect(history).to_have_count(rows)
        expect(history.first).to_contain_text(f"#{public.pk}")
        cells = win.page.locator("#rating-nogi table").inner_text()
        assert (f"#{private.pk}" in cells) == (rows == 2), who
        expect(win.page.locator("#rating-nogi circle.chart-dot")).to_have_count(rows)
        win.assert_clean()
