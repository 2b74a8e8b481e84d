"""Turning an account into a bot account in the browser: the page says it
cannot be undone, is readable at a phone's width (390 px, no sideways
scroll), in three languages, with no serious axe violation; confirmed, the
account is a bot account and its name carries the BOT mark."""

from __future__ import annotations

import pytest

from accounts.models import Profile
from tests.e2e.helpers import log_in, make_player
from tests.e2e.test_e2e_accessibility import PHONE, serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TITLES = {"en": "Bot account", "pl": "Konto bota", "cs": "Účet bota"}
DONE = {
    "en": "This account is a bot account now.",
    "pl": "To konto jest teraz kontem bota.",
    "cs": "Tento účet je teď účtem bota.",
}


@pytest.mark.parametrize("language", ["en", "pl", "cs"])
def test_turn_into_a_bot_account_on_a_phone(language, live_server, window):
    user = make_player(f"bot-{language}")
    person = window("player")
    log_in(person.page, live_server.url, user.username)
    profile = Profile.objects.get(user=user)
    profile.language = language
    profile.save()  # the saved profile's preferences are read anew
    page = person.page
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/profile/bot/")
    assert TITLES[language] in page.locator("h1").inner_text()
    person.screenshot(f"bot-account-{language}-phone")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the bot account page scrolls sideways ({width} px)"
    assert serious_violations(page) == []
    page.check("#become-bot input[name=confirm]")
    page.locator("#become-bot button[type=submit]").click()
    page.wait_for_load_state("networkidle")
    assert DONE[language] in page.content()
    assert Profile.objects.get(user=user).is_bot_account
    page.goto(f"{live_server.url}/players/{user.username}/")
    assert page.locator("#player-name .bot-mark").count() == 1
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    assert serious_violations(page) == []
