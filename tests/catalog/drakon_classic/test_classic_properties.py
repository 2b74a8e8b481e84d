"""Drakon, first edition: random games (games.engine.testing) over 2-6 players and every option.

Every step the harness checks ``check_invariants`` (66 tiles and 30 coins each in exactly
one place, the Start's coins counted, no two arrows meeting), plain JSON states, that
``apply`` never mutates its input, refusals of garbage and out-of-turn actions, that every
game ends and that replaying the log rebuilds the final state. Type-first play walks the
lair so that every room, character and ending shows up.
"""

from __future__ import annotations

import itertools

import pytest

from games.catalog.drakon.rules import GAME_CLASSIC as GAME
from games.engine.testing import run_many
from tests.catalog.drakon.editions import bot_games as bot_games_of
from tests.catalog.drakon.editions import walk_the_lair

OPTIONS = [
    {"heroes": heroes, "escape": escape} for heroes in (False, True) for escape in (False, True)
]


def test_the_options_are_exactly_the_matrix():
    for n in range(2, 7):
        assert GAME.option_matrix(n) == OPTIONS


@pytest.mark.slow
def test_hundreds_of_random_games_over_every_player_count_and_option():
    stats = run_many(
        GAME,
        400,
        players=[2, 3, 4, 5, 6],
        options_list=OPTIONS,
        seed_prefix="classic-property",
        thorough_every=25,
    )
    assert stats.games == 400 and stats.by_players == dict.fromkeys(range(2, 7), 80)


def test_games_that_walk_the_lair_reach_every_room_character_and_ending():
    """Type-first play: every decision kind of this edition shows up and the games end."""
    configurations = list(itertools.product([2, 3, 4, 5, 6], OPTIONS))
    walk = walk_the_lair(GAME, configurations, 120, "classic-walk")
    assert set(walk.decisions) == {
        "action",
        "after_action",
        "place_drakon",
        "destroy",
        "drakon_move",
        "mind_control",
        "rotate",
        "steal_tile",
        "swap",
        "take_start_coin",
        "knight_block",
        "warrior",
    }
    assert set(walk.abilities) == {"knight", "dwarf", "barbarian", "wizard", "thief", "amazon"}
    assert set(walk.endings) >= {"goal", "escape", "blocked"}


#: The bots' games: every player count, with and without Heroes! and Escape.
CONFIGURATIONS = [(2, {}), (3, {"heroes": True}), (4, {"escape": True}),
                  (5, {"heroes": True, "escape": True}), (6, {"heroes": True})]  # fmt: skip


def bot_games(level):
    """30 games with the bot of ``level`` in every seat: the endings, checked as they go."""
    return bot_games_of(GAME, level, CONFIGURATIONS, 30, "classic-bots")


def test_bots_of_both_levels_finish_and_the_heuristic_one_wins_more_often():
    random_endings = bot_games("random")
    heuristic = bot_games("heuristic")
    assert sum(random_endings.values()) == sum(heuristic.values()) == 30
    won = heuristic["goal"] + heuristic["escape"]
    assert won > random_endings["goal"] + random_endings["escape"]  # it really collects coins
