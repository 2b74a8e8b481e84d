"""End-to-end: an anonymous visitor watches a public Nogi za pas! match.

A spectator sees the board and the log, and follows new moves through the
panel's poll, but never a secrets section, never choices, never a private
log sentence. The players and their moves are made through the services
(the two-player test covers doing that in the browser).
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from games.catalog.nogi import presenter as nogi_presenter
from games.catalog.nogi.rules import shield_colours
from games.engine import registry
from games.lobby import services as lobby
from games.models import Match, MatchStatus
from games.play import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POLL_MS = 20_000  # the panel polls every 5 s: allow a few rounds


def play(match: Match, players: list) -> None:
    """The player to move makes their first legal move."""
    match.refresh_from_db()
    game = registry.get(match.game_key)
    seat = game.current_seats(match.state)[0]
    action = game.legal_actions(match.state, seat)[0]
    services.submit_action(match, players[seat], action, match.version)


def assert_spectator_view(page: Page, match: Match) -> None:
    panel = page.locator("#match-panel")
    svg = panel.locator("figure.nogi-board")
    expect(svg.locator("ol.track > li > svg")).to_have_count(36)
    expect(svg.locator("circle.knight")).to_have_count(7)
    expect(svg.locator("g.die")).to_have_count(8)
    expect(panel.locator(".status")).to_contain_text("In play")
    # Nothing that belongs to a seat: no secrets, no choices, no "you".
    for selector in ("#my-secrets", "#choices", "button.choice", "a.choice", "#join-button"):
        expect(page.locator(selector)).to_have_count(0)
    expect(panel.locator("ol.seats li.me")).to_have_count(0)
    expect(panel.locator("strong.your-turn")).to_have_count(0)
    html = page.content()
    assert 'id="my-secrets"' not in html
    assert "Only you can see this" not in html
    assert "Only you see this" not in html
    text = page.locator("body").inner_text()
    for seat in range(match.n_seats):
        for shield in shield_colours(match.state, seat):
            written = ", ".join(nogi_presenter.colour_name(c) for c in shield)
            assert written not in text, f"seat {seat}'s shield {shield} is shown to a spectator"


def test_spectator_sees_the_board_but_no_secrets_and_no_choices(live_server, window):
    User = get_user_model()
    players = [User.objects.create_user(n, f"{n}@example.com", "x") for n in ("cyril", "dana")]
    match = lobby.create_match(user=players[0], game_key="nogi", n_seats=2)
    lobby.join_match(user=players[1], match=match)
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    for _ in range(2):
        play(match, players)

    visitor = window("spectator")
    page = visitor.page
    page.goto(f"{live_server.url}/m/{match.pk}/")
    expect(page.locator("header.topbar").get_by_role("link", name="Log in")).to_be_visible()
    expect(page.locator("#match-panel")).to_have_attribute("data-version", "2")
    expect(page.locator("ol.move-log > li")).to_have_count(3)  # the opening and two moves
    expect(page.locator("ol.seats")).to_contain_text(re.compile(r"cyril.*dana", re.S))
    match.refresh_from_db()
    assert_spectator_view(page, match)
    page.evaluate("window.__e2eMark = 'no reload'")

    # A new move reaches the spectator through the poll, still without secrets.
    play(match, players)
    expect(page.locator("#match-panel")).to_have_attribute("data-version", "3", timeout=POLL_MS)
    expect(page.locator("ol.move-log > li")).to_have_count(4)
    match.refresh_from_db()
    assert_spectator_view(page, match)
    assert page.evaluate("window.__e2eMark") == "no reload"

    visitor.assert_clean()
    visitor.screenshot("e2e-nogi")
