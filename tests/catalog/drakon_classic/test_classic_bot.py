"""Drakon, first edition: the bot at both levels (legal, repeatable, its first-edition tastes)."""

from __future__ import annotations

import pytest

from games.catalog.drakon.bot import choose
from games.catalog.drakon.builders import build_state
from games.catalog.drakon.rules import GAME_CLASSIC as GAME
from games.engine.rng import Rng


def position(n_players=2, **kwargs):
    return build_state(n_players, edition="1e", **kwargs)


@pytest.mark.parametrize("level", ["random", "heuristic"])
def test_the_bot_chooses_a_legal_action_and_the_same_one_for_the_same_rng(level):
    state = GAME.setup(4, {"heroes": True}, "bot-legal")
    for step in range(40):
        if state["over"]:
            break
        seat = GAME.current_seats(state)[0]
        action = choose(state, seat, Rng.from_seed(f"b{step}"), level)
        assert action in GAME.legal_actions(state, seat)
        assert action == choose(state, seat, Rng.from_seed(f"b{step}"), level)
        state, _ = GAME.apply(state, seat, action)


def test_the_heuristic_bot_walks_into_find_gold_rather_than_a_wishing_well():
    state = position(
        rooms={(0, 1): "find_gold {N}", (1, 0): "wishing_well {N,E}"},
        coins=[[1], []],
    )
    assert choose(state, 0, Rng.from_seed("gold"), "heuristic") == {"type": "move", "to": "0,1"}


def test_the_heuristic_bot_takes_the_start_coin_and_the_knight_protects():
    state = position(rooms={(0, -1): "empty {N}"}, heroes=["0,-1", "0,0"], start_coins=1)
    entered, _ = GAME.apply(state, 0, {"type": "move", "to": "0,0"})
    assert choose(entered, 0, Rng.from_seed("s"), "heuristic") == {"type": "take_coin"}
    state = position(
        rooms={(0, 1): "wishing_well {W,N,E}"},
        options={"heroes": True},
        hero_names=["knight", "dwarf"],
        coins=[[1], []],
    )
    asked, _ = GAME.apply(state, 0, {"type": "move", "to": "0,1"})
    assert choose(asked, 0, Rng.from_seed("k"), "heuristic") == {"type": "protect"}


def test_the_heuristic_bot_with_four_coins_escapes_through_a_vortex():
    state = position(
        rooms={(0, 1): "vortex {}", (1, 0): "find_gold {E}"},
        coins=[[1] * 4, []],
        options={"escape": True},
    )
    assert choose(state, 0, Rng.from_seed("e"), "heuristic") == {"type": "move", "to": "0,1"}
