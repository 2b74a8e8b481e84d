"""The fit of ``evaluate``'s weights (``tests/load/seven_dragons_weights.py``): it
finds known weights again, and it reads the very features ``evaluate`` weighs."""

import math

import pytest

from games.catalog.seven_dragons import bot
from games.catalog.seven_dragons.rules import GAME
from games.engine.rng import Rng
from tests.scripts import load_script


def test_the_fit_finds_the_weights_that_made_the_labels():
    """Labels that are the logistic of known weights (fractional, as a shared
    rank gives) are best explained by those weights."""
    fit = load_script("seven_dragons_weights")
    truth = (-0.2, 0.5, 4.0)
    rng = Rng.from_seed("weights-fit")
    rows = []
    for game in range(2000):
        features = (rng.below(9) - 4, rng.below(9) - 4, rng.below(3) - 1)
        z = sum(w * x for w, x in zip(truth, features, strict=True))
        rows.append((features, 1 / (1 + math.exp(-z)), game))
    weights = fit.fit(rows, 3)
    assert weights == pytest.approx(truth, abs=0.01)
    assert fit.log_loss(weights, rows) <= fit.log_loss((0.0, 0.5, 4.0), rows)


def test_the_fit_reads_evaluates_features_and_prints_its_weights(capsys):
    fit = load_script("seven_dragons_weights")
    rows = fit.positions((2, 0))
    assert rows and all(len(features) == 3 for features, _y, _game in rows)
    state = GAME.setup(2, {"first": "seat1", "bonus_on_move": True}, "weights-2-0")
    assert rows[0][0] == bot.evaluation_features(state, 0)
    assert {y for _f, y, _g in rows} <= {0.0, 0.5, 1.0}
    assert fit.main(["--games", "5", "--players", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 players: 5 games") and "fitted weights (" in out
