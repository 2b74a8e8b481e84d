"""A board to draw, with choices, for each game (tests/panel/test_jinja_boards.py
and tests/load/jinja_lookup_bench.py)."""

from __future__ import annotations

import random
from types import SimpleNamespace

from games.panel import presenters


def board_with_choices(game, moves: int = 12, seed: str = "seed-1") -> tuple[str, dict]:
    """The board template of ``game`` and its context for the seat to move,
    after ``moves`` random moves of a match of its fewest players, with that
    seat's choices drawn on it."""
    presenter = presenters.get(game.key)
    rnd = random.Random(3)
    state = game.setup(game.min_players, {}, seed)
    for _i in range(moves):
        if game.is_over(state):
            break
        seat = game.current_seats(state)[0]
        state = game.apply(state, seat, rnd.choice(game.legal_actions(state, seat)))[0]
    seat = game.current_seats(state)[0]
    names = [f"Player {i}" for i in range(game.min_players)]
    view = presenters.seat_view(game, state, seat, names, moves)
    choices = presenters.choice_level(game.legal_actions(state, seat), view, presenter, [])
    scene = presenter.scene(view, seat, names, choices)
    context = {
        "board": scene.board,
        "private": scene.private,
        "choices": choices,
        "match": SimpleNamespace(pk=1, version=moves),
        "urls": presenters.MatchUrls.of(1),
        "me": None,
        "changed": frozenset(),
    }
    return presenter.BOARD_TEMPLATE, context
