"""The moderators' desk on a phone (390 px): a moderator cancels a season in
sign-up from its page: the reason and the confirmation, the page not
scrolling sideways, no serious accessibility finding (axe), and the season
cancelled with the reason kept. Found by it: every desk page headed itself
twice (templates/admin/games/moderate.html and the admin's own title)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from playwright.sync_api import expect

from seasons import services
from seasons.models import Season, SeasonStatus
from tests.e2e.helpers import log_in, make_player
from tests.e2e.test_e2e_accessibility import serious_violations
from tests.seasons.conftest import SIGNUP_TIME, signed_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
REASON = "its rules changed during sign-up"


def test_a_moderator_cancels_a_season_from_a_phone(live_server, window, settings):
    settings.SMOKI = {**settings.SMOKI, "SEASON_GAMES": ["nogi"]}
    services.open_signups(SIGNUP_TIME)
    season = Season.objects.get(game_key="nogi", year=2027, quarter=1)
    signed_up(season, [make_player(f"entrant{i}") for i in range(3)])
    moderator = make_player("deskmod")
    moderator.is_staff = True
    moderator.save(update_fields=["is_staff"])
    moderator.groups.add(Group.objects.get(name="moderator"))

    person = window("moderator")
    person.page.set_viewport_size(PHONE)
    log_in(person.page, live_server.url, moderator.username)
    person.page.goto(live_server.url + reverse("admin:seasons_season_cancel", args=[season.pk]))
    form = person.page.locator("#moderation-form")
    # One heading: the desk's page once said its title twice.
    expect(person.page.locator("h1")).to_have_text(["Cancel the season"])
    width = person.page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the desk's page scrolls sideways ({width} px)"
    assert not serious_violations(person.page), serious_violations(person.page)
    box = form.locator('textarea[name="reason"]').bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box

    form.locator('textarea[name="reason"]').fill(REASON)
    form.locator('input[name="confirm"]').check()
    form.locator('input[type="submit"]').click()
    person.page.wait_for_url(f"**/admin/seasons/season/{season.pk}/change/")
    season.refresh_from_db()
    assert season.status == SeasonStatus.CANCELLED and season.cancel_reason == REASON
    person.assert_clean()
