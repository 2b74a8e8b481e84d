"""Drakon: placing a chamber (A-5, C-0 arrow ban, D-2, D-11, D-12; E-1, E-2, E-3, E-25).

Positions are built with ``builders.build_state`` in the spec's E notation, so no
test depends on the shuffled pile or on the "our choice" arrow data.
"""

from __future__ import annotations

import copy

import pytest

from games.catalog.drakon.builders import build_state
from games.catalog.drakon.rules import GAME, tiles_of
from games.engine.base import IllegalAction


def play(state, seat, action):
    """Apply, checking invariants before and after and that the input is untouched."""
    GAME.check_invariants(state)
    before = copy.deepcopy(state)
    new, events = GAME.apply(state, seat, action)
    assert state == before
    GAME.check_invariants(new)
    return new, events


def of_type(events, kind):
    return [event for event in events if event["type"] == kind]


def hand_rooms(state, seat):
    return [tiles_of(state)[tile][0] for tile in state["hands"][seat]]


def arrows_at(state, at):
    room = next(room for room in GAME.view(state, None)["board"] if room["at"] == at)
    return room["room"], room["arrows"]


def place(state, seat, index, at, rot):
    return {"type": "place", "tile": state["hands"][seat][index], "at": at, "rot": rot}


# E-1 ----------------------------------------------------------------------------------------


def e1_state():
    return build_state(2, hands=[["empty A1"]], stack=["find_coin A1", "empty A2s"])


def test_e1_an_arrow_may_not_point_at_an_arrow_pointing_back():
    state = e1_state()
    with pytest.raises(IllegalAction, match="arrows would point at each other"):
        GAME.apply(state, 0, place(state, 0, 0, "1,0", 3))  # {W} faces the Entrance's E arrow
    assert place(state, 0, 0, "1,0", 3) not in GAME.legal_actions(state, 0)


def test_e1_the_turned_tile_is_accepted_and_the_player_draws():
    state = e1_state()
    action = place(state, 0, 0, "1,0", 1)
    assert action in GAME.legal_actions(state, 0)
    new, events = play(state, 0, action)
    assert arrows_at(new, "1,0") == ("empty", ["E"])
    assert hand_rooms(new, 0) == ["find_coin"]
    assert len(new["stack"]) == len(state["stack"]) - 1
    placed = of_type(events, "room_placed")[0]
    assert placed["at"] == "1,0" and placed["arrows"] == ["E"] and placed["how"] == "placed"
    assert of_type(events, "tile_drawn")[0] == {
        "type": "tile_drawn",
        "seat": 0,
        "count": 1,
        "stack": 1,
    }
    private = of_type(events, "tiles_drawn")[0]
    assert private["private_to"] == 0 and private["tiles"] == new["hands"][0]
    assert GAME.current_seats(new) == [1]


# E-2 ----------------------------------------------------------------------------------------


def test_e2_an_arrow_into_an_arrowless_side_is_fine():
    state = e1_state()
    new, _ = play(state, 0, place(state, 0, 0, "0,-1", 0))
    assert arrows_at(new, "0,-1") == ("empty", ["N"])


def test_e2_a_chamber_must_share_an_edge_with_the_lair():
    state = e1_state()
    with pytest.raises(IllegalAction, match="share an edge"):
        GAME.apply(state, 0, place(state, 0, 0, "1,1", 0))
    assert not [a for a in GAME.legal_actions(state, 0) if a.get("at") == "1,1"]


# E-3 ----------------------------------------------------------------------------------------


def test_e3_a_cell_next_to_two_chambers_must_satisfy_both():
    state = build_state(
        2,
        rooms={(1, 0): "empty {N}", (0, 1): "empty {E}"},
        hands=[["find_coin A2c"]],
    )
    tile = state["hands"][0][0]
    rotations = [
        a["rot"] for a in GAME.legal_actions(state, 0) if a["type"] == "place" and a["at"] == "1,1"
    ]
    assert rotations == [0]
    for rot in (1, 2, 3):
        with pytest.raises(IllegalAction):
            GAME.apply(state, 0, {"type": "place", "tile": tile, "at": "1,1", "rot": rot})
    new, _ = play(state, 0, {"type": "place", "tile": tile, "at": "1,1", "rot": 0})
    assert arrows_at(new, "1,1") == ("find_coin", ["N", "E"])


# Listing and refusals -----------------------------------------------------------------------


def test_placements_list_each_distinct_rotation_once():
    state = build_state(2, hands=[["master_key A0", "whirlwind A2s", "rotate A3"]])
    legal = GAME.legal_actions(state, 0)
    by_tile = {}
    for action in legal:
        if action["type"] == "place" and action["at"] == "0,-1":
            by_tile.setdefault(action["tile"], []).append(action["rot"])
    key, whirl, rot3 = state["hands"][0]
    assert by_tile[key] == [0]  # no arrows: one layout
    assert by_tile[whirl] == [0, 1]  # straight: two layouts
    # (0,-1) is below the Entrance, which has no S arrow: every T layout is fine.
    assert by_tile[rot3] == [0, 1, 2, 3]
    frontier = {"-1,0", "1,0", "0,1", "0,-1"}
    assert {a["at"] for a in legal if a["type"] == "place"} == frontier


def test_an_equivalent_but_unlisted_rotation_is_refused():
    state = build_state(2, hands=[["whirlwind A2s"]])
    tile = state["hands"][0][0]
    with pytest.raises(IllegalAction, match="rotation 0, 1 only"):
        GAME.apply(state, 0, {"type": "place", "tile": tile, "at": "0,-1", "rot": 2})


@pytest.mark.parametrize(
    "change, message",
    [
        ({"tile": 99}, "from your own hand"),
        ({"tile": True}, "from your own hand"),
        ({"at": "0,0"}, "already holds a chamber"),
        ({"at": "0, -1"}, "written as"),
        ({"at": "00,-1"}, "written as"),
        ({"rot": "1"}, "rotation"),
        ({"extra": 1}, "exactly a tile"),
    ],
)
def test_malformed_placements_are_refused_with_a_reason(change, message):
    state = build_state(2, hands=[["empty A1"], ["empty A1"]])
    action = {**place(state, 0, 0, "0,-1", 0), **change}
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction, match=message):
        GAME.apply(state, 0, action)
    assert state == before


def test_a_tile_from_another_hand_cannot_be_placed():
    state = build_state(2, hands=[["empty A1"], ["find_coin A1"]])
    with pytest.raises(IllegalAction, match="own hand"):
        GAME.apply(state, 0, place(state, 1, 0, "0,-1", 0))
    with pytest.raises(IllegalAction, match="not your turn"):
        GAME.apply(state, 1, place(state, 1, 0, "0,-1", 0))


# Drawing --------------------------------------------------------------------------------------


def test_d11_no_draw_when_the_pile_is_empty():
    state = build_state(2, hands=[["empty A1", "empty A2c"]], stack=[])
    new, events = play(state, 0, place(state, 0, 0, "0,-1", 0))
    assert hand_rooms(new, 0) == ["empty"] and len(new["hands"][0]) == 1
    assert of_type(events, "tile_drawn")[0]["count"] == 0


def test_there_is_no_hand_limit():
    tiles = ["find_coin A1"] * 3 + ["find_coin A2s"] * 4 + ["find_coin A3"] * 4
    state = build_state(2, hands=[tiles], stack=["empty A1"])
    new, _ = play(state, 0, place(state, 0, 0, "0,-1", 0))
    assert len(new["hands"][0]) == 11


def test_a_player_may_place_even_when_the_hero_could_move():
    state = build_state(2, rooms={(0, 1): "find_coin {N}"}, hands=[["empty A1"]])
    kinds = {a["type"] for a in GAME.legal_actions(state, 0)}
    assert kinds == {"place", "move"}


# E-25 / D-2: the first Drakon Moves chamber -------------------------------------------------


def test_e25_the_first_drakon_moves_brings_drakon_onto_an_unoccupied_chamber():
    state = build_state(
        2,
        rooms={(0, 1): "find_coin {N}"},
        hands=[["drakon_moves A2s"], ["drakon_moves A3"]],
        stack=["empty A1", "empty A2s"],
    )
    new, events = play(state, 0, place(state, 0, 0, "1,0", 0))
    assert GAME.current_seats(new) == [0]
    assert GAME.legal_actions(new, 0) == [
        {"type": "place_drakon", "at": "0,1"},
        {"type": "place_drakon", "at": "1,0"},
    ]
    with pytest.raises(IllegalAction, match="unoccupied"):
        GAME.apply(new, 0, {"type": "place_drakon", "at": "0,0"})
    new, events = play(new, 0, {"type": "place_drakon", "at": "1,0"})
    assert new["drakon"] == "1,0"
    assert of_type(events, "drakon_placed") == [{"type": "drakon_placed", "seat": 0, "at": "1,0"}]
    assert GAME.current_seats(new) == [1]
    # B places the second Drakon Moves: Drakon stays where she is.
    new, events = play(new, 1, place(new, 1, 0, "-1,0", 3))
    assert new["drakon"] == "1,0"
    assert not of_type(events, "drakon_placed")
    assert GAME.current_seats(new) == [0]


def test_d2_the_new_tile_itself_may_receive_drakon_and_is_the_only_choice_if_all_else_is_busy():
    state = build_state(2, hands=[["drakon_moves A1"]])
    new, _ = play(state, 0, place(state, 0, 0, "0,-1", 0))
    assert GAME.legal_actions(new, 0) == [{"type": "place_drakon", "at": "0,-1"}]


# A-9 Escape: may put the hero on the new chamber ----------------------------------------------


def test_escape_placement_may_put_the_hero_on_it():
    state = build_state(2, hands=[["escape A2s"]], heroes=["0,0", "0,0"])
    new, _ = play(state, 0, place(state, 0, 0, "0,-1", 0))
    assert GAME.legal_actions(new, 0) == [{"type": "enter_escape"}, {"type": "skip"}]
    moved, events = play(new, 0, {"type": "enter_escape"})
    assert moved["heroes"] == ["0,-1", "0,0"]
    assert of_type(events, "hero_placed") == [
        {"type": "hero_placed", "seat": 0, "from": "0,0", "to": "0,-1"}
    ]
    assert not of_type(events, "hero_moved")
    stayed, events = play(new, 0, {"type": "skip"})
    assert stayed["heroes"] == ["0,0", "0,0"]
    assert of_type(events, "escape_declined")


def test_escape_gets_a_hero_out_of_a_whirlwind():
    """A-9 clarification: the hero on the Escape no longer stands on the Whirlwind."""
    state = build_state(
        2,
        rooms={(0, 1): "whirlwind {W,N,E}", (0, 2): "find_coin {N}", (0, 3): "empty {N}"},
        heroes=["0,1", "0,0"],
        hands=[["escape A2s"]],
    )
    assert [a["to"] for a in GAME.legal_actions(state, 0) if a["type"] == "move"] == ["0,3"]
    new, _ = play(state, 0, place(state, 0, 0, "1,0", 0))
    new, _ = play(new, 0, {"type": "enter_escape"})
    assert new["heroes"][0] == "1,0"
