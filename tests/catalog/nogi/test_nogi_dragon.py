"""Nogi za pas!: the dragon attack (A.5, A.6; C.5, C.6, C.9, C.11, C.12, C.22; D.22-D.25).

Positions are built "at the start of a turn" with ``build_state(roll=None)``
and the turn start is run with ``GAME.begin_turn``; the token order is
injected through ``dragon_stack`` (index 0 is revealed next).
"""

from __future__ import annotations

import copy

from games.catalog.nogi import components as C
from games.catalog.nogi.builders import build_state
from games.catalog.nogi.rules import GAME, check_position


def of_type(events, kind):
    return [event for event in events if event["type"] == kind]


def types(events):
    return [event["type"] for event in events]


def all_aside_but(*keep):
    return [die for die in C.DICE if die not in keep]


def start_turn(state):
    check_position(state)
    before = copy.deepcopy(state)
    new, events = GAME.begin_turn(state)
    assert state == before
    GAME.check_invariants(new)
    return new, events


def test_d22_trigger_gathers_all_dice_and_moves_the_dragon():
    state = build_state(
        3, aside=all_aside_but("green"), dragon_stack=[5, 3, 4, 5, 6, 6, 7, 8], roll=None
    )
    new, events = start_turn(state)
    assert types(events) == ["turn_started", "dragon_attack", "dice_rolled"]
    assert of_type(events, "dragon_attack") == [
        {
            "type": "dragon_attack",
            "seat": 0,
            "gathered": list(C.DICE),
            "token": 5,
            "from": 0,
            "to": 5,
            "tokens_left": 7,
        }
    ]
    assert new["dragon"] == 5
    assert new["dragon_stack"] == [3, 4, 5, 6, 6, 7, 8]
    assert new["dragon_revealed"] == [5]
    assert new["defeated"] == []
    assert new["dice"] == dict.fromkeys(C.DICE, "pool")
    assert sorted(new["roll"]) == sorted(C.DICE)  # then P rolls 8 dice
    assert new["active"] == 0  # C.22: the attacker takes the turn


def test_d22_trigger_through_apply_the_next_seat_is_attacked():
    state = build_state(
        3,
        aside=all_aside_but("green", "white"),
        dragon_stack=[5, 3, 4, 5, 6, 6, 7, 8],
        roll={"green": ("NUM", 2), "white": ("NUM_ANY", 2)},
    )
    new, events = GAME.apply(state, 0, {"type": "use_die", "die": "white", "knight": "blue"})
    assert types(events)[-3:] == ["turn_started", "dragon_attack", "dice_rolled"]
    attack = of_type(events, "dragon_attack")[0]
    assert attack["seat"] == 1 and attack["token"] == 5 and attack["to"] == 5
    assert new["active"] == 1
    assert sorted(new["roll"]) == sorted(C.DICE)


def test_two_available_dice_do_not_trigger_an_attack():
    state = build_state(3, aside=all_aside_but("green", "white"), roll=None)
    new, events = start_turn(state)
    assert not of_type(events, "dragon_attack")
    assert sorted(new["roll"]) == ["green", "white"]
    assert new["dragon"] == 0 and len(new["dragon_stack"]) == 8


def test_d23_dragon_stops_at_the_first_knight_and_defeats_it_when_alone():
    board = {
        "black": 11,
        "yellow": 14,
        "green": 14,
        "orange": 15,
        "purple": 16,
        "blue": 18,
        "pink": 20,
    }
    state = build_state(
        3, board=board, dragon=5, aside=all_aside_but("white"), dragon_stack=[7, 3], roll=None
    )
    new, events = start_turn(state)
    attack = of_type(events, "dragon_attack")[0]
    assert (attack["token"], attack["from"], attack["to"]) == (7, 5, 11)
    assert new["dragon"] == 11  # 6 steps of 7
    assert new["defeated"] == ["black"]
    assert "black" not in new["board"] and len(new["board"]) == 6
    assert new["dice"]["black"] == "boxed"
    assert of_type(events, "knight_defeated") == [
        {"type": "knight_defeated", "knight": "black", "field": 11, "cause": "dragon"}
    ]
    assert types(events) == ["turn_started", "dragon_attack", "knight_defeated", "dice_rolled"]
    # P rolls every die that is not boxed, including those set aside before.
    assert sorted(new["roll"]) == sorted(d for d in C.DICE if d != "black")


def test_d24_standoff_nobody_defeated():
    board = {
        "green": 13,
        "pink": 13,
        "yellow": 15,
        "orange": 16,
        "purple": 18,
        "blue": 20,
        "black": 22,
    }
    state = build_state(
        3, board=board, dragon=12, aside=all_aside_but("white"), dragon_stack=[5], roll=None
    )
    new, events = start_turn(state)
    assert new["dragon"] == 13
    assert new["defeated"] == []
    assert not of_type(events, "knight_defeated")
    assert new["board"] == state["board"]


def test_dragon_moves_its_full_token_when_no_knight_is_met():
    state = build_state(3, dragon=0, aside=all_aside_but("white"), dragon_stack=[3, 8], roll=None)
    new, _ = start_turn(state)
    assert new["dragon"] == 3
    assert new["dragon_stack"] == [8]


def test_dragon_meets_a_knight_on_its_last_step():
    state = build_state(3, dragon=2, aside=all_aside_but("white"), dragon_stack=[8], roll=None)
    new, _ = start_turn(state)
    assert new["dragon"] == 10  # all seven knights on 10: a standoff
    assert new["defeated"] == []


def test_c5_dragon_already_on_a_group_stays_and_the_token_is_used_up():
    board = {
        "green": 13,
        "pink": 13,
        "yellow": 15,
        "orange": 16,
        "purple": 18,
        "blue": 20,
        "black": 22,
    }
    state = build_state(
        3, board=board, dragon=13, aside=all_aside_but("white"), dragon_stack=[5, 6], roll=None
    )
    new, events = start_turn(state)
    attack = of_type(events, "dragon_attack")[0]
    assert (attack["token"], attack["from"], attack["to"], attack["tokens_left"]) == (5, 13, 13, 1)
    assert new["dragon"] == 13
    assert new["dragon_stack"] == [6]
    assert new["dragon_revealed"][-1] == 5
    assert new["defeated"] == []


def test_c11_empty_stack_still_gathers_the_dice_and_play_goes_on():
    board = {"green": 13, "pink": 13, "yellow": 15, "orange": 16, "purple": 18, "blue": 20}
    state = build_state(
        3,
        board=board,
        defeated=["black"],
        dragon=13,
        dragon_stack=[],
        aside=all_aside_but("pink"),
        roll=None,
    )
    new, events = start_turn(state)
    assert of_type(events, "dragon_attack") == [
        {
            "type": "dragon_attack",
            "seat": 0,
            "gathered": [d for d in C.DICE if d != "black"],
            "token": None,
            "from": 13,
            "to": 13,
            "tokens_left": 0,
        }
    ]
    assert new["dragon"] == 13 and new["dragon_stack"] == []
    assert sorted(new["roll"]) == sorted(d for d in C.DICE if d != "black")
    assert not new["over"]


def test_c11_lone_knight_rule_still_applies_after_the_tokens_run_out():
    board = {"green": 13, "pink": 13, "yellow": 15, "orange": 16, "purple": 18, "blue": 20}
    state = build_state(
        3,
        board=board,
        defeated=["black"],
        dragon=13,
        dragon_stack=[],
        roll={"white": ("NUM_ANY", 2)},
    )
    new, events = GAME.apply(state, 0, {"type": "use_die", "die": "white", "knight": "pink"})
    assert new["defeated"] == ["black", "green"]


def test_c12_zero_available_dice_trigger_an_attack():
    # The last two pool dice are green and blue; green's any-knight face moves blue
    # into the castle: green is set aside and blue is boxed, leaving 0 available.
    state = build_state(
        3,
        board={"blue": 35},
        aside=all_aside_but("green", "blue"),
        dragon_stack=[4],
        roll={"green": ("NUM_ANY", 3), "blue": ("NUM", 2)},
    )
    new, events = GAME.apply(state, 0, {"type": "use_die", "die": "green", "knight": "blue"})
    attack = of_type(events, "dragon_attack")[0]
    assert attack["seat"] == 1
    assert attack["gathered"] == [d for d in C.DICE if d != "blue"]
    assert new["dragon"] == 4
    assert sorted(new["roll"]) == sorted(d for d in C.DICE if d != "blue")


def test_c6_boxed_dice_never_come_back_at_an_attack():
    state = build_state(
        3,
        board={"yellow": 20, "green": 20, "orange": 20, "purple": 20, "pink": 20},
        castle=["blue"],
        defeated=["black"],
        aside=all_aside_but("white"),
        roll=None,
    )
    new, _ = start_turn(state)
    assert new["dice"]["blue"] == new["dice"]["black"] == "boxed"
    assert "blue" not in new["roll"] and "black" not in new["roll"]


def test_attack_that_ends_the_game_skips_the_roll():
    # Rulebook end example: blue and orange in the castle, black alone ahead of the
    # dragon is eaten, leaving yellow and pink: both share space "3".
    state = build_state(
        3,
        board={"black": 11, "yellow": 20, "pink": 20},
        castle=["blue", "orange"],
        defeated=["green", "purple"],
        dragon=5,
        aside=all_aside_but("white"),
        dragon_stack=[7],
        roll=None,
    )
    new, events = start_turn(state)
    assert types(events) == [
        "turn_started",
        "dragon_attack",
        "knight_defeated",
        "castle_placed",
        "game_over",
    ]
    assert new["over"] and new["end_reason"] == "few_knights_left"
    assert new["roll"] == {} and new["active"] is None
    assert new["castle"] == [["blue"], ["orange"], ["yellow", "pink"]]
    assert of_type(events, "castle_placed") == [
        {"type": "castle_placed", "knights": ["yellow", "pink"], "space": 2, "points": 3}
    ]


def test_c17_the_dragon_leaves_bunnies_alone():
    board = {
        "yellow": 20,
        "green": 20,
        "orange": 22,
        "purple": 22,
        "blue": 24,
        "pink": 24,
        "black": 26,
    }
    state = build_state(
        3, board=board, dragon=12, aside=all_aside_but("white"), dragon_stack=[5, 3], roll=None
    )
    new, _ = start_turn(state)
    assert new["dragon"] == 17  # stopped on the bunny field, passing nothing else
    assert new["bunnies"] == {"17": 1, "21": 2, "25": 1, "30": 1, "36": 2}
    new["dice"] = {die: ("aside" if die != "white" else "pool") for die in C.DICE}
    again, _ = start_turn(new)
    assert again["dragon"] == 20  # the next token 3 walks over nothing but field 18, 19
    assert again["bunnies"]["17"] == 1
    assert again["collected"] == [[], [], []]


def test_c9_a_defeat_can_drain_the_pool_and_trigger_the_next_attack():
    board = {
        "green": 13,
        "pink": 13,
        "yellow": 15,
        "orange": 15,
        "purple": 18,
        "blue": 20,
        "black": 22,
    }
    state = build_state(
        3,
        board=board,
        dragon=13,
        aside=all_aside_but("white", "green", "pink"),
        dragon_stack=[3],
        roll={"white": ("NUM_ANY", 4), "green": ("NUM", 2), "pink": ("NUM", 2)},
    )
    new, events = GAME.apply(state, 0, {"type": "use_die", "die": "white", "knight": "pink"})
    assert types(events) == [
        "die_used",
        "knight_moved",
        "bunny_rescued",
        "bunny_value",
        "knight_defeated",
        "turn_started",
        "dragon_attack",
        "dice_rolled",
    ]
    assert new["defeated"] == ["green"]
    attack = of_type(events, "dragon_attack")[0]
    assert (attack["seat"], attack["token"], attack["from"], attack["to"]) == (1, 3, 13, 15)
    assert new["dragon"] == 15  # stopped on the yellow-orange pair: a standoff
    assert sorted(new["roll"]) == sorted(d for d in C.DICE if d != "green")
