"""The notifications page's grid in the browser: events by channel, readable
at a phone's width (no sideways scroll, every row's checkboxes on screen),
in three languages, with no serious axe violation; ticking push for an event
and saving keeps it."""

from __future__ import annotations

import pytest

from accounts.models import Profile
from tests.e2e.helpers import log_in, make_player
from tests.e2e.test_e2e_accessibility import PHONE, serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["en", "pl", "cs"])
def test_the_grid_reads_on_a_phone_and_saves_a_tick(language, live_server, window, settings):
    settings.WEBHOOKS_ENABLED = True
    user = make_player(f"grid-{language}")
    person = window("player")
    log_in(person.page, live_server.url, user.username)
    profile = Profile.objects.get(user=user)
    profile.language = language
    profile.push_events = ["your_turn"]
    profile.save()
    page = person.page
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/profile/notifications/")
    rows = page.locator(".notification-choices tbody tr")
    assert rows.count() == 7
    for event in ("your_turn", "mentions"):
        for channel in ("push", "webhook"):
            box = page.locator(f"#{channel}-{event}").bounding_box()
            assert box is not None and box["x"] + box["width"] <= PHONE["width"], (channel, event)
    person.screenshot(f"notification-grid-{language}-phone")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the grid scrolls sideways ({width} px)"
    assert serious_violations(page) == []
    page.check("#push-mentions")
    page.locator("form.stack button[type=submit]").last.click()
    page.wait_for_load_state("networkidle")
    profile.refresh_from_db()
    assert profile.push_events == ["your_turn", "mentions"]
    assert page.locator("#push-mentions").is_checked()
