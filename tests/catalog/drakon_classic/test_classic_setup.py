"""Drakon, first edition: components (C-2), setup (B-3), options, the game object."""

from __future__ import annotations

from collections import Counter

import pytest

from games.catalog.drakon import components as C
from games.catalog.drakon.rules import GAME_CLASSIC as GAME
from games.catalog.drakon.rules import MASKS, tiles_of
from games.engine.base import IllegalAction


def test_the_game_object():
    assert GAME.key == "drakon_classic" and GAME.title == "Drakon (first edition)"
    assert (GAME.min_players, GAME.max_players) == (2, 6)
    assert [option.key for option in GAME.options] == ["heroes", "escape"]


def test_66_tiles_with_the_counts_and_arrows_of_c2():
    tiles = C.tile_list(C.EDITION_1E)
    assert len(tiles) == 66 and tiles[0] == ["start", "A3"]
    rooms = Counter(room for room, _pattern in tiles)
    assert rooms == {
        "start": 1,
        "drakon_moves": 2,
        "master_key": 3,
        "vortex": 3,
        "find_gold": 12,
        "empty": 12,
        **{
            room: 3
            for room in (
                "shift",
                "mind_orb",
                "destroy",
                "drakons_due",
                "steal_left",
                "steal_right",
                "map",
                "rotate",
                "gale",
                "strong_wind",
                "wishing_well",
            )
        },
    }
    patterns = Counter(pattern for _room, pattern in tiles)
    assert patterns == {"A0": 6, "A1": 7, "A2s": 18, "A2c": 16, "A3": 19}
    assert {room for room, pattern in tiles if pattern == "A0"} == {"master_key", "vortex"}
    assert set(rooms) == set(C.ROOMS_1E)  # every room has its names and text


def test_30_coins_all_alike_and_six_characters():
    assert C.coin_list(C.EDITION_1E) == [1] * 30
    assert list(C.HEROES_1E) == ["knight", "dwarf", "barbarian", "wizard", "thief", "amazon"]
    assert C.HEROES_1E["knight"].timing == C.ANY_TIME
    assert C.HEROES_1E["wizard"].timing == C.DURING_MOVE


def test_gale_and_strong_wind_are_keyed_by_their_english_names():
    assert C.ROOMS_1E["gale"].name_pl == "Wichura" and C.EDITION_1E.forced_steps["gale"] == 3
    assert C.ROOMS_1E["strong_wind"].name_pl == "Silny wiatr"
    assert C.EDITION_1E.forced_steps["strong_wind"] == 2
    assert C.ROOMS_4E["whirlwind"].name_pl == "Wichura" and "whirlwind" not in C.ROOMS_1E


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_setup_deals_four_tiles_puts_everyone_on_the_start_and_sets_drakon_aside(n):
    state = GAME.setup(n, {}, f"setup-{n}")
    GAME.check_invariants(state)
    assert state["edition"] == "1e" and state["board"] == {"0,0": [0, 0]}
    assert tiles_of(state)[0] == ["start", "A3"] and MASKS["A3"][0] == 1 | 2 | 8
    assert [len(hand) for hand in state["hands"]] == [4] * n
    assert len(state["stack"]) == 65 - 4 * n and len(state["hoard"]) == 30
    assert state["heroes"] == ["0,0"] * n and state["drakon"] is None
    assert state["start_coins"] == [] and state["coins"] == [[] for _ in range(n)]
    assert state["hero_names"] == list(C.HEROES_1E)[:n] or set(state["hero_names"]) <= set(
        C.HEROES_1E
    )
    assert GAME.current_seats(state) == [state["first_seat"]] and state["turn"] == 1


def test_the_opening_events_show_the_deal_and_the_first_turn():
    state = GAME.setup(3, {}, "opening")
    events = GAME.opening_events(state)
    dealt = [e for e in events if e["type"] == "hand_dealt"]
    assert [e["seat"] for e in dealt] == [(state["first_seat"] + i) % 3 for i in range(3)]
    private = [e for e in events if e["type"] == "tiles_drawn"]
    assert all(e["private_to"] == e["seat"] and len(e["tiles"]) == 4 for e in private)
    assert events[-1] == {"type": "turn_started", "seat": state["first_seat"], "turn": 1}


def test_the_same_seed_gives_the_same_game_and_another_a_different_one():
    assert GAME.setup(4, {}, "a") == GAME.setup(4, {}, "a")
    assert GAME.setup(4, {}, "a")["stack"] != GAME.setup(4, {}, "b")["stack"]


@pytest.mark.parametrize(
    ("n", "options", "message"),
    [
        (1, {}, "Drakon needs 2 to 6 players."),
        (7, {}, "Drakon needs 2 to 6 players."),
        (4, {"team_play": True}, "Unknown option(s): team_play."),
        (3, {"short_game": True}, "Unknown option(s): short_game."),
    ],
)
def test_validate_setup(n, options, message):
    assert GAME.validate_setup(n, options) == message  # no Team play nor Short game here
    with pytest.raises(IllegalAction):
        GAME.setup(n, options, "x")


def test_every_option_combination_is_offered():
    assert (
        GAME.option_matrix(3)
        == [
            {"heroes": False, "escape": False},
            {"heroes": False, "escape": True},
            {"heroes": True, "escape": False},
            {"heroes": True, "escape": True},
        ]
        or len(GAME.option_matrix(3)) == 4
    )
