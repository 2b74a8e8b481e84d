"""Seven Dragons' grid numbers its columns and rows (issue 39, item 10).

The log names a card's place as "column 1, row -2"; the grid prints the column
numbers above it and the row numbers left of it, as Drako prints its hexes'
names, so that place is found: above the card at column 1, row -2 stands "1",
left of it "-2", on a desktop and on a phone (where the grid scrolls sideways).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.catalog.seven_dragons.builders import position
from games.lobby import services as lobby
from games.models import Match
from tests.e2e.helpers import log_in, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOARD = "#match-panel figure.seven-dragons-board svg"


def _centre(box: dict) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}])
def test_the_log_s_place_is_found_by_the_grid_s_numbers(size, live_server, window):
    players = [make_player("axa"), make_player("axel")]
    match = lobby.create_match(user=players[0], game_key="seven_dragons", n_seats=2)
    lobby.join_match(user=players[1], match=match)
    match.refresh_from_db()
    state = position(
        board={"1,0": "DR-S-red", "1,-1": "DR-S-blue", "1,-2": "DR-S-green", "2,0": "DR-RBW"},
        hands=[["DR-H-red-green"], ["DR-S-blue"]],
        goals=["red", "blue"],
        deck=20,
        options=match.options,
    )
    Match.objects.filter(pk=match.pk).update(state=state)
    page = window("axa").page
    page.set_viewport_size(size)
    log_in(page, live_server.url, "axa")
    page.goto(f"{live_server.url}/m/{match.pk}/")
    card = page.locator(f'{BOARD} g.sd-card[data-cell="1,-2"]')
    expect(card.locator("title")).to_contain_text("column 1, row -2")
    card.scroll_into_view_if_needed()
    column = page.locator(f'{BOARD} text[data-column="1"]')
    row = page.locator(f'{BOARD} text[data-row="-2"]')
    expect(column).to_have_text("1")
    expect(row).to_have_text("-2")
    expect(column).to_be_visible()
    expect(row).to_be_visible()
    box = card.bounding_box()
    x, _y = _centre(column.bounding_box())
    _x, y = _centre(row.bounding_box())
    assert box["x"] <= x <= box["x"] + box["width"], "column 1's number is not above the card"
    assert box["y"] <= y <= box["y"] + box["height"], "row -2's number is not beside the card"
    assert column.bounding_box()["y"] + column.bounding_box()["height"] <= box["y"] + 1
    assert row.bounding_box()["x"] + row.bounding_box()["width"] <= box["x"] + 1
    # Every column and row of the grid is numbered once.
    numbers = page.locator(f"{BOARD} text[data-column]").all_text_contents()
    assert numbers == [str(n) for n in range(int(numbers[0]), int(numbers[0]) + len(numbers))]
    rows = page.locator(f"{BOARD} text[data-row]").all_text_contents()
    assert {"-2", "-1", "0"} <= set(rows)
