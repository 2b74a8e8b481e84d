"""End-to-end on a phone (390 px), in English, Polish and Czech: a season
open for sign-up with its rules shown before signing up (signing up and
leaving through its buttons), a running season's division tables, the
season list, and a player's page with their division; no sideways
scrolling and no serious axe finding on any of them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import Profile
from accounts.selectors import forget_preferences
from seasons import services
from seasons.models import Season
from tests.e2e.helpers import log_in, make_player
from tests.e2e.test_e2e_axe_states import LOCALES, serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _season(game_key: str, **fields) -> Season:
    now = timezone.now()
    return Season.objects.create(
        game_key=game_key,
        year=2090,
        quarter=1,
        signup_opens_at=now - timedelta(days=1),
        starts_at=now + timedelta(days=20),
        **fields,
    )


@pytest.mark.parametrize("language", list(LOCALES))
def test_a_season_signed_up_for_and_its_divisions_on_a_phone(language, live_server, browser):
    people = [make_player(f"{language}-se{i}") for i in range(10)]
    open_one = _season("nogi", vacation_allowed=False, weekend_pause=True)
    running = _season("drako")
    for user in people:
        services.sign_up(user=user, season=running)
    services.start(running.pk, now=running.starts_at)
    for pk in services.waiting_divisions(running.starts_at, grace=timedelta(0)):
        services.start_division(pk, running.starts_at)

    context = browser.new_context(viewport={"width": 390, "height": 844}, locale=LOCALES[language])
    page = context.new_page()
    problems = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("response", lambda r: problems.append(r.url) if r.status >= 400 else None)
    log_in(page, live_server.url, people[1].username)
    Profile.objects.filter(user=people[1]).update(language=language)
    forget_preferences(people[1].pk)

    page.goto(f"{live_server.url}/seasons/{open_one.pk}/")
    assert page.evaluate("document.documentElement.lang") == language
    expect(page.locator("#season-rules .clock-rule")).to_have_count(2)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert serious_violations(page) == []
    page.locator("#season-sign-up").click()
    expect(page.locator("#season-leave")).to_be_visible()
    assert open_one.entries.filter(user=people[1]).exists()
    page.locator("#season-leave").click()
    expect(page.locator("#season-sign-up")).to_be_visible()
    assert not open_one.entries.exists()
    for path in (
        f"/seasons/{running.pk}/",
        "/seasons/",
        f"/players/{people[1].username}/",
    ):
        page.goto(live_server.url + path)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
        assert serious_violations(page) == [], path
    page.goto(f"{live_server.url}/seasons/{running.pk}/")
    expect(page.locator("#division-1 tbody tr")).to_have_count(5)
    expect(page.locator("#division-2 tbody tr")).to_have_count(5)
    expect(page.locator(".is-me")).to_have_count(1)
    page.goto(f"{live_server.url}/players/{people[1].username}/")
    expect(page.locator("#season-current")).to_be_visible()
    assert problems == [], problems
    context.close()
