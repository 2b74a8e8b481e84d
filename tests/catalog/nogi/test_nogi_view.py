"""Nogi za pas!: hidden information (A.4, A.9, C.20; architecture "Hidden information").

Secrecy is tested as non-interference: changing any secret a seat must not
know (other seats' shields and bunny values, bunny values still on the board,
the dragon stack, the PRNG) must leave that seat's view byte-for-byte equal.
"""

from __future__ import annotations

import json

import pytest

from games.catalog.nogi import components as C
from games.catalog.nogi.builders import build_state
from games.catalog.nogi.rules import GAME
from games.engine.rng import Rng


def perturb_secrets(state, keep_seat):
    """A copy where every secret hidden from ``keep_seat`` (None: spectator) has changed."""
    other = json.loads(json.dumps(state))
    n = other["n_players"]
    others = [seat for seat in range(n) if seat != keep_seat]
    dealt = {index for shields in other["shields"] for index in shields}
    unused = [index for index in range(len(C.SHIELDS)) if index not in dealt]
    pool = [index for seat in others for index in other["shields"][seat]] + unused
    rotated = pool[1:] + pool[:1]
    for seat in others:
        count = len(other["shields"][seat])
        other["shields"][seat], rotated = rotated[:count], rotated[count:]
    for seat in others:
        other["collected"][seat] = [3 - value for value in other["collected"][seat]]
    other["bunnies"] = {field: 3 - value for field, value in other["bunnies"].items()}
    other["dragon_stack"] = [11 - token for token in reversed(other["dragon_stack"])]
    other["rng"] = Rng.from_seed("another secret").dump()
    return other


def mid_game_states(n_players, seed, every=3):
    state = GAME.setup(n_players, {}, seed)
    rng = Rng.from_seed("walk:" + seed)
    step = 0
    while not state["over"]:
        if step % every == 0:
            yield state
        legal = GAME.legal_actions(state, state["active"])
        state, _ = GAME.apply(state, state["active"], rng.choice(legal))
        step += 1


def test_view_shows_own_secrets_only():
    state = build_state(
        3,
        shields=[[0], [1], [3]],
        bunnies={21: 2, 25: 1, 30: 1},
        collected=[[2], [1], []],
        roll={"green": ("NUM", 3)},
    )
    view = GAME.view(state, 0)
    assert view["me"] == {
        "seat": 0,
        "shield_ids": [1],
        "shields": [["yellow", "green", "purple"]],
        "bunny_values": [2],
        "bunny_points": 2,
    }
    assert view["bunnies_collected"] == [1, 1, 0]
    assert view["bunny_fields"] == [21, 25, 30]
    assert view["dragon_tokens_left"] == 8
    assert view["dragon_revealed"] == []
    assert view["viewer"] == 0 and view["active"] == 0
    assert view["roll"]["green"] == {"kind": "NUM", "n": 3}
    assert "result" not in view and "revealed" not in view
    for hidden in ["rng", "dragon_stack", "shields", "collected", "bunnies"]:
        assert hidden not in view
    assert state["rng"] not in json.dumps(view)


def test_spectator_sees_no_secret():
    state = build_state(3, roll={"green": ("NUM", 3)})
    view = GAME.view(state, None)
    assert view["me"] is None and view["viewer"] is None
    assert GAME.view(state, 7)["me"] is None  # not a seat: treated as a spectator


def test_public_part_of_the_view():
    state = build_state(
        4,
        board={"yellow": 12, "green": 12, "orange": 14, "purple": 20, "pink": 22},
        castle=["blue"],
        defeated=["black"],
        dragon=12,
        dragon_stack=[6, 7, 8],
        aside=["orange"],
        roll={"white": "PLUS"},
        active=2,
    )
    view = GAME.view(state, 1)
    assert view["board"] == {"yellow": 12, "green": 12, "orange": 14, "purple": 20, "pink": 22}
    assert view["dragon"] == 12
    assert view["castle"] == [["blue"]] and view["defeated"] == ["black"]
    assert view["castle_points"] == [0, 5, 3, 2]
    assert view["dice"]["orange"] == "aside" and view["dice"]["blue"] == "boxed"
    assert view["dice"]["black"] == "boxed" and view["dice"]["white"] == "pool"
    assert sorted(view["roll"]) == ["green", "pink", "purple", "white", "yellow"]
    assert view["dragon_tokens_left"] == 3
    assert sorted(view["dragon_revealed"]) == [3, 4, 5, 5, 6]
    assert view["active"] == 2 and view["n_players"] == 4
    assert view["over"] is False


@pytest.mark.parametrize("n_players", [2, 3, 5, 7])
def test_views_do_not_depend_on_hidden_information(n_players):
    checked = 0
    for state in mid_game_states(n_players, f"secrecy-{n_players}"):
        for seat in [None, *range(n_players)]:
            other = perturb_secrets(state, seat)
            assert other != state
            mine = json.dumps(GAME.view(state, seat), sort_keys=True)
            theirs = json.dumps(GAME.view(other, seat), sort_keys=True)
            assert mine == theirs, f"seat {seat} can see a secret"
            checked += 1
    assert checked > 20


def test_own_secrets_do_change_the_own_view():
    state = build_state(3, collected=[[1], [], []], bunnies={21: 2, 25: 1, 30: 1, 36: 2}, roll={})
    other = perturb_secrets(state, keep_seat=1)  # seat 0's secrets change
    assert GAME.view(state, 0) != GAME.view(other, 0)
    assert GAME.view(state, 1) == GAME.view(other, 1)


def test_private_events_carry_the_bunny_value_only_for_its_owner():
    for n_players in range(2, 8):
        state = GAME.setup(n_players, {}, f"events-{n_players}")
        rng = Rng.from_seed(f"events-walk-{n_players}")
        while not state["over"]:
            seat = state["active"]
            legal = GAME.legal_actions(state, seat)
            state, events = GAME.apply(state, seat, rng.choice(legal))
            for event in events:
                if event["type"] == "bunny_value":
                    assert event["private_to"] == event["seat"]
                else:
                    assert "private_to" not in event
                    assert "value" not in event
                    assert "shields" not in json.dumps(event)


def test_final_view_reveals_everything_but_the_prng():
    state = build_state(
        3,
        shields=[[0], [1], [3]],
        castle=["blue", "yellow", "green", "orange"],
        board={"purple": 20, "pink": 22, "black": 24},
        bunnies={30: 1},
        collected=[[1, 2], [1], [2]],
        dragon_stack=[3, 8],
        check=False,
    )
    state.update(over=True, active=None, roll={}, end_reason="castle_full")
    view = GAME.view(state, 2)
    assert view["result"]["scores"] == [11, 6, 2]
    assert view["result"]["ranks"] == [1, 2, 3]
    assert view["revealed"]["shields"] == [
        [["yellow", "green", "purple"]],
        [["green", "orange", "blue"]],
        [["purple", "blue", "black"]],
    ]
    assert view["revealed"]["bunny_values"] == [[1, 2], [1], [2]]
    assert view["revealed"]["bunnies_left"] == {"30": 1}
    assert view["revealed"]["dragon_stack"] == [3, 8]
    assert "rng" not in view and state["rng"] not in json.dumps(view)
