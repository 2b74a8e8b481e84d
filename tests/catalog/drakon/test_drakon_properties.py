"""Drakon: property tests over thousands of random games (games.engine.testing).

Every step the harness checks ``check_invariants`` (72 tiles and 28 coins
each in exactly one place, the Entrance at 0,0, no two arrows meeting
anywhere, every figure on a chamber, a decision on top of the stack while
the game runs), that states stay plain JSON, that ``apply`` never mutates its
input, that garbage, forged and out-of-turn actions are refused, that every
game ends, and that replaying the move log rebuilds the final state.

Uniform random play mostly places tiles (there are hundreds of placements
and a handful of moves), so a second run first picks an action *type* at
random: it walks the lair, enters every kind of room and uses the heroes.
"""

from __future__ import annotations

import itertools

import pytest

from games.catalog.drakon import components as C
from games.catalog.drakon.rules import GAME, Lair, key_of, lair_of, place_refusal, tiles_of
from games.engine.rng import Rng
from games.engine.testing import run_many
from tests.catalog.drakon.editions import bot_games, type_first, walk_the_lair

#: Every combination of the optional rules except Escape with Short game (refused).
GOALS = [{}, {"escape": True}, {"short_game": True}]
SOLO_OPTIONS = [{**goal, "heroes": heroes} for goal in GOALS for heroes in (False, True)]
TEAM_OPTIONS = [{**options, "team_play": True} for options in SOLO_OPTIONS]


def test_option_sets_are_all_valid():
    for options in SOLO_OPTIONS:
        assert all(GAME.validate_setup(n, options) is None for n in range(2, 7))
    for options in TEAM_OPTIONS:
        assert GAME.validate_setup(4, options) is None and GAME.validate_setup(6, options) is None


@pytest.mark.slow
def test_thousands_of_random_games_without_teams():
    stats = run_many(
        GAME,
        1200,
        players=[2, 3, 4, 5, 6],
        options_list=SOLO_OPTIONS,
        seed_prefix="drakon-property",
        thorough_every=30,
    )
    assert stats.games == 1200
    assert stats.by_players == dict.fromkeys(range(2, 7), 240)
    # Rules version 2 (ruling 20): a game whose hands are empty but whose coins can still
    # change hands runs on to the round limit, so that limit bounds the longest game
    # (an action and about one more decision per turn at most).
    assert stats.longest < 2 * 6 * C.EDITIONS["4e"].max_rounds


@pytest.mark.slow
def test_hundreds_of_random_team_games():
    stats = run_many(
        GAME,
        360,
        players=[4, 6],
        options_list=TEAM_OPTIONS,
        seed_prefix="drakon-team-property",
        thorough_every=30,
    )
    assert stats.games == 360 and stats.by_players == {4: 180, 6: 180}


@pytest.mark.slow
def test_games_that_walk_the_lair_reach_every_room_and_every_ending():
    """Type-first play: every effect decision shows up and the games still end."""
    configurations = list(itertools.product([2, 3, 4, 5, 6], SOLO_OPTIONS)) + list(
        itertools.product([4, 6], TEAM_OPTIONS)
    )
    walk = walk_the_lair(GAME, configurations, 420, "walk")
    assert set(walk.decisions) >= {
        "choose_hero",
        "action",
        "after_action",
        "place_drakon",
        "escape",
        "destroy",
        "drakon_move",
        "float",
        "mind_control",
        "rotate",
        "steal_tile",
        "swap",
        "druid",
        "warrior",
    }
    assert set(walk.endings) >= {"goal", "escape", "blocked"}
    # Under rules version 2 the no-progress end waits while a coin can change
    # hands, which random walks rarely exhaust: they meet the round limit
    # instead. Both sides of that guard have their own scenario tests in
    # test_drakon_rules_version.py.
    assert set(walk.endings) & {"exhausted", "turn_limit"}


def test_the_placement_fast_path_agrees_with_the_listed_placements():
    """``place_refusal`` (used by ``apply``) accepts exactly what ``legal_actions`` lists."""
    rng = Rng.from_seed("fast-path")
    checked = 0
    for i in range(40):
        state = GAME.setup(2 + i % 5, {}, f"fast-{i}")
        for _ in range(10 + i):
            if state["over"]:
                break
            seat = GAME.current_seats(state)[0]
            legal = GAME.legal_actions(state, seat)
            state, _ = GAME.apply(state, seat, type_first(state, seat, legal, rng))
        if state["over"] or state["pending"][-1]["kind"] != "action":
            continue
        seat = state["pending"][-1]["seat"]
        listed = [a for a in GAME.legal_actions(state, seat) if a["type"] == "place"]
        lair = lair_of(state)
        xs = [x for x, _y in lair.kind]
        ys = [y for _x, y in lair.kind]
        for tile in state["hands"][seat]:
            for x in range(min(xs) - 2, max(xs) + 3):
                for y in range(min(ys) - 2, max(ys) + 3):
                    for rot in range(4):
                        action = {"type": "place", "tile": tile, "at": key_of((x, y)), "rot": rot}
                        accepted = place_refusal(state, seat, action) is None
                        assert accepted == (action in listed), action
                        checked += 1
    assert checked > 10_000


def test_every_tile_in_a_hand_can_always_be_placed():
    """D-12: on an unbounded grid a tile with at most 3 arrows always has a legal spot."""
    for i in range(60):
        state = GAME.setup(2 + i % 5, {}, f"placeable-{i}")
        rng = Rng.from_seed(f"placeable-walk-{i}")
        while not state["over"]:
            seat = GAME.current_seats(state)[0]
            legal = GAME.legal_actions(state, seat)
            if state["pending"][-1]["kind"] == "action":
                placed = {a["tile"] for a in legal if a["type"] == "place"}
                assert placed == set(state["hands"][seat])
            state, _ = GAME.apply(state, seat, legal[rng.below(len(legal))])
        assert Lair(state).kind  # the lair survives to the end
        assert tiles_of(state)[0][0] == "entrance"


@pytest.mark.parametrize("level", ["random", "heuristic"])
def test_bots_playing_every_seat_finish_their_games(level):
    configurations = [(2, {}), (3, {"heroes": True}), (4, {"team_play": True, "heroes": True}),
                      (5, {"escape": True}), (6, {"short_game": True, "heroes": True})]  # fmt: skip
    endings = bot_games(GAME, level, configurations, 40, "bots")
    assert sum(endings.values()) == 40
    if level == "heuristic":
        assert endings["goal"] + endings["escape"] >= 20  # it really collects coins
