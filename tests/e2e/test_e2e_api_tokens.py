"""The API tokens page in the browser: a token made is shown once, readable
at a phone's width (no sideways scroll, the long token wrapped), in three
languages, with no serious axe violation; revoking it says so."""

from __future__ import annotations

import pytest

from accounts.models import Profile
from api.models import ApiToken
from tests.e2e.helpers import log_in, make_player
from tests.e2e.test_e2e_accessibility import PHONE, serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TITLES = {"en": "API tokens", "pl": "Tokeny API", "cs": "Tokeny API"}
REVOKED = {
    "en": "The token was revoked",
    "pl": "Token został unieważniony",
    "cs": "Token byl zrušen",
}


@pytest.mark.parametrize("language", ["en", "pl", "cs"])
def test_make_see_once_and_revoke_a_token_on_a_phone(language, live_server, window):
    user = make_player(f"tok-{language}")
    person = window("player")
    log_in(person.page, live_server.url, user.username)
    profile = Profile.objects.get(user=user)
    profile.language = language
    profile.save()  # the saved profile's preferences are read anew
    page = person.page
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/profile/tokens/")
    assert TITLES[language] in page.locator("h1").inner_text()
    page.fill("input[name=name]", "my bot")
    page.check("input[name=scopes][value='match:read']")
    page.locator("#new button[type=submit]").click()
    page.wait_for_load_state("networkidle")
    raw = page.locator("#new-token").inner_text()
    assert raw.startswith("smk_")
    assert ApiToken.objects.get(user=user).digest != raw
    person.screenshot(f"api-tokens-{language}-phone")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the tokens page scrolls sideways ({width} px)"
    assert serious_violations(page) == []
    page.goto(f"{live_server.url}/profile/tokens/")
    assert raw not in page.content()  # shown only once
    page.locator("#tokens button[type=submit]").click()
    page.wait_for_load_state("networkidle")
    assert REVOKED[language] in page.content()
    assert ApiToken.objects.get(user=user).revoked_at is not None
    assert serious_violations(page) == []
