"""Drakon, first edition: every chamber of its list (spec B-4..B-6, C-2, D-3, D-6, D-21..D-25;
E-41, E-43), each from a built position, one action, the exact outcome."""

from __future__ import annotations

import copy

import pytest

from games.catalog.drakon.builders import build_state
from games.catalog.drakon.rules import GAME_CLASSIC as GAME
from games.catalog.drakon.rules import tiles_of
from games.engine.base import IllegalAction


def position(n_players=2, **kwargs):
    """A first-edition position: the Start {W,N,E} at 0,0 plus ``rooms``."""
    return build_state(n_players, edition="1e", **kwargs)


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


def hand_rooms(state, seat):
    return sorted(tiles_of(state)[tile][0] for tile in state["hands"][seat])


# Find Gold and the 5-coin goal (B-2, E-41) --------------------------------------------------------


def test_e41_the_fifth_coin_wins_at_once():
    state = position(rooms={(0, 1): "find_gold {N}"}, coins=[[1, 1, 1, 1], []])
    new, events = play(state, 0, move("0,1"))
    assert len(new["coins"][0]) == 5
    assert new["over"] and new["end"] == {"reason": "goal", "winners": [0]}
    assert GAME.result(new).ranks == [1, 2] and GAME.result(new).scores == [5, 0]
    assert not of_type(events, "turn_started")
    assert of_type(events, "coin_found") == [
        {"type": "coin_found", "seat": 0, "cause": "find_gold"}
    ]


def test_four_coins_do_not_win():
    state = position(rooms={(0, 1): "find_gold {N}"}, coins=[[1, 1, 1], []])
    new, _ = play(state, 0, move("0,1"))
    assert len(new["coins"][0]) == 4 and not new["over"] and GAME.current_seats(new) == [1]


def test_find_gold_with_an_empty_hoard_finds_nothing():
    state = position(rooms={(0, 1): "find_gold {N}"}, hoard=[])
    new, events = play(state, 0, move("0,1"))
    assert new["coins"] == [[], []]
    assert of_type(events, "hoard_empty") == [
        {"type": "hoard_empty", "seat": 0, "cause": "find_gold"}
    ]


def test_all_coins_are_alike_and_the_view_counts_them():
    state = position(coins=[[1, 1], [1]])
    view = GAME.view(state, 1)
    assert view["coins"] == [2, 1] and view["me"]["coins"] == [1] and view["me"]["gold"] == 1
    assert view["goal"] == {"gold": 5, "escape_gold": None, "escape_rooms": []}
    with pytest.raises(ValueError):
        position(coins=[[2], []])  # no coin has another value in this edition


# Drakon's Due and the Start (B-6, E-43) -----------------------------------------------------------


def test_e43_drakons_due_puts_a_coin_on_the_start_and_the_next_hero_may_take_it():
    state = position(
        rooms={(1, 0): "drakons_due {E}", (0, 1): "master_key {}"},
        heroes=["0,0", "0,1"],
        coins=[[1, 1], []],
    )
    new, events = play(state, 0, move("1,0"))
    assert len(new["coins"][0]) == 1 and new["start_coins"] == [1]
    assert of_type(events, "coin_to_start") == [
        {"type": "coin_to_start", "seat": 0, "cause": "drakons_due"}
    ]
    assert GAME.view(new, None)["start_coins"] == 1
    # B, on the Master Key, moves against the Start's N arrow into the Start.
    assert GAME.current_seats(new) == [1]
    new, _ = play(new, 1, move("0,0"))
    assert GAME.current_seats(new) == [1]
    assert GAME.legal_actions(new, 1) == [{"type": "take_coin"}, {"type": "skip"}]
    taken, events = play(new, 1, {"type": "take_coin"})
    assert taken["coins"][1] == [1] and taken["start_coins"] == []
    assert of_type(events, "start_coin_taken") == [{"type": "start_coin_taken", "seat": 1}]


def test_the_start_coin_is_a_may():
    state = position(
        rooms={(0, -1): "empty {N}"},
        heroes=["0,-1", "0,0"],
        start_coins=2,
        hands=[[], ["empty A1"]],
    )
    new, _ = play(state, 0, move("0,0"))
    left, events = play(new, 0, {"type": "skip"})
    assert left["start_coins"] == [1, 1] and left["coins"] == [[], []]
    assert of_type(events, "start_coin_left") == [{"type": "start_coin_left", "seat": 0}]
    assert GAME.current_seats(left) == [1]


def test_only_one_start_coin_is_taken_and_it_can_be_the_fifth():
    state = position(
        rooms={(0, -1): "empty {N}"}, heroes=["0,-1", "0,0"], start_coins=3, coins=[[1] * 4, []]
    )
    new, _ = play(state, 0, move("0,0"))
    won, _ = play(new, 0, {"type": "take_coin"})
    assert won["start_coins"] == [1, 1] and won["end"] == {"reason": "goal", "winners": [0]}


def test_an_empty_start_asks_nothing():
    state = position(rooms={(0, -1): "empty {N}"}, heroes=["0,-1", "0,0"], hands=[[], ["empty"]])
    new, _ = play(state, 0, move("0,0"))
    assert GAME.current_seats(new) == [1]


def test_drakons_due_without_coins_does_nothing():
    state = position(rooms={(1, 0): "drakons_due {E}"})
    new, events = play(state, 0, move("1,0"))
    assert new["start_coins"] == [] and of_type(events, "no_coin")


def test_a_hero_sent_to_the_start_by_drakon_does_not_take_its_coins():
    state = position(
        rooms={(0, 1): "find_gold {N}"}, drakon="0,1", coins=[[1, 1], []], start_coins=1
    )
    new, events = play(state, 0, move("0,1"))
    assert new["heroes"][0] == "0,0" and new["coins"][0] == [1]
    assert new["start_coins"] == [1] and GAME.current_seats(new) == [1]
    assert of_type(events, "coin_lost") == [{"type": "coin_lost", "seat": 0, "cause": "drakon"}]


# Wishing Well, Steal a Coin (B-6, D-13) -----------------------------------------------------------


def test_wishing_well_returns_a_coin_to_the_hoard():
    state = position(rooms={(0, 1): "wishing_well {W,N,E}"}, coins=[[1, 1], []], hoard=[])
    new, events = play(state, 0, move("0,1"))
    assert new["coins"][0] == [1] and new["hoard"] == [1]
    assert of_type(events, "coin_lost") == [
        {"type": "coin_lost", "seat": 0, "cause": "wishing_well"}
    ]


def test_wishing_well_without_coins_does_nothing():
    state = position(rooms={(0, 1): "wishing_well {W,N,E}"})
    new, events = play(state, 0, move("0,1"))
    assert new["coins"] == [[], []] and of_type(events, "no_coin")


@pytest.mark.parametrize(("room", "victim"), [("steal_left", 1), ("steal_right", 2)])
def test_steal_a_coin_takes_from_the_neighbour_on_that_side(room, victim):
    state = position(3, rooms={(0, 1): f"{room} {{W,N,E}}"}, coins=[[], [1], [1, 1]])
    new, events = play(state, 0, move("0,1"))
    assert len(new["coins"][0]) == 1
    assert len(new["coins"][victim]) == len(state["coins"][victim]) - 1
    assert of_type(events, "coin_stolen") == [
        {"type": "coin_stolen", "seat": 0, "victim": victim, "cause": room}
    ]


def test_a_steal_bringing_the_fifth_coin_wins():
    state = position(rooms={(0, 1): "steal_left {W,N,E}"}, coins=[[1] * 4, [1]])
    new, _ = play(state, 0, move("0,1"))
    assert new["end"] == {"reason": "goal", "winners": [0]}


# Map Chamber (B-6, D-24) -------------------------------------------------------------------------


def test_map_chamber_takes_a_random_tile_even_the_last_one():
    state = position(3, rooms={(0, 1): "map {W,N,E}"}, hands=[[], ["empty A1"], ["rotate A3"]])
    new, _ = play(state, 0, move("0,1"))
    assert GAME.legal_actions(new, 0) == [
        {"type": "steal_tile", "from": 1},
        {"type": "steal_tile", "from": 2},
    ]
    took, events = play(new, 0, {"type": "steal_tile", "from": 1})
    assert hand_rooms(took, 0) == ["empty"] and took["hands"][1] == []
    assert of_type(events, "tile_stolen") == [
        {"type": "tile_stolen", "seat": 0, "victim": 1, "cause": "steal_tile"}
    ]


def test_map_chamber_with_no_opponent_holding_a_tile_does_nothing():
    state = position(rooms={(0, 1): "map {W,N,E}"}, hands=[["empty A1"], []])
    new, events = play(state, 0, move("0,1"))
    assert of_type(events, "no_effect") == [{"type": "no_effect", "seat": 0, "room": "map"}]
    assert GAME.current_seats(new) == [1]


def test_a_player_left_without_tiles_may_only_move():
    state = position(rooms={(0, 1): "find_gold {N}"}, hands=[[], []], active=0)
    assert {action["type"] for action in GAME.legal_actions(state, 0)} == {"move"}


# Magical Shift (B-6, D-22) -----------------------------------------------------------------------


def test_magical_shift_exchanges_a_chamber_with_no_figure_never_the_start():
    state = position(
        rooms={(0, 1): "shift {W,N,E}", (1, 0): "find_gold {E}"},
        hands=[["empty A1"], []],
        stack=["rotate"],
    )
    new, _ = play(state, 0, move("0,1"))
    legal = GAME.legal_actions(new, 0)
    assert {action["at"] for action in legal} == {"1,0"}
    assert {action["rot"] for action in legal} == {0, 1, 2}  # the Start's E arrow: no W
    done, events = play(new, 0, legal[0])
    assert hand_rooms(done, 0) == ["find_gold"] and done["stack"] == state["stack"]
    assert [event["how"] for event in of_type(events, "room_placed")] == ["swapped"]


def test_magical_shift_with_an_empty_hand_does_nothing():
    state = position(rooms={(0, 1): "shift {W,N,E}", (1, 0): "find_gold {E}"})
    _, events = play(state, 0, move("0,1"))
    assert of_type(events, "no_effect") == [{"type": "no_effect", "seat": 0, "room": "shift"}]


def test_a_shifted_in_drakon_moves_brings_drakon():
    state = position(
        rooms={(0, 1): "shift {W,N,E}", (1, 0): "find_gold {E}"},
        hands=[["drakon_moves A3"], []],
    )
    new, _ = play(state, 0, move("0,1"))
    new, _ = play(new, 0, {"type": "swap", "at": "1,0", "tile": new["hands"][0][0], "rot": 1})
    assert GAME.legal_actions(new, 0) == [{"type": "place_drakon", "at": "1,0"}]


# Destroy, Rotate (B-6, D-7, D-23) ---------------------------------------------------------------


def test_destroy_a_chamber_with_no_figure_goes_under_the_pile_never_the_start():
    state = position(
        rooms={(0, 1): "destroy {W,N,E}", (1, 0): "find_gold {E}", (-1, 0): "empty {W}"},
        heroes=["0,0", "1,0"],
        stack=["rotate"],
    )
    new, _ = play(state, 0, move("0,1"))
    assert GAME.legal_actions(new, 0) == [{"type": "destroy", "at": "-1,0"}]
    tile = state["board"]["-1,0"][0]
    done, _ = play(new, 0, {"type": "destroy", "at": "-1,0"})
    assert "-1,0" not in done["board"] and done["stack"][-1] == tile


def test_rotate_may_turn_the_start_and_occupied_chambers():
    state = position(rooms={(0, 1): "rotate {W,N,E}"}, heroes=["0,0", "0,0"])
    new, _ = play(state, 0, move("0,1"))
    ats = {action["at"] for action in GAME.legal_actions(new, 0)}
    assert ats == {"0,0"}  # B stands on the Start; every turn of the Rotate room meets arrows
    done, _ = play(new, 0, {"type": "rotate", "at": "0,0", "turns": 2})
    assert done["board"]["0,0"] == [0, 2]


# Mind Control Orb (B-6, D-6) ---------------------------------------------------------------------


def test_mind_control_orb_sends_a_hero_from_a_vortex_anywhere_and_it_resolves_the_room():
    state = position(
        rooms={(0, 1): "mind_orb {W,N,E}", (1, 0): "vortex {}", (-1, 0): "find_gold {W}"},
        heroes=["0,0", "1,0"],
    )
    new, _ = play(state, 0, move("0,1"))
    legal = GAME.legal_actions(new, 0)
    assert {action["to"] for action in legal} == {"-1,0", "0,0", "0,1"}
    done, events = play(new, 0, {"type": "mind_control", "target": 1, "to": "-1,0"})
    assert done["heroes"][1] == "-1,0" and len(done["coins"][1]) == 1
    assert of_type(events, "hero_moved")[-1]["cause"] == "mind_control"


def test_mind_control_orb_on_a_gale_moves_the_hero_three_chambers():
    state = position(
        rooms={
            (1, 0): "mind_orb {E}",
            (0, 1): "gale {W,N,E}",
            (0, 2): "empty {N}",
            (0, 3): "empty {N}",
            (0, 4): "find_gold {N}",
        },
        heroes=["0,0", "0,1"],
    )
    new, _ = play(state, 0, move("1,0"))
    assert GAME.legal_actions(new, 0) == [{"type": "mind_control", "target": 1, "to": "0,4"}]


def test_mind_control_orb_with_no_hero_able_to_move_does_nothing():
    state = position(rooms={(0, 1): "mind_orb {W,N,E}", (1, 0): "empty {E}"}, heroes=["0,0", "1,0"])
    _, events = play(state, 0, move("0,1"))
    assert of_type(events, "no_effect") == [{"type": "no_effect", "seat": 0, "room": "mind_orb"}]


# Gale, Strong Wind, Master Key, Magical Vortex (B-6, D-3, D-14) ---------------------------------


def gale_lair(room):
    return {
        (0, 1): f"{room} {{W,N,E}}",
        (0, 2): "find_gold {N}",
        (0, 3): "wishing_well {W,N,E}",
        (0, 4): "find_gold {N}",
    }


def test_gale_moves_three_chambers_and_only_the_last_one_acts():
    state = position(rooms=gale_lair("gale"), heroes=["0,1", "0,0"], coins=[[1], []])
    assert [a for a in GAME.legal_actions(state, 0) if a["type"] == "move"] == [move("0,4")]
    new, events = play(state, 0, move("0,4"))
    assert new["heroes"][0] == "0,4" and len(new["coins"][0]) == 2
    assert of_type(events, "hero_moved")[0]["via"] == ["0,2", "0,3"]


def test_strong_wind_moves_two_chambers():
    state = position(rooms=gale_lair("strong_wind"), heroes=["0,1", "0,0"], coins=[[1], []])
    assert [a for a in GAME.legal_actions(state, 0) if a["type"] == "move"] == [move("0,3")]
    new, _ = play(state, 0, move("0,3"))
    assert new["coins"][0] == []  # the Wishing Well at the end acts; the Find Gold passed does not


def test_a_gale_without_a_three_chamber_path_allows_no_move():
    state = position(
        rooms={(0, 1): "gale {W,N,E}", (0, 2): "empty {N}"}, heroes=["0,1", "0,0"], hands=[[], []]
    )
    assert GAME.legal_actions(state, 0) == []
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, move("0,2"))


def test_a_gale_through_a_master_key_goes_any_way_not_pointed_back():
    state = position(
        rooms={
            (0, 1): "gale {W,N,E}",
            (0, 2): "master_key {}",
            (1, 2): "empty {E}",
            (2, 2): "find_gold {N}",
            (-1, 2): "empty {E}",
        },
        heroes=["0,1", "0,0"],
    )
    moves = [a["to"] for a in GAME.legal_actions(state, 0) if a["type"] == "move"]
    assert moves == ["2,2"]  # (-1,2) points back at the key, so the path goes east


def test_a_gale_passing_drakon_meets_her_only_at_the_end():
    state = position(rooms=gale_lair("gale"), heroes=["0,1", "0,0"], drakon="0,2", coins=[[1], []])
    new, events = play(state, 0, move("0,4"))
    assert new["heroes"][0] == "0,4" and not of_type(events, "drakon_encounter")


def test_the_master_key_goes_against_a_neighbours_arrow_and_is_not_carried():
    state = position(
        rooms={(0, 1): "master_key {}", (1, 1): "empty {E}"},
        heroes=["0,1", "0,0"],
        hands=[["empty"], ["empty A1"]],
    )
    moves = {a["to"] for a in GAME.legal_actions(state, 0) if a["type"] == "move"}
    assert moves == {"0,0", "1,1"}
    new, _ = play(state, 0, move("1,1"))
    new, _ = play(new, 1, {"type": "place", "tile": new["hands"][1][0], "at": "0,-1", "rot": 2})
    assert GAME.current_seats(new) == [0]
    assert [a for a in GAME.legal_actions(new, 0) if a["type"] == "move"] == []


def test_the_magical_vortex_goes_to_any_chamber():
    state = position(
        rooms={(0, 1): "vortex {}", (1, 0): "empty {E}", (2, 0): "find_gold {E}"},
        heroes=["0,1", "0,0"],
    )
    moves = {a["to"] for a in GAME.legal_actions(state, 0) if a["type"] == "move"}
    assert moves == {"0,0", "1,0", "2,0"}
    new, _ = play(state, 0, move("2,0"))
    assert len(new["coins"][0]) == 1


# Drakon (B-5) --------------------------------------------------------------------------------------


def test_the_first_drakon_moves_placed_must_bring_drakon_onto_a_chamber_with_no_hero():
    state = position(
        hands=[["drakon_moves A2s"], ["drakon_moves A3"]], rooms={(-1, 0): "empty {W}"}
    )
    new, _ = play(state, 0, {"type": "place", "tile": state["hands"][0][0], "at": "0,1", "rot": 1})
    assert GAME.legal_actions(new, 0) == [
        {"type": "place_drakon", "at": "-1,0"},
        {"type": "place_drakon", "at": "0,1"},
    ]
    new, events = play(new, 0, {"type": "place_drakon", "at": "0,1"})
    assert new["drakon"] == "0,1"
    second = {"type": "place", "tile": new["hands"][1][0], "at": "1,0", "rot": 1}
    after, _ = play(new, 1, second)
    assert after["drakon"] == "0,1" and GAME.current_seats(after) == [0]


def test_drakon_moves_up_to_three_and_sends_the_heroes_where_she_stops_to_the_start():
    state = position(
        3,
        rooms={(1, 0): "drakon_moves {E}", (2, 0): "empty {E}", (-1, 0): "empty {W}"},
        heroes=["0,0", "2,0", "0,0"],
        drakon="-1,0",
        coins=[[1], [1, 1], [1]],
        hoard=[],
    )
    new, _ = play(state, 0, move("1,0"))
    reach = {action["to"] for action in GAME.legal_actions(new, 0)}
    assert reach == {"-1,0", "0,0", "1,0", "2,0"}
    done, events = play(new, 0, {"type": "drakon_move", "to": "2,0"})
    assert done["heroes"] == ["1,0", "0,0", "0,0"] and done["coins"][1] == [1]
    assert done["hoard"] == [1] and of_type(events, "drakon_encounter")[0]["heroes"] == [1]


def test_meeting_drakon_on_the_start_only_costs_a_coin():
    state = position(
        rooms={(1, 0): "drakon_moves {E}", (-1, 0): "empty {W}"},
        heroes=["0,0", "0,0"],
        drakon="-1,0",
        coins=[[1], [1]],
    )
    new, _ = play(state, 0, move("1,0"))
    done, _ = play(new, 0, {"type": "drakon_move", "to": "0,0"})
    assert done["heroes"] == ["1,0", "0,0"] and done["coins"] == [[1], []]
    assert done["drakon"] == "0,0"


def test_empty_chambers_do_nothing_and_an_empty_pile_gives_no_draw():
    state = position(rooms={(0, 1): "empty {N}"}, hands=[["empty A1"], []], stack=[])
    new, events = play(state, 0, move("0,1"))
    assert new["coins"] == [[], []] and GAME.current_seats(new) == [1]
    placed, events = play(
        state, 0, {"type": "place", "tile": state["hands"][0][0], "at": "1,0", "rot": 1}
    )
    assert placed["hands"][0] == [] and of_type(events, "tile_drawn")[0]["count"] == 0


def test_a_hero_standing_with_drakon_meets_her_only_by_moving_in():
    """B-5: "if in your turn you move your character to the room where the Drakon token is";
    a hero who stays on the Start with her (after a meeting there) and places a room keeps
    its coins."""
    state = position(
        drakon="0,0", coins=[[1], []], hands=[["empty A1"], ["empty A1"]], stack=["rotate"]
    )
    new, events = play(
        state, 0, {"type": "place", "tile": state["hands"][0][0], "at": "0,-1", "rot": 2}
    )
    assert new["coins"][0] == [1] and new["heroes"][0] == "0,0"
    assert not of_type(events, "drakon_encounter") and GAME.current_seats(new) == [1]
