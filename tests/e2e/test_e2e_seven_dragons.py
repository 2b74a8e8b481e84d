"""End-to-end: a short Seven Dragons match in two real browsers, placing cards on the grid.

Drives Debian's chromium through Playwright against pytest-django's
``live_server``. Logging in, creating the match, joining it and every move go
through the real pages, by clicks: a card in the hand, then a cell outlined on
the grid, then (for a card that can lie two ways) its orientation shown as a
preview. Only the deal is arranged through the ORM right after the start (the
cards are random), so that the match is short: a red row of five (the wild
silver dragon and the rainbow dragon included) waits for Ada, whose goal is red; she lays a sixth red
dragon, Bruno lays a blue one, and Ada's seventh wins.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from games.catalog.seven_dragons.builders import position
from games.models import Match, MatchStatus, Move
from tests.e2e.helpers import click_on_board, log_in, make_player, new_match, wait_for_version

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOARD = "#match-panel figure.seven-dragons-board"


def click(page: Page, path: str) -> None:
    click_on_board(page, BOARD, path)


def test_a_short_seven_dragons_match_by_clicking_the_grid(live_server, window):
    base = live_server.url
    make_player("ada")
    make_player("bruno")
    ada, bruno = window("ada"), window("bruno")
    a, b = ada.page, bruno.page
    log_in(a, base, "ada")
    log_in(b, base, "bruno")

    pk = new_match(a, "seven_dragons", n_seats="2", visibility="public")
    b.goto(f"{base}/m/{pk}/")
    b.locator("#join-button").click()
    match = Match.objects.get(pk=pk)
    assert match.status == MatchStatus.ACTIVE

    # The deal, arranged: a red row of five; Ada (seat 1) owns red, Bruno blue.
    state = position(
        board={
            "1,0": "DR-S-red",
            "2,0": "DR-S-red",
            "3,0": "DR-H-red-gold",
            "4,0": "DR-RBW",
        },
        hands=[["DR-H-red-green", "DR-H-red-black"], ["DR-S-blue"]],
        goals=["red", "blue"],
        deck=20,
        options=match.options,
    )
    Match.objects.filter(pk=pk).update(state=state)
    for page in (a, b):
        page.goto(f"{base}/m/{pk}/")
    expect(a.locator("strong.your-turn")).to_be_visible()
    expect(a.locator(f"{BOARD} svg g.sd-card")).to_have_count(5)
    expect(a.locator("#my-secrets p").first).to_have_text("Your secret goal: red (R)")
    expect(b.locator("#my-secrets p").first).to_have_text("Your secret goal: blue (B)")
    ada.screenshot("seven-dragons-start")

    # 1. Ada: the red/green card in her hand, a cell outlined on the grid, then one of the
    # two orientations (next to the rainbow both fit), shown as previews.
    click(a, "card-DR-H-red-green")
    expect(a.locator(f"{BOARD} svg rect.sd-spot")).not_to_have_count(0)
    click(a, "card-DR-H-red-green.cell-5,0")
    expect(a.locator("#sd-orientations .card")).to_have_count(2)
    expect(a.locator(f"{BOARD} svg rect.sd-chosen")).to_have_count(1)
    click(a, "card-DR-H-red-green.cell-5,0.rot-0")
    wait_for_version(b, 1)
    expect(b.locator("strong.your-turn")).to_be_visible()
    expect(b.locator(f"{BOARD} svg g.sd-group[data-colour='red']")).to_contain_text("6/7")

    # 2. Bruno, on a phone: the grid scrolls at natural size, cells stay large enough to tap.
    b.set_viewport_size({"width": 390, "height": 844})
    click(b, "card-DR-S-blue#1")
    spot = b.locator(f'{BOARD} svg rect.sd-spot[data-spot="0,1"]')
    box = spot.bounding_box()
    assert box["width"] >= 24 and box["height"] >= 24
    bruno.screenshot("seven-dragons-phone")
    click(b, "card-DR-S-blue#1.cell-0,1")
    wait_for_version(a, 2)

    # 3. Ada's seventh red dragon wins.
    click(a, "card-DR-H-red-black")
    click(a, "card-DR-H-red-black.cell-6,0")
    click(a, "card-DR-H-red-black.cell-6,0.rot-0")
    wait_for_version(b, 3)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.state["winners"] == [0]
    for page in (a, b):
        expect(page.locator(BOARD)).to_contain_text("ada connected seven dragons and won.")
        expect(page.locator("ol.move-log")).to_contain_text(
            "placed dragon card red/green at column 5, row 0, upright."
        )
        expect(page.locator("#revealed")).to_contain_text("blue")
    assert Move.objects.filter(match=match).count() == 4  # the opening and three moves
    ada.screenshot("seven-dragons-end")
    ada.assert_clean()
    bruno.assert_clean()


def _tab_to(page: Page, selector: str, presses: int = 120) -> None:
    """Press Tab until the keyboard focus is on ``selector``'s first element."""
    target = page.locator(selector).first
    expect(target).to_be_attached()
    for _press in range(presses):
        if target.evaluate("element => element === document.activeElement"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def test_a_seven_dragons_card_is_played_from_the_keyboard(live_server, window):
    """The hand's card and the grid's cell are links: Tab reaches them, Space picks the
    card and Enter lays it, and the move is played without a mouse."""
    from games.lobby import services as lobby

    ada, bruno = make_player("kada"), make_player("kbruno")
    match = lobby.create_match(user=ada, game_key="seven_dragons", n_seats=2)
    lobby.join_match(user=bruno, match=match)
    match.refresh_from_db()
    seat = match.seats.get(user=ada).index
    hands = [["DR-S-green"], ["DR-S-green"]]
    hands[seat] = ["DR-S-blue", "DR-S-red"]
    state = position(
        board={"1,0": "DR-S-red"},
        hands=hands,
        goals=["red", "blue"],
        deck=20,
        active=seat,
        options=match.options,
    )
    Match.objects.filter(pk=match.pk).update(state=state)
    person = window("ada")
    page = person.page
    log_in(page, live_server.url, "kada")
    page.goto(f"{live_server.url}/m/{match.pk}/")
    card = '#my-secrets [data-path^="card-DR-S-red"]'
    assert page.locator(card).evaluate("element => element.tagName") in ("A", "BUTTON")
    _tab_to(page, card)
    page.keyboard.press(" ")
    expect(page.locator(f"{BOARD} svg rect.sd-spot")).not_to_have_count(0)
    spot = f'{BOARD} [data-path^="card-DR-S-red"][data-path$=".cell-2,0"]'
    _tab_to(page, spot)
    page.keyboard.press("Enter")
    wait_for_version(page, 1)
    last = Move.objects.filter(match_id=match.pk).order_by("-seq").first()
    assert last.seq == 1 and last.action["card"].startswith("DR-S-red"), last.action
    expect(page.locator(f"{BOARD} svg g.sd-card")).to_have_count(3)
    person.assert_clean()


def test_the_grid_is_sized_to_the_desktop_column_and_how_to_play_has_pictures(live_server, window):
    """At 1280 x 800 the grid fills the board's column (or 60 % of the screen's height),
    not a third of it; the How to play page shows its four pictures in Czech, under the
    game's Czech name."""
    from games.lobby import services as lobby

    ada, bruno = make_player("gada"), make_player("gbruno")
    match = lobby.create_match(user=ada, game_key="seven_dragons", n_seats=2)
    lobby.join_match(user=bruno, match=match)
    person = window("ada")
    page = person.page
    page.set_viewport_size({"width": 1280, "height": 800})
    log_in(page, live_server.url, "gada")
    page.goto(f"{live_server.url}/m/{match.pk}/")
    grid = page.locator(f"{BOARD} svg[aria-labelledby='sd-grid-title']").bounding_box()
    column = page.locator(BOARD).bounding_box()
    assert grid["width"] >= 0.9 * column["width"] or grid["height"] >= 0.55 * 800, (
        grid,
        column,
    )
    person.screenshot("seven-dragons-grid-desktop")

    page.goto(f"{live_server.url}/games/seven_dragons/how-to-play/")
    page.locator("header.topbar").wait_for()
    expect(page.locator(".sd-figure")).to_have_count(4)
    for figure in ("winning", "placement", "silver"):
        box = page.locator(f'.sd-figure[data-figure="{figure}"]').bounding_box()
        assert box["width"] > 100 and box["height"] > 60, (figure, box)
    expect(page.locator('.sd-figure[data-figure="actions"] .card')).to_have_count(5)
    person.screenshot("seven-dragons-how-to-play")
    person.assert_clean()
