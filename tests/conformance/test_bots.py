"""Bots: every choice legal at every level (strong too), bot-only matches end, and no cheating.

A bot may read only what its seat may know. The kit changes everything else
(``Game.perturb_secrets``) at decision points along bot-only games and checks
that the bot's choice stays the same.
"""

import pytest

from games.engine import registry
from games.engine.bots import LEVELS
from games.engine.rng import Rng
from games.engine.testing import play_random_game
from tests.conformance.kit import GAME_KEYS, bot_choice, keys_for, spread

GAMES_PER_LEVEL = 6
#: The strong level searches at every move (a few rollouts each): fewer games.
GAMES_PER_LEVEL_STRONG = 2
PROBES_PER_GAME = 12


def _bot_chooser(key, level):
    def chooser(state, seat, legal, rng):
        action = bot_choice(key, state, seat, level, f"{rng.next64()}")
        assert action in legal, f"{key} bot ({level}) chose an illegal action {action!r}"
        return action

    return chooser


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("key", GAME_KEYS)
def test_bot_only_games_end_with_legal_choices(key, level):
    game = registry.get(key)
    count = GAMES_PER_LEVEL_STRONG if level == "strong" else GAMES_PER_LEVEL
    for index, (n, options) in enumerate(spread(game, count)):
        run = play_random_game(
            game,
            n,
            options,
            f"kit-bot-{key}-{level}-{index}",
            thorough=False,
            chooser=_bot_chooser(key, level),
        )
        assert run.final is not None


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("key", keys_for("secrets"))
def test_a_bot_does_not_see_other_seats_secrets(key, level):
    game = registry.get(key)
    probes = changed = 0
    for index, (n, options) in enumerate(spread(game, 4)):
        run = play_random_game(game, n, options, f"kit-probe-{key}-{index}", thorough=False)
        state = game.setup(n, options, run.seed)
        stride = max(1, len(run.moves) // PROBES_PER_GAME)
        rng = Rng.from_seed(f"perturb-{key}-{index}")
        for step, (seat, action) in enumerate(run.moves):
            if step % stride == 0:
                perturbed = game.perturb_secrets(state, seat, rng)
                assert game.view(perturbed, seat) == game.view(state, seat), (
                    f"{key}: perturb_secrets changed what seat {seat} may see"
                )
                assert game.legal_actions(perturbed, seat) == game.legal_actions(state, seat)
                changed += perturbed != state
                salt = f"{index}-{step}"
                assert bot_choice(key, perturbed, seat, level, salt) == bot_choice(
                    key, state, seat, level, salt
                ), f"{key} bot ({level}) at step {step} reacts to secrets it cannot know"
                probes += 1
            state, _events = game.apply(state, seat, action)
    assert probes >= 8
    assert changed == probes, f"{key}: perturb_secrets left {probes - changed} states unchanged"
