"""Spec A.9, C-11, C-13, C-14: the largest connected group per colour on awkward grids."""

from __future__ import annotations

from games.catalog.seven_dragons.builders import position
from games.catalog.seven_dragons.rules import GAME, group_sizes, resolved_board
from tests.catalog.seven_dragons.helpers import play_action


def sizes(state, colour):
    return group_sizes(resolved_board(state["board"], state["pile"]), colour)


def test_cards_are_counted_not_quadrants():
    # A red whole card and a red half: 2 cards, 6 red quadrants.
    state = position(board={"1,0": "DR-S-red", "2,0": "DR-V-red-gold"}, pile=["ACT-ROTATE"])
    assert sizes(state, "red") == [2]


RING = {
    "1,0": "DR-S-red",
    "2,0": "DR-S-red",
    "3,0": "DR-V-red-gold",
    "3,1": "DR-V-red-blue",
    "3,2": "DR-H-red-green",
    "2,2": "DR-H-red-black",
    "1,2": "DR-H-red-blue",
    "1,1": "DR-V-red-black",
}


def test_a_ring_around_a_hole_is_one_group():
    goals = ["gold", "green"]  # nobody owns red: the grid may hold a red seven
    assert sizes(position(board=RING, pile=["ACT-ROTATE"], goals=goals), "red") == [8]
    # The wild silver dragon joins at (1,0).
    assert sizes(position(board=RING, goals=goals), "red") == [9]
    blue = sizes(position(board=RING, pile=["ACT-ROTATE"], goals=goals), "blue")
    assert blue == [1, 1, 1]  # the blue silver dragon, (3,1) and (1,2), apart


def test_a_branching_blob_counts_every_card_once():
    board = {
        "1,0": "DR-S-red",
        "2,0": "DR-S-red",
        "2,1": "DR-H-red-gold",
        "2,-1": ("DR-H-red-blue", 180),
        "3,0": "DR-Q01",  # its red quarter (top left) touches (2,0)
    }
    state = position(board=board, pile=["ACT-ROTATE"])
    assert sizes(state, "red") == [5]
    # The silver dragon joins red groups only while wild or red.
    assert sizes(position(board=board), "red") == [6]
    assert sizes(position(board=board, pile=["ACT-ZAP"]), "red") == [6]


def test_c14_the_wild_silver_dragon_belongs_to_every_colour_and_then_to_one():
    board = {"1,0": "DR-S-red", "-1,0": "DR-S-blue", "0,1": "DR-S-blue"}
    wild = position(board=board)
    assert sizes(wild, "red") == [2] and sizes(wild, "blue") == [3]
    red = position(board=board, pile=["ACT-ZAP"])
    assert sizes(red, "red") == [2] and sizes(red, "blue") == [1, 1]
    assert GAME.view(red, None)["largest"] == {
        "red": 2,
        "gold": 0,
        "blue": 1,
        "green": 0,
        "black": 0,
    }


def test_c11_an_island_left_by_a_move_still_counts_on_its_own():
    board = {"1,0": "DR-S-red", "2,0": "DR-S-red", "3,0": "DR-H-red-gold", "4,0": "DR-S-gold"}
    state = position(board=board, pile=["ACT-ZAP"], hands=[["ACT-MOVE"], []])
    assert sizes(state, "red") == [4]  # with the red silver dragon
    state, _ = play_action(state, 0, "ACT-MOVE")
    state, _ = GAME.apply(state, 0, {"type": "lift", "cell": "2,0"})
    new, _ = GAME.apply(state, 0, {"type": "drop", "cell": "-1,0", "rot": 0})
    # Silver green now (the Move is on top): red splits into 1 + 1 + 1 around the gap.
    assert sizes(new, "red") == [1, 1, 1]
    assert GAME.view(new, None)["largest"]["red"] == 1
    assert sizes(new, "gold") == [2]


def test_a_rainbow_joins_two_colours_groups_at_once():
    board = {"1,0": "DR-S-red", "2,0": "DR-RBW", "3,0": "DR-S-red", "2,1": "DR-S-blue"}
    state = position(board=board, pile=["ACT-TRADEHANDS"])
    assert sizes(state, "red") == [3] and sizes(state, "blue") == [2]
