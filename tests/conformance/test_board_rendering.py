"""The board is drawn with localisation off and shows exactly what it showed.

The match panel includes each game's board template inside ``{% localize off
%}``: the board's numbers are coordinates, sizes and counts, and passing
hundreds of them through the language's number formatting was a large part
of the panel's rendering time (``tests/load/render_bench.py``). This checks,
for every registered game, a few positions, in English and Polish, seen by each
seat and by a spectator, that the board renders byte for byte as it did with
localisation on, but for one correction: in Polish and Czech a decimal
number inside an SVG attribute used to come out with a decimal comma
(``x="2,0"``), which is no SVG length; it now reads ``x="2.0"`` in every
language. (Whether a seat's board holds another's secrets is checked on
whole pages by ``tests/conformance/test_secrets.py``.)
"""

import re

import pytest
from django.template import engines
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.utils import translation

from games import lobby, selectors, services
from games.engine import registry
from tests.conformance.kit import GAME_KEYS, bot_choice

pytestmark = pytest.mark.django_db

POSITIONS = (0, 6)  # moves played before each comparison
# An SVG length or number attribute written with a decimal comma (a pair such
# as data-cell="0,0" is not one).
DECIMAL_COMMA = re.compile(
    r"( (?:x|y|cx|cy|r|rx|ry|x1|x2|y1|y2|width|height|font-size|stroke-width|opacity))"
    r'="(-?\d+),(\d+)"'
)


def _decimal_points(html: str) -> str:
    """Such numbers with a decimal point instead."""
    return DECIMAL_COMMA.sub(r'\1="\2.\3"', html)


LOCALISED_OFF = engines["django"].from_string(
    "{% load l10n %}{% localize off %}{% include board_template %}{% endlocalize %}"
)


def _boards(match, user, request):
    """The board as the panel draws it now, and as it was drawn before."""
    context = selectors.match_panel(match, user)
    before = render_to_string(context["board_template"], context, request)
    now = LOCALISED_OFF.render(context, request)
    return before, now


@pytest.mark.parametrize("key", GAME_KEYS)
def test_the_board_renders_the_same_without_localisation(key, make_user):
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
        match = selectors.get_match_for(match.pk, users[0])
        for language in ("en", "pl"):  # Czech writes decimals as Polish does
            with translation.override(language):
                for viewer in [*users, spectator]:
                    request.user = viewer
                    before, now = _boards(match, viewer, request)
                    where = (key, played, language, viewer.username)
                    assert now == (before if language == "en" else _decimal_points(before)), where
                    assert not DECIMAL_COMMA.search(now), where
