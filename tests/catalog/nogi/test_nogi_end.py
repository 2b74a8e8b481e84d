"""Nogi za pas!: end of game (A.8; C.10, C.18, C.19) and scoring (A.9; C.21; D.36, D.39)."""

from __future__ import annotations

import copy

import pytest

from games.catalog.nogi.builders import build_state
from games.catalog.nogi.rules import GAME
from games.engine.base import IllegalAction


def use(die, knight=None, knights=None):
    if knights is not None:
        return {"type": "use_die", "die": die, "knights": list(knights)}
    return {"type": "use_die", "die": die, "knight": knight}


def play(state, action, seat=0):
    GAME.check_invariants(state)
    new, events = GAME.apply(state, seat, action)
    GAME.check_invariants(new)
    return new, events


def of_type(events, kind):
    return [event for event in events if event["type"] == kind]


def types(events):
    return [event["type"] for event in events]


def finished(state, reason="castle_full"):
    """Mark a built position as a finished game, to score it."""
    state.update(over=True, active=None, roll={}, end_reason=reason)
    GAME.check_invariants(state)
    return state


# End (a): four knights in the castle --------------------------------------------------------


def test_end_a_fourth_castle_arrival_ends_the_game():
    state = build_state(
        3,
        castle=["blue", "yellow", "green"],
        board={"orange": 35, "purple": 20, "pink": 20, "black": 22},
        roll={"orange": ("NUM", 2)},
    )
    new, events = play(state, use("orange", "orange"))
    assert new["castle"] == [["blue"], ["yellow"], ["green"], ["orange"]]
    assert new["over"] and new["end_reason"] == "castle_full"
    assert new["board"] == {"purple": 20, "pink": 20, "black": 22}  # they score nothing
    assert new["active"] is None and new["roll"] == {}
    assert GAME.current_seats(new) == []
    assert GAME.legal_actions(new, 1) == [] and GAME.legal_actions(new, 0) == []
    assert types(events)[-2:] == ["castle_arrival", "game_over"]
    assert not of_type(events, "turn_started")
    assert of_type(events, "castle_arrival")[0]["points"] == 2
    assert GAME.result(new) is not None


def test_c19_arrival_after_the_fourth_space_scores_nothing():
    state = build_state(
        3,
        castle=["blue", "yellow", "green"],
        board={"orange": 36, "pink": 36, "purple": 20, "black": 22},
        bunnies={17: 1, 21: 2, 25: 1, 30: 1},
        collected=[[], [], [2]],
        roll={"white": "ONE_PLUS_ONE"},
    )
    new, events = play(state, use("white", knights=["orange", "pink"]))
    assert new["castle"] == [["blue"], ["yellow"], ["green"], ["orange"]]
    assert new["castle_unplaced"] == ["pink"]
    assert [(e["knight"], e["space"], e["points"]) for e in of_type(events, "castle_arrival")] == [
        ("orange", 3, 2),
        ("pink", None, 0),
    ]
    assert new["over"] and new["end_reason"] == "castle_full"
    assert GAME.result(new).details["knight_points"]["pink"] == 0


def test_the_game_over_refuses_every_action():
    state = build_state(
        3,
        castle=["blue", "yellow", "green"],
        board={"orange": 35},
        roll={"orange": ("NUM", 2)},
    )
    new, _ = play(state, use("orange", "orange"))
    before = copy.deepcopy(new)
    with pytest.raises(IllegalAction, match="over"):
        GAME.apply(new, 0, use("orange", "orange"))
    assert new == before


# End (b): two knights left ---------------------------------------------------------------------


def test_end_b_two_knights_left_share_the_next_space():
    state = build_state(
        3,
        castle=["blue"],
        defeated=["orange", "purple", "black"],
        board={"yellow": 30, "pink": 32, "green": 34},
        roll={"green": ("NUM", 3)},
        check=False,
    )
    new, events = play(state, use("green", "green"))
    assert new["castle"] == [["blue"], ["green"], ["yellow", "pink"]]
    assert new["board"] == {}
    assert new["dice"]["yellow"] == new["dice"]["pink"] == "boxed"
    assert new["over"] and new["end_reason"] == "few_knights_left"
    assert of_type(events, "castle_placed") == [
        {"type": "castle_placed", "knights": ["yellow", "pink"], "space": 2, "points": 3}
    ]
    points = GAME.result(new).details["knight_points"]
    assert (points["green"], points["yellow"], points["pink"], points["blue"]) == (5, 3, 3, 0)


def test_c18_end_b_with_an_empty_castle_scores_zero():
    board = {"yellow": 12, "green": 12, "pink": 15}
    state = build_state(
        3,
        board=board,
        defeated=["orange", "purple", "blue", "black"],
        dragon=12,
        roll={"white": ("NUM_ANY", 2)},
    )
    new, events = play(state, use("white", "yellow"))
    assert new["defeated"] == ["orange", "purple", "blue", "black", "green"]
    assert new["castle"] == [["yellow", "pink"]]
    assert of_type(events, "castle_placed")[0]["points"] == 0
    assert GAME.result(new).details["knight_points"]["yellow"] == 0


def test_c18_end_b_with_one_knight_left_it_goes_alone():
    state = build_state(
        3,
        castle=["blue"],
        defeated=["orange", "purple", "black"],
        board={"yellow": 36, "green": 36, "pink": 20},
        bunnies={17: 1, 21: 2, 25: 1, 30: 1},
        collected=[[2], [], []],
        roll={"white": "ONE_PLUS_ONE"},
    )
    new, events = play(state, use("white", knights=["yellow", "green"]))
    assert new["castle"] == [["blue"], ["yellow"], ["green"], ["pink"]]
    assert new["end_reason"] == "few_knights_left"
    assert of_type(events, "castle_placed") == [
        {"type": "castle_placed", "knights": ["pink"], "space": 3, "points": 2}
    ]


def test_end_b_with_no_knight_left_places_nobody():
    # Extra ruling (docs/rules/nogi.md): the dragon stands on 36 with three knights;
    # 1+1 takes two into the castle and the third, left alone, is defeated.
    state = build_state(
        3,
        castle=["blue"],
        defeated=["orange", "purple", "black"],
        board={"yellow": 36, "green": 36, "pink": 36},
        dragon=36,
        bunnies={17: 1, 21: 2, 25: 1, 30: 1},
        collected=[[2], [], []],
        roll={"white": "ONE_PLUS_ONE"},
    )
    new, events = play(state, use("white", knights=["yellow", "green"]))
    assert new["castle"] == [["blue"], ["yellow"], ["green"]]
    assert new["defeated"][-1] == "pink"
    assert new["over"] and new["end_reason"] == "few_knights_left"
    assert not of_type(events, "castle_placed")


def test_three_knights_left_play_on():
    state = build_state(
        3,
        castle=["blue"],
        defeated=["orange", "purple"],
        board={"yellow": 30, "pink": 32, "green": 34, "black": 20},
        roll={"green": ("NUM", 3)},
        check=False,
    )
    new, _ = play(state, use("green", "green"))
    assert not new["over"]
    assert new["board"] == {"yellow": 30, "pink": 32, "black": 20}


# Scoring (A.9) -------------------------------------------------------------------------------


def test_d36_scoring_three_players():
    state = build_state(
        3,
        shields=[[0], [1], [3]],  # S1, S2, S4
        castle=["blue", "yellow", "green", "orange"],
        board={"purple": 20, "pink": 22, "black": 24},
        bunnies={},
        collected=[[1, 2], [1], [2, 1]],
        check=False,
    )
    result = GAME.result(finished(state))
    assert result.scores == [11, 6, 3]
    assert result.ranks == [1, 2, 3]
    assert result.winners == [0]
    seats = result.details["seats"]
    assert [row["knight_points"] for row in seats] == [8, 5, 0]
    assert [row["bunny_points"] for row in seats] == [3, 1, 3]
    assert seats[0]["shields"] == [["yellow", "green", "purple"]]


def test_d39_two_player_shared_colour_counts_twice():
    state = build_state(
        2,
        shields=[[0, 4], [1, 2]],  # S1 + S5 share yellow
        castle=["orange", "yellow", "blue", "black"],
        board={"green": 20, "purple": 22, "pink": 24},
        bunnies={17: 1, 21: 2, 25: 1, 30: 1, 36: 2},
        check=False,
    )
    result = GAME.result(finished(state))
    assert result.scores[0] == 13  # 5 x 2 + 3
    # S2 {green, orange, blue} + S3 {orange, purple, pink}: orange (X) twice, blue 3.
    assert result.scores[1] == 3
    assert result.ranks == [1, 2]


def test_bunny_points_break_a_tie():
    state = build_state(
        3,
        shields=[[0], [1], [3]],
        castle=["black", "yellow", "orange", "purple"],  # S1: 5 + 2, S2: 3, S4: 2
        board={"green": 20, "blue": 22, "pink": 24},
        bunnies={},
        collected=[[1], [2, 2, 1], [1]],
        check=False,
    )
    result = GAME.result(finished(state))
    assert result.scores == [8, 8, 3]
    assert result.ranks == [2, 1, 3]


def test_equal_score_and_equal_bunnies_share_the_win():
    # Ended by (b): yellow and orange share space "2". S1 and S2 both score green 5 + 2.
    state = build_state(
        3,
        shields=[[0], [1], [3]],  # S1 {yellow, green, purple}, S2 {green, orange, blue}, S4
        castle=["black", "green", "pink", ["yellow", "orange"]],
        defeated=["purple", "blue"],
        board={},
        bunnies={},
        collected=[[1, 1], [2], [1, 2]],
        check=False,
    )
    result = GAME.result(finished(state, "few_knights_left"))
    assert result.scores == [9, 9, 3]
    assert result.ranks == [1, 1, 3]
    assert result.winners == [0, 1]
    assert result.details["knight_points"] == {
        "yellow": 2,
        "green": 5,
        "orange": 2,
        "purple": 0,
        "blue": 0,
        "pink": 3,
        "black": 0,
    }


def test_defeated_knights_and_knights_left_on_the_board_score_nothing():
    state = build_state(
        3,
        shields=[[3], [1], [2]],  # S4 {purple, blue, black}
        castle=["yellow", "green", "orange", "pink"],
        defeated=["purple", "blue"],
        board={"black": 30},
        bunnies={17: 1, 21: 2, 25: 1, 30: 1, 36: 2},
        check=False,
    )
    result = GAME.result(finished(state))
    assert result.scores[0] == 0
    assert result.scores == [0, 8, 5]  # S2: green 5 + orange 3; S3: orange 3 + pink 2


def test_result_and_score_details():
    state = build_state(
        2,
        shields=[[0, 4], [1, 2]],
        castle=["orange", "yellow", "blue", "black"],
        board={"green": 20, "purple": 22, "pink": 24},
        bunnies={21: 2, 25: 1, 30: 1, 36: 2},
        collected=[[], [1]],
        check=False,
    )
    result = GAME.result(finished(state))
    assert result.to_json()["details"]["seats"][1] == {
        "shields": [["green", "orange", "blue"], ["orange", "purple", "pink"]],
        "knight_points": 3,
        "bunny_values": [1],
        "bunny_points": 1,
        "score": 4,
    }
    assert result.details["end_reason"] == "castle_full"
    assert result.details["castle"] == [["orange"], ["yellow"], ["blue"], ["black"]]
