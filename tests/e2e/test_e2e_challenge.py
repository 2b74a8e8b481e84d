"""End-to-end on a phone (390 px): a challenge from a player's page, and
"Play again" from a finished match's players list.

Alice opens Bob's page, presses Challenge, chooses Drako and creates the
match: Bob is invited. On their finished match she presses "Play again"
beside Bob and lands on the rematch, Bob invited again. Nothing scrolls
sideways; Carol, whom Bob blocks, reads the one neutral sentence instead.
axe finds no serious violation on any of these pages.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from accounts.models import Block
from games.models import Invitation, Match
from tests.e2e.helpers import log_in, make_player
from tests.e2e.test_e2e_axe_states import serious_violations
from tests.players.conftest import finish, start_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
NEUTRAL = "This player is not accepting invitations from you right now."


def fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_challenge_from_the_player_page_invites_them(live_server, window):
    alice, bob = make_player("alice"), make_player("bob")
    me = window("alice")
    page = me.page
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/players/bob/")
    button = page.locator("#challenge-link")
    expect(button).to_be_visible()
    expect(button).to_have_text("Challenge")
    fits(page)
    assert serious_violations(page) == []
    button.click()
    expect(page.locator("#challenging")).to_contain_text("You are challenging bob")
    fits(page)
    page.locator('#choose-game a[href*="game=drako&"]').click()
    expect(page.locator("#challenging")).to_contain_text("bob")
    fits(page)
    assert serious_violations(page) == []
    page.locator('form#create-match button[type="submit"]').click()
    expect(page).to_have_url(re.compile(r"/m/\d+/$"))
    match = Match.objects.get(created_by=alice)
    assert match.game_key == "drako"
    assert Invitation.objects.get(match=match).invited_user == bob
    me.assert_clean()

    # No challenge on her own page.
    page.goto(f"{live_server.url}/players/alice/")
    expect(page.locator("#player-name")).to_be_visible()
    expect(page.locator("#challenge-link")).to_have_count(0)


def test_play_again_from_the_players_list_and_the_neutral_sentence(live_server, window):
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    match = finish(start_match([alice, bob]), [1, 2])
    Block.objects.create(blocker=bob, blocked=carol)

    me = window("alice")
    page = me.page
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/m/{match.pk}/")
    again = page.locator("ol.seats").get_by_role("button", name="Play again with bob")
    expect(again).to_have_count(1)
    fits(page)
    assert serious_violations(page) == []
    again.click()
    expect(page).to_have_url(re.compile(r"/m/\d+/$"))
    rematch = Match.objects.get(rematch_of=match)
    assert page.url.endswith(f"/m/{rematch.pk}/")
    assert Invitation.objects.get(match=rematch).invited_user == bob
    me.assert_clean()

    other = window("carol").page
    other.set_viewport_size(PHONE)
    log_in(other, live_server.url, "carol")
    other.goto(f"{live_server.url}/players/bob/")
    expect(other.locator("#not-accepting")).to_have_text(NEUTRAL)
    expect(other.locator("#challenge-link")).to_have_count(0)
    fits(other)
    assert serious_violations(other) == []


WORDS = {
    "pl": ("Wyzwij", "teraz online", "Zagraj ponownie", "Wyzywasz gracza"),
    "cs": ("Vyzvat", "právě online", "Hrát znovu", "Vyzýváš hráče"),
}


@pytest.mark.parametrize("language", ["pl", "cs"])
def test_in_polish_and_czech_on_a_phone(live_server, window, language):
    """The button, the form, presence and "Play again" in the player's
    language, the longer words still fitting 390 px."""
    import time

    from django.core.cache import cache

    from accounts import presence

    alice, bob = make_player("alice"), make_player("bob")
    match = finish(start_match([alice, bob]), [2, 1])
    cache.set(presence.seen_key(bob.pk), int(time.time()), presence.KEEP_SECONDS)
    challenge, online, again, challenging = WORDS[language]

    me = window("alice")
    page = me.page
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "alice")
    alice.profile.language = language
    alice.profile.save()
    page.goto(f"{live_server.url}/players/bob/")
    expect(page.locator("#challenge-link")).to_have_text(challenge)
    expect(page.locator("#presence")).to_have_text(online)
    fits(page)
    page.locator("#challenge-link").click()
    expect(page.locator("#challenging")).to_contain_text(challenging)
    fits(page)
    page.goto(f"{live_server.url}/m/{match.pk}/")
    row = page.locator("ol.seats li", has_text="bob")
    expect(row.locator(".play-again button")).to_have_text(again)
    expect(row.locator(".presence")).to_have_text(online)
    fits(page)
    me.assert_clean()
