"""End-to-end: a finished Drakon match's computer review read on a phone (390 px).

The match is played to its end through the services and its review is
stored as the review's worker stores it (``MatchReview``, ready), with a
blunder, a mistake and a roll of good luck on known steps (the marks'
rendering is under test here, not the search: tests/engine/test_review.py
judges the search's marks). At 390 px, with Debian's chromium:

- the replay's move list carries the marks and the luck beside their steps;
- the board of the marked step has the mark, the mover's chance before it
  and the choice the strong bot preferred;
- the review section has one line per player, the chart (an SVG) and its
  table for screen readers, with a row per decision;
- the end banner of the match page has each player's summary line;

and no page scrolls sideways, nothing in the review sticks out past the
window's right edge, and axe finds no serious or critical violation. The
browser must see no error and no failed request.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.engine import registry
from games.engine.review import Decision
from games.models import MatchReview, ReviewStatus
from games.play import reviews
from tests.e2e.helpers import log_in, make_player
from tests.e2e.test_e2e_accessibility import PHONE, serious_violations
from tests.e2e.test_e2e_replay import _finished_drakon_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Elements of the review that must stay inside the phone's width.
REVIEW_PARTS = (
    "#review-mark",
    "#review",
    "#review-lines",
    "#review-chart",
    "#review-chart svg",
    ".replay-log .review-badge",
)


def _store_review(match) -> dict[str, int]:
    """A ready review of every decision of ``match``: clean but for a blunder
    and a mistake of seat 0 and a lucky draw of seat 1 (steps returned by name)."""
    game = registry.get(match.game_key)
    start = game.setup_for(match.rules_version, match.n_seats, match.options, match.seed)
    entries = reviews.effective_entries(match)
    state, decisions, marked = start, [], {}
    for step, seat, action in entries:
        legal = game.legal_actions(state, seat)
        other = next((a for a in legal if a != action), action)
        row = Decision(step, seat, action, action, 0.5, 0.5, 0.0, "", forced=len(legal) == 1)
        if seat == 0 and other != action and "blunder" not in marked and step >= 3:
            row = replace(row, best=other, chance=0.62, made_value=0.2, loss=0.42, mark="blunder")
            marked["blunder"] = step
        elif seat == 0 and other != action and "blunder" in marked and "mistake" not in marked:
            row = replace(row, best=other, chance=0.4, made_value=0.22, loss=0.18, mark="mistake")
            marked["mistake"] = step
        elif seat == 1 and "luck" not in marked and step >= 3:
            row = replace(row, chance_step=True, after_chance=0.9, lucky="good")
            marked["luck"] = step
        decisions.append(row.to_json())
        state = game.apply(state, seat, action)[0]
    assert set(marked) == {"blunder", "mistake", "luck"}
    MatchReview.objects.create(
        match=match,
        status=ReviewStatus.READY,
        requested_by=None,
        queued_at=timezone.now(),
        finished_at=timezone.now(),
        budget={"iterations": 8, "samples": 6, "luck_samples": 4},
        decisions=decisions,
    )
    return marked


def _sticking_out(page, selectors) -> list[str]:
    """The review's elements whose right edge passes the window's width."""
    return page.evaluate(
        """([selectors, width]) => selectors.flatMap(sel =>
            [...document.querySelectorAll(sel)]
              .filter(el => el.getBoundingClientRect().right > width + 0.5)
              .map(el => `${sel}: right edge at ${Math.round(el.getBoundingClientRect().right)} px`))""",
        [list(selectors), PHONE["width"]],
    )


def _fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} is {width} px wide at 390 px"
    assert _sticking_out(page, REVIEW_PARTS) == []


def test_a_review_reads_on_a_phone(live_server, window):
    players = [make_player("ayla"), make_player("borys")]
    match = _finished_drakon_match(players)
    marked = _store_review(match)
    ayla = window("ayla")
    page = ayla.page
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "ayla")
    base = f"{live_server.url}/m/{match.pk}/replay/"

    # The blundered step: its mark on the board and in the move list.
    page.goto(f"{base}?at={marked['blunder']}")
    expect(page.locator("#replay")).to_have_attribute("data-step", str(marked["blunder"]))
    mark = page.locator("#review-mark")
    expect(mark).to_be_visible()
    expect(mark.locator(".review-badge.mark-blunder")).to_have_text("Blunder")
    expect(mark).to_contain_text("ayla lost 42 % of their chance here.")
    expect(mark).to_contain_text("ayla's chance before this step: 62 %.")
    expect(mark).to_contain_text("The strong bot preferred:")
    log = page.locator(".replay-log")
    expect(log.locator(f'li[value="{marked["blunder"]}"] .review-badge.mark-blunder')).to_have_text(
        "Blunder"
    )
    expect(log.locator(f'li[value="{marked["mistake"]}"] .review-badge.mark-mistake')).to_have_text(
        "Mistake"
    )
    expect(log.locator(f'li[value="{marked["luck"]}"] .review-badge.luck-good')).to_have_text(
        "Good luck"
    )
    expect(log.locator(".review-badge")).to_have_count(3)
    # The review section: a line per player, the chart and its table.
    lines = page.locator("#review #review-lines li")
    expect(lines).to_have_count(2)
    expect(lines.nth(0)).to_contain_text("ayla")
    expect(lines.nth(0)).to_contain_text("1 mistake, 1 blunder")
    expect(lines.nth(1)).to_contain_text("no marked mistakes")
    expect(lines.nth(1)).to_contain_text("luck: 1 good, 0 bad")
    chart = page.locator("#review-chart")
    expect(chart.locator("svg")).to_be_visible()
    expect(chart.locator("svg polyline")).to_have_count(2)
    table = chart.locator("table")
    expect(table.locator("caption")).to_have_text("Each player's estimated chance, step by step")
    expect(table.locator("tbody tr")).to_have_count(len(reviews.effective_entries(match)))
    expect(table.locator("thead th")).to_have_count(3)
    page.locator("#review").scroll_into_view_if_needed()
    ayla.screenshot("review-phone-replay")
    _fits(page)
    assert serious_violations(page) == []

    # The lucky draw: its luck beside the board.
    page.goto(f"{base}?at={marked['luck']}")
    mark = page.locator("#review-mark")
    expect(mark.locator(".review-badge.luck-good")).to_have_text("Good luck")
    expect(mark).to_contain_text("The roll or draw left borys a chance of 90 %.")
    _fits(page)

    # The end banner: each player's summary line.
    page.goto(f"{live_server.url}/m/{match.pk}/")
    banner = page.locator("#match-panel #review-lines li")
    expect(banner).to_have_count(2)
    expect(banner.nth(0)).to_contain_text("ayla")
    expect(banner.nth(0)).to_contain_text("1 mistake, 1 blunder, average loss")
    expect(banner.nth(1)).to_contain_text("borys")
    expect(page.locator("#ask-review")).to_have_count(0)
    ayla.screenshot("review-phone-banner")
    _fits(page)
    assert serious_violations(page) == []
    ayla.assert_clean()
