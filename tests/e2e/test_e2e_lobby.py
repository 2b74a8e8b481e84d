"""The lobby's game tiles in the browser (issue 31, item 9): side by side on a
desktop, stacked one under another on a phone, each showing its icon, its
player counts, its sentence and its actions, with nothing scrolling sideways."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.conformance.kit import GAME_KEYS
from tests.e2e.helpers import log_in, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def boxes(page) -> list[dict]:
    tiles = page.locator("#games .game-tile")
    expect(tiles).to_have_count(len(GAME_KEYS))
    return [tile.bounding_box() for tile in tiles.all()]


def test_the_game_tiles_stack_on_a_phone_and_sit_side_by_side_on_a_desktop(live_server, window):
    user = make_player("tile-reader")
    person = window("player")
    page = person.page
    log_in(page, live_server.url, user.username)
    page.goto(live_server.url + "/")
    for tile in page.locator("#games .game-tile").all():
        for part in ["svg.game-icon", ".game-players", ".game-summary", ".how-to-play-link"]:
            expect(tile.locator(part)).to_be_visible()
        expect(tile.locator(".new-match-link")).to_be_visible()
        icon = tile.locator("svg.game-icon").bounding_box()
        assert icon["width"] >= 40 and icon["height"] >= 40
    desktop = boxes(page)
    assert desktop[1]["y"] == desktop[0]["y"], "the tiles do not share a row on a desktop"

    page.set_viewport_size(PHONE)
    phone = boxes(page)
    for above, below in zip(phone, phone[1:], strict=False):
        assert below["x"] == above["x"], "a tile is beside another on a phone"
        assert below["y"] >= above["y"] + above["height"], "the tiles overlap"
    for box in phone:
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        # Each takes the column's width: a tile is the screen's width less the margins.
        assert box["width"] >= PHONE["width"] - 40
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Off the first screen the cards are laid out only when scrolled near
    # (content-visibility), and each icon is then drawn from the sprite of the
    # cards' icons: a reference left unresolved has no size.
    page.locator("#games .game-tile").last.scroll_into_view_if_needed()
    expect(page.locator("#games svg.game-icon use")).to_have_count(len(GAME_KEYS))
    page.wait_for_function(
        "[...document.querySelectorAll('#games svg.game-icon use')]"
        ".every(use => use.getBBox().width > 100)"
    )
    person.screenshot("lobby-tiles-phone")
    person.assert_clean()
