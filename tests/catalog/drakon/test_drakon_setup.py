"""Drakon: components (A-1, C-0, C-1) and setup (A-3)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from games.catalog.drakon import components as C
from games.catalog.drakon.builders import parse_spec
from games.catalog.drakon.rules import DISTINCT, GAME, MASKS, arrows_of, mask_of, rotate_mask

E4 = C.EDITIONS["4e"]


# Components -----------------------------------------------------------------------------------


def test_c1_seventy_two_tiles_with_the_rulebook_counts():
    tiles = C.tile_list(E4)
    assert len(tiles) == 72
    assert tiles[0] == ["entrance", "A3"]
    counts = Counter(room for room, _pattern in tiles)
    assert counts == {
        "entrance": 1,
        "find_coin": 15,
        "drakon_moves": 4,
        "empty": 10,
        "master_key": 3,
        "portal": 3,
        **{
            room: 3
            for room in (
                "destroy",
                "escape",
                "floating",
                "lose_coin",
                "harp",
                "mind_control",
                "rotate",
                "steal_left",
                "steal_right",
                "steal_tile",
                "swap",
                "whirlwind",
            )
        },
    }
    assert set(counts) == set(E4.rooms)


def test_c1_arrow_pattern_totals():
    patterns = Counter(pattern for _room, pattern in C.tile_list(E4))
    assert patterns == {"A0": 6, "A1": 7, "A2s": 19, "A2c": 19, "A3": 21}
    assert {pattern for room, pattern in C.tile_list(E4) if room in ("master_key", "portal")} == {
        "A0"
    }


def test_a1_coins():
    coins = C.coin_list(E4)
    assert len(coins) == 28 and sum(coins) == 56
    assert Counter(coins) == {1: 5, 2: 18, 3: 5}


def test_a12_six_heroes():
    assert list(E4.heroes) == ["knight", "warrior", "ranger", "sorceress", "druid", "thief"]
    assert {hero.timing for hero in E4.heroes.values()} == {
        C.BEFORE_OR_AFTER,
        C.DURING_MOVE,
        C.ANY_TIME,
    }


def test_every_room_has_a_trigger_matching_the_aid():
    triggers = {key: room.trigger for key, room in E4.rooms.items()}
    assert triggers["escape"] == C.ON_PLACE
    assert {k for k, t in triggers.items() if t == C.ON_LEAVE} == {
        "master_key",
        "portal",
        "whirlwind",
    }
    assert triggers["harp"] == C.PASSIVE
    assert {k for k, r in E4.rooms.items() if r.optional} == {
        "drakon_moves",
        "escape",
        "floating",
        "master_key",
        "portal",
    }


# Arrows and rotation (C-0) ----------------------------------------------------------------------


def test_c0_rotation_turns_clockwise():
    assert arrows_of(rotate_mask(mask_of("N"), 1)) == ["E"]
    assert arrows_of(rotate_mask(mask_of("N"), 3)) == ["W"]
    assert arrows_of(MASKS["A3"][1]) == ["N", "E", "S"]
    assert arrows_of(MASKS["A2c"][2]) == ["S", "W"]


def test_c0_distinct_rotations():
    assert {pattern: len(rots) for pattern, rots in DISTINCT.items()} == {
        "A0": 1,
        "A1": 4,
        "A2s": 2,
        "A2c": 4,
        "A3": 4,
        "A4": 1,
    }


def test_spec_notation_parses_to_pattern_and_rotation():
    assert parse_spec("empty {W}") == ("empty", "A1", 3)
    assert parse_spec("floating {E,W}") == ("floating", "A2s", 1)
    assert parse_spec("portal {}") == ("portal", "A0", 0)
    assert parse_spec("find_coin A2c") == ("find_coin", "A2c", None)
    assert parse_spec(("harp", "NS")) == ("harp", "A2s", 0)


# Setup (A-3) -----------------------------------------------------------------------------------


@pytest.mark.parametrize("n_players", [2, 3, 4, 5, 6])
def test_a3_setup(n_players):
    state = GAME.setup(n_players, {}, f"setup-{n_players}")
    GAME.check_invariants(state)
    assert json.loads(json.dumps(state)) == state
    assert state["board"] == {"0,0": [0, 0]}
    assert state["heroes"] == ["0,0"] * n_players
    assert [len(hand) for hand in state["hands"]] == [4] * n_players
    assert len(state["stack"]) == 71 - 4 * n_players
    assert len(state["hoard"]) == 28 and state["coins"] == [[]] * n_players
    assert state["drakon"] is None
    assert GAME.current_seats(state) == [state["first_seat"]]
    assert state["turn"] == 1 and state["active"] == state["first_seat"]


def test_setup_is_determined_by_the_seed():
    assert GAME.setup(4, {}, "same") == GAME.setup(4, {}, "same")
    firsts = {GAME.setup(4, {}, f"seed-{i}")["first_seat"] for i in range(40)}
    assert firsts == {0, 1, 2, 3}
    stacks = {tuple(GAME.setup(4, {}, f"seed-{i}")["stack"]) for i in range(5)}
    assert len(stacks) == 5


def test_team_setup_has_one_pool_per_team():
    state = GAME.setup(6, {"team_play": True}, "teams")
    assert state["coins"] == [[], [], []]
    assert GAME.view(state, 4)["heroes"][4]["pool"] == 1


def test_opening_events_describe_the_deal_and_first_turn():
    state = GAME.setup(3, {}, "opening")
    events = GAME.opening_events(state)
    first = state["first_seat"]
    assert [e["type"] for e in events if "private_to" not in e] == [
        "hand_dealt",
        "hand_dealt",
        "hand_dealt",
        "turn_started",
    ]
    assert events[0] == {"type": "hand_dealt", "seat": first, "count": 4}
    private = [e for e in events if "private_to" in e]
    assert [e["private_to"] for e in private] == [first, (first + 1) % 3, (first + 2) % 3]
    assert private[0]["tiles"] == state["hands"][first]
    assert GAME.opening_events(GAME.setup(3, {"heroes": True}, "opening")) == []


def test_game_object_contract():
    assert GAME.key == "drakon" and GAME.title == "Drakon (fourth edition)"
    assert GAME.rules_version == 2 and GAME.old_rules_versions == (1,)
    assert (GAME.min_players, GAME.max_players) == (2, 6)
    assert [option.key for option in GAME.options] == [
        "heroes",
        "escape",
        "short_game",
        "team_play",
    ]
    assert all(option.default is False for option in GAME.options)
