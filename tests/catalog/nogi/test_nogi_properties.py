"""Nogi za pas!: property tests over thousands of random games (games.engine.testing).

Every step the harness checks ``check_invariants`` (A.6 invariants and the
conservation of knights, dice, bunnies and dragon tokens), that states stay
plain JSON, that ``apply`` never mutates its input, that garbage, forged and
out-of-turn actions are refused, that every game ends, and that replaying the
move log rebuilds the final state.
"""

from __future__ import annotations

import pytest

from games.catalog.nogi import components as C
from games.catalog.nogi.bot import choose
from games.catalog.nogi.rules import GAME
from games.engine.testing import play_random_game, run_many

OPTION_SETS = [{"first_player": "random"}, {"first_player": "host"}]


@pytest.mark.slow
def test_thousands_of_random_games():
    stats = run_many(
        GAME,
        2100,
        players=list(range(2, 8)),
        options_list=OPTION_SETS,
        seed_prefix="nogi-property",
        thorough_every=12,
    )
    assert stats.games == 2100
    assert stats.by_players == dict.fromkeys(range(2, 8), 350)
    assert stats.longest < 200


def test_every_rolled_die_is_usable_and_every_game_ends_cleanly():
    """C.16: every available die always has at least one legal action."""
    end_reasons = set()

    def chooser(state, seat, legal, rng):
        assert {action["die"] for action in legal} == set(state["roll"])
        assert all(
            knight in state["board"]
            for action in legal
            for knight in action.get("knights", [action.get("knight")])
        )
        return legal[rng.below(len(legal))]

    for i in range(240):
        n_players = 2 + i % 6
        run = play_random_game(
            GAME,
            n_players,
            {"first_player": "random"},
            f"usable-{i}",
            thorough=False,
            chooser=chooser,
        )
        end_reasons.add(run.final["end_reason"])
        result = GAME.result(run.final)
        assert len(result.scores) == n_players
        total_bunnies = sum(len(values) for values in run.final["collected"])
        assert total_bunnies + len(run.final["bunnies"]) == len(C.BUNNY_FIELDS)
    assert end_reasons == {"castle_full", "few_knights_left"}


@pytest.mark.parametrize("level", ["random", "heuristic"])
def test_bots_playing_every_seat_finish_their_games(level):
    def chooser(state, seat, legal, rng):
        action = choose(state, seat, rng, level)
        assert action in legal
        return action

    for i in range(60):
        n_players = 2 + i % 6
        run = play_random_game(
            GAME,
            n_players,
            {"first_player": "random"},
            f"bots-{level}-{i}",
            thorough=(i % 10 == 0),
            chooser=chooser,
        )
        assert run.final["over"]
        assert GAME.result(run.final) is not None
