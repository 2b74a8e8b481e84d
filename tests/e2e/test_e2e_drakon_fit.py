"""Drakon's board at the start of a match fits the turn and the screen (both editions).

At the first turn the lair is a lone Entrance. The board's frame takes in the
placed rooms and every cell a room may be placed on this turn, is never so
small that the Entrance is blown up, and the board with the first choice (a
tile of the hand) fits on the first screen, at a desktop's 1280 x 800 and a
phone's 390 x 844: every legal placement, drawn when its tile is chosen, lies
inside the board's visible area, without scrolling the page or the board.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from games.engine import registry
from games.lobby import services as lobby
from games.models import Match
from tests.e2e.helpers import log_in, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
LARGEST_ROOM = 140  # px: a room as large as this is plenty (the Entrance was ~550 px)

VISIBLE = """board => {
  const svg = board.querySelector('svg.labyrinth').getBoundingClientRect();
  const box = board.querySelector('.board-scroll').getBoundingClientRect();
  return {left: Math.max(svg.left, box.left, 0), top: Math.max(svg.top, box.top, 0),
          right: Math.min(svg.right, box.right, window.innerWidth),
          bottom: Math.min(svg.bottom, box.bottom, window.innerHeight)};
}"""


def _inside(box: dict, area: dict) -> bool:
    return (
        box["x"] >= area["left"] - 0.5
        and box["y"] >= area["top"] - 0.5
        and box["x"] + box["width"] <= area["right"] + 0.5
        and box["y"] + box["height"] <= area["bottom"] + 0.5
    )


def _open(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_load_state("networkidle")


@pytest.mark.parametrize("key", ["drakon", "drakon_classic"])
@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_the_first_turn_fits_the_board_and_the_screen(key, screen, live_server, window):
    game = registry.get(key)
    users = [make_player(f"{key[:9]}-{screen[:2]}{i}") for i in range(2)]
    match = lobby.create_match(user=users[0], game_key=key, n_seats=2)
    lobby.join_match(user=users[1], match=match)
    match = Match.objects.get(pk=match.pk)
    seat = game.current_seats(match.state)[0]
    places = [a for a in game.legal_actions(match.state, seat) if a["type"] == "place"]
    assert places
    person = window("player")
    page = person.page
    page.set_viewport_size(SCREENS[screen])
    log_in(page, live_server.url, match.seats.get(index=seat).user.username)
    url = f"{live_server.url}/m/{match.pk}/"
    _open(page, url)
    board = page.locator("#match-panel figure.drakon-board")
    person.screenshot(f"drakon-fit-{key}-{screen}")

    entrance = board.locator("svg g.room rect").first.bounding_box()
    assert entrance["width"] <= LARGEST_ROOM, (screen, entrance)
    first = page.locator("#my-secrets .hand-tile.choosable").first
    expect(first).to_be_visible()
    tile = first.bounding_box()
    assert tile["y"] + tile["height"] <= SCREENS[screen]["height"], (
        f"{key} {screen}: the first choice starts {tile['y']:.0f} px down, off the first screen"
    )
    # ... and nothing lies over it (on a phone the "Your move" box sticks to the bottom).
    assert first.evaluate(
        """tile => { const b = tile.getBoundingClientRect();
          const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
          return hit !== null && tile.contains(hit); }"""
    ), f"{key} {screen}: the first choice is covered"
    view_box = board.locator("svg.labyrinth").get_attribute("viewBox")

    for chosen in sorted({a["tile"] for a in places}):
        cells = {a["at"] for a in places if a["tile"] == chosen}
        _open(page, f"{url}?path=tile-{chosen}")
        # The frame already held these cells before the tile was chosen.
        assert board.locator("svg.labyrinth").get_attribute("viewBox") == view_box
        area = board.evaluate(VISIBLE)
        for cell in cells:
            spot = board.locator(f'svg a.board-choice[data-path="tile-{chosen}.cell-{cell}"]')
            expect(spot).to_have_count(1)
            box = spot.bounding_box()
            assert _inside(box, area), f"{key} {screen}: cell {cell} at {box} outside {area}"
    person.assert_clean()
