"""Every game states its position in words, and the words keep every seat's secrets.

For every registered game, a few bot moves into a match and again at its end:
``describe_board`` gives each seat and a spectator a non-empty description;
the game's ``perturb_secrets`` for that viewer leaves it word for word the
same (so it names no other seat's hand, goal or coin), while a spectator's
perturbation changes what some seat reads of its own secrets whenever that
seat's view changed, so the description does state the viewer's own. The
whole match page carries it too (``test_secrets`` compares the page), but
this check is direct and fast. ``final_summary`` gives a row per seat.
"""

from __future__ import annotations

import pytest

from games.engine import registry
from games.engine.rng import Rng
from games.panel import presenters
from tests.conformance.kit import bot_choice, keys_for

MOVES = 12
ATTEMPTS = 4


def _names(n: int) -> list[str]:
    return [f"Player{seat + 1}" for seat in range(n)]


def _describe(game, presenter, state, viewer, names):
    view = presenters.seat_view(game, state, viewer, names, 1)
    return presenter.describe_board(view, names)


def _positions(key):
    """A position a few moves in, and the end of a whole bot game."""
    game = registry.get(key)
    n = min(max(3, game.min_players), game.max_players)
    state = game.setup(n, {}, f"words-{key}")
    early = None
    for step in range(5000):
        if step == MOVES:
            early = state
        seats = game.current_seats(state)
        if not seats:
            break
        action = bot_choice(key, state, seats[0], "random", f"w{step}")
        state, _events = game.apply(state, seats[0], action)
    return game, n, [early or state, state]


@pytest.mark.parametrize("key", keys_for("board_words"))
def test_every_viewer_reads_the_position_and_no_other_seats_secret(key):
    game, n, positions = _positions(key)
    presenter = presenters.get(key)
    names = _names(n)
    rng = Rng.from_seed(f"words-{key}")
    own_secrets_shown = own_secrets_exist = False
    for state in positions:
        for viewer in [None, *range(n)]:
            lines = _describe(game, presenter, state, viewer, names)
            assert lines and all(isinstance(line, str) and line.strip() for line in lines), (
                f"{key}: no description of the board for viewer {viewer}"
            )
            for _attempt in range(ATTEMPTS):
                perturbed = game.perturb_secrets(state, viewer, rng)
                assert _describe(game, presenter, perturbed, viewer, names) == lines, (
                    f"{key}: the description for viewer {viewer} changes with a secret "
                    "it must not know"
                )
        for _attempt in range(ATTEMPTS):
            perturbed = game.perturb_secrets(state, None, rng)
            for seat in range(n):
                if game.view(perturbed, seat) != game.view(state, seat):
                    own_secrets_exist = True
                    before = _describe(game, presenter, state, seat, names)
                    after = _describe(game, presenter, perturbed, seat, names)
                    own_secrets_shown |= before != after
    assert own_secrets_shown or not own_secrets_exist, (
        f"{key}: no seat reads its own secrets in the description"
    )


@pytest.mark.parametrize("key", keys_for("board_words"))
def test_the_final_summary_has_a_row_per_seat(key):
    game, n, positions = _positions(key)
    result = game.result(positions[-1])
    assert result is not None, f"{key}: the bot game did not end"
    summary = presenters.get(key).final_summary(result.to_json(), _names(n))
    assert len(summary["cells"]) == n
    assert all(len(row) == len(summary["columns"]) for row in summary["cells"])
