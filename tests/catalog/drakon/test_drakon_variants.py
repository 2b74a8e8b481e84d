"""Drakon: the optional rules Escape, Short game and Team play (A-14, D-9, D-10; E-36, E-38)."""

from __future__ import annotations

import copy

import pytest

from games.catalog.drakon.builders import build_state
from games.catalog.drakon.rules import GAME, left_of, right_of
from games.engine.base import IllegalAction

ESCAPE = {"escape": True}
TEAM = {"team_play": True}


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


# E-36 Escape from Drakon's lair -----------------------------------------------------------------


def e36_state(coins, **extra):
    rooms = {(0, 1): "portal {}", **extra.pop("rooms", {})}
    return build_state(2, rooms=rooms, coins=[coins, []], options=ESCAPE, **extra)


def test_e36a_entering_a_portal_with_eight_gold_wins():
    new, events = play(e36_state([3, 3, 2]), 0, move("0,1"))
    assert new["end"] == {"reason": "escape", "winners": [0]}
    assert of_type(events, "escaped") == [{"type": "escaped", "seat": 0, "at": "0,1"}]
    assert GAME.result(new).ranks == [1, 2]


def test_e36b_seven_gold_is_not_enough():
    new, _ = play(e36_state([3, 3, 1]), 0, move("0,1"))
    assert not new["over"]


def test_e36c_ten_gold_does_not_win_in_the_escape_variant():
    state = e36_state([3, 3, 2], rooms={(1, 0): "find_coin {E}"}, hoard=[2])
    new, _ = play(state, 0, move("1,0"))
    assert sum(new["coins"][0]) == 10 and not new["over"]


def test_e36d_placing_an_escape_and_stepping_on_it_wins():
    state = e36_state([3, 3, 2], hands=[["escape A2s"], []])
    tile = state["hands"][0][0]
    new, _ = play(state, 0, {"type": "place", "tile": tile, "at": "0,-1", "rot": 0})
    new, events = play(new, 0, {"type": "enter_escape"})
    assert new["end"] == {"reason": "escape", "winners": [0]}


def test_d10_the_escape_placement_rule_is_a_data_switch(monkeypatch):
    from dataclasses import replace

    from games.catalog.drakon import components as C

    monkeypatch.setitem(C.EDITIONS, "4e", replace(C.EDITIONS["4e"], escape_placement_wins=False))
    state = e36_state([3, 3, 2], hands=[["escape A2s"], []])
    tile = state["hands"][0][0]
    new, _ = play(state, 0, {"type": "place", "tile": tile, "at": "0,-1", "rot": 0})
    new, _ = play(new, 0, {"type": "enter_escape"})
    assert not new["over"] and new["heroes"][0] == "0,-1"


def test_escape_entered_via_an_escape_room_also_wins_but_standing_on_one_does_not():
    state = e36_state([3, 3, 2], rooms={(1, 0): "escape {N,S}"})
    new, _ = play(state, 0, move("1,0"))
    assert new["end"]["reason"] == "escape"
    standing = e36_state(
        [3, 3],
        rooms={(0, 1): "escape {N}", (0, 2): "find_coin {N}"},
        heroes=["0,1", "0,0"],
        hoard=[2],
    )
    new, _ = play(standing, 0, move("0,2"))
    assert sum(new["coins"][0]) == 8 and not new["over"]


def test_drakon_in_the_portal_stops_the_escape():
    state = e36_state([3, 3, 2], drakon="0,1", hoard=[])
    new, events = play(state, 0, move("0,1"))
    assert not new["over"] and new["heroes"][0] == "0,0"
    assert of_type(events, "drakon_encounter")


def test_intermediate_whirlwind_chambers_do_not_count_as_entered():
    state = e36_state(
        [3, 3, 2],
        rooms={(0, 1): "whirlwind {N}", (0, 2): "portal {}", (0, 3): "empty {N}"},
        heroes=["0,1", "0,0"],
    )
    new, _ = play(state, 0, move("0,3"))
    assert new["heroes"][0] == "0,3" and not new["over"]


# Short game ---------------------------------------------------------------------------------------


def test_short_game_wins_at_seven():
    state = build_state(
        2,
        rooms={(0, 1): "find_coin {N}"},
        coins=[[3, 2], []],
        hoard=[2],
        options={"short_game": True},
    )
    new, _ = play(state, 0, move("0,1"))
    assert new["end"] == {"reason": "goal", "winners": [0]}
    assert GAME.view(new, 1)["goal"]["gold"] == 7


# E-38 Team play -----------------------------------------------------------------------------------


def team_state(**extra):
    extra.setdefault("coins", [[3, 3, 3, 3, 2, 2, 2], []])
    return build_state(4, options=TEAM, **extra)


def test_e38a_a_partner_brings_the_team_pool_to_twenty_and_the_team_wins():
    state = team_state(rooms={(0, 1): "find_coin {N}"}, hoard=[2], active=2)
    new, events = play(state, 2, move("0,1"))
    assert new["end"] == {"reason": "goal", "winners": [0, 2]}
    result = GAME.result(new)
    assert result.ranks == [1, 3, 1, 3] and result.scores == [20, 0, 20, 0]
    private = of_type(events, "coin_found_value")
    assert sorted(e["private_to"] for e in private) == [0, 2]


def test_e38b_a_steal_takes_from_the_victims_team_pool():
    state = team_state(rooms={(0, 1): "steal_left {N}"}, active=1, hoard=[])
    assert left_of(state, 1) == 2
    new, events = play(state, 1, move("0,1"))
    assert len(new["coins"][0]) == 6 and len(new["coins"][1]) == 1
    assert sorted(new["coins"][0] + new["coins"][1]) == [2, 2, 2, 3, 3, 3, 3]
    assert of_type(events, "coin_stolen")[0]["victim"] == 2
    private = of_type(events, "coin_stolen_value")
    assert sorted(e["private_to"] for e in private) == [0, 1, 2, 3]


@pytest.mark.parametrize("n_players", [4, 6])
def test_e38c_every_neighbour_is_an_opponent(n_players):
    state = build_state(n_players, options=TEAM)
    half = n_players // 2
    for seat in range(n_players):
        assert left_of(state, seat) % half != seat % half
        assert right_of(state, seat) % half != seat % half
    if n_players == 6:
        assert GAME.view(state, 0)["teams"] == [[0, 3], [1, 4], [2, 5]]
    else:
        assert GAME.view(state, 0)["teams"] == [[0, 2], [1, 3]]


def test_partners_see_their_shared_pool_and_opponents_only_counts():
    state = team_state()
    for seat, expected in ((0, [2, 2, 2, 3, 3, 3, 3]), (2, [2, 2, 2, 3, 3, 3, 3]), (1, [])):
        assert GAME.view(state, seat)["me"]["coins"] == expected
    assert GAME.view(state, 1)["coins"] == [7, 0, 7, 0]


def test_team_goals_combine_with_short_game_and_escape():
    short = build_state(
        4,
        rooms={(0, 1): "find_coin {N}"},
        options={"team_play": True, "short_game": True},
        coins=[[3, 3, 3, 3], []],
        hoard=[2],
    )
    new, _ = play(short, 0, move("0,1"))
    assert new["end"]["winners"] == [0, 2]  # 14
    escape = build_state(
        4,
        rooms={(0, 1): "portal {}"},
        options={"team_play": True, "escape": True},
        coins=[[3, 3, 3, 3, 2, 1], []],
    )
    new, _ = play(escape, 0, move("0,1"))
    assert not new["over"]  # 15 < 16
    escape16 = build_state(
        4,
        rooms={(0, 1): "portal {}"},
        options={"team_play": True, "escape": True},
        coins=[[3, 3, 3, 3, 2, 2], []],
    )
    new, _ = play(escape16, 0, move("0,1"))
    assert new["end"] == {"reason": "escape", "winners": [0, 2]}


def test_team_play_opponents_exclude_the_partner_for_steal_a_chamber():
    state = build_state(
        4,
        rooms={(0, 1): "steal_tile {N}"},
        hands=[[], ["empty A1", "empty A2s"], ["find_coin A1", "find_coin A2s"], []],
        options=TEAM,
    )
    new, _ = play(state, 0, move("0,1"))
    assert GAME.legal_actions(new, 0) == [{"type": "steal_tile", "from": 1}]


# Option validation --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "n_players, options, error",
    [
        (4, {}, None),
        (4, TEAM, None),
        (6, TEAM, None),
        (2, TEAM, "Team play needs 4 or 6 players."),
        (5, TEAM, "Team play needs 4 or 6 players."),
        (3, {"escape": True, "short_game": True}, "choose one"),
        (1, {}, "2 to 6 players"),
        (7, {}, "2 to 6 players"),
        (3, {"nope": True}, "Unknown option"),
        (3, {"heroes": "yes"}, "not one of the choices"),
    ],
)
def test_validate_setup(n_players, options, error):
    message = GAME.validate_setup(n_players, options)
    if error is None:
        assert message is None
        GAME.setup(n_players, options, "valid")
    else:
        assert error in message
        with pytest.raises(IllegalAction):
            GAME.setup(n_players, options, "invalid")
