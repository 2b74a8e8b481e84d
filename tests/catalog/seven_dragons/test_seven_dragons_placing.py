"""Spec A.4-A.6: where a dragon card may go, and the bonus for connecting colours.

D-05, D-07, D-09, D-11, D-13, D-15, D-17, C-15 and C-30.
"""

from __future__ import annotations

import pytest

from games.catalog.seven_dragons.builders import position
from games.engine.base import IllegalAction
from tests.catalog.seven_dragons.helpers import place, placement_actions, types


def test_d05_first_placements_touch_the_silver_dragon_edge_to_edge():
    state = position(hands=[["DR-S-black"], ["DR-S-red"]])
    spots = placement_actions(state, 0, "DR-S-black")
    assert spots == {("1,0", 0), ("-1,0", 0), ("0,1", 0), ("0,-1", 0)}
    for bad in ("1,1", "2,0"):  # corner only; not adjacent
        with pytest.raises(IllegalAction):
            place(state, 0, "DR-S-black", bad)


def test_a4_an_occupied_cell_is_refused_and_the_grid_is_unchanged():
    state = position(board={"1,0": "DR-S-red"}, hands=[["DR-S-red"], []])
    with pytest.raises(IllegalAction) as refused:
        place(state, 0, "DR-S-red", "1,0")
    assert "next to a card" in refused.value.message
    assert state["board"]["1,0"] == ["DR-S-red#1", 0]


def test_d07_turning_the_card_makes_it_fit():
    state = position(board={"1,0": "DR-S-green"}, hands=[["DR-T3H-red-black-green"], []])
    with pytest.raises(IllegalAction):
        place(state, 0, "DR-T3H-red-black-green", "2,0", 0)
    new, events = place(state, 0, "DR-T3H-red-black-green", "2,0", 180)
    assert new["board"]["2,0"] == ["DR-T3H-red-black-green", 180]
    assert events[0]["bonus"] == 0 and "bonus_drawn" not in types(events)


def test_d09_corner_contact_does_not_connect():
    state = position(board={"1,0": "DR-Q03"}, hands=[["DR-Q01"], []])
    assert ("2,0", 0) not in placement_actions(state, 0, "DR-Q01")
    new, events = place(state, 0, "DR-Q01", "2,0", 180)
    assert events[0]["bonus"] == 0


def test_d11_two_colours_earn_one_card_at_once():
    state = position(
        board={"1,0": "DR-S-red", "0,1": "DR-S-blue"},
        hands=[["DR-H-red-blue", "DR-Q01", "DR-Q02"], ["DR-Q03"]],
        deck=["DR-Q05", "DR-Q04"],
    )
    new, events = place(state, 0, "DR-H-red-blue", "1,1", 0)
    assert events[0] == {
        "type": "placed",
        "seat": 0,
        "card": "DR-H-red-blue",
        "cell": "1,1",
        "rot": 0,
        "bonus": 1,
    }
    assert sorted(new["hands"][0]) == ["DR-Q01", "DR-Q02", "DR-Q04"]
    # The bonus card waits for a later turn: it is the next seat's turn at once (A.6).
    assert new["active"] == 1
    assert new["hands"][1] == [*state["hands"][1], "DR-Q05"]


def _d13_board(variant: bool) -> dict:
    board = {"1,0": "DR-S-red", "0,1": "DR-S-gold", "2,1": "DR-S-blue", "1,2": "DR-S-green"}
    if variant:
        board["1,0"] = ("DR-V-red-green", 180)
    return board


def test_d13_three_colours_two_cards_four_colours_three():
    state = position(board=_d13_board(False), hands=[["DR-Q07"], []])
    _new, events = place(state, 0, "DR-Q07", "1,1", 0)
    assert events[0]["bonus"] == 2
    variant = position(board=_d13_board(True), hands=[["DR-Q07"], []])
    new, events = place(variant, 0, "DR-Q07", "1,1", 0)
    assert events[0]["bonus"] == 3
    assert len(new["hands"][0]) == 3
    _new, events = place(variant, 0, "DR-Q07", "1,1", 180)
    assert events[0]["bonus"] == 0


@pytest.mark.parametrize(
    ("pile", "expected"),
    [([], 0), (["ACT-ROTATE"], 1), (["ACT-ZAP"], 0)],
)
def test_d15_the_silver_dragon_counts_only_once_coloured(pile, expected):
    state = position(
        board={"0,-1": "DR-S-red", "1,-1": "DR-S-red"}, pile=pile, hands=[["DR-H-red-blue"], []]
    )
    _new, events = place(state, 0, "DR-H-red-blue", "1,0", 0)
    assert events[0]["bonus"] == expected


def test_d17_a_bonus_larger_than_the_deck_takes_what_is_left():
    state = position(board=_d13_board(True), hands=[["DR-Q07"], ["DR-S-red"]], deck=2)
    p2_before = len(state["hands"][1])
    new, events = place(state, 0, "DR-Q07", "1,1", 0)
    assert events[0]["bonus"] == 3
    assert len(new["hands"][0]) == 2 and new["deck"] == []
    assert {"type": "bonus_drawn", "seat": 0, "count": 2} in events
    # Later turns skip the draw step.
    assert new["active"] == 1 and len(new["hands"][1]) == p2_before
    assert "drew" not in types(events)


def test_c15_the_rainbow_goes_anywhere_next_to_a_card_and_never_earns_a_bonus():
    state = position(
        board={"1,0": "DR-S-red", "0,1": "DR-S-blue", "1,2": "DR-S-gold"},
        pile=["ACT-ZAP"],
        hands=[["DR-RBW"], []],
    )
    spots = {cell for cell, _rot in placement_actions(state, 0, "DR-RBW")}
    assert "1,1" in spots and "3,3" not in spots
    assert len(spots) == 9  # every empty cell next to a card
    _new, events = place(state, 0, "DR-RBW", "1,1")
    assert events[0]["bonus"] == 0


def test_c30_a_coloured_silver_dragon_connects_only_its_colour():
    state = position(pile=["ACT-MOVE"], hands=[["DR-S-red", "DR-S-green"], []])
    assert placement_actions(state, 0, "DR-S-red") == set()
    assert len(placement_actions(state, 0, "DR-S-green")) == 4


def test_symmetric_cards_are_offered_in_one_orientation():
    state = position(hands=[["DR-S-red", "DR-H-red-blue"], []])
    assert {rot for _cell, rot in placement_actions(state, 0, "DR-S-red")} == {0}
    assert {rot for _cell, rot in placement_actions(state, 0, "DR-H-red-blue")} == {0, 180}


def test_the_listed_placements_are_every_cell_and_turn_the_one_by_one_check_allows():
    """``placements`` (the legal actions' list, its test written out per quadrant)
    holds exactly the (cell, rotation) pairs ``placement_ok`` allows, for every
    card of the game on every board of random games (wild and rainbow panels,
    the silver dragon's colour changing)."""
    from games.catalog.seven_dragons import components as C
    from games.catalog.seven_dragons.rules import (
        GAME,
        frontier,
        orientations,
        placement_ok,
        placements,
        resolved_board,
    )
    from games.engine.testing import play_random_game

    cards = sorted({card for card in C.DECK if C.is_dragon(card)})
    checked = 0
    for index in range(4):
        run = play_random_game(GAME, 2 + index % 3, {}, f"placements-{index}", thorough=False)
        state = GAME.setup(2 + index % 3, run.options, run.seed)
        for step, (seat, action) in enumerate(run.moves):
            if step % 3 == 0:
                grid = resolved_board(state["board"], state["pile"])
                cells = frontier(grid) + [next(iter(grid))]  # an occupied cell too
                for card in cards:
                    allowed = {
                        (cell, rot)
                        for cell in cells
                        for rot in orientations(card)
                        if placement_ok(grid, cell, C.quadrants(card, rot))
                    }
                    assert set(placements(grid, card)) == allowed, (card, state["board"])
                    checked += 1
            state, _events = GAME.apply(state, seat, action)
    assert checked > 500
