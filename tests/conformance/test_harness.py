"""The random-game harness over every game's whole option matrix and player counts.

Each (player count, options) combination plays random legal games with the
game's invariants checked after every step, thorough checks (no mutation,
garbage and out-of-turn refusals, plain JSON) on every other game, and a
replay of the log that must rebuild the final state.
"""

import pytest

from games.engine import registry
from games.engine.testing import play_random_game
from tests.conformance.kit import GAME_KEYS, setups

GAMES_PER_SETUP = 2


@pytest.mark.parametrize("key", GAME_KEYS)
def test_random_games_over_every_setup(key):
    game = registry.get(key)
    combos = setups(game)
    assert combos, f"{key}: no playable setup in its option matrix"
    played = 0
    for index, (n, options) in enumerate(combos):
        for round_ in range(GAMES_PER_SETUP):
            run = play_random_game(
                game, n, options, f"kit-{key}-{index}-{round_}", thorough=round_ == 0
            )
            assert run.final is not None
            played += 1
    assert played == len(combos) * GAMES_PER_SETUP


@pytest.mark.parametrize("key", GAME_KEYS)
def test_opening_events_are_plain_and_deterministic(key):
    game = registry.get(key)
    n, options = setups(game)[0]
    state = game.setup(n, options, "kit-opening")
    events = game.opening_events(state)
    assert events == game.opening_events(game.setup(n, options, "kit-opening"))
    assert all(isinstance(e, dict) and isinstance(e.get("type"), str) for e in events)


@pytest.mark.parametrize("key", GAME_KEYS)
def test_validate_setup_refuses_wrong_player_counts(key):
    game = registry.get(key)
    assert game.validate_setup(game.max_players + 1, {}) is not None
    assert game.validate_setup(game.min_players - 1, {}) is not None
    n, options = setups(game)[0]
    assert game.validate_setup(n, options) is None
