"""Drako: thousands of random games over every option (games.engine.testing), and bot games.

Every step the harness checks ``check_invariants`` (cards conserved, one figure per
hex, tracks within their boxes, armour before abilities, the net in one place,
no game going on past its end), plain-JSON states, that ``apply`` never mutates
its input, that garbage, forged and out-of-turn actions are refused, that every
game ends, and that replaying the log rebuilds the final state.
"""

from __future__ import annotations

import pytest

from games.catalog.drako import bot
from games.catalog.drako.rules import GAME
from games.engine.testing import play_random_game, run_many

OPTIONS = GAME.option_matrix(2)


def test_the_option_matrix_is_complete():
    assert len(OPTIONS) == 12


@pytest.mark.slow
def test_thousands_of_random_games_over_every_option():
    stats = run_many(
        GAME, 2000, options_list=OPTIONS, seed_prefix="drako-property", thorough_every=25
    )
    assert stats.games == 2000
    assert stats.longest < 400


def test_random_games_reach_every_ending_and_every_decision():
    reasons = set()
    seen = set()

    def chooser(state, seat, legal, rng):
        if state["pending"]:
            seen.add(state["pending"]["kind"])
        for action in legal:
            seen.add(action["type"])
            if action["type"] == "play":
                seen.add(action["symbol"].split(":")[0])
        return legal[rng.below(len(legal))]

    for i in range(150):
        run = play_random_game(
            GAME,
            2,
            OPTIONS[i % len(OPTIONS)],
            f"drako-endings-{i}",
            thorough=False,
            chooser=chooser,
        )
        reasons.add(run.final["end_reason"])
    assert reasons >= {"dragon_killed", "dwarves_out_of_cards"}
    assert {
        "exchange",
        "place",
        "discard",
        "move2",
        "defend",
        "wound",
        "turn_end",
        "MOVE1",
        "MOVE2",
        "ATK1",
        "ATK2",
        "XBOW",
        "NET",
        "DMOVE",
        "FLY",
        "BITE",
        "FIRE",
        "free",
        "fury",
        "no_defence",
        "end_turn",
        "stop",
        "draw",
    } <= seen


@pytest.mark.parametrize(
    "levels", [("heuristic", "heuristic"), ("heuristic", "random"), ("random", "heuristic")]
)
def test_bot_games_end(levels):
    for i in range(12):

        def chooser(state, seat, legal, rng):
            action = bot.choose(state, seat, rng, levels[seat])
            assert action in legal
            return action

        run = play_random_game(
            GAME,
            2,
            OPTIONS[i % len(OPTIONS)],
            f"drako-bots-{levels}-{i}",
            thorough=False,
            chooser=chooser,
        )
        assert run.final["phase"] == "over"
