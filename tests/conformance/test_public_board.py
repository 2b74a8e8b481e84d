"""A board drawn without choices holds nothing a seat alone may see.

What only the viewer may see (their hand, coins, goal, shield) is the
presenter's private part (``private_context``, ``PRIVATE_TEMPLATE``), drawn
apart from the board into its ``private_part()``. So the board itself, drawn
for a viewer without choices, is the same for every viewer whose
``board_viewpoint`` is the same (by default: every seat and a spectator), and
the match panel keeps one drawing of it per version for all of them
(``selectors.board_cache_key``; a seat's private part is kept under its own
key). For every registered game, along random games with every player
count: the board each seat and a spectator would see without choices (the
private part left as its mark) is compared within each viewpoint; each
seat's private part goes where the board puts it, and a spectator has none.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from django.template import engines
from django.utils import translation

from games.engine import registry
from games.panel import jinja, presenters
from games.panel.presenters import MatchUrls
from tests.conformance.kit import keys_for, spread

STEPS = 40
GAMES = 3


def _drawn(template, scene, viewer, step):
    """The board as ``draw_board`` keeps it (the private part as its mark), and
    the viewer's private part as it draws it."""
    context = {
        "board": scene.board,
        "choices": None,
        "private": scene.private,
        "match": SimpleNamespace(pk=9, version=step),
        "urls": MatchUrls.of(9),
        "changed": frozenset(),
    }
    public = template.render({**context, "private_later": True})
    own = jinja.draw_private(template.environment, scene.private, context)
    return public, own


@pytest.mark.parametrize("key", keys_for("public_board"))
def test_a_board_without_choices_is_the_same_for_every_viewer_of_a_viewpoint(key):
    game, presenter = registry.get(key), presenters.get(key)
    template = engines["jinja2"].env.get_template(presenter.BOARD_TEMPLATE)
    viewpoint = presenter.board_viewpoint
    rng = random.Random(key)
    compared = private_parts = 0
    with translation.override("en"):
        for index, (n, options) in enumerate(spread(game, GAMES)):
            state = game.setup(n, options, f"public-{key}-{index}")
            names = [f"Player {seat + 1}" for seat in range(n)]
            for step in range(STEPS):
                if game.is_over(state) and step % 5:
                    break
                boards: dict[str, tuple[object, str]] = {}
                for viewer in [None, *range(n)]:
                    view = presenters.seat_view(game, state, viewer, names, step)
                    scene = presenter.scene(view, viewer, names, None)
                    public, own = _drawn(template, scene, viewer, step)
                    if viewer is None:
                        assert own == "", "a spectator has no private part"
                    elif own:
                        private_parts += 1
                        assert 'id="my-secrets"' in own
                        assert jinja.PRIVATE_LATER in public, "the board places the private part"
                    point = viewpoint(viewer)
                    if point in boards:
                        first_viewer, first = boards[point]
                        assert public == first, (
                            f"{key}: the board of viewer {viewer} differs from viewer "
                            f"{first_viewer}'s at step {step}, though both are seen from {point!r}"
                        )
                        compared += 1
                    else:
                        boards[point] = (viewer, public)
                seats = game.current_seats(state)
                if not seats:
                    break
                action = rng.choice(game.legal_actions(state, seats[0]))
                state = game.apply(state, seats[0], action)[0]
    if viewpoint(None) == viewpoint(0):  # Drako draws a board per seat
        assert compared > 20
    assert private_parts > 20  # every game here keeps something from some seat
