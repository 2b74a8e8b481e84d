"""What the browser tests of both Drakon editions share: choosing from the
database what to place and where to move, and clicking through the match page."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from games.catalog.drakon import presenter as drakon_presenter
from games.catalog.drakon.rules import tiles_of
from games.engine import registry
from games.models import Match

STEPS = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}


def room_of(state: dict, tile: int) -> str:
    return tiles_of(state)[tile][0]


def cells_reached(state: dict, seat: int) -> set[str]:
    """Cells an arrow of the seat's hero's room points at: a room placed there opens a move."""
    at = state["heroes"][seat]
    x, y = (int(v) for v in at.split(","))
    tile, rot = state["board"][at]
    arrows = drakon_presenter.pattern_arrows(tiles_of(state)[tile][1], rot)
    return {f"{x + STEPS[a][0]},{y + STEPS[a][1]}" for a in arrows}


class Planner:
    """Picks one edition's placements and moves, avoiding rooms that ask questions
    (``asks_when_placed`` of their owner, ``asks_when_entered`` of their visitor)
    when there is a choice; the tests still answer them when dealt no other."""

    def __init__(self, key: str, asks_when_placed: set[str], asks_when_entered: set[str]):
        self.game = registry.get(key)
        self.asks_when_placed = asks_when_placed
        self.asks_when_entered = asks_when_entered

    def legal(self, match: Match, seat: int) -> list[dict]:
        return self.game.legal_actions(match.state, seat)

    def plan_placement(self, match: Match, seat: int) -> tuple[int, str]:
        """A (tile, cell): a quiet room where an arrow of the hero's room points, if any."""
        state = match.state
        places = [a for a in self.legal(match, seat) if a["type"] == "place"]
        assert places, "no placement is legal"
        hand = state["hands"][seat]
        quiet = [t for t in hand if room_of(state, t) not in self.asks_when_placed]
        wanted = cells_reached(state, seat)
        for tiles in (quiet, hand):
            for tile in tiles:
                good = [a["at"] for a in places if a["tile"] == tile and a["at"] in wanted]
                if good:
                    return tile, good[0]
        tile = (quiet or hand)[0]
        return tile, next(a["at"] for a in places if a["tile"] == tile)

    def plan_move(self, match: Match, seat: int) -> str | None:
        """A destination for the seat's hero, preferring a room that asks nothing."""
        state = match.state
        legal = self.legal(match, seat)
        targets = [a["to"] for a in legal if a["type"] == "move" and not a.get("power")]
        quiet = [
            to
            for to in targets
            if room_of(state, state["board"][to][0]) not in self.asks_when_entered
            and to != state["drakon"]
        ]
        return (quiet or targets or [None])[0]


def board(page: Page) -> Locator:
    return page.locator("#match-panel figure.drakon-board svg.labyrinth")


def attributes(locator: Locator, name: str) -> list[str]:
    return locator.evaluate_all(f"els => els.map(e => e.getAttribute({name!r}))")


def is_final(element: Locator) -> bool:
    """A click that posts the move (a button of a form, or a board link with hx-post)."""
    return (
        element.evaluate("e => e.tagName.toLowerCase()") == "button"
        or element.get_attribute("hx-post") is not None
    )


def click_deeper(page: Page, element: Locator, *, back: bool = False) -> str:
    """Click a step that leads one level deeper (an htmx GET) and wait for that level:
    every choice of it extends the path clicked (and, with ``back``, "Back" shows)."""
    path = element.get_attribute("data-path")
    assert not is_final(element), f"{path} was expected to lead deeper"
    element.click()
    expect(page.locator(f'#choices [data-path^="{path}."]').first).to_be_visible()
    if back:
        expect(page.locator("#choices a.choice.back")).to_be_visible()
    return path
