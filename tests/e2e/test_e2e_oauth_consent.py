"""The OAuth consent page in the browser: in the site's layout, readable at
a phone's width (no sideways scroll), in three languages, with no serious
axe violation; Allow sends the browser back to the app with a code."""

from __future__ import annotations

import base64
import hashlib
import secrets
from urllib.parse import parse_qs, urlencode, urlparse

import pytest
from oauth2_provider.models import Application, Grant

from accounts.models import Profile
from tests.e2e.helpers import log_in, make_player
from tests.e2e.test_e2e_accessibility import PHONE, serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ALLOW = {"en": "Allow", "pl": "Pozwól", "cs": "Dovolit"}


@pytest.mark.parametrize("language", ["en", "pl", "cs"])
def test_consent_on_a_phone_then_back_to_the_app_with_a_code(language, live_server, window):
    user = make_player(f"oauth-{language}")
    callback = f"{live_server.url}/oauth-callback/"
    app = Application.objects.create(
        name="Board Buddy",
        client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris=callback,
    )
    person = window("player")
    log_in(person.page, live_server.url, user.username)
    profile = Profile.objects.get(user=user)
    profile.language = language
    profile.save()
    page = person.page
    page.set_viewport_size(PHONE)
    # The app's own page, where the browser lands with the code.
    page.route("**/oauth-callback/**", lambda route: route.fulfill(body="back at the app"))
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=")
    query = {
        "response_type": "code",
        "client_id": app.client_id,
        "redirect_uri": callback,
        "scope": "match:read match:play challenge:write",
        "state": "s-1",
        "code_challenge": challenge.decode(),
        "code_challenge_method": "S256",
    }
    page.goto(f"{live_server.url}/oauth/authorize/?{urlencode(query)}")
    assert "Board Buddy" in page.locator("h1").inner_text()
    person.screenshot(f"oauth-consent-{language}-phone")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the consent page scrolls sideways ({width} px)"
    assert serious_violations(page) == []
    page.get_by_role("button", name=ALLOW[language]).click()
    page.wait_for_url("**/oauth-callback/**")
    back = parse_qs(urlparse(page.url).query)
    assert back["state"] == ["s-1"]
    assert Grant.objects.filter(user=user, application=app).count() == 1
