"""Drakon, first edition: the Escape variant as this edition words it (B-8, D-10) and the end
when nobody can act (B-4, D-12)."""

from __future__ import annotations

import copy

from games.catalog.drakon.builders import build_state, start_next_turn
from games.catalog.drakon.rules import GAME_CLASSIC as GAME
from games.engine.base import IllegalAction

ESCAPE = {"escape": True}


def position(n_players=2, **kwargs):
    return build_state(n_players, edition="1e", **kwargs)


def play(state, seat, action):
    GAME.check_invariants(state)
    before = copy.deepcopy(state)
    new, events = GAME.apply(state, seat, action)
    assert state == before
    GAME.check_invariants(new)
    return new, events


def move(to):
    return {"type": "move", "to": to}


# Escape from Drakon's lair (B-8) --------------------------------------------------------------


def test_four_coins_then_a_master_key_escapes():
    state = position(rooms={(0, 1): "master_key {}"}, coins=[[1] * 4, []], options=ESCAPE)
    new, events = play(state, 0, move("0,1"))
    assert new["end"] == {"reason": "escape", "winners": [0]}
    assert [e for e in events if e["type"] == "escaped"] == [
        {"type": "escaped", "seat": 0, "at": "0,1"}
    ]
    assert GAME.view(new, None)["result"]["ranks"] == [1, 2]


def test_four_coins_then_a_vortex_escapes():
    state = position(rooms={(0, 1): "vortex {}"}, coins=[[1] * 4, []], options=ESCAPE)
    new, _ = play(state, 0, move("0,1"))
    assert new["end"] == {"reason": "escape", "winners": [0]}


def test_three_coins_do_not_escape():
    state = position(
        rooms={(0, 1): "master_key {}"}, coins=[[1] * 3, []], options=ESCAPE, hands=[[], ["empty"]]
    )
    new, _ = play(state, 0, move("0,1"))
    assert not new["over"] and GAME.current_seats(new) == [1]


def test_the_five_coin_win_is_off_in_the_escape_variant():
    state = position(rooms={(0, 1): "find_gold {N}"}, coins=[[1] * 4, []], options=ESCAPE)
    new, _ = play(state, 0, move("0,1"))
    assert len(new["coins"][0]) == 5 and not new["over"]
    assert GAME.view(new, 0)["goal"] == {
        "gold": None,
        "escape_gold": 4,
        "escape_rooms": ["master_key", "vortex"],
    }


def test_standing_on_the_key_when_the_fourth_coin_comes_is_not_escaping():
    state = position(
        rooms={(0, 1): "master_key {}", (1, 1): "find_gold {E}", (2, 1): "empty {N}"},
        heroes=["0,1", "0,0"],
        coins=[[1] * 3, []],
        options=ESCAPE,
        hands=[[], ["empty"]],
    )
    new, _ = play(state, 0, move("1,1"))
    assert len(new["coins"][0]) == 4 and not new["over"]


def test_a_gale_passing_a_master_key_does_not_escape():
    state = position(
        rooms={
            (0, 1): "gale {W,N,E}",
            (0, 2): "master_key {}",
            (1, 2): "empty {E}",
            (2, 2): "empty {N}",
        },
        heroes=["0,1", "0,0"],
        coins=[[1] * 4, []],
        options=ESCAPE,
        hands=[[], ["empty"]],
    )
    new, _ = play(state, 0, move("2,2"))
    assert not new["over"]


# Nobody can act (B-4, D-12) ---------------------------------------------------------------------


def test_the_game_ends_when_nobody_can_place_or_move_and_most_coins_win():
    state = position(3, coins=[[1], [1, 1], []], stack=[], decision=False, active=2)
    new, events = start_next_turn(state)
    assert new["over"] and new["end"] == {"reason": "blocked", "winners": [1]}
    assert GAME.result(new).ranks == [2, 1, 3]
    assert events[-1]["type"] == "game_over" and events[-1]["gold"] == [1, 2, 0]
    assert GAME.view(new, None)["revealed"] == {"coins": [[1], [1, 1], []]}
    try:
        GAME.apply(new, 0, move("0,1"))
    except IllegalAction as error:
        assert error.message == "The game is over."
    else:
        raise AssertionError("a finished game accepted an action")


def test_tied_players_share_the_win():
    state = position(3, coins=[[1], [1], []], stack=[], decision=False, active=2)
    new, _ = start_next_turn(state)
    assert new["end"]["winners"] == [0, 1] and GAME.result(new).ranks == [1, 1, 3]


def test_a_player_who_cannot_act_loses_the_turn_while_others_can():
    state = position(
        rooms={(0, 1): "find_gold {N}"},
        heroes=["0,1", "0,0"],
        hands=[[], []],
        decision=False,
        active=1,
    )
    new, events = start_next_turn(state)
    assert [e["type"] for e in events] == ["turn_started", "turn_skipped", "turn_started"]
    assert GAME.current_seats(new) == [1]
