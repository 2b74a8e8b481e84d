"""Drakon: the end of the game (A-13, A-14, D-10, D-12) and the endless-game guards (rulings)."""

from __future__ import annotations

import copy

import pytest

from games.catalog.drakon import components as C
from games.catalog.drakon.builders import build_state, start_next_turn
from games.catalog.drakon.rules import GAME
from games.engine.base import IllegalAction

#: Two dead ends: (0,1) points north into nothing, (1,0) east into nothing.
DEAD_ENDS = {(0, 1): "empty {N}", (1, 0): "empty {E}"}

#: A loop the heroes can walk for ever: (2,0) -> (3,0) -> (3,1) -> (2,1) -> (2,0).
LOOP = {
    (1, 0): "empty {E}",
    (2, 0): "empty {E}",
    (3, 0): "empty {N}",
    (3, 1): "empty {W}",
    (2, 1): "empty {S}",
}


def play(state, seat, action):
    GAME.check_invariants(state)
    before = copy.deepcopy(state)
    new, events = GAME.apply(state, seat, action)
    assert state == before
    GAME.check_invariants(new)
    return new, events


def of_type(events, kind):
    return [event for event in events if event["type"] == kind]


def test_d12_the_game_ends_when_nobody_can_act_and_the_richest_wins():
    state = build_state(
        3,
        rooms=DEAD_ENDS,
        heroes=["0,1", "1,0", "0,1"],
        coins=[[1], [3, 2], [2, 2]],
        decision=False,
    )
    new, events = start_next_turn(state)
    assert new["over"] and GAME.current_seats(new) == []
    assert new["end"] == {"reason": "blocked", "winners": [1]}
    result = GAME.result(new)
    assert result.ranks == [3, 1, 2] and result.scores == [1, 5, 4]
    assert result.details["reason"] == "blocked"
    assert result.details["coins"] == [[1], [2, 3], [2, 2]]
    assert events == [
        {
            "type": "game_over",
            "reason": "blocked",
            "winners": [1],
            "gold": [1, 5, 4],
            "coins": [[1], [2, 3], [2, 2]],
        }
    ]


def test_d12_tied_players_share_the_win():
    state = build_state(
        3,
        rooms=DEAD_ENDS,
        heroes=["0,1", "1,0", "0,1"],
        coins=[[2, 2], [1], [3, 1]],
        decision=False,
    )
    new, _ = start_next_turn(state)
    assert new["end"]["winners"] == [0, 2]
    assert GAME.result(new).ranks == [1, 3, 1]


def test_the_blocked_end_ignores_a_pile_nobody_can_draw_from():
    """Ruling: hands empty and no move means nobody can act, whatever the pile holds."""
    state = build_state(
        2, rooms=DEAD_ENDS, heroes=["0,1", "1,0"], stack=["find_coin A1"], decision=False
    )
    new, _ = start_next_turn(state)
    assert new["over"] and new["end"]["reason"] == "blocked"


def test_the_blocked_end_holds_in_the_escape_variant_too():
    state = build_state(
        2,
        rooms=DEAD_ENDS,
        heroes=["0,1", "1,0"],
        coins=[[3, 3, 3], [1]],
        options={"escape": True},
        decision=False,
    )
    new, _ = start_next_turn(state)
    assert new["end"] == {"reason": "blocked", "winners": [0]}


def test_a_last_placement_leads_to_the_blocked_end():
    state = build_state(
        2, rooms=DEAD_ENDS, heroes=["0,1", "1,0"], hands=[["empty A1"], []], stack=[]
    )
    tile = state["hands"][0][0]
    new, events = play(state, 0, {"type": "place", "tile": tile, "at": "-1,0", "rot": 0})
    assert new["end"]["reason"] == "blocked"
    assert [e["type"] for e in events][-1] == "game_over"


def test_a_finished_game_refuses_everything():
    state = build_state(2, rooms=DEAD_ENDS, heroes=["0,1", "1,0"], decision=False)
    over, _ = start_next_turn(state)
    assert GAME.legal_actions(over, 0) == [] and GAME.current_seats(over) == []
    with pytest.raises(IllegalAction, match="over"):
        GAME.apply(over, 0, {"type": "end_turn"})


# Guards against endless games (our ruling, docs/rules/drakon.md) --------------------------------


def test_with_every_hand_empty_the_game_ends_after_twenty_more_rounds():
    state = build_state(2, rooms=LOOP, heroes=["2,0", "3,1"], coins=[[], [2]], stack=[])
    turns = 0
    while not state["over"]:
        seat = GAME.current_seats(state)[0]
        legal = GAME.legal_actions(state, seat)
        assert [a["type"] for a in legal] == ["move"]
        state, events = play(state, seat, legal[0])
        turns += 1
    rounds = C.EDITIONS["4e"].dry_rounds
    assert state["end"] == {"reason": "exhausted", "winners": [1]}
    assert state["turn"] == 2 + rounds * 2  # dry since the turn-2 start, 40 turns later
    assert turns == state["turn"] - 1


def test_the_dry_count_does_not_start_while_someone_holds_a_tile():
    state = build_state(
        2, rooms=LOOP, heroes=["2,0", "3,1"], hands=[[], ["portal"]], decision=False
    )
    new, _ = start_next_turn(state)
    assert new["dry_since"] is None


def test_the_game_never_exceeds_the_round_limit():
    rounds = C.EDITIONS["4e"].max_rounds
    state = build_state(
        2, hands=[["portal"], ["portal"]], turn=rounds * 2, active=1, decision=False
    )
    new, events = start_next_turn(state)
    assert new["end"]["reason"] == "turn_limit"
    assert new["turn"] == rounds * 2 + 1
    below = build_state(
        2, hands=[["portal"], ["portal"]], turn=rounds * 2 - 1, active=0, decision=False
    )
    running, _ = start_next_turn(below)
    assert not running["over"] and GAME.current_seats(running) == [1]
