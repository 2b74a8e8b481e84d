"""Drakon, first edition: the characters of "Heroes!" (spec B-7, D-15..D-20, D-26), each once
per game, before or after the action; the Knight out of turn."""

from __future__ import annotations

import copy

import pytest

from games.catalog.drakon.builders import build_state
from games.catalog.drakon.rules import GAME_CLASSIC as GAME
from games.catalog.drakon.rules import tiles_of
from games.engine.base import IllegalAction

HEROES = {"heroes": True}


def position(n_players=2, **kwargs):
    kwargs.setdefault("options", HEROES)
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


def abilities(state, seat):
    return [a for a in GAME.legal_actions(state, seat) if a["type"] == "ability"]


# Assignment (B-7) -----------------------------------------------------------------------------


def test_heroes_are_dealt_at_random_and_hands_are_dealt_at_once():
    seen = set()
    for seed in range(12):
        state = GAME.setup(6, HEROES, f"deal-{seed}")
        assert sorted(state["hero_names"]) == sorted(
            ["knight", "dwarf", "barbarian", "wizard", "thief", "amazon"]
        )
        assert [len(hand) for hand in state["hands"]] == [4] * 6 and state["turn"] == 1
        assert GAME.current_seats(state) == [state["first_seat"]]
        seen.add(tuple(state["hero_names"]))
        dealt = [e for e in GAME.opening_events(state) if e["type"] == "hero_dealt"]
        assert {e["seat"]: e["hero"] for e in dealt} == dict(enumerate(state["hero_names"]))
    assert len(seen) > 1


def test_two_players_get_two_different_random_heroes():
    state = GAME.setup(2, HEROES, "pair")
    assert len(set(state["hero_names"])) == 2 and None not in state["hero_names"]


def test_without_heroes_no_ability_is_offered():
    state = position(
        options={},
        hero_names=["thief", "knight"],
        heroes=["0,0", "0,0"],
        coins=[[], [1]],
        hands=[["empty"], []],
    )
    assert abilities(state, 0) == []


# Knight: prevents a coin loss, out of turn too -------------------------------------------------


def test_the_knight_prevents_a_wishing_well():
    state = position(
        rooms={(0, 1): "wishing_well {W,N,E}"}, hero_names=["knight", "dwarf"], coins=[[1], []]
    )
    new, _ = play(state, 0, move("0,1"))
    assert GAME.current_seats(new) == [0]
    assert GAME.legal_actions(new, 0) == [{"type": "protect"}, {"type": "skip"}]
    assert GAME.view(new, 1)["pending"] == {
        "kind": "knight_block",
        "seat": 0,
        "cause": "wishing_well",
        "by": None,
        "victim": 0,
    }
    kept, events = play(new, 0, {"type": "protect"})
    assert kept["coins"][0] == [1] and kept["abilities_used"] == [True, False]
    assert of_type(events, "ability_used") == [
        {"type": "ability_used", "seat": 0, "hero": "knight", "cause": "wishing_well"}
    ]


def test_the_knight_may_let_the_loss_happen_and_keep_his_token():
    state = position(
        rooms={(0, 1): "wishing_well {W,N,E}"}, hero_names=["knight", "dwarf"], coins=[[1], []]
    )
    new, _ = play(state, 0, move("0,1"))
    lost, _ = play(new, 0, {"type": "skip"})
    assert lost["coins"][0] == [] and lost["abilities_used"] == [False, False]


def test_the_knight_blocks_a_steal_in_another_players_turn():
    state = position(
        rooms={(0, 1): "steal_right {W,N,E}"},
        hero_names=["amazon", "knight"],
        coins=[[], [1]],
        active=0,
    )
    new, _ = play(state, 0, move("0,1"))
    assert GAME.current_seats(new) == [1]
    kept, _ = play(new, 1, {"type": "protect"})
    assert kept["coins"] == [[], [1]] and GAME.current_seats(kept) == [1]


def test_the_knight_refuses_drakons_due_but_not_drakon():
    state = position(
        rooms={(1, 0): "drakons_due {E}", (0, 1): "find_gold {N}"},
        hero_names=["knight", "dwarf"],
        coins=[[1, 1], []],
        drakon="0,1",
    )
    due, _ = play(state, 0, move("1,0"))
    kept, _ = play(due, 0, {"type": "protect"})
    assert kept["start_coins"] == [] and kept["coins"][0] == [1, 1]
    met, events = play(state, 0, move("0,1"))
    assert met["coins"][0] == [1] and of_type(events, "coin_lost")  # no choice against Drakon


def test_the_knight_is_not_asked_without_coins():
    state = position(rooms={(0, 1): "wishing_well {W,N,E}"}, hero_names=["knight", "dwarf"])
    new, _ = play(state, 0, move("0,1"))
    assert GAME.current_seats(new) == [1]


def test_the_knight_stops_the_thief():
    state = position(
        hero_names=["thief", "knight"],
        heroes=["0,0", "0,0"],
        coins=[[], [1]],
        hands=[["empty"], []],
    )
    assert abilities(state, 0) == [{"type": "ability", "hero": "thief", "target": 1}]
    new, _ = play(state, 0, {"type": "ability", "hero": "thief", "target": 1})
    assert GAME.current_seats(new) == [1]
    kept, _ = play(new, 1, {"type": "protect"})
    assert kept["coins"] == [[], [1]] and kept["abilities_used"] == [True, True]


# Dwarf ---------------------------------------------------------------------------------------


def test_the_dwarf_discards_exactly_two_tiles_under_the_pile_and_draws_two():
    state = position(
        hero_names=["dwarf", "knight"],
        hands=[["empty A1", "rotate A3", "map A3"], []],
        stack=["find_gold A1", "vortex", "gale A3"],
    )
    first, second, third = state["hands"][0]
    new, _ = play(state, 0, {"type": "ability", "hero": "dwarf", "tile": first})
    assert GAME.legal_actions(new, 0) == [
        {"type": "warrior_tile", "tile": second},
        {"type": "warrior_tile", "tile": third},
    ]  # no "done": two tiles, not one
    assert GAME.public_action({"type": "ability", "hero": "dwarf", "tile": first}) == {
        "type": "ability",
        "hero": "dwarf",
        "hidden": ["tile"],
    }
    done, events = play(new, 0, {"type": "warrior_tile", "tile": third})
    top = state["stack"][:2]
    assert sorted(done["hands"][0]) == sorted([second, *top])
    assert done["stack"] == [state["stack"][2], first, third]
    assert of_type(events, "tiles_cycled") == [{"type": "tiles_cycled", "seat": 0, "count": 2}]
    assert GAME.current_seats(done) == [0]  # the action follows


def test_the_dwarf_with_one_tile_discards_it():
    state = position(hero_names=["dwarf", "knight"], hands=[["empty A1"], []], stack=["vortex"])
    tile = state["hands"][0][0]
    new, _ = play(state, 0, {"type": "ability", "hero": "dwarf", "tile": tile})
    assert new["stack"] == [tile] and tiles_of(new)[new["hands"][0][0]][0] == "vortex"


# Barbarian -----------------------------------------------------------------------------------


def test_the_barbarian_pushes_a_hero_along_an_arrow_then_takes_a_random_tile():
    state = position(
        rooms={(0, 1): "find_gold {N}"},
        hero_names=["barbarian", "knight"],
        heroes=["0,0", "0,0"],
        hands=[[], ["rotate A3"]],
    )
    assert abilities(state, 0) == [
        {"type": "ability", "hero": "barbarian", "target": 1, "to": "0,1"}
    ]  # the Start's W and E lead nowhere, S has no arrow
    new, events = play(state, 0, abilities(state, 0)[0])
    assert new["heroes"] == ["0,0", "0,1"] and len(new["coins"][1]) == 1
    assert new["hands"] == [state["hands"][1], []]
    assert [e["type"] for e in events][:3] == ["ability_used", "hero_moved", "coin_found"]
    assert of_type(events, "tile_stolen")[0]["cause"] == "barbarian"
    assert of_type(events, "hero_moved")[0]["cause"] == "barbarian"


def test_the_barbarian_cannot_push_out_of_a_chamber_without_arrows():
    state = position(
        rooms={(0, 1): "vortex {}"},
        hero_names=["barbarian", "knight"],
        heroes=["0,1", "0,1"],
        hands=[["empty"], ["empty"]],
    )
    assert abilities(state, 0) == []


def test_a_push_from_a_gale_is_one_chamber():
    state = position(
        rooms={(0, 1): "gale {W,N,E}", (0, 2): "find_gold {N}", (0, 3): "empty {N}"},
        hero_names=["barbarian", "knight"],
        heroes=["0,1", "0,1"],
        hands=[["empty"], []],
    )
    assert abilities(state, 0) == [
        {"type": "ability", "hero": "barbarian", "target": 1, "to": "0,2"}
    ]


# Wizard --------------------------------------------------------------------------------------


def test_the_wizard_leaves_once_through_a_side_without_an_arrow():
    state = position(
        rooms={(0, 1): "empty {N}", (1, 1): "find_gold {W}"},
        hero_names=["wizard", "knight"],
        heroes=["0,1", "0,0"],
    )
    assert GAME.legal_actions(state, 0) == [
        {"type": "move", "to": "0,0", "power": True},  # even against the Start's arrow
        {"type": "move", "to": "1,1", "power": True},
    ]  # (0,2) is empty: without the ability there is no move
    new, events = play(state, 0, {"type": "move", "to": "1,1", "power": True})
    assert new["heroes"][0] == "1,1" and new["abilities_used"] == [True, False]
    assert len(new["coins"][0]) == 1
    assert of_type(events, "ability_used") == [
        {"type": "ability_used", "seat": 0, "hero": "wizard"}
    ]


# Thief ---------------------------------------------------------------------------------------


def test_the_thief_steals_from_anyone_in_his_chamber_and_never_exchanges():
    state = position(
        3,
        hero_names=["thief", "knight", "dwarf"],
        heroes=["0,0", "0,0", "0,0"],
        coins=[[1], [1], []],
        hands=[["empty"], [], []],
    )
    assert abilities(state, 0) == [{"type": "ability", "hero": "thief", "target": 1}]


def test_the_thief_after_his_action_may_win():
    state = position(
        rooms={(0, 1): "find_gold {N}"},
        hero_names=["thief", "dwarf"],
        heroes=["0,0", "0,1"],
        coins=[[1, 1, 1], [1]],
    )
    new, _ = play(state, 0, move("0,1"))
    assert GAME.legal_actions(new, 0) == [
        {"type": "ability", "hero": "thief", "target": 1},
        {"type": "end_turn"},
    ]
    won, _ = play(new, 0, {"type": "ability", "hero": "thief", "target": 1})
    assert won["end"] == {"reason": "goal", "winners": [0]}


# Amazon --------------------------------------------------------------------------------------


def test_the_amazon_moves_one_more_chamber_and_resolves_both():
    state = position(
        rooms={(0, 1): "find_gold {N}", (0, 2): "find_gold {N}"},
        hero_names=["amazon", "knight"],
    )
    new, _ = play(state, 0, move("0,1"))
    assert abilities(new, 0) == [{"type": "ability", "hero": "amazon", "to": "0,2"}]
    done, events = play(new, 0, abilities(new, 0)[0])
    assert done["heroes"][0] == "0,2" and len(done["coins"][0]) == 2
    assert of_type(events, "hero_moved")[0]["cause"] == "ranger"
    assert GAME.current_seats(done) == [1]


def test_the_amazon_before_her_action_on_a_strong_wind_moves_two():
    state = position(
        rooms={(0, 1): "strong_wind {W,N,E}", (0, 2): "empty {N}", (0, 3): "find_gold {N}"},
        hero_names=["amazon", "knight"],
        heroes=["0,1", "0,0"],
        hands=[["empty"], []],
    )
    assert abilities(state, 0) == [{"type": "ability", "hero": "amazon", "to": "0,3"}]


def test_an_ability_is_used_once_per_game():
    state = position(
        rooms={(0, 1): "find_gold {N}", (0, 2): "find_gold {N}"},
        hero_names=["amazon", "knight"],
        abilities_used=[True, False],
    )
    new, _ = play(state, 0, move("0,1"))
    assert GAME.current_seats(new) == [1]
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, {"type": "ability", "hero": "amazon", "to": "0,1"})
