"""End-to-end: the notification settings and "What was sent" on a phone.

Alice sets quiet hours and an 80 % reminder at 390 px and saves; the page
shows her choices again. Both pages pass axe (no serious or critical
violation, light and dark), in English, Polish and Czech, and neither
scrolls sideways at 390 px. "What was sent" lists a mention of her with
what became of its email.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

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


def test_quiet_hours_and_a_reminder_are_set_on_a_phone(live_server, window):
    from accounts.models import Profile

    base = live_server.url
    make_player("alice")
    her = window("alice")
    her.page.set_viewport_size(PHONE)
    log_in(her.page, base, "alice")
    her.page.goto(f"{base}/profile/notifications/")
    her.page.get_by_label("80 %").check()
    her.page.get_by_label("Quiet from").select_option("22")
    her.page.get_by_label("Quiet until").select_option("7")
    her.page.get_by_role("button", name="Save").click()
    expect(her.page.locator(".messages")).to_contain_text("Your notification settings were saved.")
    expect(her.page.get_by_label("Quiet from")).to_have_value("22")
    expect(her.page.get_by_label("80 %")).to_be_checked()
    profile = Profile.objects.get(user__username="alice")
    assert (profile.quiet_from, profile.quiet_until, profile.reminder_shares) == (22, 7, "80")
    her.screenshot("notification-settings-phone")
    her.assert_clean()


@pytest.mark.parametrize("language", ["en", "pl", "cs"])
def test_both_pages_pass_axe_on_a_phone_in_each_language(language, live_server, window):
    from accounts.models import Profile
    from accounts.selectors import forget_preferences
    from games.lobby import services as lobby
    from games.play import chat

    base = live_server.url
    alice, bob = make_player("alice"), make_player("bob")
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, options={"first_player": "host"}
    )
    lobby.join_match(user=bob, match=match)
    chat.post_message(bob, match, "@alice a long line of chat to see how the list wraps")
    her = window("alice")
    her.page.set_viewport_size(PHONE)
    log_in(her.page, base, "alice")
    Profile.objects.filter(user=alice).update(language=language)
    forget_preferences(alice.pk)
    for path, label in (
        ("/profile/notifications/", "notification settings"),
        ("/notifications/sent/", "what was sent"),
    ):
        her.page.goto(f"{base}{path}")
        expect(her.page.locator("html")).to_have_attribute("lang", language)
        _fits_and_passes_axe(her.page, f"{label} ({language})")
        her.screenshot(f"{label.replace(' ', '-')}-{language}-phone")
    expect(her.page.locator(".sent-notifications li").first).to_be_visible()
    her.assert_clean()
