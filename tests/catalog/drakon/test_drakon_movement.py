"""Drakon: moving (A-6, A-7, A-9 leave effects, D-3, D-4, D-12, D-14; E-4, E-14, E-16, E-20)."""

from __future__ import annotations

import copy

import pytest

from games.catalog.drakon.builders import build_state, start_next_turn
from games.catalog.drakon.rules import GAME
from games.engine.base import IllegalAction

ENTRANCE = "entrance {W,N,E}"


def play(state, seat, action):
    GAME.check_invariants(state)
    before = copy.deepcopy(state)
    new, events = GAME.apply(state, seat, action)
    assert state == before
    GAME.check_invariants(new)
    return new, events


def of_type(events, kind):
    return [event for event in events if event["type"] == kind]


def moves(state, seat=0):
    return [a["to"] for a in GAME.legal_actions(state, seat) if a["type"] == "move"]


def move(to):
    return {"type": "move", "to": to}


# E-4 ------------------------------------------------------------------------------------------


def test_e4_only_the_current_rooms_arrows_lead_out():
    state = build_state(
        2,
        rooms={
            (1, 0): "empty {E,S}",
            (2, 0): "find_coin {N}",
            (1, 1): "empty {N}",
        },
        heroes=["1,0", "0,0"],
    )
    assert moves(state) == ["2,0"]
    with pytest.raises(IllegalAction, match="follow an arrow"):
        GAME.apply(state, 0, move("0,0"))  # the Entrance's E arrow does not allow W
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, move("1,1"))  # no N arrow on (1,0)


def test_a_move_is_logged_and_the_entered_room_resolves():
    state = build_state(2, rooms={(0, 1): "find_coin {N}"}, hoard=[2])
    new, events = play(state, 0, move("0,1"))
    assert new["heroes"] == ["0,1", "0,0"]
    assert of_type(events, "hero_moved") == [
        {
            "type": "hero_moved",
            "seat": 0,
            "from": "0,0",
            "to": "0,1",
            "via": [],
            "from_room": "entrance",
            "cause": "move",
            "by": None,
        }
    ]
    assert new["coins"] == [[2], []]


def test_staying_in_a_chamber_does_not_trigger_it_again():
    """A-7: effects trigger on entering; a hero who places a tile stays put."""
    state = build_state(
        2, rooms={(0, 1): "find_coin {N}"}, heroes=["0,1", "0,0"], hands=[["empty A1"], []]
    )
    new, events = play(
        state, 0, {"type": "place", "tile": state["hands"][0][0], "at": "0,2", "rot": 0}
    )
    assert new["coins"] == [[], []] and not of_type(events, "coin_found")


def test_a_hero_that_cannot_move_may_only_place():
    state = build_state(2, rooms={(0, 1): "empty {N}"}, heroes=["0,1", "0,0"], hands=[["empty A1"]])
    assert {a["type"] for a in GAME.legal_actions(state, 0)} == {"place"}


def test_a_player_without_tiles_may_only_move():
    state = build_state(2, rooms={(0, 1): "empty {N}"})
    assert GAME.legal_actions(state, 0) == [move("0,1")]


# D-12: skipped turns ---------------------------------------------------------------------------


def test_a_player_with_no_tiles_and_no_move_is_skipped():
    # Seat 1 stands on a dead end with no tiles; seat 0 can still act.
    state = build_state(
        3,
        rooms={(0, 1): "empty {N}"},
        heroes=["0,0", "0,1", "0,0"],
        hands=[["empty A1"], [], ["empty A1"]],
        decision=False,
    )
    new, events = start_next_turn(state)  # after seat 0 comes seat 1
    assert GAME.current_seats(new) == [2]
    assert [e["type"] for e in events] == [
        "turn_started",
        "turn_skipped",
        "turn_started",
    ]
    assert of_type(events, "turn_skipped") == [{"type": "turn_skipped", "seat": 1}]
    assert new["turn"] == state["turn"] + 2


# E-14 and the Portal ---------------------------------------------------------------------------


def e14_state():
    return build_state(
        2,
        rooms={(0, 1): "portal {}", (1, 0): "find_coin {E}", (2, 0): "find_coin {E}"},
        heroes=["0,1", "0,0"],
        hoard=[3],
    )


def test_e14_a_portal_leads_to_any_chamber_in_play():
    state = e14_state()
    assert moves(state) == ["0,0", "1,0", "2,0"]  # every other chamber, even against arrows
    new, events = play(state, 0, move("2,0"))
    assert new["heroes"][0] == "2,0"
    assert new["coins"][0] == [3]
    assert of_type(events, "hero_moved")[0]["from_room"] == "portal"


def test_e14_a_portal_may_lead_back_against_the_entrance_arrow():
    new, _ = play(e14_state(), 0, move("0,0"))
    assert new["heroes"][0] == "0,0"


def test_d14_leave_effects_stay_with_the_chamber_while_the_hero_places_tiles():
    state = build_state(
        2,
        rooms={(0, 1): "portal {}", (1, 0): "find_coin {E}", (2, 0): "find_coin {E}"},
        heroes=["0,1", "0,0"],
        hands=[["empty A1"], ["empty A1"]],
    )
    new, _ = play(state, 0, {"type": "place", "tile": state["hands"][0][0], "at": "0,-1", "rot": 0})
    new, _ = play(new, 1, {"type": "place", "tile": new["hands"][1][0], "at": "-1,0", "rot": 0})
    assert "2,0" in moves(new, 0)


# Master Key ------------------------------------------------------------------------------------


def test_master_key_goes_to_any_adjacent_chamber_ignoring_arrows():
    state = build_state(
        2,
        rooms={(0, 1): "master_key {}", (0, 2): "empty {S}", (1, 1): "empty {W}"},
        heroes=["0,1", "0,0"],
    )
    # (0,2) and (1,1) point back at the key, the Entrance's N arrow too: all ignored.
    assert moves(state) == ["0,0", "0,2", "1,1"]


# E-16 and the Whirlwind (D-3) --------------------------------------------------------------------


def e16_state(**extra):
    rooms = {
        (0, 1): "whirlwind {W,N,E}",
        (0, 2): "find_coin {N}",
        (0, 3): "find_coin {E}",
        **extra.pop("rooms", {}),
    }
    extra.setdefault("hoard", [1, 2])
    return build_state(2, rooms=rooms, heroes=["0,1", "0,0"], **extra)


def test_e16_whirlwind_moves_two_chambers_and_skips_the_first_effect():
    state = e16_state()
    assert moves(state) == ["0,3"]
    new, events = play(state, 0, move("0,3"))
    assert new["heroes"][0] == "0,3"
    assert len(new["coins"][0]) == 1 and len(new["hoard"]) == 1
    assert len(of_type(events, "coin_found")) == 1
    assert of_type(events, "hero_moved")[0]["via"] == ["0,2"]


def test_whirlwind_without_a_two_chamber_path_allows_no_move():
    state = build_state(
        2,
        rooms={(0, 1): "whirlwind {W,N,E}", (0, 2): "find_coin {N}"},
        heroes=["0,1", "0,0"],
        hands=[["empty A1"], []],
    )
    assert moves(state) == []
    assert {a["type"] for a in GAME.legal_actions(state, 0)} == {"place"}


def test_whirlwind_through_master_key_uses_every_allowed_direction():
    state = build_state(
        2,
        rooms={
            (0, 1): "whirlwind {N}",
            (0, 2): "master_key {}",
            (-1, 2): "empty {E}",  # points back at the key: not allowed
            (1, 2): "empty {N}",
            (0, 3): "empty {N}",
        },
        heroes=["0,1", "0,0"],
    )
    assert moves(state) == ["0,3", "1,2"]


def test_whirlwind_second_step_is_pulled_by_a_harp_next_to_the_first_chamber():
    state = e16_state(rooms={(0, 2): "find_coin {N,E}", (1, 2): "harp {N,S}"})
    assert moves(state) == ["1,2"]


def test_whirlwind_first_step_is_pulled_by_a_harp_next_to_the_whirlwind():
    state = build_state(
        2,
        rooms={
            (0, 1): "whirlwind {N,E}",
            (1, 1): "harp {N,S}",
            (0, 2): "empty {N}",
            (0, 3): "empty {N}",
            (1, 2): "empty {N}",
        },
        heroes=["0,1", "0,0"],
    )
    assert moves(state) == ["1,2"]  # through the Harp, never (0,2) -> (0,3)


def test_whirlwind_passing_drakon_meets_her_only_in_the_last_chamber():
    passing = e16_state(drakon="0,2", coins=[[2], []], hoard=[1])
    new, events = play(passing, 0, move("0,3"))
    assert not of_type(events, "drakon_encounter")
    assert new["heroes"][0] == "0,3" and sorted(new["coins"][0]) == [1, 2]
    ending = e16_state(drakon="0,3", coins=[[2], []], hoard=[1])
    new, events = play(ending, 0, move("0,3"))
    assert of_type(events, "drakon_encounter")
    assert new["heroes"][0] == "0,0" and new["coins"][0] == []


def test_a_whirlwind_passed_through_does_not_chain():
    state = e16_state(rooms={(0, 2): "whirlwind {N}"})
    new, _ = play(state, 0, move("0,3"))
    assert new["heroes"][0] == "0,3"


def test_a_whirlwind_as_final_chamber_applies_at_the_next_move():
    state = e16_state(rooms={(0, 3): "whirlwind {N}", (0, 4): "empty {N}", (0, 5): "empty {N}"})
    new, _ = play(state, 0, move("0,3"))
    new, _ = play(new, 1, move("0,1"))
    assert moves(new, 0) == ["0,5"]


# E-20 and the Magic Harp (D-4) --------------------------------------------------------------------


def e20_rooms():
    return {(1, 0): "harp {N,S}", (0, 1): "find_coin {N}"}


def test_e20_a_harp_pulls_a_hero_whose_chamber_points_at_it():
    state = build_state(2, rooms=e20_rooms())
    assert moves(state) == ["1,0"]
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, move("0,1"))


def test_e20_control_a_hero_on_a_master_key_is_not_pulled():
    state = build_state(2, rooms={**e20_rooms(), (1, 1): "master_key {}"}, heroes=["1,1", "0,0"])
    assert moves(state) == ["0,1", "1,0"]


def test_harp_pull_with_two_harps_lets_the_hero_choose():
    state = build_state(2, rooms={(1, 0): "harp {N,S}", (-1, 0): "harp {N,S}"})
    assert moves(state) == ["-1,0", "1,0"]


def test_harp_pull_holds_even_when_drakon_sits_in_the_harp():
    state = build_state(2, rooms=e20_rooms(), drakon="1,0", coins=[[3], []], hoard=[])
    new, events = play(state, 0, move("1,0"))
    assert of_type(events, "drakon_encounter")[0]["heroes"] == [0]
    assert new["heroes"][0] == "0,0" and new["hoard"] == [3]
