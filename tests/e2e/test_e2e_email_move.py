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
