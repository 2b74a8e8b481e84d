"""Drakon herself: entry, Drakon Moves, encounters (A-10, A-11, D-1, D-2, D-8; E-25, E-27)."""

from __future__ import annotations

import copy

import pytest

from games.catalog.drakon.builders import build_state
from games.catalog.drakon.rules import GAME, Lair, drakon_reach
from games.engine.base import IllegalAction


def play(state, seat, action):
    GAME.check_invariants(state)
    before = copy.deepcopy(state)
    new, events = GAME.apply(state, seat, action)
    assert state == before
    GAME.check_invariants(new)
    return new, events


def of_type(events, kind):
    return [event for event in events if event["type"] == kind]


def move(to):
    return {"type": "move", "to": to}


# E-27 -----------------------------------------------------------------------------------------


def test_e27_entering_drakons_chamber_meets_her_before_the_effect():
    state = build_state(
        2, rooms={(0, 1): "find_coin {N}"}, drakon="0,1", coins=[[2], []], hoard=[3]
    )
    new, events = play(state, 0, move("0,1"))
    assert new["heroes"][0] == "0,0"
    assert new["coins"][0] == [] and sorted(new["hoard"]) == [2, 3]
    assert not of_type(events, "coin_found")
    assert of_type(events, "drakon_encounter") == [
        {"type": "drakon_encounter", "at": "0,1", "heroes": [0]}
    ]
    assert of_type(events, "coin_lost") == [{"type": "coin_lost", "seat": 0, "cause": "drakon"}]
    assert new["drakon"] == "0,1"


def test_an_encounter_without_coins_only_sends_the_hero_home():
    state = build_state(2, rooms={(0, 1): "find_coin {N}"}, drakon="0,1")
    new, events = play(state, 0, move("0,1"))
    assert new["heroes"][0] == "0,0"
    assert of_type(events, "no_coin") == [{"type": "no_coin", "seat": 0, "cause": "drakon"}]


def test_entering_the_entrance_where_drakon_sits_keeps_the_hero_there_and_costs_a_coin():
    state = build_state(
        2,
        rooms={(0, 1): "master_key {}"},
        heroes=["0,1", "0,1"],
        drakon="0,0",
        coins=[[1, 3], []],
        hoard=[],
    )
    new, _ = play(state, 0, move("0,0"))
    assert new["heroes"][0] == "0,0" and len(new["coins"][0]) == 1 and len(new["hoard"]) == 1


# Drakon Moves --------------------------------------------------------------------------------


def drakon_state(**extra):
    """A corridor east of the Entrance: Drakon Moves at (0,1), rooms (1,0)..(4,0)."""
    rooms = {
        (0, 1): "drakon_moves {N}",
        (1, 0): "empty {E}",
        (2, 0): "empty {E}",
        (3, 0): "empty {E}",
        (4, 0): "find_coin {E}",
        **extra.pop("rooms", {}),
    }
    extra.setdefault("drakon", "1,0")
    return build_state(3, rooms=rooms, **extra)


def test_drakon_moves_reaches_every_chamber_within_three_steps():
    state = drakon_state()
    new, _ = play(state, 0, move("0,1"))
    assert GAME.current_seats(new) == [0]
    assert [a["to"] for a in GAME.legal_actions(new, 0)] == [
        "0,0",
        "0,1",
        "1,0",
        "2,0",
        "3,0",
        "4,0",
    ]


def test_drakon_cannot_cross_an_empty_cell_but_may_turn():
    lair = Lair(
        build_state(
            2,
            rooms={
                (1, 0): "empty {E}",
                (3, 0): "empty {E}",
                (1, 1): "empty {E}",
                (2, 1): "empty {E}",
            },
        )
    )
    # (2,0) is empty: (3,0) is reached only by turning through (1,1) and (2,1).
    assert drakon_reach(lair, (1, 0), 2) == [(0, 0), (1, 0), (1, 1), (2, 1)]
    assert (3, 0) not in drakon_reach(lair, (1, 0), 2)
    assert (3, 0) not in drakon_reach(lair, (1, 0), 3)  # (2,1)->(3,1) does not exist either
    assert drakon_reach(lair, (1, 0), 0) == [(1, 0)]


def test_drakon_meets_every_hero_where_she_stops_and_nobody_she_passes():
    state = drakon_state(heroes=["0,0", "2,0", "3,0"], coins=[[], [2], [3]], hoard=[])
    new, _ = play(state, 0, move("0,1"))
    done, events = play(new, 0, {"type": "drakon_move", "to": "3,0"})
    assert done["drakon"] == "3,0"
    assert done["heroes"] == ["0,1", "2,0", "0,0"]
    assert done["coins"] == [[], [2], []] and done["hoard"] == [3]
    assert of_type(events, "drakon_moved") == [
        {"type": "drakon_moved", "seat": 0, "from": "1,0", "to": "3,0"}
    ]


def test_drakon_may_stay_and_may_even_be_moved_onto_the_mover():
    state = drakon_state(coins=[[2], [], []], hoard=[])
    new, _ = play(state, 0, move("0,1"))
    stay, events = play(new, 0, {"type": "drakon_move", "to": "1,0"})
    assert stay["drakon"] == "1,0" and not of_type(events, "drakon_encounter")
    onto, events = play(new, 0, {"type": "drakon_move", "to": "0,1"})
    assert onto["heroes"][0] == "0,0" and onto["coins"][0] == []


def test_drakon_moved_zero_at_the_entrance_meets_the_heroes_there_again():
    state = drakon_state(drakon="0,0", heroes=["0,0", "0,0", "0,0"], coins=[[], [1], [2]], hoard=[])
    new, _ = play(state, 0, move("0,1"))
    done, events = play(new, 0, {"type": "drakon_move", "to": "0,0"})
    assert of_type(events, "drakon_encounter")[0]["heroes"] == [1, 2]
    assert done["heroes"] == ["0,1", "0,0", "0,0"]
    assert done["coins"] == [[], [], []] and sorted(done["hoard"]) == [1, 2]


def test_drakon_moves_before_drakon_is_in_play_does_nothing():
    state = drakon_state(drakon=None)
    new, events = play(state, 0, move("0,1"))
    assert of_type(events, "no_effect") == [
        {"type": "no_effect", "seat": 0, "room": "drakon_moves"}
    ]
    assert new["drakon"] is None


def test_an_illegal_drakon_move_is_refused():
    state = drakon_state()
    new, _ = play(state, 0, move("0,1"))
    with pytest.raises(IllegalAction, match="at most 3"):
        GAME.apply(new, 0, {"type": "drakon_move", "to": "5,0"})


def test_d2_drakon_stays_when_every_drakon_moves_chamber_is_gone():
    state = build_state(
        2,
        rooms={(0, 1): "destroy {N}", (0, 2): "drakon_moves {N}", (1, 0): "find_coin {E}"},
        drakon="1,0",
    )
    new, _ = play(state, 0, move("0,1"))
    new, _ = play(new, 0, {"type": "destroy", "at": "0,2"})
    assert new["drakon"] == "1,0"


def test_team_partners_meeting_drakon_together_lose_two_coins_from_their_pool():
    state = build_state(
        4,
        rooms={(0, 1): "drakon_moves {N}", (1, 0): "empty {E}", (2, 0): "empty {E}"},
        heroes=["0,0", "2,0", "0,0", "2,0"],
        drakon="1,0",
        options={"team_play": True},
        coins=[[], [2, 3, 1]],
        hoard=[],
    )
    new, _ = play(state, 0, move("0,1"))
    done, events = play(new, 0, {"type": "drakon_move", "to": "2,0"})
    assert of_type(events, "drakon_encounter")[0]["heroes"] == [1, 3]
    assert len(done["coins"][1]) == 1 and len(done["hoard"]) == 2
