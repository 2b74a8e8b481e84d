"""Drakon, first edition: random games (games.engine.testing) over 2-6 players and every option.

Every step the harness checks ``check_invariants`` (66 tiles and 30 coins each in exactly
one place, the Start's coins counted, no two arrows meeting), plain JSON states, that
``apply`` never mutates its input, refusals of garbage and out-of-turn actions, that every
game ends and that replaying the log rebuilds the final state. Type-first play walks the
lair so that every room, character and ending shows up.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from games.catalog.drakon.bot import choose
from games.catalog.drakon.rules import GAME_CLASSIC as GAME
from games.engine.base import resolve_options
from games.engine.testing import play_random_game, run_many

OPTIONS = [
    {"heroes": heroes, "escape": escape} for heroes in (False, True) for escape in (False, True)
]


def type_first(state, seat, legal, rng):
    """Pick an action type uniformly, then an action of that type."""
    kinds = sorted({action["type"] for action in legal})
    kind = kinds[rng.below(len(kinds))]
    choices = [action for action in legal if action["type"] == kind]
    return choices[rng.below(len(choices))]


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
    decisions = Counter()
    endings = Counter()
    abilities = Counter()
    configurations = list(itertools.product([2, 3, 4, 5, 6], OPTIONS))

    def chooser(state, seat, legal, rng):
        decisions[state["pending"][-1]["kind"]] += 1
        action = type_first(state, seat, legal, rng)
        if action["type"] in ("ability", "protect") or action.get("power"):
            abilities[action.get("hero", state["hero_names"][seat])] += 1
        return action

    for i in range(120):
        n_players, options = configurations[i % len(configurations)]
        run = play_random_game(
            GAME,
            n_players,
            resolve_options(GAME, options),
            f"classic-walk-{i}",
            thorough=(i % 20 == 0),
            chooser=chooser,
        )
        endings[run.final["end"]["reason"]] += 1
    assert set(decisions) == {
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
    assert set(abilities) == {"knight", "dwarf", "barbarian", "wizard", "thief", "amazon"}
    assert set(endings) >= {"goal", "escape", "blocked"}


def bot_games(level):
    """30 games with the bot of ``level`` in every seat: the endings, checked as they go."""

    def chooser(state, seat, legal, rng):
        action = choose(state, seat, rng, level)
        assert action in legal
        return action

    configurations = [(2, {}), (3, {"heroes": True}), (4, {"escape": True}),
                      (5, {"heroes": True, "escape": True}), (6, {"heroes": True})]  # fmt: skip
    endings = Counter()
    for i in range(30):
        n_players, options = configurations[i % len(configurations)]
        run = play_random_game(
            GAME,
            n_players,
            resolve_options(GAME, options),
            f"classic-bots-{level}-{i}",
            thorough=(i % 10 == 0),
            chooser=chooser,
        )
        assert run.final["over"] and GAME.result(run.final) is not None
        endings[run.final["end"]["reason"]] += 1
    return endings


def test_bots_of_both_levels_finish_and_the_heuristic_one_wins_more_often():
    random_endings = bot_games("random")
    heuristic = bot_games("heuristic")
    assert sum(random_endings.values()) == sum(heuristic.values()) == 30
    won = heuristic["goal"] + heuristic["escape"]
    assert won > random_endings["goal"] + random_endings["escape"]  # it really collects coins
