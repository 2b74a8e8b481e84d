"""The public position builder: positions at a turn's start, chosen rolls, impossible ones refused."""

import pytest

from games.catalog.nogi.builders import build_state, with_roll
from games.catalog.nogi.rules import GAME


def test_a_position_before_the_roll_then_the_turn_starts():
    state = build_state(3, board={"green": 12}, roll=None)
    assert state["roll"] == {}
    started, events = GAME.begin_turn(state)
    assert [e["type"] for e in events] == ["turn_started", "dice_rolled"]
    assert set(started["roll"]) == {
        "yellow",
        "green",
        "orange",
        "purple",
        "blue",
        "pink",
        "black",
        "white",
    }


def test_a_chosen_roll():
    state = with_roll(build_state(3, roll=None), {"green": ("NUM", 3)})
    assert state["roll"]["green"] == {"kind": "NUM", "n": 3}
    assert {"type": "use_die", "die": "green", "knight": "green"} in GAME.legal_actions(state, 0)


def test_a_knight_beside_a_bunny_is_refused():
    with pytest.raises(ValueError, match="green stands by the bunny on 17"):
        build_state(3, board={"green": 17})
    # With the bunny gone (collected by seat 0) the same board is fine.
    state = build_state(
        3, board={"green": 17}, bunnies={21: 2, 25: 1, 30: 1, 36: 2}, collected=[[1], [], []]
    )
    assert state["board"]["green"] == 17


def test_a_lone_knight_on_the_dragons_field_is_refused():
    with pytest.raises(ValueError, match="lone knight"):
        build_state(3, board={"green": 5}, rest=10, dragon=5)
