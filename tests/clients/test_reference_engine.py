"""The reference client's default engine (``clients/python/smoki_bot.py``):
given only what the API sends a seat (its view and legal actions), it
chooses exactly what the rules package's heuristic bot chooses from the
real position, in every game: the API's views and actions are the
package's."""

import importlib.util
import sys
from pathlib import Path

import pytest

from api.payloads import action_id
from games.engine import bots, registry
from games.engine.rng import Rng
from games.panel import presenters
from tests.conformance.kit import GAME_KEYS

CLIENT = Path(__file__).resolve().parents[2] / "clients" / "python" / "smoki_bot.py"


def load_client():
    spec = importlib.util.spec_from_file_location("smoki_bot", CLIENT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["smoki_bot"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("key", GAME_KEYS)
def test_the_default_engine_chooses_from_the_view_as_the_site_bot_does(key):
    client = load_client()
    game = registry.get(key)
    state = game.setup(game.min_players, {}, f"engine-{key}")
    rng = Rng.from_seed("walk")
    for version in range(40):
        if game.result(state) is not None:
            break
        seat = game.current_seats(state)[0]
        names = [f"p{i}" for i in range(game.min_players)]
        view = presenters.seat_view(game, state, seat, names, version)
        legal = game.legal_actions(state, seat)
        chosen = client.heuristic(key, seat, view, legal)
        expected = bots.choose(
            key, state, seat, Rng.from_seed(f"{key}:{version}:{seat}"), "heuristic"
        )
        assert chosen == expected
        assert client.action_id(chosen) == action_id(expected)
        state, _events = game.apply(state, seat, bots.choose(key, state, seat, rng, "random"))
    # The game's own methods are its own again afterwards.
    assert "view" not in vars(game) and "legal_actions" not in vars(game)
