"""Nogi za pas!: die faces and movement (A.2-A.4, A.6, A.7; C.1-C.4, C.6-C.8, C.13-C.16; D.3-D.20).

Every position is built with ``build_state`` and an injected roll, so no test
depends on the PRNG or on the die table.
"""

from __future__ import annotations

import copy

import pytest

from games.catalog.nogi import components as C
from games.catalog.nogi.builders import build_state
from games.catalog.nogi.rules import GAME
from games.engine.base import IllegalAction


def use(die, knight=None, knights=None):
    action = {"type": "use_die", "die": die}
    if knights is not None:
        action["knights"] = list(knights)
    else:
        action["knight"] = knight
    return action


def play(state, action, seat=0):
    """Apply, checking the invariants before and after and that the input is untouched."""
    GAME.check_invariants(state)
    before = copy.deepcopy(state)
    new, events = GAME.apply(state, seat, action)
    assert state == before
    GAME.check_invariants(new)
    return new, events


def types(events):
    return [event["type"] for event in events]


def of_type(events, kind):
    return [event for event in events if event["type"] == kind]


# D.3-D.6: numbered faces ----------------------------------------------------------------------


def test_d3_plain_number_moves_its_colour_and_sets_the_die_aside():
    state = build_state(3, roll={"green": ("NUM", 3)})
    new, events = play(state, use("green", "green"))
    assert new["board"]["green"] == 13
    assert all(new["board"][c] == 10 for c in C.COLOURS if c != "green")
    assert new["dice"]["green"] == "aside"
    assert new["active"] == 1
    assert sorted(new["roll"]) == sorted(set(C.DICE) - {"green"})  # next player rolls 7 dice
    assert new["collected"] == [[], [], []]
    assert of_type(events, "knight_moved") == [
        {"type": "knight_moved", "knight": "green", "from": 10, "to": 13, "castle": False}
    ]
    assert of_type(events, "die_used")[0]["die_status"] == "aside"
    assert of_type(events, "dice_rolled")[0]["seat"] == 1
    assert not of_type(events, "dragon_attack")


def test_d4_keep_number_returns_the_die_to_the_pool():
    state = build_state(3, roll={"yellow": ("NUM_KEEP", 5)})
    new, events = play(state, use("yellow", "yellow"))
    assert new["board"]["yellow"] == 15
    assert new["dice"]["yellow"] == "pool"
    assert sorted(new["roll"]) == sorted(C.DICE)  # the next player rolls all 8
    assert of_type(events, "die_used")[0]["die_status"] == "pool"


def test_d5_any_knight_number_moves_the_chosen_knight():
    state = build_state(3, roll={"orange": ("NUM_ANY", 3)})
    new, _ = play(state, use("orange", "blue"))
    assert new["board"]["blue"] == 13
    assert new["board"]["orange"] == 10
    assert new["dice"]["orange"] == "aside"


def test_d6_plain_number_is_bound_to_its_colour():
    state = build_state(3, roll={"green": ("NUM", 3)})
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, use("green", "blue"))
    assert state == before
    assert use("green", "blue") not in GAME.legal_actions(state, 0)


def test_keep_face_on_coloured_die_is_bound_to_its_colour():
    state = build_state(3, roll={"yellow": ("NUM_KEEP", 5)})
    yellow_actions = [a for a in GAME.legal_actions(state, 0) if a["die"] == "yellow"]
    assert yellow_actions == [use("yellow", "yellow")]


# D.7-D.9, A.4: bunnies --------------------------------------------------------------------------

OTHERS_BELOW_17 = {"yellow": 10, "orange": 11, "purple": 12, "blue": 15, "pink": 16, "black": 16}


def test_d7_bunny_rescued_on_exact_landing():
    state = build_state(3, board={"green": 14, **OTHERS_BELOW_17}, roll={"green": ("NUM", 3)})
    new, events = play(state, use("green", "green"))
    assert new["board"]["green"] == 17
    assert new["collected"] == [[1], [], []]
    assert "17" not in new["bunnies"]
    assert of_type(events, "bunny_rescued") == [
        {"type": "bunny_rescued", "seat": 0, "knight": "green", "field": 17}
    ]
    assert of_type(events, "bunny_value") == [
        {"type": "bunny_value", "seat": 0, "field": 17, "value": 1, "private_to": 0}
    ]


def test_the_mover_not_the_knight_owner_gets_the_bunny():
    state = build_state(
        3, board={"green": 14, **OTHERS_BELOW_17}, roll={"green": ("NUM", 3)}, active=2
    )
    new, _ = play(state, use("green", "green"), seat=2)
    assert new["collected"] == [[], [], [1]]
    assert new["active"] == 0  # clockwise wraps around


def test_d8_no_bunny_when_passing():
    state = build_state(3, board={"green": 15, **OTHERS_BELOW_17}, roll={"green": ("NUM", 3)})
    new, events = play(state, use("green", "green"))
    assert new["board"]["green"] == 18
    assert new["bunnies"]["17"] == 1
    assert new["collected"] == [[], [], []]
    assert not of_type(events, "bunny_rescued")


def test_d9_landing_on_36_stays_on_the_board_and_takes_the_bunny():
    state = build_state(3, board={"yellow": 33}, roll={"yellow": ("NUM", 3)})
    new, _ = play(state, use("yellow", "yellow"))
    assert new["board"]["yellow"] == 36
    assert new["castle"] == []
    assert new["collected"][0] == [2]
    assert new["dice"]["yellow"] == "aside"


def test_field_36_without_bunny_gives_nothing():
    state = build_state(
        3,
        board={"yellow": 33},
        bunnies={17: 1, 21: 2, 25: 1, 30: 1},
        collected=[[], [2], []],
        roll={"yellow": ("NUM", 3)},
    )
    new, _ = play(state, use("yellow", "yellow"))
    assert new["board"]["yellow"] == 36
    assert new["collected"] == [[], [2], []]


def test_landing_short_of_36():
    state = build_state(3, board={"yellow": 32}, roll={"yellow": ("NUM", 4)})
    new, _ = play(state, use("yellow", "yellow"))
    assert new["board"]["yellow"] == 36 and new["castle"] == []


# D.10-D.12, A.7, C.6, C.13: the castle -------------------------------------------------------


def test_d10_passing_36_reaches_the_castle_and_boxes_the_die():
    state = build_state(3, board={"blue": 34}, roll={"blue": ("NUM", 4)})
    new, events = play(state, use("blue", "blue"))
    assert "blue" not in new["board"]
    assert new["castle"] == [["blue"]]
    assert new["dice"]["blue"] == "boxed"
    assert of_type(events, "knight_moved") == [
        {"type": "knight_moved", "knight": "blue", "from": 34, "to": None, "castle": True}
    ]
    assert of_type(events, "castle_arrival") == [
        {"type": "castle_arrival", "knight": "blue", "space": 0, "points": 0}
    ]
    assert of_type(events, "die_used")[0]["die_status"] == "boxed"
    # At the next dragon attack only 7 dice are gathered.
    for die in C.DICE:
        if new["dice"][die] == "pool" and die != "white":
            new["dice"][die] = "aside"
    new["roll"] = {}
    attacked, events = GAME.begin_turn(new)
    [attack] = of_type(events, "dragon_attack")
    assert attack["gathered"] == [d for d in C.DICE if d != "blue"]
    assert sorted(attacked["roll"]) == sorted(d for d in C.DICE if d != "blue")


def test_c13_overshooting_reaches_the_castle():
    state = build_state(3, board={"blue": 33}, roll={"blue": ("NUM_KEEP", 5)})
    new, _ = play(state, use("blue", "blue"))
    assert new["castle"] == [["blue"]]


def test_d11_keep_face_cannot_save_the_die_of_a_castle_arrival():
    state = build_state(3, castle=["blue"], board={"yellow": 33}, roll={"yellow": ("NUM_KEEP", 5)})
    assert len(state["roll"]) == 7
    new, events = play(state, use("yellow", "yellow"))
    assert new["castle"] == [["blue"], ["yellow"]]
    assert of_type(events, "castle_arrival")[0]["points"] == 5
    assert new["dice"]["yellow"] == "boxed"
    assert of_type(events, "die_used")[0]["die_status"] == "boxed"
    assert len(new["roll"]) == 6  # the pool shrank by one


def test_d12_castle_order_with_another_die():
    state = build_state(
        3, castle=["blue", "yellow"], board={"orange": 35}, roll={"green": ("NUM_ANY", 3)}
    )
    new, events = play(state, use("green", "orange"))
    assert new["castle"] == [["blue"], ["yellow"], ["orange"]]
    assert of_type(events, "castle_arrival")[0] == {
        "type": "castle_arrival",
        "knight": "orange",
        "space": 2,
        "points": 3,
    }
    assert new["dice"]["orange"] == "boxed"
    assert new["dice"]["green"] == "aside"


def test_d12_castle_order_with_the_knights_own_die():
    state = build_state(
        3, castle=["blue", "yellow"], board={"orange": 35}, roll={"orange": ("NUM_ANY", 3)}
    )
    new, events = play(state, use("orange", "orange"))
    assert new["castle"][2] == ["orange"]
    assert new["dice"]["orange"] == "boxed"
    assert of_type(events, "die_used")[0]["die_status"] == "boxed"


def test_c6_castle_arrival_boxes_a_die_that_is_set_aside():
    state = build_state(3, board={"orange": 35}, aside=["orange"], roll={"white": ("NUM_ANY", 2)})
    new, _ = play(state, use("white", "orange"))
    assert new["dice"]["orange"] == "boxed"
    assert new["dice"]["white"] == "aside"


# D.13, A.3.1, C.1, C.3: the minus arrow ---------------------------------------------------

D13_BOARD = {
    "yellow": 10,
    "green": 10,
    "orange": 14,
    "blue": 18,
    "pink": 18,
    "purple": 20,
    "black": 22,
}


def test_d13_minus_moves_back_to_the_nearest_knight():
    state = build_state(3, board=D13_BOARD, roll={"purple": "MINUS"})
    new, events = play(state, use("purple", "purple"))
    assert new["board"]["purple"] == 18
    assert new["dice"]["purple"] == "aside"
    assert of_type(events, "knight_moved")[0]["to"] == 18


def test_minus_ignores_knights_on_the_same_field():
    state = build_state(3, board=D13_BOARD, roll={"blue": "MINUS"})
    new, _ = play(state, use("blue", "blue"))
    assert new["board"]["blue"] == 14


def test_c3_minus_on_a_knight_sharing_the_rearmost_field_does_nothing():
    state = build_state(3, board=D13_BOARD, roll={"yellow": "MINUS"})
    assert use("yellow", "yellow") in GAME.legal_actions(state, 0)  # C.15: still legal
    new, events = play(state, use("yellow", "yellow"))
    assert new["board"] == state["board"]
    assert new["dice"]["yellow"] == "aside"  # C.15: the die is still set aside
    assert of_type(events, "no_effect") == [
        {"type": "no_effect", "knight": "yellow", "field": 10, "reason": "last"}
    ]
    assert not of_type(events, "knight_moved")


def test_white_minus_moves_any_knight():
    state = build_state(3, board=D13_BOARD, roll={"white": "MINUS"})
    white_knights = [a["knight"] for a in GAME.legal_actions(state, 0) if a["die"] == "white"]
    assert white_knights == list(C.COLOURS)
    new, _ = play(state, use("white", "black"))
    assert new["board"]["black"] == 20
    assert new["dice"]["white"] == "aside"


def test_minus_never_collects_a_bunny_it_lands_with_others():
    board = {**D13_BOARD, "blue": 17, "pink": 17, "purple": 20}
    state = build_state(
        3,
        board=board,
        bunnies={21: 2, 25: 1, 30: 1, 36: 2},
        collected=[[], [1], []],
        roll={"purple": "MINUS"},
    )
    new, _ = play(state, use("purple", "purple"))
    assert new["board"]["purple"] == 17
    assert new["collected"] == [[], [1], []]


def test_c1_minus_onto_the_dragon_field_joins_the_group():
    board = {
        "green": 12,
        "pink": 12,
        "purple": 15,
        "yellow": 16,
        "orange": 16,
        "blue": 20,
        "black": 22,
    }
    state = build_state(3, board=board, dragon=12, roll={"purple": "MINUS"})
    new, events = play(state, use("purple", "purple"))
    assert new["board"]["purple"] == 12
    assert new["defeated"] == []
    assert not of_type(events, "knight_defeated")


def test_minus_ignores_knights_in_the_castle_and_defeated_ones():
    state = build_state(
        3,
        board={"yellow": 20, "green": 25, "orange": 25, "purple": 30},
        castle=["blue"],
        defeated=["pink", "black"],
        dragon=15,
        roll={"yellow": "MINUS"},
        check=False,
    )
    new, events = play(state, use("yellow", "yellow"))
    assert new["board"]["yellow"] == 20
    assert of_type(events, "no_effect")[0]["reason"] == "last"


# D.17, C.3, C.4: the plus arrow -------------------------------------------------------------


def test_d17_plus_moves_forward_to_the_nearest_knight():
    board = {
        "blue": 12,
        "green": 12,
        "yellow": 15,
        "orange": 20,
        "purple": 20,
        "pink": 22,
        "black": 25,
    }
    state = build_state(3, board=board, roll={"white": "PLUS"}, check=False)
    new, _ = play(state, use("white", "blue"))
    assert new["board"]["blue"] == 15
    assert new["dice"]["white"] == "aside"


def test_c3_c4_plus_on_the_front_runner_does_nothing_even_with_knights_in_the_castle():
    board = {"blue": 12, "green": 12, "yellow": 15, "orange": 20, "purple": 30, "pink": 30}
    state = build_state(3, board=board, castle=["black"], roll={"white": "PLUS"}, check=False)
    new, events = play(state, use("white", "purple"))
    assert new["board"] == state["board"]
    assert new["castle"] == [["black"]]
    assert new["dice"]["white"] == "aside"
    assert of_type(events, "no_effect") == [
        {"type": "no_effect", "knight": "purple", "field": 30, "reason": "first"}
    ]


def test_plus_lands_with_a_knight_so_it_takes_no_bunny():
    board = {
        "blue": 12,
        "green": 17,
        "yellow": 20,
        "orange": 20,
        "purple": 20,
        "pink": 22,
        "black": 25,
    }
    state = build_state(
        3,
        board=board,
        bunnies={21: 2, 25: 1, 30: 1, 36: 2},
        collected=[[1], [], []],
        roll={"white": "PLUS"},
        check=False,
    )
    new, _ = play(state, use("white", "blue"))
    assert new["board"]["blue"] == 17
    assert new["collected"] == [[1], [], []]


# D.20, A.3.3, C.7, C.8: one plus one ------------------------------------------------------


def test_d20_one_plus_one_rescues_two_bunnies():
    board = {
        "orange": 16,
        "blue": 20,
        "yellow": 10,
        "green": 11,
        "purple": 12,
        "pink": 13,
        "black": 14,
    }
    state = build_state(3, board=board, roll={"white": "ONE_PLUS_ONE"})
    new, events = play(state, use("white", knights=["orange", "blue"]))
    assert new["board"]["orange"] == 17 and new["board"]["blue"] == 21
    assert new["collected"][0] == [1, 2]
    assert "17" not in new["bunnies"] and "21" not in new["bunnies"]
    assert new["dice"]["white"] == "pool"
    assert [e["value"] for e in of_type(events, "bunny_value")] == [1, 2]
    assert of_type(events, "die_used")[0]["knights"] == ["orange", "blue"]


def test_one_plus_one_order_decides_who_takes_a_shared_bunny_field():
    board = {"orange": 16, "blue": 16, "yellow": 10}
    state = build_state(3, board=board, roll={"white": "ONE_PLUS_ONE"})
    new, events = play(state, use("white", knights=["blue", "orange"]))
    assert new["board"]["orange"] == 17 and new["board"]["blue"] == 17
    assert new["collected"][0] == [1]
    assert [e["knight"] for e in of_type(events, "bunny_rescued")] == ["blue"]


def test_c7_one_plus_one_needs_two_different_knights():
    state = build_state(3, roll={"white": "ONE_PLUS_ONE"})
    white = [a for a in GAME.legal_actions(state, 0) if a["die"] == "white"]
    assert len(white) == 7 * 6
    assert all(a["knights"][0] != a["knights"][1] for a in white)
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, use("white", knights=["orange", "orange"]))
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, use("white", knights=["orange"]))
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, use("white", "orange"))


def test_a7_one_plus_one_castle_arrivals_follow_the_chosen_order():
    board = {"yellow": 36, "blue": 36, "green": 20}
    state = build_state(
        3,
        board=board,
        bunnies={17: 1, 21: 2, 25: 1, 30: 1},
        collected=[[2], [], []],
        roll={"white": "ONE_PLUS_ONE"},
    )
    forward, _ = play(state, use("white", knights=["blue", "yellow"]))
    backward, _ = play(state, use("white", knights=["yellow", "blue"]))
    assert forward["castle"] == [["blue"], ["yellow"]]
    assert backward["castle"] == [["yellow"], ["blue"]]
    assert forward["dice"]["blue"] == forward["dice"]["yellow"] == "boxed"
    assert forward["dice"]["white"] == "pool"


def test_c8_one_plus_one_lets_a_pair_leave_the_dragon_together():
    board = {
        "green": 13,
        "pink": 13,
        "yellow": 15,
        "orange": 16,
        "purple": 18,
        "blue": 20,
        "black": 22,
    }
    state = build_state(3, board=board, dragon=13, roll={"white": "ONE_PLUS_ONE"})
    new, events = play(state, use("white", knights=["green", "pink"]))
    assert new["board"]["green"] == 14 and new["board"]["pink"] == 14
    assert new["defeated"] == []
    assert not of_type(events, "knight_defeated")


def test_c8_one_plus_one_leaving_one_knight_behind_defeats_it():
    board = {
        "green": 13,
        "pink": 13,
        "yellow": 15,
        "orange": 16,
        "purple": 18,
        "blue": 20,
        "black": 22,
    }
    state = build_state(3, board=board, dragon=13, roll={"white": "ONE_PLUS_ONE"})
    new, events = play(state, use("white", knights=["green", "blue"]))
    assert new["defeated"] == ["pink"]
    assert "pink" not in new["board"]
    assert new["dice"]["pink"] == "boxed"
    assert of_type(events, "knight_defeated") == [
        {"type": "knight_defeated", "knight": "pink", "field": 13, "cause": "left_alone"}
    ]


# A.6, D.25, C.9: the lone knight ---------------------------------------------------------

STANDOFF = {
    "green": 13,
    "pink": 13,
    "yellow": 15,
    "orange": 16,
    "purple": 18,
    "blue": 20,
    "black": 22,
}


def test_d25_left_alone_with_the_dragon_is_defeated_at_once():
    state = build_state(3, board=STANDOFF, dragon=13, roll={"white": ("NUM_ANY", 4)})
    new, events = play(state, use("white", "pink"))
    assert new["board"]["pink"] == 17
    assert "green" not in new["board"]
    assert new["defeated"] == ["green"]
    assert new["dice"]["green"] == "boxed"
    assert "green" not in new["roll"]
    assert new["collected"][0] == [1]  # pink landed on the bunny of 17


def test_d25_defeat_boxes_a_die_that_was_set_aside():
    state = build_state(
        3, board=STANDOFF, dragon=13, aside=["green"], roll={"white": ("NUM_ANY", 4)}
    )
    new, _ = play(state, use("white", "pink"))
    assert new["dice"]["green"] == "boxed"


def test_using_a_knights_own_die_to_abandon_it_boxes_that_die():
    state = build_state(3, board=STANDOFF, dragon=13, roll={"green": ("NUM_ANY", 3)})
    new, events = play(state, use("green", "pink"))
    assert new["defeated"] == ["green"]
    assert new["dice"]["green"] == "boxed"
    assert of_type(events, "die_used")[0]["die_status"] == "boxed"


def test_a2_consequences_come_in_order_bunny_castle_lone_knight():
    board = {
        "orange": 16,
        "pink": 16,
        "blue": 36,
        "yellow": 20,
        "green": 22,
        "purple": 24,
        "black": 26,
    }
    state = build_state(
        3,
        board=board,
        dragon=16,
        bunnies={17: 1, 21: 2, 25: 1, 30: 1},
        collected=[[], [2], []],
        roll={"white": "ONE_PLUS_ONE"},
    )
    new, events = play(state, use("white", knights=["orange", "blue"]))
    assert types(events) == [
        "die_used",
        "knight_moved",
        "knight_moved",
        "bunny_rescued",
        "bunny_value",
        "castle_arrival",
        "knight_defeated",
        "turn_started",
        "dice_rolled",
    ]
    assert new["defeated"] == ["pink"]
    assert new["castle"] == [["blue"]]
    assert new["collected"][0] == [1]


# Legal actions (A.2 step 3, C.15, C.16) ------------------------------------------------------


def test_legal_actions_list_every_die_and_only_knights_on_the_board():
    state = build_state(
        3,
        castle=["blue"],
        defeated=["black"],
        dragon=5,
        roll={"yellow": ("NUM", 2), "green": ("NUM_ANY", 3), "white": "ONE_PLUS_ONE"},
    )
    legal = GAME.legal_actions(state, 0)
    on_board = ["yellow", "green", "orange", "purple", "pink"]
    by_die = {die: [a for a in legal if a["die"] == die] for die in state["roll"]}
    assert by_die["yellow"] == [use("yellow", "yellow")]
    assert by_die["green"] == [use("green", k) for k in on_board]
    assert len(by_die["white"]) == 20
    # Pool dice left out of the injected roll got their first face (NUM 2): bound to colour.
    assert by_die["orange"] == [use("orange", "orange")]
    assert len(legal) == 1 + 5 + 20 + 1 + 1 + 1
    for action in [use("green", "blue"), use("green", "black"), use("blue", "blue")]:
        assert action not in legal
        with pytest.raises(IllegalAction):
            GAME.apply(state, 0, action)


def test_c16_every_rolled_die_has_an_action():
    state = build_state(
        4,
        board={
            "yellow": 11,
            "green": 12,
            "orange": 13,
            "purple": 14,
            "blue": 15,
            "pink": 16,
            "black": 20,
        },
        roll={
            "yellow": "MINUS",
            "green": ("NUM", 4),
            "orange": ("NUM_KEEP", 5),
            "purple": ("NUM_ANY", 3),
            "blue": ("NUM", 2),
            "pink": ("NUM", 3),
            "black": "MINUS",
            "white": "PLUS",
        },
    )
    legal = GAME.legal_actions(state, 0)
    assert {a["die"] for a in legal} == set(C.DICE)


# Turn order and refusals (A.2 step 6, C.22, D.41) --------------------------------------------


def test_d41_the_next_seat_rolls_the_remaining_dice_without_an_attack():
    state = build_state(4, roll={"pink": ("NUM", 2)}, active=1)
    new, events = play(state, use("pink", "pink"), seat=1)
    assert new["active"] == 2
    assert len(new["roll"]) == 7 and "pink" not in new["roll"]
    assert not of_type(events, "dragon_attack")
    assert of_type(events, "turn_started") == [{"type": "turn_started", "seat": 2, "turn": 2}]


def test_only_the_active_seat_may_act():
    state = build_state(3, roll={"green": ("NUM", 3)})
    assert GAME.current_seats(state) == [0]
    assert GAME.legal_actions(state, 1) == []
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction, match="not your turn"):
        GAME.apply(state, 1, use("green", "green"))
    with pytest.raises(IllegalAction):
        GAME.apply(state, True, use("green", "green"))
    assert state == before


@pytest.mark.parametrize(
    "action",
    [
        None,
        "use_die",
        {},
        {"type": "pass"},
        {"type": "use_die"},
        {"type": "use_die", "die": "green"},
        {"type": "use_die", "die": "green", "knight": "green", "extra": 1},
        {"type": "use_die", "die": "magenta", "knight": "green"},
        {"type": "use_die", "die": "green", "knight": "purple"},
        {"type": "use_die", "die": "green", "knights": ["green", "blue"]},
        {"type": "roll"},
    ],
)
def test_malformed_actions_are_refused_and_change_nothing(action):
    state = build_state(3, roll={"green": ("NUM", 3), "white": "ONE_PLUS_ONE"})
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, 0, action)
    assert info.value.message
    assert state == before


def test_passing_is_not_allowed():
    state = build_state(3, roll={"green": ("NUM", 3)})
    assert all(action["type"] == "use_die" for action in GAME.legal_actions(state, 0))


def test_c2_knights_pass_each_other_and_share_fields():
    state = build_state(3, board={"blue": 13, "pink": 11}, roll={"yellow": ("NUM", 3)})
    new, _ = play(state, use("yellow", "yellow"))
    assert new["board"]["yellow"] == 13 and new["board"]["blue"] == 13
    assert new["board"]["pink"] == 11
