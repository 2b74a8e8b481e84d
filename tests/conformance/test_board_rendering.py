"""The board is drawn by its Jinja2 template, with numbers as numbers, on the page.

Each game's ``BOARD_TEMPLATE`` is a Jinja2 template (games/jinja.py), drawn
into the match panel (games/panel.jinja, Jinja2 too) by ``draw_board()``. This checks, for every
registered game, a few positions, in English, Polish and Czech, seen by each
seat and by a spectator, that the panel holds the board exactly as the
template draws it and that no number in an SVG attribute comes out with a
decimal comma (``x="2,5"`` is no SVG length; the board's numbers are
coordinates, sizes and counts, never localised). (Whether a seat's board holds
another's secrets is checked on whole pages by
``tests/conformance/test_secrets.py``.)
"""

import re

import pytest
from django.core.cache import cache
from django.template import engines
from django.test import RequestFactory
from django.utils import translation

from games.engine import registry
from games.lobby import services as lobby
from games.panel import build, jinja
from games.play import access, services
from tests.conformance.kit import GAME_KEYS, bot_choice

pytestmark = pytest.mark.django_db

POSITIONS = (0, 6)  # moves played before each look
# An SVG length or number attribute written with a decimal comma (a pair such
# as data-cell="0,0" is not one).
DECIMAL_COMMA = re.compile(
    r"( (?:x|y|cx|cy|r|rx|ry|x1|x2|y1|y2|width|height|font-size|stroke-width|opacity))"
    r'="(-?\d+),(\d+)"'
)


def _board_and_panel(match, user, request):
    """The board as its template draws it, and the whole panel around it (the
    shared cache emptied first: another viewer's drawing is not its template's)."""
    cache.clear()
    context = build.match_panel(match, user)
    board = engines["jinja2"].env.get_template(context["board_template"])
    return board.render(context), jinja.render(jinja.PANEL_TEMPLATE, context, request)


@pytest.mark.parametrize("key", GAME_KEYS)
def test_the_panel_draws_the_board_with_numbers_unlocalised(key, make_user):
    game = registry.get(key)
    users = [make_user(f"{key[:8]}-b{i}") for i in range(game.min_players)]
    match = lobby.create_match(user=users[0], game_key=key, n_seats=game.min_players)
    for user in users[1:]:
        lobby.join_match(user=user, match=match)
    spectator = make_user(f"{key[:8]}-watch")
    request = RequestFactory().get("/")
    played = 0
    for target in POSITIONS:
        while played < target:
            match.refresh_from_db()
            seat = game.current_seats(match.state)[0]
            action = bot_choice(key, match.state, seat, "random", f"b{played}")
            if game.result(game.apply(match.state, seat, action)[0]) is not None:
                break
            services.submit_action(match, match.seats.get(index=seat).user, action, match.version)
            played += 1
        match = access.get_match_for(match.pk, users[0])
        for language in ("en", "pl", "cs"):
            with translation.override(language):
                for viewer in [*users, spectator]:
                    request.user = viewer
                    board, panel = _board_and_panel(match, viewer, request)
                    where = (key, played, language, viewer.username)
                    assert "<svg" in board and board.strip() in panel, where
                    assert not DECIMAL_COMMA.search(panel), where
