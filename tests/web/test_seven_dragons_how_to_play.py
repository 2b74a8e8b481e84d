"""Seven Dragons' How to play has pictures, drawn as the board draws its cards: the five
action cards, a placement that fits, the silver dragon's colour and a winning group;
the pictures show what the rules say (checked against the rules themselves)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.catalog.seven_dragons import components as C
from games.catalog.seven_dragons import presenter as P
from games.catalog.seven_dragons.rules import group_sizes, parse_cell, placement_ok

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language", ["en", "pl", "cs"])
def test_the_page_shows_the_four_pictures(language):
    page = (
        Client(HTTP_ACCEPT_LANGUAGE=language)
        .get(reverse("how_to_play", args=["seven_dragons"]))
        .content.decode()
    )
    figures = dict(
        re.findall(
            r'class="[^"]*sd-figure[^"]*" data-figure="(\w+)"(.*?)</(?:svg|div)>', page, re.S
        )
    )
    assert set(figures) == {"actions", "placement", "silver", "winning"}, sorted(figures)
    actions = re.search(r'data-figure="actions".*?</div>\s*</li>', page, re.S).group(0)
    assert actions.count('<div class="card">') == 5
    assert page.count('id="sd-rainbow"') == 1  # the patterns once, for every picture
    assert len(re.findall(r'<g class="sd-card"', page)) == len(P.PLACEMENT) + len(P.WINNING)
    for name in ("placement", "silver", "winning"):
        label = re.search(rf'data-figure="{name}"[^>]*aria-label="([^"]+)"', page).group(1)
        assert label.strip()


def _grid(cards: dict[str, str]) -> dict:
    return {parse_cell(key): C.quadrants(card) for key, card in cards.items()}


def test_the_placement_fits_and_the_winning_group_has_seven_cards():
    grid = _grid(P.PLACEMENT)
    placed = parse_cell(P.PLACED)
    new = grid.pop(placed)
    assert placement_ok(grid, placed, new)
    winning = {
        cell: tuple(C.WILD if q == C.RAINBOW else q for q in quads)
        for cell, quads in _grid(P.WINNING).items()
    }
    assert group_sizes(winning, C.RED)[0] == 7 == len(P.WINNING)
    colour = C.ACTION_COLOURS[C.ACTIONS[P.SILVER_EXAMPLE]]
    _template, context = P.how_to_play_figure("silver")
    assert context["figure"]["silver"]["letter"] == P.colour_letter(colour)
