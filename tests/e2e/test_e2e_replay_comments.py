"""End-to-end: a player comments on a step of a finished match's replay on a
phone (390 px). The form sends through htmx; the comment shows beside its
step and in the list of all comments, whose link brings the replay back to
that step; the page fits 390 px and has no serious accessibility finding."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.lobby import services as lobby
from games.models import MatchStatus
from games.play import safety
from tests.conftest import each_seat_moves
from tests.e2e.helpers import log_in, make_player
from tests.e2e.test_e2e_accessibility import PHONE, serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_comments_on_a_step_of_the_replay_on_a_phone(live_server, window):
    ayla, borys = make_player("ayla-c"), make_player("borys-c")
    match = lobby.create_match(user=ayla, game_key="nogi", n_seats=2)
    lobby.join_match(user=borys, match=match)
    match = each_seat_moves(match)
    safety.resign(user=borys, match=match)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    person = window("ayla")
    page = person.page
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, ayla.username)
    base = f"{live_server.url}/m/{match.pk}/replay/"
    page.goto(f"{base}?at=1")
    expect(page.locator("#step-comments h2")).to_have_text("Comments on step 1")
    page.get_by_label("Your comment on step 1").fill("A <i>risky</i> opening")
    page.get_by_role("button", name="Comment", exact=True).click()
    beside = page.locator("#this-step-comments li")
    expect(beside).to_have_count(1)
    expect(beside).to_contain_text("ayla-c: A <i>risky</i> opening")
    expect(page.locator("#comment-text")).to_have_value("")
    # A player may open the replay to anyone's comments: the switch reads as a link.
    switch = page.get_by_role("button", name="Let anyone signed in comment")
    expect(switch).to_be_visible()
    color = switch.evaluate("b => getComputedStyle(b).color")
    assert color != "rgb(255, 255, 255)", "the switch is white on the card"
    person.screenshot("replay-comments-phone")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the replay is {width} px wide at 390 px"
    assert not serious_violations(page), serious_violations(page)
    # From another step, the list's link brings the replay back to step 1.
    page.goto(f"{base}?at=0")
    expect(page.locator("#this-step-comments")).to_have_count(0)
    page.locator("#all-comments a", has_text="Step 1").click()
    expect(page).to_have_url(re.compile(r"\?at=1#step-comments$"))
    expect(page.locator("#replay")).to_have_attribute("data-step", "1")
    expect(page.locator("#this-step-comments li")).to_have_count(1)
    person.assert_clean()
