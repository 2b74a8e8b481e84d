"""Spec A.2, A.3, A.9, A.10 and C-6 to C-10, C-13, C-21, C-28: setup, turns, winning, the end.

D-02, D-03, D-29, D-31, D-33, D-35, D-37.
"""

from __future__ import annotations

import pytest

from games.catalog.seven_dragons import components as C
from games.catalog.seven_dragons.builders import position
from games.catalog.seven_dragons.rules import GAME, group_sizes, resolved_board, silver_colour
from games.engine.base import IllegalAction
from tests.catalog.seven_dragons.helpers import endgame, place, play_action, types


def test_d02_setup_three_players():
    state = GAME.setup(3, {}, "d02")
    assert [len(hand) for hand in state["hands"]] == [4, 3, 3]  # seat 1 has drawn already
    assert len(state["deck"]) == 57 - 1
    assert sorted(state["goals"]) == sorted(C.COLOURS) and len(state["goals"]) == 5
    assert state["pile"] == [] and silver_colour(state["pile"]) == "wild"
    assert state["board"] == {"0,0": ["SILVER", 0]}
    assert state["active"] == 0 and GAME.current_seats(state) == [0]
    view = GAME.view(state, 1)
    assert view["imaginary"] == 2 and view["my_goal"] == state["goals"][1]


@pytest.mark.parametrize(("n", "deck", "imaginary"), [(2, 60, 3), (5, 51, 0)])
def test_d03_setup_two_and_five_players(n, deck, imaginary):
    state = GAME.setup(n, {}, f"d03-{n}")
    assert len(state["deck"]) + 1 == deck
    assert GAME.view(state, None)["imaginary"] == imaginary


@pytest.mark.parametrize("n", [1, 6, 0, True, "3"])
def test_c28_other_player_counts_are_refused(n):
    with pytest.raises(IllegalAction):
        GAME.setup(n, {}, "c28")
    assert GAME.validate_setup(n, {}) is not None


def test_opening_events_show_each_seat_only_its_own_deal_and_goal():
    state = GAME.setup(3, {}, "opening")
    events = GAME.opening_events(state)
    assert [e for e in events if e["type"] == "your_goal"] == [
        {"type": "your_goal", "seat": s, "colour": state["goals"][s], "private_to": s}
        for s in range(3)
    ]
    assert {"type": "goals_aside", "count": 2} in events
    for e in events:
        if "cards" in e or "card" in e or "colour" in e:
            assert e["private_to"] == e["seat"]
    drawn = [e["card"] for e in events if e["type"] == "drew_card"]
    assert drawn == state["hands"][0][3:]


def test_c21_the_start_seat_may_be_drawn_at_random():
    starts = {GAME.setup(4, {"first": "random"}, f"start-{i}")["active"] for i in range(30)}
    assert starts == {0, 1, 2, 3}


def test_a3_the_next_turn_begins_with_a_draw_and_turns_go_clockwise():
    state = position(hands=[["DR-S-red"], ["DR-S-blue"], ["DR-S-gold"]], deck=["DR-Q01"])
    new, events = place(state, 0, "DR-S-red", "1,0")
    assert new["active"] == 1 and new["hands"][1][-1] == "DR-Q01"
    assert types(events)[-2:] == ["drew", "drew_card"]
    assert events[-1]["private_to"] == 1


def test_d29_two_groups_do_not_add_up():
    row = ["DR-S-red", "DR-S-red", "DR-H-red-gold", "DR-S-gold", "DR-H-red-blue"]
    row += ["DR-H-red-green", "DR-H-red-black"]
    board = {f"{i + 1},0": name for i, name in enumerate(row)}
    state = position(board=board, pile=["ACT-ROTATE"], hands=[["DR-T3H-red-black-green"], []])
    state["goals"][:2] = ["blue", "red"]  # seat 1 owns red
    new, _ = place(state, 0, "DR-T3H-red-black-green", "8,0")
    view = GAME.view(new, None)
    assert view["largest"]["red"] == 4 and not new["over"]
    assert group_sizes(resolved_board(new["board"], new["pile"]), "red") == [4, 3]


def _d31_board():
    row = ["DR-S-red", "DR-S-red", "DR-H-red-gold", "DR-RBW", "DR-H-red-blue", "DR-H-red-green"]
    return {f"{i + 1},0": name for i, name in enumerate(row)}


def test_d31_the_rainbow_bridges_a_group_and_red_wins():
    state = position(
        board=_d31_board(),
        pile=["ACT-ROTATE"],
        hands=[["DR-H-red-black"], []],
        goals=["blue", "red"],
    )
    new, events = place(state, 0, "DR-H-red-black", "7,0")
    assert new["over"] and new["winners"] == [1] and new["end_reason"] == "seven"
    assert {"type": "won", "seat": 1, "colour": "red", "size": 7} in events
    assert GAME.view(new, None)["largest"]["blue"] == 2
    result = GAME.result(new)
    assert result.ranks == [2, 1] and result.scores == [2, 7]
    assert GAME.current_seats(new) == []


def _d33(active: int):
    board = {
        "1,0": "DR-S-red",
        "2,0": "DR-S-red",
        "3,0": "DR-H-red-gold",
        "4,0": "DR-H-red-green",
        "5,0": "DR-H-red-black",
        "6,0": "DR-T3H-red-black-green",
        "6,1": ("DR-V-green-black", 180),
        "7,1": "DR-S-blue",
        "8,1": "DR-S-blue",
        "9,1": ("DR-H-gold-blue", 180),
        "10,1": "DR-H-blue-green",
        "11,1": "DR-H-blue-black",
        "12,1": "DR-T3H-blue-gold-red",
    }
    hands = [[], [], []]
    hands[active] = ["DR-H-red-blue"]
    return position(
        board=board,
        pile=["ACT-TRADEGOALS"],
        hands=hands,
        goals=["red", "blue", "green"],
        active=active,
    )


@pytest.mark.parametrize(("active", "winner"), [(0, 0), (2, 0), (1, 1)])
def test_d33_simultaneous_completion(active, winner):
    state = _d33(active)
    largest = GAME.view(state, None)["largest"]
    assert largest["red"] == 6 and largest["blue"] == 6
    new, events = place(state, active, "DR-H-red-blue", "7,0")
    assert next(e for e in events if e["type"] == "placed")["bonus"] == 1
    assert new["winners"] == [winner]
    view = GAME.view(new, None)
    assert view["largest"]["red"] == 7 and view["largest"]["blue"] == 7


def test_d35_a_silver_colour_change_completes_a_group():
    board = {
        "1,0": "DR-S-green",
        "2,0": "DR-S-green",
        "3,0": ("DR-H-red-green", 180),
        "4,0": ("DR-H-gold-green", 180),
        "5,0": ("DR-H-blue-green", 180),
        "6,0": "DR-H-green-black",
    }
    state = position(
        board=board, pile=["ACT-ZAP"], hands=[["ACT-MOVE"], []], goals=["red", "green"]
    )
    assert GAME.view(state, None)["largest"]["green"] == 6
    new, events = play_action(state, 0, "ACT-MOVE", "top_no_effect")
    assert new["winners"] == [1]
    assert types(events)[-2:] == ["won", "goals_revealed"]


def test_c7_an_imaginary_goal_completes_nothing_until_a_player_takes_it():
    state = position(
        board=_d31_board(),
        pile=["ACT-ROTATE"],
        hands=[["DR-H-red-black", "ACT-TRADEGOALS"], [], []],
        goals=["blue", "green", "gold", "red", "black"],
        deck=10,
    )
    state, _ = place(state, 0, "DR-H-red-black", "7,0")
    assert not state["over"] and GAME.view(state, None)["largest"]["red"] == 7
    check_active = state["active"]
    assert check_active == 1
    # Back to seat 0, who takes the imaginary seat's red goal.
    state["active"] = 0
    state, _ = play_action(state, 0, "ACT-TRADEGOALS")
    new, events = GAME.apply(state, 0, {"type": "trade_goals", "with": 3})
    assert new["over"] and new["winners"] == [0]


def test_d37_a_player_with_no_legal_play_passes():
    state = position(
        pile=["ACT-ZAP"], hands=[["DR-S-black", "DR-S-green"], []], goals=["red", "blue"]
    )
    assert GAME.legal_actions(state, 0) == [{"type": "pass"}]
    new, events = GAME.apply(state, 0, {"type": "pass"})
    assert sorted(new["hands"][0]) == ["DR-S-black#1", "DR-S-green#1"]
    assert new["active"] == 1 and events[0] == {"type": "passed", "seat": 0}


def test_c10_no_voluntary_pass():
    state = position(hands=[["DR-S-black"], []])
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, 0, {"type": "pass"})
    assert "cannot pass" in refused.value.message


def test_a10_empty_hands_are_skipped_once_the_deck_is_empty():
    state = endgame([["DR-S-red"], [], ["DR-S-blue"]], "ACT-ZAP", ["red", "blue", "gold"])
    new, events = place(state, 0, "DR-S-red", "1,0")
    assert {"type": "skipped", "seat": 1} in events and new["active"] == 2
    assert "drew" not in types(events)


def test_a10_the_game_ends_when_the_deck_and_every_hand_are_empty():
    state = endgame([["DR-S-red"], []], "ACT-ZAP", ["red", "blue"])
    new, events = place(state, 0, "DR-S-red", "-1,0")
    assert new["over"] and new["end_reason"] == "exhausted"
    # Red: the new card with the red silver dragon; blue: one lone card far away.
    assert GAME.result(new).scores == [2, 1] and new["winners"] == [0]
    assert types(events)[-2:] == ["exhausted", "goals_revealed"]
    assert GAME.view(new, 1)["revealed"]["goals"] == new["goals"]


def test_c9_equal_largest_groups_at_the_end_win_jointly():
    state = endgame([["DR-H-red-blue"], []], "ACT-ROTATE", ["red", "gold"])
    new, _ = place(state, 0, "DR-H-red-blue", "0,1", 180)
    assert new["end_reason"] == "exhausted"
    assert GAME.result(new).scores == [1, 1]
    assert new["winners"] == [0, 1] and GAME.result(new).ranks == [1, 1]


def test_c10_a_whole_round_of_forced_passes_with_an_empty_deck_ends_the_game():
    """The parked cards are lifted off the grid (a trimmed state, only for this rule):
    with the red silver dragon alone, neither single card fits anywhere."""
    state = endgame([["DR-S-black"], ["DR-S-green"]], "ACT-ZAP", ["black", "green"])
    state["board"] = {"0,0": state["board"]["0,0"]}
    assert GAME.legal_actions(state, 0) == [{"type": "pass"}]
    state, _ = GAME.apply(state, 0, {"type": "pass"})
    assert not state["over"] and state["passes"] == 1 and state["active"] == 1
    assert GAME.legal_actions(state, 1) == [{"type": "pass"}]
    new, events = GAME.apply(state, 1, {"type": "pass"})
    assert new["over"] and new["end_reason"] == "exhausted"
    assert types(events) == ["passed", "exhausted", "goals_revealed"]
    assert new["winners"] == [0, 1]  # both goals: no card of that colour on the grid
