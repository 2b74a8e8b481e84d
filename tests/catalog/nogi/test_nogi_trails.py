"""Nogi's public trails (rules version 2) and the shields the strong bot deals by them.

A trail is what a seat's moves did for each colour's knights, in hundredths of
a castle point (``rules.record_trails``, docs/rules/nogi.md); ``sample_secrets``
deals the shields a seat cannot see as likely as the trails make each deal
(docs/bots.md, "What each game samples")."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from games.catalog.nogi import bot
from games.catalog.nogi import components as C
from games.catalog.nogi.builders import build_state
from games.catalog.nogi.rules import (
    GAME,
    TRAIL_WEIGHT,
    USE_DIE,
    _shield_deals,
    check_position,
    copy_state,
    race_value,
)
from games.engine.base import resolve_options
from games.engine.replay import replay
from games.engine.rng import Rng
from games.engine.state import clone
from games.engine.testing import play_random_game

PURPLE = C.COLOURS.index("purple")

#: Yellow, green and orange ahead of purple; blue, pink and black behind it.
RACE = {"yellow": 20, "green": 18, "orange": 15, "purple": 12}


def test_a_move_adds_what_it_did_for_the_moved_knight_to_the_movers_trail():
    state = build_state(2, board=RACE, rest=11, roll={"purple": ("NUM", 4)})
    # Fourth in the race: the castle's fourth place, 2 points.
    assert race_value(state, "purple") == 2.0
    after, _events = GAME.apply(state, 0, {"type": USE_DIE, "die": "purple", "knight": "purple"})
    # On 16, behind yellow and green only: the third place, 3 points.
    assert after["board"]["purple"] == 16
    assert race_value(after, "purple") == 3.0
    assert after["trails"][0] == [0, 0, 0, 100, 0, 0, 0]
    assert after["trails"][1] == [0] * 7


def test_knights_sharing_a_field_share_its_places_and_a_place_after_the_fourth_is_half_a_point():
    state = build_state(2, board=RACE, rest=11, roll={"white": ("NUM_ANY", 2)})
    # Blue, pink and black share places 5-7 (0.5 each).
    assert race_value(state, "blue") == 0.5
    after, _events = GAME.apply(state, 0, {"type": USE_DIE, "die": "white", "knight": "blue"})
    # Blue on 13 passed purple: fourth, 2 points; pink and black share places 6-7.
    assert race_value(after, "blue") == 2.0
    assert race_value(after, "pink") == 0.5
    assert after["trails"][0] == [150 if c == "blue" else 0 for c in C.COLOURS]
    # Sending a knight into the castle's first space (X) costs it all it had.
    state = build_state(2, board={"yellow": 35, "green": 31}, rest=11)
    assert race_value(state, "yellow") == 0.0  # the front-runner heads for X
    state = build_state(
        2,
        board={"yellow": 35},
        castle=["green"],
        rest=11,
        roll={"yellow": ("NUM", 2)},
    )
    assert race_value(state, "yellow") == 5.0  # second: 5 points
    after, _events = GAME.apply(state, 0, {"type": USE_DIE, "die": "yellow", "knight": "yellow"})
    assert after["castle"] == [["green"], ["yellow"]]
    assert race_value(after, "yellow") == 5.0
    assert after["trails"][0] == [0] * 7


def test_only_the_knights_a_move_moved_count_and_a_defeat_after_it_does_not():
    # Blue and pink share the dragon's field; pink leaves, blue is left alone and
    # is defeated: pink's gain goes on the trail, blue's loss does not (the
    # mover did not move blue).
    state = build_state(
        2,
        board={**RACE, "blue": 11, "pink": 11, "black": 13},
        dragon=11,
        roll={"pink": ("NUM", 3)},
        dragon_stack=[],
    )
    before = race_value(state, "pink")
    after, _events = GAME.apply(state, 0, {"type": USE_DIE, "die": "pink", "knight": "pink"})
    assert "blue" in after["defeated"]
    gain = round(100 * (race_value(after, "pink") - before))
    assert gain != 0
    assert after["trails"][0] == [gain if c == "pink" else 0 for c in C.COLOURS]


def test_the_trails_are_public_and_every_seat_sees_the_same():
    state = GAME.setup(4, resolve_options(GAME, {}), "trails-public")
    rng = Rng.from_seed("trails-public")
    for _move in range(12):
        seat = GAME.current_seats(state)[0]
        state, _events = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    assert any(any(trail) for trail in state["trails"])
    views = [GAME.view(state, seat)["trails"] for seat in (None, 0, 1, 2, 3)]
    assert all(view == state["trails"] for view in views)
    # Nothing secret changes them: another deal of the shields, bunnies and dice.
    assert GAME.perturb_secrets(state, 0, Rng.from_seed("other"))["trails"] == state["trails"]


def test_a_match_of_rules_version_1_has_no_trails_and_plays_without_them():
    state = GAME.setup_for(1, 2, resolve_options(GAME, {}), "version-1")
    assert "trails" not in state and "trails" not in GAME.view(state, 0)
    seat = GAME.current_seats(state)[0]
    after, _events = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    assert "trails" not in after
    assert copy_state(after) == clone(after)
    # Its samples deal the shields blind, as version 1 always did.
    sample = GAME.sample_secrets(after, 0, Rng.from_seed("sample"))
    assert "trails" not in sample


def test_a_malformed_trail_is_caught():
    state = build_state(2)
    state["trails"][1][0] = 0.5
    with pytest.raises(AssertionError, match="whole number"):
        check_position(state)
    state["trails"] = [[0] * 7]
    with pytest.raises(AssertionError, match="a trail per seat"):
        check_position(state)


def test_every_deal_of_the_unseen_shields_and_its_weight():
    # Two players: the opponent's pair from the 5 shields seat 0 does not hold.
    trail = (300, 0, 0, -200, 0, 100, 0)
    deals, logs = _shield_deals((2, 3, 4, 5, 6), (2,), (trail,))
    assert len(deals) == 10 == len(set(deals))
    assert all(len(dealt) == 1 and len(dealt[0]) == 2 for dealt in deals)
    # S3 (orange, purple, pink) and S5 (blue, pink, yellow) share pink: it counts twice.
    index = deals.index(((2, 4),))
    assert logs[index] == pytest.approx(TRAIL_WEIGHT * (-200 + 100 + 100 + 300))
    # More players, one shield each: every ordered deal, no shield twice.
    deals, _logs = _shield_deals((1, 2, 3, 4, 5, 6), (1, 1), ((0,) * 7, (0,) * 7))
    assert len(deals) == 30 and all(a != b for (a,), (b,) in deals)
    deals, _logs = _shield_deals((0, 1, 2, 3, 4, 5), (1,) * 6, ((0,) * 7,) * 6)
    assert len(deals) == math.factorial(6)


def test_samples_deal_the_shields_the_trails_point_to():
    state = build_state(2, shields=[[0, 1], [3, 5]])
    rng = Rng.from_seed("samples")
    # No trail yet: every pair of the five unseen shields is dealt about as often.
    blind = Counter(tuple(GAME.sample_secrets(state, 0, rng)["shields"][1]) for _ in range(1000))
    assert len(blind) == 10 and min(blind.values()) > 60 and max(blind.values()) < 140
    # Seat 1 has done well by purple, blue, black (S4) and pink, green (S6).
    for colour in ("purple", "blue", "black", "pink", "green"):
        state["trails"][1][C.COLOURS.index(colour)] = 150
    led = Counter(tuple(GAME.sample_secrets(state, 0, rng)["shields"][1]) for _ in range(1000))
    assert led[(3, 5)] > 800
    # The seat's own shields are never dealt to another, and its view of a sample is its view.
    sample = GAME.sample_secrets(state, 0, rng)
    assert not set(sample["shields"][1]) & {0, 1}
    assert GAME.view(sample, 0) == GAME.view(state, 0)


def test_the_same_moves_under_rules_version_1_make_the_same_game_without_trails():
    run = play_random_game(GAME, 3, {}, "nogi-trails-v1", thorough=False)
    state = GAME.setup_for(1, 3, run.options, run.seed)
    for seat, action in run.moves:
        state, _events = GAME.apply(state, seat, action)
        assert "trails" not in state
    assert {key: value for key, value in run.final.items() if key != "trails"} == state
    assert replay(GAME, 3, run.options, run.seed, run.moves, rules_version=1) == state


def test_a_new_match_replays_its_trails_from_the_log():
    run = play_random_game(GAME, 2, {}, "nogi-trails-replay", thorough=False)
    assert any(any(trail) for trail in run.final["trails"])
    assert replay(GAME, 2, run.options, run.seed, run.moves) == run.final


def test_along_heuristic_games_the_samples_find_the_opponents_shields_far_better_than_blind():
    """After the opponent's fourth move, samples deal it its real pair of shields in
    well over half the cases (0.73 on these games; a blind deal: one in ten)."""
    hits = total = 0
    for index in range(10):
        state = GAME.setup(2, resolve_options(GAME, {}), f"nogi-trail-guess-{index}")
        rng = Rng.from_seed(f"nogi-trail-guess-{index}")
        while GAME.current_seats(state):
            seat = GAME.current_seats(state)[0]
            opponent = 1 - seat
            if state["turn"] > 8:
                for _sample in range(5):
                    sample = GAME.sample_secrets(state, seat, rng)
                    hits += sorted(sample["shields"][opponent]) == sorted(
                        state["shields"][opponent]
                    )
                    total += 1
            state, _events = GAME.apply(state, seat, bot.choose(state, seat, rng))
    assert total > 1000
    assert hits / total > 0.6
