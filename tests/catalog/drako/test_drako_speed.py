"""Drako's faster paths for the strong bot's rollouts give what the plain ones gave.

``rules.copy_state`` copies a state by its schema instead of walking it; the
heuristic works out what every action's score reads of the position once per
decision (``bot._scores``'s memo). Both are checked here against the generic
copy and the memo-free scores at every position of games played by the bots.
"""

from __future__ import annotations

from games.catalog.drako import bot
from games.catalog.drako.rules import GAME, _clone, copy_state
from games.engine.rng import Rng


def _positions(games: int = 6):
    """Every position of ``games`` games of the heuristic with a random move in four."""
    for index, options in zip(range(games), GAME.option_matrix(2) * games, strict=False):
        state = GAME.setup(2, options, f"drako-speed-{index}")
        rng = Rng.from_seed(f"drako-speed-{index}")
        while GAME.current_seats(state):
            seat = GAME.current_seats(state)[0]
            yield state, seat
            level = "random" if rng.below(4) == 0 else "heuristic"
            state, _events = GAME.apply(state, seat, bot.choose(state, seat, rng, level))


def _containers(value, found=None):
    """Every dict and list inside ``value`` (ids), ``value`` itself included."""
    found = [] if found is None else found
    if isinstance(value, dict | list):
        found.append(id(value))
        for item in value.values() if isinstance(value, dict) else value:
            _containers(item, found)
    return found


def test_the_schema_copy_equals_the_generic_copy_and_shares_nothing():
    checked = 0
    for state, _seat in _positions():
        copied = copy_state(state)
        assert copied == _clone(state)
        assert not set(_containers(copied)) & set(_containers(state))
        checked += 1
    assert checked > 300


def test_an_unknown_key_is_deep_copied():
    state = GAME.setup(2, GAME.option_matrix(2)[0], "drako-speed-extra")
    state["extra"] = {"nested": [[1, 2], {"a": [3]}]}
    copied = copy_state(state)
    copied["extra"]["nested"][0].append(9)
    copied["extra"]["nested"][1]["a"].append(9)
    assert state["extra"] == {"nested": [[1, 2], {"a": [3]}]}


def test_the_scores_with_the_decision_memo_equal_those_without():
    compared = 0
    for state, seat in _positions():
        legal = GAME.legal_actions(state, seat)
        view = GAME.view(state, seat)
        plain = bot._dragon_score if view["my_side"] == "dragon" else bot._dwarves_score
        assert bot.scores(state, seat, legal) == [plain(view, action) for action in legal]
        compared += len(legal)
    assert compared > 3000
