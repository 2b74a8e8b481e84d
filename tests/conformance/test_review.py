"""The computer review is honest by construction (games/engine/review.py): the
review of a seat's decision is the same whatever the other seats held.

At decision points along random games of every registered game, the review of
the decision made there is computed from the real position and from a copy
in which everything the deciding seat could not see is changed
(``perturb_secrets``: other hands, deck orders, hidden values and the PRNG, so
the dice and draws to come): the chance, the search's preferred choice, the
loss and the mark must be identical. The same holds for the chance after a
roll or draw, which reads the seat's view after the step only.
"""

import pytest

from games.engine import registry, review
from games.engine.rng import Rng
from games.engine.testing import play_random_game
from tests.conformance.kit import GAME_KEYS, spread

GAMES = 2
PROBES_PER_GAME = 4
BUDGET = review.ReviewBudget(iterations=4, samples=3)


def _decisions(key):
    """(label, state, seat, action) at decision points spread along random games."""
    game = registry.get(key)
    for index, (n, options) in enumerate(spread(game, GAMES)):
        run = play_random_game(game, n, options, f"kit-review-{key}-{index}", thorough=False)
        state = game.setup(n, options, run.seed)
        stride = max(1, len(run.moves) // PROBES_PER_GAME)
        for step, (seat, action) in enumerate(run.moves):
            if step % stride == 0:
                yield f"{key} game {index} step {step}", state, seat, action
            state, _events = game.apply(state, seat, action)


@pytest.mark.parametrize("key", GAME_KEYS)
def test_a_review_reads_only_what_the_seat_could_see(key):
    game = registry.get(key)
    probes = 0
    for label, state, seat, action in _decisions(key):
        other = game.perturb_secrets(state, seat, Rng.from_seed(f"review-perturb-{label}"))
        salt = f"review-kit:{label}"
        real = review.review_decision(key, state, seat, action, salt, BUDGET)
        swapped = review.review_decision(key, other, seat, action, salt, BUDGET)
        assert real.to_json() == swapped.to_json(), (
            f"{label}: the review of seat {seat}'s decision read what it could not see"
        )
        after = game.apply(state, seat, action)[0]
        after_other = game.perturb_secrets(after, seat, Rng.from_seed(f"review-after-{label}"))
        assert review.chance_after(key, after, seat, salt, BUDGET) == review.chance_after(
            key, after_other, seat, salt, BUDGET
        ), f"{label}: the chance after the step read what seat {seat} could not see"
        probes += 1
    assert probes >= 4
