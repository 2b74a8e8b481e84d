"""End-to-end: on a phone (390 px), a player joins a ladder, challenges the
player above with the row's button, and the challenged player accepts from
the ladder page and lands in the match. Nothing scrolls sideways, and axe
finds no serious or critical violation on the ladder page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from ladders import services
from ladders.models import Challenge
from tests.e2e.helpers import log_in, make_player
from tests.e2e.test_e2e_accessibility import serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def _fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], page.url


def test_join_challenge_and_accept_on_a_phone(live_server, window):
    alice = make_player("alice")
    make_player("bob")
    for i in range(8):  # a longer ladder, with long names, below them
        services.join(make_player(f"a_rather_long_player_name_{i}"), "drako")
    services.join(alice, "drako")

    bobs = window("bob")
    bobs.page.set_viewport_size(PHONE)
    log_in(bobs.page, live_server.url, "bob")
    bobs.page.goto(live_server.url + "/ladders/")
    _fits(bobs.page)
    bobs.page.locator("#ladder-drako a").click()
    expect(bobs.page).to_have_url(re.compile(r"/ladders/drako/$"))
    bobs.page.locator("#join-form button").click()
    expect(bobs.page.locator("#my-place")).to_contain_text("10")
    _fits(bobs.page)
    bobs.page.locator("#ladder tr", has_text="alice").get_by_role("button").click()
    expect(bobs.page.locator("#open-challenges li")).to_have_count(1)
    _fits(bobs.page)
    bobs.assert_clean()

    challenge = Challenge.objects.get()
    alices = window("alice")
    alices.page.set_viewport_size(PHONE)
    log_in(alices.page, live_server.url, "alice")
    alices.page.goto(live_server.url + "/ladders/drako/")
    _fits(alices.page)
    # axe finds nothing serious, light and dark, with the challenge to answer.
    for scheme in ("light", "dark"):
        alices.page.emulate_media(color_scheme=scheme)
        assert serious_violations(alices.page) == [], scheme
    alices.page.locator(f"#challenge-{challenge.pk} button", has_text="Accept").click()
    expect(alices.page).to_have_url(re.compile(rf"/m/{challenge.match_id}/$"))
    alices.page.goto(live_server.url + "/players/alice/")
    expect(alices.page.locator("#ladder-places")).to_contain_text("place 9 of 10")
    _fits(alices.page)
    alices.assert_clean()


def test_a_challenge_in_the_lobby_says_what_it_is_and_declining_gives_up_the_place(
    live_server, window
):
    alice = make_player("alice")
    bob = make_player("bob")
    services.join(alice, "drako")
    services.join(bob, "drako")
    challenge = services.challenge(bob, "drako", "alice")

    alices = window("alice")
    log_in(alices.page, live_server.url, "alice")
    alices.page.goto(live_server.url + "/")
    row = alices.page.locator(f"#invitation-{challenge.match_id}")
    expect(row).to_contain_text("bob challenges you on the Drako: Dragon & Dwarves ladder")
    expect(row).to_contain_text("answer by")
    expect(row).to_contain_text("bob takes your place at once")
    expect(row.get_by_role("button", name="Accept the challenge")).to_be_visible()
    row.get_by_role("button", name="Decline (lose your place)").click()
    expect(alices.page).to_have_url(re.compile(r"/ladders/drako/$"))
    expect(alices.page.locator("#my-place")).to_contain_text("2")
    assert Challenge.objects.get().outcome == "declined"
    alices.assert_clean()
