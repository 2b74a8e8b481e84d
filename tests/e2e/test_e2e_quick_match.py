"""End-to-end: on a phone (390 px), in English, Polish and Czech, a player
asks for a quick match from the lobby, sees the request waiting with its
Withdraw button on the page and the lobby, is seated as soon as another
player asks (the pass runs after each request), follows the link to the
match, and withdraws another request from the lobby. Nothing scrolls
sideways; axe finds no serious or critical violation on the page."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from matchmaking import services
from matchmaking.models import Request, RequestStatus
from tests.e2e.helpers import PASSWORD, make_player
from tests.e2e.test_e2e_accessibility import serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
WORDS = {"en": "Quick match", "pl": "Szybka gra", "cs": "Rychlá hra"}


def _fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], page.url


def _log_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    form = page.locator('main form[action="/accounts/login/"]')
    form.locator('input[name="login"]').fill(username)
    form.locator('input[name="password"]').fill(PASSWORD)
    form.locator('button[type="submit"]').click()
    expect(page.locator("header.topbar nav")).to_contain_text(username)


@pytest.mark.parametrize("language", ["en", "pl", "cs"])
def test_ask_wait_be_seated_and_withdraw_on_a_phone(live_server, window, language):
    ann = make_player("ann_with_a_long_name")
    ann.profile.language = language
    ann.profile.save()
    ben = make_player("ben")

    mine = window("ann")
    page = mine.page
    page.set_viewport_size(PHONE)
    _log_in(page, live_server.url, ann.username)  # helpers.log_in reads English
    page.goto(live_server.url + "/")
    expect(page.locator("#quick-match h2")).to_have_text(WORDS[language])
    page.locator("#quick-match-link").click()
    expect(page).to_have_url(re.compile(r"/quick-match/$"))
    _fits(page)
    page.locator("#quick-match-games a[href$='?game=nogi']").click()
    form = page.locator("#quick-match-form")
    expect(form).to_be_visible()
    _fits(page)
    form.locator("button[type=submit]").click()
    expect(page.locator("#quick-match-mine li")).to_have_count(1)
    (made,) = Request.objects.filter(user=ann)
    expect(page.locator(f"#quick-request-{made.pk} button")).to_be_visible()
    _fits(page)
    if language == "en":
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            assert serious_violations(page) == [], scheme
    page.goto(live_server.url + "/")
    expect(page.locator(f"#quick-request-{made.pk} button")).to_be_visible()
    _fits(page)

    # Another player asks: the pass after the request seats them both.
    day = timedelta(days=1)
    services.request(ben, game_key="nogi", counts=[2], clock_min=day, clock_max=3 * day)
    services.match_waiting()  # the pass a worker runs after the request's commit
    made.refresh_from_db()
    assert made.status == RequestStatus.SEATED and made.match_id
    page.goto(live_server.url + "/quick-match/")
    link = page.locator(f"#quick-request-{made.pk} a[href='/m/{made.match_id}/']")
    expect(link).to_be_visible()
    _fits(page)
    link.click()
    expect(page).to_have_url(re.compile(rf"/m/{made.match_id}/$"))

    # A request for any game, withdrawn from the lobby.
    page.goto(live_server.url + "/quick-match/?game=any")
    page.locator("#quick-match-form button[type=submit]").click()
    other = Request.objects.get(user=ann, status=RequestStatus.WAITING)
    page.goto(live_server.url + "/")
    page.locator(f"#quick-request-{other.pk} button").click()
    expect(page).to_have_url(live_server.url + "/")
    expect(page.locator(f"#quick-request-{other.pk}")).to_have_count(0)
    other.refresh_from_db()
    assert other.status == RequestStatus.WITHDRAWN
    mine.assert_clean()
