"""Spec A.7, A.8, C-1 to C-5, C-12, C-19, C-20: action cards, their modes and their effects.

D-19, D-21, D-23, D-25, D-27 and the rotation of goals.
"""

from __future__ import annotations

import pytest

from games.catalog.seven_dragons.builders import position
from games.catalog.seven_dragons.rules import GAME, silver_colour
from games.engine.base import IllegalAction
from tests.catalog.seven_dragons.helpers import play_action, types

D23_BOARD = {"1,0": "DR-S-red", "2,0": "DR-S-red", "3,0": "DR-V-red-gold"}


def modes_for(state, seat, kind):
    return {
        a["mode"]
        for a in GAME.legal_actions(state, seat)
        if a["type"] == "action" and a["card"].startswith(kind)
    }


def test_d19_bottom_of_the_pile_keeps_the_silver_colour():
    state = position(board=D23_BOARD, pile=["ACT-ZAP"], hands=[["ACT-MOVE"], []])
    state, events = play_action(state, 0, "ACT-MOVE", "bottom")
    assert state["pending"]["kind"] == "move" and GAME.current_seats(state) == [0]
    state, _ = GAME.apply(state, 0, {"type": "lift", "cell": "3,0"})
    state, events = GAME.apply(state, 0, {"type": "drop", "cell": "1,1", "rot": 0})
    assert [c.split("#")[0] for c in state["pile"]] == ["ACT-MOVE", "ACT-ZAP"]
    assert silver_colour(state["pile"]) == "red"
    assert state["board"]["1,1"] == ["DR-V-red-gold", 0] and "3,0" not in state["board"]
    assert events[-2]["type"] == "drew" and state["active"] == 1


def test_d21_top_without_effect_only_changes_the_silver_colour():
    state = position(pile=["ACT-ZAP"], hands=[["ACT-ROTATE"], []], goals=["red", "blue"])
    new, events = play_action(state, 0, "ACT-ROTATE", "top_no_effect")
    assert new["goals"] == state["goals"]
    assert [c.split("#")[0] for c in new["pile"]] == ["ACT-ZAP", "ACT-ROTATE"]
    assert silver_colour(new["pile"]) == "blue"
    assert new["pending"] is None and new["active"] == 1
    assert {"type": "pile", "card": new["pile"][-1], "at": "top", "silver": "blue"} in events


def test_c2_the_first_action_colours_the_silver_dragon_even_at_the_bottom():
    state = position(hands=[["ACT-TRADEGOALS"], []], goals=["red", "blue"])
    state, _ = play_action(state, 0, "ACT-TRADEGOALS", "bottom")
    state, _ = GAME.apply(state, 0, {"type": "trade_goals", "with": 1})
    assert silver_colour(state["pile"]) == "gold"
    assert state["goals"][:2] == ["blue", "red"]


def test_c3_an_action_played_for_no_effect_at_all_is_not_a_mode():
    state = position(hands=[["ACT-ROTATE"], []])
    assert modes_for(state, 0, "ACT-ROTATE") == {"top", "top_no_effect", "bottom"}
    with pytest.raises(IllegalAction):
        play_action(state, 0, "ACT-ROTATE", "bottom_no_effect")


def test_c5_zap_and_move_with_nothing_to_act_on_go_on_top_without_effect():
    state = position(hands=[["ACT-ZAP", "ACT-MOVE", "ACT-ROTATE"], []])
    assert modes_for(state, 0, "ACT-ZAP") == {"top_no_effect"}
    assert modes_for(state, 0, "ACT-MOVE") == {"top_no_effect"}
    with pytest.raises(IllegalAction) as refused:
        play_action(state, 0, "ACT-ZAP", "top")
    assert "nothing to act on" in refused.value.message


def test_d23_zap_takes_a_card_into_the_hand_and_may_leave_an_island():
    state = position(
        board=D23_BOARD, pile=["ACT-ZAP"], hands=[["ACT-ZAP", "DR-Q01", "DR-Q02"], ["DR-Q03"]]
    )
    state, _ = play_action(state, 0, "ACT-ZAP", "top")
    assert {a["cell"] for a in GAME.legal_actions(state, 0)} == {"1,0", "2,0", "3,0"}
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, {"type": "zap", "cell": "0,0"})
    new, events = GAME.apply(state, 0, {"type": "zap", "cell": "2,0"})
    assert sorted(new["hands"][0]) == ["DR-Q01", "DR-Q02", "DR-S-red#2"]
    assert "2,0" not in new["board"] and "3,0" in new["board"]
    assert [c.split("#")[0] for c in new["pile"]] == ["ACT-ZAP", "ACT-ZAP"]
    assert silver_colour(new["pile"]) == "red"
    assert {"type": "zapped", "seat": 0, "card": "DR-S-red#2", "cell": "2,0"} in events


def test_c11_a_card_may_be_placed_next_to_an_island():
    state = position(board={"1,0": "DR-S-red", "3,0": "DR-S-gold"}, hands=[["DR-S-gold"], []])
    cells = {a["cell"] for a in GAME.legal_actions(state, 0)}
    assert {"4,0", "3,1", "3,-1", "2,0"} <= cells


def test_d25_turning_in_place():
    gold = position(
        board={"1,0": "DR-H-red-blue"}, pile=["ACT-TRADEGOALS"], hands=[["ACT-MOVE"], []]
    )
    # Lifted, the card touches only the gold silver dragon: Move has no target at all.
    assert modes_for(gold, 0, "ACT-MOVE") == {"top_no_effect"}
    wild = position(board={"1,0": "DR-H-red-blue"}, hands=[["ACT-MOVE"], []])
    wild, _ = play_action(wild, 0, "ACT-MOVE")
    wild, _ = GAME.apply(wild, 0, {"type": "lift", "cell": "1,0"})
    assert {"type": "drop", "cell": "1,0", "rot": 180} in GAME.legal_actions(wild, 0)
    assert {"type": "drop", "cell": "1,0", "rot": 0} not in GAME.legal_actions(wild, 0)
    d23 = position(board=D23_BOARD, hands=[["ACT-MOVE"], []])
    d23, _ = play_action(d23, 0, "ACT-MOVE")
    d23, _ = GAME.apply(d23, 0, {"type": "lift", "cell": "3,0"})
    with pytest.raises(IllegalAction) as refused:  # gold against red
        GAME.apply(d23, 0, {"type": "drop", "cell": "3,0", "rot": 180})
    assert "matching colour" in refused.value.message
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(d23, 0, {"type": "drop", "cell": "3,0", "rot": 0})
    assert "no move" in refused.value.message


def test_c12_the_moved_card_must_touch_another_card_and_the_silver_dragon_stays():
    state = position(board={"1,0": "DR-S-red"}, hands=[["ACT-MOVE"], []])
    state, _ = play_action(state, 0, "ACT-MOVE")
    assert GAME.legal_actions(state, 0) == [{"type": "lift", "cell": "1,0"}]
    state, _ = GAME.apply(state, 0, {"type": "lift", "cell": "1,0"})
    drops = {a["cell"] for a in GAME.legal_actions(state, 0)}
    assert drops == {"-1,0", "0,1", "0,-1"}  # next to the silver, not its old cell unchanged


@pytest.mark.parametrize(("flag", "expected"), [(True, 1), (False, 0)])
def test_c1_the_move_bonus_follows_the_option(flag, expected):
    board = {"1,0": "DR-S-red", "0,1": "DR-S-blue", "3,0": "DR-H-red-blue"}
    state = position(board=board, hands=[["ACT-MOVE"], []], options={"bonus_on_move": flag})
    state, _ = play_action(state, 0, "ACT-MOVE")
    state, _ = GAME.apply(state, 0, {"type": "lift", "cell": "3,0"})
    hand_before = len(state["hands"][0])
    new, events = GAME.apply(state, 0, {"type": "drop", "cell": "1,1", "rot": 0})
    moved = next(e for e in events if e["type"] == "moved")
    assert moved["bonus"] == expected
    assert len(new["hands"][0]) == hand_before + expected


def test_c4_the_move_is_judged_with_the_silver_colour_before_the_card_is_piled():
    # Silver wild while the Move resolves: the red card may sit next to it only then.
    state = position(board={"5,5": "DR-S-red", "5,6": "DR-S-red"}, hands=[["ACT-MOVE"], []])
    state, _ = play_action(state, 0, "ACT-MOVE")
    state, _ = GAME.apply(state, 0, {"type": "lift", "cell": "5,5"})
    assert {"type": "drop", "cell": "1,0", "rot": 0} in GAME.legal_actions(state, 0)
    new, _ = GAME.apply(state, 0, {"type": "drop", "cell": "1,0", "rot": 0})
    assert silver_colour(new["pile"]) == "green"


GOALS_D26 = ["red", "blue", "green"]  # P1, P2, P3; I1 gold, I2 black


def test_d27_trade_goals_with_an_imaginary_seat_and_trade_hands_targets():
    state = position(hands=[["ACT-TRADEGOALS"], [], []], goals=GOALS_D26)
    assert state["goals"] == ["red", "blue", "green", "gold", "black"]
    state, _ = play_action(state, 0, "ACT-TRADEGOALS")
    assert {a["with"] for a in GAME.legal_actions(state, 0)} == {1, 2, 3, 4}
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, {"type": "trade_goals", "with": 0})
    new, events = GAME.apply(state, 0, {"type": "trade_goals", "with": 4})
    assert new["goals"] == ["black", "blue", "green", "gold", "red"]
    assert {"type": "goal_now", "seat": 0, "colour": "black", "private_to": 0} in events
    assert [e for e in events if e["type"] == "goal_now"] == [
        {"type": "goal_now", "seat": 0, "colour": "black", "private_to": 0}
    ]
    hands = position(hands=[["ACT-TRADEHANDS"], [], []], goals=GOALS_D26)
    hands, _ = play_action(hands, 0, "ACT-TRADEHANDS")
    assert {a["with"] for a in GAME.legal_actions(hands, 0)} == {1, 2}
    with pytest.raises(IllegalAction):
        GAME.apply(hands, 0, {"type": "trade_hands", "with": 3})  # I1 has no hand


def test_trade_hands_swaps_whole_hands_without_the_played_card_and_not_the_goals():
    state = position(
        hands=[["ACT-TRADEHANDS", "DR-Q01"], ["DR-Q02", "DR-Q03", "DR-Q04"], []],
        goals=GOALS_D26,
        deck=["DR-Q05"],
    )
    state, _ = play_action(state, 0, "ACT-TRADEHANDS")
    new, events = GAME.apply(state, 0, {"type": "trade_hands", "with": 1})
    assert sorted(new["hands"][0]) == ["DR-Q02", "DR-Q03", "DR-Q04"]
    assert new["hands"][1] == ["DR-Q01", "DR-Q05"]  # seat 1 then drew for its turn
    assert new["goals"] == state["goals"]
    private = [e for e in events if e["type"] == "hand_now"]
    assert private == [
        {"type": "hand_now", "seat": 0, "cards": ["DR-Q02", "DR-Q03", "DR-Q04"], "private_to": 0},
        {"type": "hand_now", "seat": 1, "cards": ["DR-Q01"], "private_to": 1},
    ]
    public = next(e for e in events if e["type"] == "traded_hands")
    assert public == {"type": "traded_hands", "seat": 0, "with": 1}


def test_c19_trade_hands_with_an_empty_hand_is_allowed():
    state = position(hands=[["ACT-TRADEHANDS", "DR-Q01"], [], []], deck=0)
    state, _ = play_action(state, 0, "ACT-TRADEHANDS")
    new, _ = GAME.apply(state, 0, {"type": "trade_hands", "with": 1})
    assert new["hands"][0] == [] and new["hands"][1] == ["DR-Q01"]


@pytest.mark.parametrize(
    ("direction", "expected"),
    [
        ("clockwise", ["black", "red", "blue", "green", "gold"]),
        ("counterclockwise", ["blue", "green", "gold", "black", "red"]),
    ],
)
def test_rotate_goals_moves_every_goal_one_seat_including_the_imaginary_ones(direction, expected):
    state = position(hands=[["ACT-ROTATE"], [], []], goals=GOALS_D26)
    state, _ = play_action(state, 0, "ACT-ROTATE")
    new, events = GAME.apply(state, 0, {"type": "rotate", "direction": direction})
    assert new["goals"] == expected
    assert [e["colour"] for e in events if e["type"] == "goal_now"] == expected[:3]
    assert all(e["private_to"] == e["seat"] for e in events if e["type"] == "goal_now")
    assert silver_colour(new["pile"]) == "blue"


def test_an_action_card_waits_off_the_pile_while_its_effect_is_chosen():
    state = position(hands=[["ACT-ROTATE"], []])
    new, events = play_action(state, 0, "ACT-ROTATE")
    assert new["pile"] == [] and new["pending"]["card"] == "ACT-ROTATE#1"
    assert types(events) == ["action"]
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(new, 0, {"type": "pass"})
    assert "goals turn" in refused.value.message
    with pytest.raises(IllegalAction):
        GAME.apply(new, 1, {"type": "rotate", "direction": "clockwise"})
