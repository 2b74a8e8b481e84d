"""Samples of the hidden information (``Game.sample_secrets``), which the strong bot plays out.

At positions along random games of every registered game, for the seat to
move: the seat's view of each sample equals its view of the real state (and
its legal actions are the same), and the sample depends only on what the
seat may know: the real state and a copy with every secret changed
(``perturb_secrets``) give the same sample for the same random stream.
"""

import pytest

from games.engine import registry
from games.engine.rng import Rng
from games.engine.testing import play_random_game
from tests.conformance.kit import GAME_KEYS, spread

GAMES = 6
PROBES_PER_GAME = 15
SAMPLES_PER_PROBE = 3


def _positions(key):
    """(state, seat) at decision points spread along random games."""
    game = registry.get(key)
    for index, (n, options) in enumerate(spread(game, GAMES)):
        run = play_random_game(game, n, options, f"kit-sample-{key}-{index}", thorough=False)
        state = game.setup(n, options, run.seed)
        stride = max(1, len(run.moves) // PROBES_PER_GAME)
        for step, (seat, action) in enumerate(run.moves):
            if step % stride == 0:
                yield index, step, state, seat
            state, _events = game.apply(state, seat, action)


@pytest.mark.parametrize("key", GAME_KEYS)
def test_samples_are_consistent_with_the_seats_view(key):
    game = registry.get(key)
    probes = differing = 0
    for index, step, state, seat in _positions(key):
        view = game.view(state, seat)
        legal = game.legal_actions(state, seat)
        for sample_no in range(SAMPLES_PER_PROBE):
            sample = game.sample_secrets(state, seat, Rng.from_seed(f"{index}-{step}-{sample_no}"))
            assert game.view(sample, seat) == view, (
                f"{key} game {index} step {step}: a sample changed what seat {seat} sees"
            )
            assert game.legal_actions(sample, seat) == legal
            game.check_invariants(sample)
            differing += sample != state
        probes += 1
    assert probes >= 30
    # The samples do deal the secrets anew (not a copy of the real state).
    assert differing > probes


@pytest.mark.parametrize("key", GAME_KEYS)
def test_a_sample_depends_only_on_what_the_seat_may_know(key):
    game = registry.get(key)
    probes = 0
    for index, step, state, seat in _positions(key):
        other = game.perturb_secrets(state, seat, Rng.from_seed(f"perturb-{index}-{step}"))
        salt = f"sample-{index}-{step}"
        assert game.sample_secrets(state, seat, Rng.from_seed(salt)) == game.sample_secrets(
            other, seat, Rng.from_seed(salt)
        ), f"{key} game {index} step {step}: the sample reads secrets of the real state"
        probes += 1
    assert probes >= 30
