"""Every board readable and playable on a phone (390 px wide) and a desktop.

Each presenter declares ``PIECE_SELECTOR``, the CSS selector of a piece on
its board (a knight, a hero, a card, an egg). A fresh match of every
registered game is drawn at a phone's width and a desktop's: every piece
the selector finds is at least 24 px both ways, the page does not scroll
sideways on the phone, the page's icon and the board's icons load, and the screenshots stay in
test-results/.
"""

from __future__ import annotations

import re

import pytest
from django.templatetags.static import static
from playwright.sync_api import expect

from games import lobby, presenters
from games.engine import registry
from tests.conformance.kit import GAME_KEYS
from tests.e2e.helpers import log_in, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
SMALLEST_PIECE = 24  # px, both ways, the brief's "readable and tappable"


@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_piece_is_at_least_24_px_on_a_phone_and_a_desktop(key, live_server, window):
    selector = presenters.hook(presenters.get(key), "PIECE_SELECTOR")
    assert selector, f"{key}'s presenter declares no PIECE_SELECTOR"
    game = registry.get(key)
    user = make_player(f"{key[:10]}-phone")
    match = lobby.create_match(user=user, game_key=key, n_seats=game.min_players)
    lobby.fill_with_bots(user=user, match=match)
    person = window("player")
    log_in(person.page, live_server.url, user.username)
    too_small = {}
    for label, size in [("phone", PHONE), ("desktop", DESKTOP)]:
        person.page.set_viewport_size(size)
        person.page.goto(f"{live_server.url}/m/{match.pk}/")
        person.page.wait_for_load_state("networkidle")
        person.screenshot(f"pieces-{key}-{label}")
        # Icons are drawn by reference to the sprite (/icons.svg): one that did not
        # load has no size.
        drawn = person.page.evaluate(
            "[...document.querySelectorAll('#match-panel svg.icon use')]"
            ".map(use => use.getBBox().width)"
        )
        assert all(width > 0 for width in drawn), f"{key}: icons not drawn ({label}): {drawn}"
        pieces = person.page.locator(f"#match-panel {selector}")
        assert pieces.count() > 0, f"{key}: no piece matches {selector!r} ({label})"
        boxes = [pieces.nth(i).bounding_box() for i in range(pieces.count())]
        too_small[label] = [
            (round(box["width"], 1), round(box["height"], 1))
            for box in boxes
            if box is None or min(box["width"], box["height"]) < SMALLEST_PIECE
        ]
        if label == "phone":
            width = person.page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], f"{key}: the page scrolls sideways ({width} px)"
    assert not any(too_small.values()), f"{key}: pieces under {SMALLEST_PIECE} px: {too_small}"
    # The tab shows the site's own icon (a missing one would be a 404 here); while it is
    # the viewer's turn the page's script swaps in a dot, so ask for the served one.
    icon = static("icons/favicon.svg")
    answer = person.page.request.get(live_server.url + icon)
    assert answer.ok and "svg" in answer.headers["content-type"], (icon, answer.status)
    person.assert_clean()


def test_a_grown_drakon_labyrinth_keeps_its_pieces_24_px_on_a_phone(live_server, window):
    """Nine cells wide with the free ring: fitted to 390 px a hero would be ~16 px, so on a
    phone the labyrinth starts at full size in its own scroll box (the page itself does
    not scroll sideways), and the toggle still fits it to the screen."""
    from games.catalog.drakon.builders import build_state
    from games.models import Match

    user = make_player("drakon-big")
    match = lobby.create_match(user=user, game_key="drakon", n_seats=2)
    lobby.fill_with_bots(user=user, match=match)
    rooms = {(x, 0): "empty {N}" for x in (-3, -2, -1, 1, 2, 3)}
    rooms.update({(0, 1): "portal {N}", (0, -1): "find_coin {N}"})
    state = build_state(
        2, rooms=rooms, heroes=["-3,0", "3,0"], drakon="2,0", hands=[["harp", "swap"], []]
    )
    Match.objects.filter(pk=match.pk).update(state=state)
    person = window("player")
    log_in(person.page, live_server.url, user.username)
    person.page.set_viewport_size(PHONE)
    person.page.goto(f"{live_server.url}/m/{match.pk}/")
    person.page.wait_for_load_state("networkidle")
    person.screenshot("pieces-drakon-grown-phone")
    pieces = person.page.locator("#match-panel .drakon-board g.piece circle")
    assert pieces.count() == 3
    sizes = [pieces.nth(i).bounding_box() for i in range(3)]
    assert min(min(box["width"], box["height"]) for box in sizes) >= SMALLEST_PIECE, sizes
    assert person.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    box = person.page.locator("#match-panel .drakon-board .board-scroll")
    assert box.evaluate("b => b.scrollWidth > b.clientWidth")
    person.page.locator("#match-panel .drakon-board .zoom-label").click()
    assert box.evaluate("b => b.scrollWidth <= b.clientWidth")
    person.assert_clean()


def test_the_move_box_folds_away_to_show_the_whole_board_on_a_phone(live_server, window):
    """The "Your move" box sticks to the bottom of a phone's screen over the board;
    its toggle folds it down to its heading and back, the choice survives the
    panel's next swap and a reload, and a desktop (no sticky box) never shows it."""
    user = make_player("fold-phone")
    match = lobby.create_match(
        user=user, game_key="nogi", n_seats=2, options={"first_player": "host"}
    )
    lobby.fill_with_bots(user=user, match=match)
    person = window("player")
    log_in(person.page, live_server.url, user.username)
    page = person.page
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/m/{match.pk}/")
    page.wait_for_load_state("networkidle")
    box, toggle = page.locator("#choices"), page.locator("#choices .choices-toggle")
    buttons = page.locator("#choices .choice-buttons")
    assert toggle.is_visible() and buttons.is_visible()
    assert toggle.get_attribute("aria-expanded") == "true"
    open_height = box.bounding_box()["height"]

    toggle.click()
    assert not buttons.is_visible()
    assert toggle.get_attribute("aria-expanded") == "false"
    assert toggle.inner_text() == "Show"
    folded_height = box.bounding_box()["height"]
    assert folded_height < 70 and folded_height < open_height / 2, (folded_height, open_height)
    person.screenshot("move-box-folded-phone")

    # The panel's next swap (the first step of a move) keeps it folded, and so does a reload.
    page.locator("#match-panel .board-choice:not(.final)").first.click()
    expect(page.locator("#choices h2")).to_contain_text("›")
    expect(page.locator("#choices")).to_have_class(re.compile(r"\bcollapsed\b"))
    assert not page.locator("#choices .choice-buttons").is_visible()
    page.reload()
    page.wait_for_load_state("networkidle")
    assert not page.locator("#choices .choice-buttons").is_visible()

    page.locator("#choices .choices-toggle").click()
    assert page.locator("#choices .choice-buttons").is_visible()
    assert page.locator("#choices .choices-toggle").get_attribute("aria-expanded") == "true"

    page.locator("#choices .choices-toggle").click()  # folded again, then a desktop
    page.set_viewport_size(DESKTOP)
    assert not page.locator("#choices .choices-toggle").is_visible()
    assert page.locator("#choices .choice-buttons").is_visible(), "a desktop never folds it"
    person.assert_clean()
