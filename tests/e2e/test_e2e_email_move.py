"""End-to-end: a move from the "your turn" email, on a phone, logged out."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.correspondence import compose
from games.lobby import services as lobby
from games.models import Move, Notification, NotificationKind
from tests.e2e.helpers import make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_move_from_the_email_on_a_phone(live_server, browser):
    alice, bob = make_player("alice"), make_player("bob")
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, options={"first_player": "host"}
    )
    lobby.join_match(user=bob, match=match)
    row = Notification.objects.get(match=match, user=alice, kind=NotificationKind.YOUR_TURN)
    label, url = next(c for c in compose.email_choices(row) if "/by-email/" in c[1])
    path = url.split("://", 1)[1].split("/", 1)[1]

    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/{path}")
    expect(page.locator("#email-move-label")).to_have_text(label)
    button = page.locator("#email-move-confirm")
    expect(button).to_be_visible()
    box = button.bounding_box()
    assert box["y"] + box["height"] <= 844  # on the first screen
    assert box["width"] >= 24 and box["height"] >= 24  # big enough to tap
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    button.tap()
    expect(page.locator("#email-move-done")).to_be_visible()
    assert Move.objects.filter(match=match, seq=1, actor=alice).exists()
    page.goto(f"{live_server.url}/{path}")  # the same link again
    expect(page.locator("#email-move-stale")).to_be_visible()
    context.close()


def _phone(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    return context, context.new_page()


def test_the_confirmation_page_shows_the_match_and_after_the_move_who_is_next(live_server, browser):
    alice, bob = make_player("alice"), make_player("bob")
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, options={"first_player": "host"}
    )
    lobby.join_match(user=bob, match=match)
    row = Notification.objects.get(match=match, user=alice, kind=NotificationKind.YOUR_TURN)
    _label, url = next(c for c in compose.email_choices(row) if "/by-email/" in c[1])
    path = url.split("://", 1)[1].split("/", 1)[1]

    context, page = _phone(browser)
    page.goto(f"{live_server.url}/{path}")
    expect(page.locator("#email-move-match")).to_contain_text(f"Nogi za pas! #{match.pk}")
    expect(page.locator("#email-move-match")).to_contain_text("bob")
    expect(page.locator("#email-move-board svg").first).to_be_visible()
    button = page.locator("#email-move-confirm")
    box = button.bounding_box()
    assert box["y"] + box["height"] <= 844  # still on the first screen
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    button.tap()
    expect(page.locator("#email-move-done")).to_be_visible()
    expect(page.locator("#email-move-next")).to_contain_text("Waiting for bob")
    expect(page.locator("#email-move-board svg").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()


def test_when_the_turn_goes_on_the_page_offers_the_next_move(live_server, browser):
    """Drako's second action: after the first, the page says the turn goes on
    and its next choices open their own confirmation pages."""
    from games.correspondence import move_links
    from games.engine import registry
    from games.play import services

    alice, bob = make_player("alice"), make_player("bob")
    match = lobby.create_match(user=alice, game_key="drako", n_seats=2)
    lobby.join_match(user=bob, match=match)
    match.refresh_from_db()
    game = registry.get("drako")
    first = game.current_seats(match.state)[0]
    services.submit_action(
        match,
        match.seats.get(index=first).user,
        game.legal_actions(match.state, first)[0],
        match.version,
    )
    match.refresh_from_db()
    (seat,) = game.current_seats(match.state)
    player = match.seats.get(index=seat).user
    token = move_links.make_token(
        match_id=match.pk,
        seat=seat,
        user_id=player.pk,
        version=match.version,
        action={"type": "draw"},
        deadline=match.deadline,
    )

    context, page = _phone(browser)
    page.goto(live_server.url + move_links.url_for(token, match.pk))
    expect(page.locator("#email-move-match")).to_contain_text("Drako: Dragon & Dwarves")
    page.locator("#email-move-confirm").tap()
    expect(page.locator("#email-move-next")).to_contain_text("It is still your turn.")
    page.locator("#email-move-next a[href*='/by-email/']").first.tap()
    expect(page.locator("#email-move-confirm")).to_be_visible()
    expect(page.locator("#email-move-board svg").first).to_be_visible()
    context.close()
