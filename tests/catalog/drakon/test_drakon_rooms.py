"""Drakon: every room effect (A-7, A-8, A-9, D-5..D-7, D-13, D-21..D-25; E-5, E-6, E-9, E-11, E-13)."""

from __future__ import annotations

import copy

import pytest

from games.catalog.drakon.builders import build_state
from games.catalog.drakon.rules import GAME, Lair, move_targets, tiles_of
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


def room_at(state, at):
    """(room, arrows) of the chamber at ``at`` as the view shows it, or None."""
    for room in GAME.view(state, None)["board"]:
        if room["at"] == at:
            return room["room"], room["arrows"]
    return None


def hand_rooms(state, seat):
    return sorted(tiles_of(state)[tile][0] for tile in state["hands"][seat])


# E-5 Find a Coin and the immediate win ---------------------------------------------------------


def test_e5_find_a_coin_reaching_ten_wins_at_once():
    state = build_state(2, rooms={(0, 1): "find_coin {N}"}, coins=[[3, 3, 2], []], hoard=[2])
    new, events = play(state, 0, move("0,1"))
    assert sorted(new["coins"][0]) == [2, 2, 3, 3]
    assert new["over"] and GAME.current_seats(new) == []
    assert new["end"] == {"reason": "goal", "winners": [0]}
    result = GAME.result(new)
    assert result.ranks == [1, 2] and result.scores == [10, 0]
    assert events[-1]["type"] == "game_over" and events[-1]["gold"] == [10, 0]
    assert not of_type(events, "turn_started")  # B gets no further turn
    found = of_type(events, "coin_found_value")
    assert found == [{"type": "coin_found_value", "seat": 0, "value": 2, "private_to": 0}]
    assert of_type(events, "coin_found") == [
        {"type": "coin_found", "seat": 0, "cause": "find_coin"}
    ]


def test_find_a_coin_with_an_empty_hoard_does_nothing():
    state = build_state(2, rooms={(0, 1): "find_coin {N}"}, hoard=[])
    new, events = play(state, 0, move("0,1"))
    assert new["coins"] == [[], []]
    assert of_type(events, "hoard_empty") == [
        {"type": "hoard_empty", "seat": 0, "cause": "find_coin"}
    ]


def test_nine_gold_is_not_enough():
    state = build_state(2, rooms={(0, 1): "find_coin {N}"}, coins=[[3, 3, 2], []], hoard=[1])
    new, _ = play(state, 0, move("0,1"))
    assert not new["over"] and GAME.current_seats(new) == [1]


# E-6 Lose a Coin ---------------------------------------------------------------------------------


def test_e6a_lose_a_coin_without_coins_does_nothing():
    state = build_state(2, rooms={(0, 1): "lose_coin {W,N,E}"})
    new, events = play(state, 0, move("0,1"))
    assert new["coins"] == [[], []]
    assert of_type(events, "no_coin") == [{"type": "no_coin", "seat": 0, "cause": "lose_coin"}]


def test_e6b_lose_a_coin_returns_it_to_the_hoard():
    state = build_state(2, rooms={(0, 1): "lose_coin {W,N,E}"}, coins=[[1], []], hoard=[])
    new, events = play(state, 0, move("0,1"))
    assert new["coins"] == [[], []] and new["hoard"] == [1]
    assert of_type(events, "coin_lost") == [{"type": "coin_lost", "seat": 0, "cause": "lose_coin"}]
    assert of_type(events, "coin_lost_value")[0]["private_to"] == 0


# E-9 Destroy a Chamber -----------------------------------------------------------------------------


def e9_state(**extra):
    return build_state(
        2,
        rooms={
            (1, 0): "destroy {N,S}",
            (-1, 0): "find_coin {W}",
            (0, 1): "empty {N}",
        },
        drakon="-1,0",
        stack=["escape A2s"],
        **extra,
    )


def test_e9_destroy_targets_only_unoccupied_chambers_other_than_the_entrance():
    state = e9_state()
    new, _ = play(state, 0, move("1,0"))
    assert GAME.current_seats(new) == [0]
    assert GAME.legal_actions(new, 0) == [{"type": "destroy", "at": "0,1"}]
    with pytest.raises(IllegalAction):
        GAME.apply(new, 0, {"type": "destroy", "at": "0,0"})
    done, events = play(new, 0, {"type": "destroy", "at": "0,1"})
    assert room_at(done, "0,1") is None
    assert [tiles_of(done)[tile] for tile in done["stack"]] == [["escape", "A2s"], ["empty", "A1"]]
    assert of_type(events, "room_destroyed")[0]["room"] == "empty"
    assert GAME.current_seats(done) == [1]


def test_destroy_with_no_target_does_nothing_and_may_split_the_lair():
    state = build_state(2, rooms={(1, 0): "destroy {N,S}"})
    new, events = play(state, 0, move("1,0"))
    assert of_type(events, "no_effect") == [{"type": "no_effect", "seat": 0, "room": "destroy"}]
    split = build_state(
        2,
        rooms={(0, 1): "destroy {N}", (0, 2): "empty {N}", (0, 3): "find_coin {N}"},
        stack=[],
    )
    new, _ = play(split, 0, move("0,1"))
    new, _ = play(new, 0, {"type": "destroy", "at": "0,2"})
    assert room_at(new, "0,3") == ("find_coin", ["N"])  # now an island
    assert new["stack"] and tiles_of(new)[new["stack"][0]] == ["empty", "A1"]


# E-11 Swap a Chamber -----------------------------------------------------------------------------


def e11_state():
    return build_state(
        2,
        rooms={(0, 1): "swap {N,E}", (0, 2): "find_coin {N}"},
        hands=[["lose_coin A3"]],
        stack=["empty A1"],
    )


def test_e11_swap_exchanges_an_unoccupied_chamber_with_a_legally_turned_tile():
    state = e11_state()
    new, _ = play(state, 0, move("0,1"))
    tile = state["hands"][0][0]
    assert GAME.legal_actions(new, 0) == [{"type": "swap", "at": "0,2", "tile": tile, "rot": 0}]
    done, events = play(new, 0, {"type": "swap", "at": "0,2", "tile": tile, "rot": 0})
    assert room_at(done, "0,2") == ("lose_coin", ["N", "E", "W"])
    assert hand_rooms(done, 0) == ["find_coin"]
    assert len(done["stack"]) == 1  # no draw
    assert done["coins"] == [[], []] and done["heroes"][0] == "0,1"  # nothing triggered
    assert [e["type"] for e in events if e["type"].startswith("room_")] == [
        "room_removed",
        "room_placed",
    ]
    assert of_type(events, "room_placed")[0]["how"] == "swapped"


def test_swap_without_tiles_does_nothing():
    state = build_state(2, rooms={(0, 1): "swap {N,E}", (0, 2): "find_coin {N}"})
    new, events = play(state, 0, move("0,1"))
    assert of_type(events, "no_effect") == [{"type": "no_effect", "seat": 0, "room": "swap"}]


def test_d22_a_swapped_in_drakon_moves_brings_drakon_and_an_escape_takes_the_hero():
    state = build_state(
        2,
        rooms={(0, 1): "swap {N,E}", (0, 2): "find_coin {N}"},
        hands=[["drakon_moves A1", "escape A2s"]],
    )
    new, _ = play(state, 0, move("0,1"))
    drakon_tile, escape_tile = state["hands"][0]
    placed, _ = play(new, 0, {"type": "swap", "at": "0,2", "tile": drakon_tile, "rot": 0})
    assert GAME.legal_actions(placed, 0) == [{"type": "place_drakon", "at": "0,2"}]
    escaped, _ = play(new, 0, {"type": "swap", "at": "0,2", "tile": escape_tile, "rot": 1})
    escaped, _ = play(escaped, 0, {"type": "enter_escape"})
    assert escaped["heroes"][0] == "0,2"


# E-13 Floating Chamber ----------------------------------------------------------------------------


def e13_state():
    return build_state(2, rooms={(1, 0): "floating {N,S}"}, heroes=["0,0", "0,0"])


def test_e13_the_floating_chamber_flies_with_its_hero():
    state = e13_state()
    new, _ = play(state, 0, move("1,0"))
    legal = GAME.legal_actions(new, 0)
    assert {"type": "float", "to": "0,-1", "rot": 1} in legal
    assert {"type": "skip"} in legal
    assert not [a for a in legal if a.get("to") in ("3,3", "1,0")]
    for bad in ({"type": "float", "to": "3,3", "rot": 0}, {"type": "float", "to": "1,0", "rot": 0}):
        with pytest.raises(IllegalAction):
            GAME.apply(new, 0, bad)
    flown, events = play(new, 0, {"type": "float", "to": "0,-1", "rot": 1})
    assert room_at(flown, "0,-1") == ("floating", ["E", "W"])
    assert room_at(flown, "1,0") is None
    assert flown["heroes"] == ["0,-1", "0,0"]
    assert of_type(events, "room_floated")[0]["carried"] == [0]
    assert not of_type(events, "hero_moved")
    declined, events = play(new, 0, {"type": "skip"})
    assert room_at(declined, "1,0") == ("floating", ["N", "S"])
    assert of_type(events, "float_declined")


def test_the_floating_chamber_carries_every_hero_on_it_and_keeps_the_arrow_ban():
    state = build_state(
        3,
        rooms={(1, 0): "floating {N,S}", (0, 1): "empty {E}"},
        heroes=["0,0", "1,0", "0,0"],
    )
    new, _ = play(state, 0, move("1,0"))
    legal = GAME.legal_actions(new, 0)
    # (1,1) has the Empty's E arrow pointing at it: no W arrow there, so only {N,S}.
    assert [a["rot"] for a in legal if a.get("to") == "1,1"] == [0]
    flown, events = play(new, 0, {"type": "float", "to": "0,-1", "rot": 1})
    assert flown["heroes"] == ["0,-1", "0,-1", "0,0"]
    assert of_type(events, "room_floated")[0]["carried"] == [0, 1]


# Rotate a Chamber ---------------------------------------------------------------------------------


def test_rotate_lists_every_legal_turn_of_every_chamber_including_occupied_ones():
    state = build_state(
        2,
        rooms={(0, 1): "rotate {N,E}", (0, -1): "empty {N}", (1, 0): "master_key {}"},
    )
    new, _ = play(state, 0, move("0,1"))
    legal = GAME.legal_actions(new, 0)
    turns = {}
    for action in legal:
        turns.setdefault(action["at"], []).append(action["turns"])
    # The Entrance (holding B) has (0,-1) pointing at its open S side: every turn is refused.
    assert "0,0" not in turns
    # The Rotate chamber itself (holding A) faces the Entrance's N arrow: no S arrow allowed.
    assert turns["0,1"] == [3]
    assert turns["0,-1"] == [1, 2, 3]
    assert turns["1,0"] == [1, 2, 3]  # no arrows: allowed although nothing changes (D-7)
    with pytest.raises(IllegalAction):
        GAME.apply(new, 0, {"type": "rotate", "at": "0,0", "turns": 2})
    done, events = play(new, 0, {"type": "rotate", "at": "0,1", "turns": 3})
    assert room_at(done, "0,1") == ("rotate", ["N", "W"])
    rotated = of_type(events, "room_rotated")[0]
    assert rotated["arrows"] == ["N", "W"] and rotated["rot"] == 3


def test_the_entrance_may_be_rotated():
    state = build_state(2, rooms={(0, 1): "rotate {N,E}"})
    new, _ = play(state, 0, move("0,1"))
    assert [a["turns"] for a in GAME.legal_actions(new, 0) if a["at"] == "0,0"] == [1, 2, 3]
    done, _ = play(new, 0, {"type": "rotate", "at": "0,0", "turns": 2})
    assert room_at(done, "0,0") == ("entrance", ["E", "S", "W"])


def test_a_rotated_room_changes_where_its_hero_may_go():
    state = build_state(2, rooms={(0, 1): "rotate {N,E}", (1, 1): "empty {N}", (0, 2): "empty {N}"})
    assert sorted(move_targets(state, Lair(state), 1)) == [(0, 1)]
    new, _ = play(state, 0, move("0,1"))
    assert sorted(move_targets(new, Lair(new), 0)) == [(0, 2), (1, 1)]
    new, _ = play(new, 0, {"type": "rotate", "at": "0,1", "turns": 3})
    assert sorted(move_targets(new, Lair(new), 0)) == [(0, 2)]


# Steal a Coin --------------------------------------------------------------------------------------


@pytest.mark.parametrize("room, victim", [("steal_left", 1), ("steal_right", 2)])
def test_steal_a_coin_takes_from_the_left_or_right_neighbour(room, victim):
    coins = [[], [1], [3]]
    state = build_state(3, rooms={(0, 1): f"{room} {{N}}"}, coins=coins)
    new, events = play(state, 0, move("0,1"))
    expected = [[], [1], [3]]
    expected[0] = expected[victim]
    expected[victim] = []
    assert new["coins"] == expected
    assert of_type(events, "coin_stolen") == [
        {"type": "coin_stolen", "seat": 0, "victim": victim, "cause": room}
    ]
    private = of_type(events, "coin_stolen_value")
    assert sorted(e["private_to"] for e in private) == [0, victim]


@pytest.mark.parametrize("room", ["steal_left", "steal_right"])
def test_with_two_players_both_steals_hit_the_opponent(room):
    state = build_state(2, rooms={(0, 1): f"{room} {{N}}"}, coins=[[], [2, 2]])
    new, _ = play(state, 0, move("0,1"))
    assert new["coins"] == [[2], [2]]


def test_stealing_from_a_player_without_coins_does_nothing():
    state = build_state(3, rooms={(0, 1): "steal_left {N}"}, coins=[[], [], [3]])
    new, events = play(state, 0, move("0,1"))
    assert new["coins"] == [[], [], [3]]
    assert of_type(events, "no_coin") == [{"type": "no_coin", "seat": 1, "cause": "steal_left"}]


def test_a_stolen_coin_can_win():
    state = build_state(2, rooms={(0, 1): "steal_left {N}"}, coins=[[3, 3, 3], [1]])
    new, _ = play(state, 0, move("0,1"))
    assert new["end"] == {"reason": "goal", "winners": [0]}


# Steal a Chamber -----------------------------------------------------------------------------------


def test_steal_a_chamber_needs_an_opponent_with_two_tiles():
    state = build_state(
        3,
        rooms={(0, 1): "steal_tile {N}"},
        hands=[[], ["empty A1"], ["find_coin A1", "portal"]],
    )
    new, _ = play(state, 0, move("0,1"))
    assert GAME.legal_actions(new, 0) == [{"type": "steal_tile", "from": 2}]
    done, events = play(new, 0, {"type": "steal_tile", "from": 2})
    assert len(done["hands"][0]) == 1 and len(done["hands"][2]) == 1
    assert sorted(done["hands"][0] + done["hands"][2]) == sorted(state["hands"][2])
    assert of_type(events, "tile_stolen") == [
        {"type": "tile_stolen", "seat": 0, "victim": 2, "cause": "steal_tile"}
    ]
    assert sorted(e["private_to"] for e in of_type(events, "tile_stolen_detail")) == [0, 2]


def test_steal_a_chamber_without_a_victim_does_nothing():
    state = build_state(2, rooms={(0, 1): "steal_tile {N}"}, hands=[[], ["empty A1"]])
    new, events = play(state, 0, move("0,1"))
    assert of_type(events, "no_effect") == [{"type": "no_effect", "seat": 0, "room": "steal_tile"}]
    assert GAME.current_seats(new) == [1]


# Mind Control --------------------------------------------------------------------------------------


def mind_state(**extra):
    rooms = {
        (0, 1): "mind_control {N}",
        (1, 0): "destroy {N,S}",
        (-1, 0): "empty {W}",
        (0, 2): "empty {N}",
        **extra.pop("rooms", {}),
    }
    return build_state(3, rooms=rooms, **extra)


def test_mind_control_moves_another_hero_and_that_hero_resolves_the_room():
    state = mind_state(heroes=["0,0", "0,0", "-1,0"], hands=[[], ["empty A1"], []])
    new, _ = play(state, 0, move("0,1"))
    legal = GAME.legal_actions(new, 0)
    assert legal == [
        {"type": "mind_control", "target": 1, "to": "-1,0"},
        {"type": "mind_control", "target": 1, "to": "0,1"},
        {"type": "mind_control", "target": 1, "to": "1,0"},
    ]  # seat 2 stands on a dead end: not a target
    forced, events = play(new, 0, {"type": "mind_control", "target": 1, "to": "1,0"})
    assert forced["heroes"][1] == "1,0"
    moved = of_type(events, "hero_moved")[0]
    assert moved["cause"] == "mind_control" and moved["by"] == 0
    assert GAME.current_seats(forced) == [1]  # the target chooses what to destroy
    assert GAME.legal_actions(forced, 1) == [{"type": "destroy", "at": "0,2"}]
    done, _ = play(forced, 1, {"type": "destroy", "at": "0,2"})
    assert GAME.current_seats(done) == [1]  # then seat 1's own turn


def test_mind_control_applies_the_targets_leave_effects_and_harp_pull():
    portal = mind_state(rooms={(1, 0): "portal {}"}, heroes=["0,0", "1,0", "1,0"])
    new, _ = play(portal, 0, move("0,1"))
    assert {a["to"] for a in GAME.legal_actions(new, 0) if a["target"] == 1} == {
        "-1,0",
        "0,0",
        "0,1",
        "0,2",
    }
    harp = mind_state(
        rooms={(0, 2): "empty {N,E}", (1, 2): "empty {N}", (0, 3): "harp {E,W}"},
        heroes=["0,0", "0,2", "-1,0"],
    )
    assert sorted(move_targets(harp, Lair(harp), 1)) == [(0, 3)]  # pulled: not (1,2)
    new, _ = play(harp, 0, move("0,1"))
    assert [a["to"] for a in GAME.legal_actions(new, 0) if a["target"] == 1] == ["0,3"]


def test_mind_control_with_nobody_able_to_move_does_nothing():
    state = mind_state(
        rooms={(0, 2): "empty {W}"}, heroes=["0,0", "0,2", "-1,0"], hands=[[], ["empty A1"], []]
    )
    new, events = play(state, 0, move("0,1"))
    assert of_type(events, "no_effect") == [
        {"type": "no_effect", "seat": 0, "room": "mind_control"}
    ]
    assert GAME.current_seats(new) == [1]


def test_a_mind_controlled_hero_may_be_sent_into_drakon():
    state = mind_state(heroes=["0,0", "0,0", "-1,0"], drakon="1,0", coins=[[], [2], []], hoard=[])
    new, _ = play(state, 0, move("0,1"))
    done, events = play(new, 0, {"type": "mind_control", "target": 1, "to": "1,0"})
    assert done["heroes"][1] == "0,0" and done["coins"][1] == [] and done["hoard"] == [2]
    assert of_type(events, "drakon_encounter")[0]["heroes"] == [1]


@pytest.mark.parametrize("target", [True, 1.0, "1"])
def test_a_look_alike_value_is_not_a_legal_choice(target):
    """``True == 1`` in Python, but a seat is an int: only the listed action is accepted."""
    state = mind_state(heroes=["0,0", "0,0", "-1,0"], hands=[[], ["empty A1"], []])
    new, _ = play(state, 0, move("0,1"))
    with pytest.raises(IllegalAction, match="another hero"):
        GAME.apply(new, 0, {"type": "mind_control", "target": target, "to": "1,0"})
