"""End-to-end: following a player at a phone's width, and the friends page.

Alice follows Bob from his page on a 390 px screen; Bob follows her back
from his friends page. Both pages pass axe (no serious or critical
violation, light and dark) and neither scrolls sideways at 390 px; the
friends page shows Alice among Bob's friends with her presence.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from friends.models import Follow
from tests.e2e.helpers import log_in, make_player
from tests.e2e.test_e2e_accessibility import PHONE, serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _fits_and_passes_axe(page, label: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{label}: the page scrolls sideways ({width} px)"
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert serious_violations(page) == [], f"{label} ({scheme})"
    page.emulate_media(color_scheme="light")


def test_following_back_makes_friends_on_a_phone(live_server, window):
    base = live_server.url
    make_player("alice"), make_player("bob")

    her = window("alice")
    her.page.set_viewport_size(PHONE)
    log_in(her.page, base, "alice")
    her.page.goto(f"{base}/players/bob/")
    her.page.locator("#follow-form button").click()
    expect(her.page.locator("#follow")).to_contain_text("1 follower")
    expect(her.page.locator("#follow-form button")).to_have_text("Unfollow")
    _fits_and_passes_axe(her.page, "player page")
    her.screenshot("friends-player-page-phone")

    him = window("bob")
    him.page.set_viewport_size(PHONE)
    log_in(him.page, base, "bob")
    him.page.goto(f"{base}/friends/")
    followers = him.page.locator("#followers-list")
    expect(followers.locator("#person-alice")).to_be_visible()
    followers.locator("#person-alice button").click()
    expect(him.page).to_have_url(f"{base}/friends/")
    friend = him.page.locator("#friends-list #person-alice")
    expect(friend).to_be_visible()
    # Alice was here a moment ago: her presence shows.
    expect(friend).to_contain_text("online now")
    _fits_and_passes_axe(him.page, "friends page")
    him.screenshot("friends-page-phone")
    assert Follow.objects.count() == 2
    her.assert_clean()
    him.assert_clean()


@pytest.mark.parametrize("language", ["en", "pl", "cs"])
def test_the_pages_friendship_changes_pass_axe_on_a_phone_in_each_language(
    language, live_server, window
):
    """The friends page with each of its lists, the lobby with a friends-only
    match and a friend's match first, Watch with "Friends' games" and a
    friend's player page: at 390 px, light and dark, in the player's language."""
    from accounts.models import Profile
    from accounts.selectors import forget_preferences
    from friends import services as friends
    from games.lobby import services as lobby

    base = live_server.url
    alice, bob, carol, dave = (make_player(n) for n in ("alice", "bob", "carol", "dave"))
    friends.follow(alice, "bob")
    friends.follow(bob, "alice")
    friends.follow(bob, "carol")
    friends.follow(dave, "bob")
    lobby.create_match(user=alice, game_key="nogi", n_seats=3, visibility="friends")
    lobby.create_match(user=carol, game_key="nogi", n_seats=3)
    live = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=carol, match=live)

    him = window("bob")
    him.page.set_viewport_size(PHONE)
    log_in(him.page, base, "bob")
    Profile.objects.filter(user=bob).update(language=language)
    forget_preferences(bob.pk)
    for path, mark in [
        ("/friends/", "#followers-list #person-dave"),
        ("/", "#open-matches .friends-only"),
        ("/watch/", "#friends-games"),
        ("/players/alice/", "#friends-badge"),
    ]:
        him.page.goto(base + path)
        assert him.page.evaluate("document.documentElement.lang") == language
        expect(him.page.locator(mark)).to_be_visible()
        him.screenshot(f"friends-{language}-{path.strip('/').replace('/', '-') or 'lobby'}")
        _fits_and_passes_axe(him.page, f"{path} in {language}")
    him.assert_clean()
