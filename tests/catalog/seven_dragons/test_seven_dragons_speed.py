"""Seven Dragons' kept group counts give what a fresh count gives.

``rules.largest_groups`` and the bot's ``_largest_groups`` and ``_Groups``
are kept per board (the strong bot's samples of one position share its
board); these tests compare them with a recount at every position of bot
games, and check that a caller changing an answer cannot spoil the next.
"""

from __future__ import annotations

from games.catalog.seven_dragons import bot
from games.catalog.seven_dragons import components as C
from games.catalog.seven_dragons.rules import (
    GAME,
    group_sizes,
    largest_cover,
    resolved_board,
    silver_colour,
)
from games.engine.rng import Rng


def _positions(games: int = 8):
    for index in range(games):
        state = GAME.setup(2 + index % 4, {}, f"seven-speed-{index}")
        rng = Rng.from_seed(f"seven-speed-{index}")
        while GAME.current_seats(state):
            seat = GAME.current_seats(state)[0]
            yield state, seat
            level = "random" if rng.below(4) == 0 else "heuristic"
            state, _events = GAME.apply(state, seat, bot.choose(state, seat, rng, level))


def test_kept_group_counts_equal_a_recount_at_every_position():
    from games.catalog.seven_dragons.rules import largest_groups

    checked = 0
    for state, _seat in _positions():
        grid = resolved_board(state["board"], state["pile"])
        recount = {colour: (group_sizes(grid, colour) or [0])[0] for colour in C.COLOURS}
        first = largest_groups(grid)
        assert first == recount
        first[C.COLOURS[0]] = -1  # a caller's change stays its own
        assert largest_groups(grid) == recount
        silver = silver_colour(state["pile"])
        fresh = {
            colour: largest_cover(nodes)
            for colour, nodes in bot._nodes(state["board"], silver).items()
        }
        assert bot._largest_groups(state["board"], silver) == fresh
        checked += 1
    assert checked > 150


def test_a_kept_boards_groups_after_a_card_equal_a_fresh_boards():
    compared = 0
    for state, seat in _positions(4):
        board, silver = state["board"], silver_colour(state["pile"])
        kept = bot._groups_of(bot._board_key(board), silver)
        fresh = bot._Groups(board, silver)
        for action in GAME.legal_actions(state, seat):
            if action["type"] != "place":
                continue
            cell = tuple(int(part) for part in action["cell"].split(","))
            for _twice in range(2):
                assert kept.with_card(cell, action["card"], action["rot"]) == fresh.with_card(
                    cell, action["card"], action["rot"]
                )
            compared += 1
    assert compared > 300


def test_the_schema_copy_equals_the_generic_copy_and_shares_nothing():
    """``rules.copy_state`` (every move of every rollout) gives ``clone``'s copy,
    pending decisions and both rules versions' states included, with no list or
    dictionary shared with the original; a state with other keys gets ``clone``."""
    from games.catalog.seven_dragons.rules import copy_state
    from games.engine.state import clone
    from games.engine.testing import shared_containers

    checked = pending = 0
    old = GAME.setup_for(1, 3, {}, "seven-copy-v1")
    for state, _seat in [*_positions(8), (old, 0)]:
        copied = copy_state(state)
        assert copied == clone(state)
        assert not shared_containers(copied, state)
        checked += 1
        pending += state["pending"] is not None
    assert "trails" not in old
    assert checked > 200 and pending > 0
    extra = dict(state, extra={"nested": [[1]]})
    copied = copy_state(extra)
    copied["extra"]["nested"][0].append(2)
    assert extra["extra"] == {"nested": [[1]]}
