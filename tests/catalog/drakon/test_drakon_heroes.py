"""Drakon: the optional rule Heroes! (A-3 step 5, A-12, D-15..D-20, D-26; E-30, E-33)."""

from __future__ import annotations

import copy

import pytest

from games.catalog.drakon.builders import build_state
from games.catalog.drakon.rules import GAME
from games.engine.base import IllegalAction

HEROES = {"heroes": True}


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


# Choosing heroes ------------------------------------------------------------------------------


def test_heroes_are_chosen_in_turn_order_then_hands_are_dealt():
    state = GAME.setup(3, HEROES, "choose")
    first = state["first_seat"]
    order = [(first + i) % 3 for i in range(3)]
    assert state["hands"] == [[], [], []] and state["turn"] == 0
    for index, seat in enumerate(order):
        assert GAME.current_seats(state) == [seat]
        legal = GAME.legal_actions(state, seat)
        assert len(legal) == 6 - index
        pick = ["thief", "druid", "knight"][index]
        assert {"type": "choose_hero", "hero": pick} in legal
        state, events = play(state, seat, {"type": "choose_hero", "hero": pick})
        assert of_type(events, "hero_chosen") == [
            {"type": "hero_chosen", "seat": seat, "hero": pick}
        ]
    assert [state["hero_names"][seat] for seat in order] == ["thief", "druid", "knight"]
    assert [len(hand) for hand in state["hands"]] == [4, 4, 4]
    assert of_type(events, "hand_dealt") and GAME.current_seats(state) == [first]
    assert state["turn"] == 1


def test_a_taken_hero_cannot_be_chosen_again():
    state = GAME.setup(2, HEROES, "taken")
    first = state["first_seat"]
    state, _ = play(state, first, {"type": "choose_hero", "hero": "ranger"})
    with pytest.raises(IllegalAction, match="still available"):
        GAME.apply(state, 1 - first, {"type": "choose_hero", "hero": "ranger"})


def test_without_heroes_the_figures_are_assigned_and_abilities_are_off():
    state = GAME.setup(2, {}, "plain")
    assert all(state["hero_names"]) and len(set(state["hero_names"])) == 2
    assert [len(hand) for hand in state["hands"]] == [4, 4]
    plain = build_state(2, rooms={(0, 1): "find_coin {N}"}, hero_names=["ranger", "thief"])
    assert not abilities(plain, 0)


# E-30 Knight ----------------------------------------------------------------------------------


def e30_state(**extra):
    return build_state(
        2,
        rooms={(0, 1): "find_coin {N}", (1, 0): "lose_coin {E}"},
        hero_names=["knight", "warrior"],
        coins=[[], [2]],
        hands=[["empty A1"], ["portal"]],
        options=HEROES,
        **extra,
    )


def test_e30_the_knight_forces_a_move_then_takes_a_random_tile():
    state = e30_state()
    x_tile = state["hands"][1][0]
    assert abilities(state, 0) == [
        {"type": "ability", "hero": "knight", "target": 1, "to": "0,1"},
        {"type": "ability", "hero": "knight", "target": 1, "to": "1,0"},
    ]
    new, events = play(state, 0, {"type": "ability", "hero": "knight", "target": 1, "to": "1,0"})
    assert new["heroes"][1] == "1,0"
    assert new["coins"][1] == [] and new["hoard"][-1] == 2
    assert new["hands"][1] == [] and x_tile in new["hands"][0]
    assert new["abilities_used"] == [True, False]
    assert [e["type"] for e in events][:3] == ["ability_used", "hero_moved", "coin_lost"]
    assert of_type(events, "tile_stolen")[0]["cause"] == "knight"
    # A then takes its normal action (the ability is gone).
    assert GAME.current_seats(new) == [0]
    assert not abilities(new, 0)
    assert {a["type"] for a in GAME.legal_actions(new, 0)} == {"place", "move"}


def test_the_knight_may_act_after_the_action_and_the_turn_then_ends():
    state = build_state(
        2,
        rooms={(0, 1): "master_key {}", (1, 0): "lose_coin {E}"},
        hero_names=["knight", "warrior"],
        heroes=["0,1", "0,0"],
        coins=[[], [2]],
        hands=[[], ["portal", "empty A1"]],
        options=HEROES,
    )
    new, _ = play(state, 0, move("0,0"))
    assert GAME.current_seats(new) == [0]
    assert GAME.legal_actions(new, 0)[-1] == {"type": "end_turn"}
    done, _ = play(new, 0, {"type": "ability", "hero": "knight", "target": 1, "to": "1,0"})
    assert GAME.current_seats(done) == [1]
    ended, events = play(new, 0, {"type": "end_turn"})
    assert GAME.current_seats(ended) == [1] and not ended["abilities_used"][0]


def test_the_knight_needs_an_enemy_with_a_legal_move_in_the_same_chamber():
    alone = build_state(
        2,
        rooms={(0, 1): "find_coin {N}"},
        heroes=["0,0", "0,1"],
        hero_names=["knight", "thief"],
        options=HEROES,
    )
    assert not abilities(alone, 0)
    team = build_state(
        4,
        rooms={(0, 1): "find_coin {N}"},
        hero_names=["knight", "thief", "ranger", "druid"],
        options={"heroes": True, "team_play": True},
    )
    assert {a["target"] for a in abilities(team, 0)} == {1, 3}  # not the partner, seat 2


# Warrior --------------------------------------------------------------------------------------


def warrior_state(hand, stack):
    return build_state(
        2,
        hero_names=["warrior", "thief"],
        hands=[hand, []],
        stack=stack,
        options=HEROES,
        rooms={(0, 1): "find_coin {N}"},
    )


def test_the_warrior_puts_chosen_tiles_under_the_pile_and_draws_as_many():
    state = warrior_state(["lose_coin A3", "empty A1", "portal"], ["find_coin A1", "find_coin A2s"])
    lose, empty, portal = state["hands"][0]
    top = list(state["stack"])
    new, _ = play(state, 0, {"type": "ability", "hero": "warrior", "tile": lose})
    assert GAME.current_seats(new) == [0]
    assert GAME.legal_actions(new, 0) == [
        {"type": "warrior_tile", "tile": empty},
        {"type": "warrior_tile", "tile": portal},
        {"type": "warrior_done"},
    ]
    new, _ = play(new, 0, {"type": "warrior_tile", "tile": empty})
    done, events = play(new, 0, {"type": "warrior_done"})
    assert done["hands"][0] == [portal, *top]
    assert done["stack"] == [lose, empty]
    assert of_type(events, "tiles_cycled") == [{"type": "tiles_cycled", "seat": 0, "count": 2}]
    detail = of_type(events, "tiles_cycled_detail")[0]
    assert detail["private_to"] == 0 and detail["under"] == [lose, empty] and detail["tiles"] == top
    assert GAME.current_seats(done) == [0]  # then the normal action
    assert done["abilities_used"] == [True, False]


def test_the_warrior_with_a_short_pile_draws_her_own_tiles_back():
    state = warrior_state(["lose_coin A3", "empty A1"], ["find_coin A1"])
    lose, empty = state["hands"][0]
    top = state["stack"][0]
    new, _ = play(state, 0, {"type": "ability", "hero": "warrior", "tile": lose})
    done, _ = play(new, 0, {"type": "warrior_tile", "tile": empty})  # whole hand: finishes
    assert done["hands"][0] == [top, lose] and done["stack"] == [empty]


# Ranger ---------------------------------------------------------------------------------------


def test_the_ranger_moves_twice_in_one_turn():
    state = build_state(
        2,
        rooms={(0, 1): "find_coin {N}", (0, 2): "find_coin {N}"},
        hero_names=["ranger", "thief"],
        hoard=[1, 1],
        options=HEROES,
    )
    assert abilities(state, 0) == [{"type": "ability", "hero": "ranger", "to": "0,1"}]
    new, _ = play(state, 0, move("0,1"))
    assert GAME.legal_actions(new, 0) == [
        {"type": "ability", "hero": "ranger", "to": "0,2"},
        {"type": "end_turn"},
    ]
    done, events = play(new, 0, {"type": "ability", "hero": "ranger", "to": "0,2"})
    assert done["heroes"][0] == "0,2" and done["coins"][0] == [1, 1]
    assert of_type(events, "hero_moved")[0]["cause"] == "ranger"
    assert GAME.current_seats(done) == [1]


def test_the_ranger_before_her_action_and_no_action_left_ends_the_turn():
    state = build_state(
        2,
        rooms={(0, 1): "find_coin {N}"},
        hero_names=["ranger", "thief"],
        options=HEROES,
    )
    new, events = play(state, 0, {"type": "ability", "hero": "ranger", "to": "0,1"})
    assert of_type(events, "no_action") == [{"type": "no_action", "seat": 0}]
    assert GAME.current_seats(new) == [1]


# E-33 Sorceress -------------------------------------------------------------------------------


def test_e33a_the_sorceress_ignores_arrows_once():
    state = build_state(
        2,
        rooms={(0, 1): "empty {N}", (1, 1): "empty {W}"},
        heroes=["0,1", "0,0"],
        hero_names=["sorceress", "thief"],
        options=HEROES,
    )
    assert GAME.legal_actions(state, 0) == [
        {"type": "move", "to": "0,0", "power": True},
        {"type": "move", "to": "1,1", "power": True},
    ]
    new, events = play(state, 0, {"type": "move", "to": "1,1", "power": True})
    assert new["heroes"][0] == "1,1" and new["abilities_used"][0]
    assert of_type(events, "ability_used") == [
        {"type": "ability_used", "seat": 0, "hero": "sorceress"}
    ]
    assert of_type(events, "hero_moved")[0]["cause"] == "power"
    without = build_state(
        2, rooms={(0, 1): "empty {N}", (1, 1): "empty {W}"}, heroes=["0,1", "0,0"]
    )
    assert GAME.legal_actions(without, 0) == []  # (no tiles, no move: would be skipped)


def test_e33b_the_sorceress_cannot_avoid_a_harp():
    state = build_state(
        2,
        rooms={
            (0, 1): "empty {N,E}",
            (1, 1): "harp {N,S}",
            (-1, 1): "empty {W}",
            (0, 2): "find_coin {N}",
        },
        heroes=["0,1", "0,0"],
        hero_names=["sorceress", "thief"],
        options=HEROES,
    )
    assert GAME.legal_actions(state, 0) == [{"type": "move", "to": "1,1"}]


def test_the_sorceress_frees_only_the_first_step_of_a_whirlwind():
    state = build_state(
        2,
        rooms={
            (0, 1): "whirlwind {N}",
            (0, 2): "empty {E}",  # normal path: ends at (1,2)
            (1, 2): "empty {N}",
            (1, 1): "empty {N}",  # sorceress first step east; second step N is (1,2)
            (-1, 1): "empty {W}",  # first step west leads nowhere: no complete path
        },
        heroes=["0,1", "0,0"],
        hero_names=["sorceress", "thief"],
        options=HEROES,
    )
    moves = [(a["to"], a.get("power", False)) for a in GAME.legal_actions(state, 0)]
    assert moves == [("1,2", False)]  # (1,1)->(1,2) is the same final chamber
    state2 = build_state(
        2,
        rooms={
            (0, 1): "whirlwind {N}",
            (0, 2): "empty {N}",
            (0, 3): "empty {N}",
            (1, 1): "empty {E}",
            (2, 1): "empty {N}",
        },
        heroes=["0,1", "0,0"],
        hero_names=["sorceress", "thief"],
        options=HEROES,
    )
    moves = [(a["to"], a.get("power", False)) for a in GAME.legal_actions(state2, 0)]
    assert moves == [("0,3", False), ("2,1", True)]


# Druid ----------------------------------------------------------------------------------------


def druid_state(**extra):
    extra.setdefault("hero_names", ["druid", "thief"])
    extra.setdefault("coins", [[2], [3]])
    return build_state(2, options=HEROES, **extra)


def test_the_druid_may_ignore_a_lose_a_coin():
    state = druid_state(rooms={(0, 1): "lose_coin {N}"})
    new, _ = play(state, 0, move("0,1"))
    assert GAME.current_seats(new) == [0]
    assert GAME.legal_actions(new, 0) == [{"type": "protect"}, {"type": "skip"}]
    assert GAME.view(new, 1)["pending"] == {
        "kind": "druid",
        "seat": 0,
        "cause": "lose_coin",
        "by": None,
        "victim": 0,
    }
    safe, events = play(new, 0, {"type": "protect"})
    assert safe["coins"][0] == [2] and safe["abilities_used"][0]
    assert of_type(events, "ability_used")[0]["cause"] == "lose_coin"
    lost, _ = play(new, 0, {"type": "skip"})
    assert lost["coins"][0] == [] and not lost["abilities_used"][0]


def test_the_druid_decides_out_of_turn_when_a_coin_is_stolen_from_her():
    state = druid_state(
        rooms={(0, 1): "steal_left {N}"}, hero_names=["thief", "druid"], coins=[[], [3]]
    )
    new, _ = play(state, 0, move("0,1"))
    assert GAME.current_seats(new) == [1]
    assert GAME.legal_actions(new, 0) == []
    safe, _ = play(new, 1, {"type": "protect"})
    assert safe["coins"] == [[], [3]]  # the stealer gains nothing
    assert GAME.current_seats(safe) == [1]  # and play goes on: seat 1's own turn
    robbed, _ = play(new, 1, {"type": "skip"})
    assert robbed["coins"] == [[3], []]


def test_the_druid_is_not_asked_without_coins_nor_against_drakon():
    poor = druid_state(rooms={(0, 1): "lose_coin {N}"}, coins=[[], []])
    new, _ = play(poor, 0, move("0,1"))
    assert GAME.current_seats(new) == [1]
    dragon = druid_state(rooms={(0, 1): "find_coin {N}"}, drakon="0,1", hoard=[])
    new, _ = play(dragon, 0, move("0,1"))
    assert new["coins"][0] == [] and GAME.current_seats(new) == [1]


def test_the_druid_cancels_a_thief_steal_and_the_thief_card_is_spent():
    state = druid_state(
        hero_names=["thief", "druid"], coins=[[], [3]], rooms={(0, 1): "find_coin {N}"}
    )
    steal = {"type": "ability", "hero": "thief", "target": 1}
    assert steal in abilities(state, 0)
    new, _ = play(state, 0, steal)
    assert GAME.current_seats(new) == [1]
    safe, _ = play(new, 1, {"type": "protect"})
    assert safe["coins"] == [[], [3]] and safe["abilities_used"] == [True, True]
    assert GAME.current_seats(safe) == [0]  # the thief now takes the action


def test_a_druid_moved_by_mind_control_into_lose_a_coin_decides_herself():
    state = druid_state(
        hero_names=["thief", "druid"],
        coins=[[], [3]],
        rooms={(0, 1): "mind_control {N}", (1, 0): "lose_coin {E}"},
    )
    new, _ = play(state, 0, move("0,1"))
    new, _ = play(new, 0, {"type": "mind_control", "target": 1, "to": "1,0"})
    assert GAME.current_seats(new) == [1]
    assert GAME.legal_actions(new, 1) == [{"type": "protect"}, {"type": "skip"}]


# Thief ----------------------------------------------------------------------------------------


def test_the_thief_steals_from_an_enemy_in_the_same_chamber():
    state = build_state(
        3,
        rooms={(0, 1): "find_coin {N}"},
        hero_names=["thief", "knight", "ranger"],
        heroes=["0,0", "0,0", "0,1"],
        coins=[[], [2], [3]],
        hoard=[1],
        options=HEROES,
    )
    assert abilities(state, 0) == [
        {"type": "ability", "hero": "thief", "target": 1},
    ]  # seat 2 is elsewhere; no exchange without coins of her own
    new, events = play(state, 0, {"type": "ability", "hero": "thief", "target": 1})
    assert new["coins"] == [[2], [], [3]]
    assert of_type(events, "coin_stolen")[0]["cause"] == "thief"


def test_the_thief_exchanges_a_chosen_coin_for_a_random_one_and_may_win():
    state = build_state(
        2,
        rooms={(0, 1): "find_coin {N}"},
        hero_names=["thief", "knight"],
        heroes=["0,0", "0,1"],
        coins=[[1, 3, 3, 2], []],
        hoard=[3],
        options=HEROES,
    )
    assert abilities(state, 0) == [
        {"type": "ability", "hero": "thief", "coin": 1},
        {"type": "ability", "hero": "thief", "coin": 2},
        {"type": "ability", "hero": "thief", "coin": 3},
    ]
    new, events = play(state, 0, {"type": "ability", "hero": "thief", "coin": 1})
    assert sorted(new["coins"][0]) == [2, 3, 3, 3] and new["hoard"] == [1]
    assert new["end"] == {"reason": "goal", "winners": [0]}
    detail = of_type(events, "coin_exchanged_value")[0]
    assert detail == {
        "type": "coin_exchanged_value",
        "seat": 0,
        "gave": 1,
        "got": 3,
        "private_to": 0,
    }


def test_an_ability_is_used_once_per_game():
    state = build_state(
        2,
        rooms={(0, 1): "find_coin {N}", (0, 2): "find_coin {N}", (0, 3): "empty {N}"},
        hero_names=["ranger", "thief"],
        hands=[[], ["empty A1"]],
        options=HEROES,
    )
    new, _ = play(state, 0, {"type": "ability", "hero": "ranger", "to": "0,1"})
    assert not abilities(new, 0)
    new, _ = play(new, 0, move("0,2"))
    assert GAME.current_seats(new) == [1]  # no after-action window: the card is spent
