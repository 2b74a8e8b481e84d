"""Drakon's presenter speaks in rooms, not coordinates, and keeps abilities and draws in place.

Buttons and log sentences name a room by where it lies from the Entrance; no
ability text without Heroes!; the drawn tile is named in its owner's private
note only; counts use proper plurals; the rotation step draws the tile to
place as a ghost on the board at every rotation offered, and so does the
Rotate a Chamber effect.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games.catalog.drakon import presenter
from games.catalog.drakon.builders import build_state
from games.catalog.drakon.rules import GAME
from games.panel import presenters

COORDINATES = re.compile(r"-?\d+,-?\d+")


def view_of(state, seat):
    return {**GAME.view(state, seat), "_names": ["Ann", "Bob"], "_version": 1}


def test_a_cell_is_named_from_the_entrance():
    assert presenter.place_name("0,0") == "the Entrance"
    assert presenter.place_name("1,0") == "1 east of the Entrance"
    assert presenter.place_name("-1,2") == "2 north, 1 west of the Entrance"
    assert presenter.place_name("0,-3") == "3 south of the Entrance"
    with translation.override("pl"):
        assert presenter.place_name("1,0") == "1 na wschód od komnaty wejściowej"
    with translation.override("cs"):
        assert presenter.place_name("0,2") == "2 na sever od vstupní komnaty"


def test_buttons_and_log_name_rooms_without_coordinates():
    state = build_state(2, rooms={(1, 0): "portal {E}"}, hands=[["find_coin A1"], []])
    view = view_of(state, 0)
    labels = [
        label
        for action in GAME.legal_actions(state, 0)
        for _key, label in presenter.action_steps(action, view)
    ]
    assert "Move to Portal (1 east of the Entrance)" in labels
    assert not [label for label in labels if COORDINATES.search(str(label))]
    place = next(a for a in GAME.legal_actions(state, 0) if a["type"] == "place")
    _new, events = GAME.apply(state, 0, place)
    sentences = [presenter.describe_event(event, ["Ann", "Bob"]) for event in events]
    assert not [s for s in sentences if COORDINATES.search(s)], sentences
    assert any(s.startswith("Ann placed Find a Coin: ") for s in sentences)


def test_the_drawn_tile_is_named_to_its_owner_only():
    state = build_state(2, hands=[["empty A1"], []], stack=["portal", "rotate"])
    place = next(a for a in GAME.legal_actions(state, 0) if a["type"] == "place")
    _new, events = GAME.apply(state, 0, place)
    private = [e for e in events if e["type"] == "tiles_drawn"]
    assert private == [
        {"type": "tiles_drawn", "seat": 0, "tiles": private[0]["tiles"], "rooms": ["portal"],
         "private_to": 0}
    ]  # fmt: skip
    assert presenter.describe_event(private[0], ["Ann", "Bob"]) == (
        "(Only you see this: you drew Portal.)"
    )
    public = [e for e in events if e["type"] == "tile_drawn"]
    assert presenter.describe_event(public[0], ["Ann", "Bob"]) == "Ann drew a tile."


def test_counts_use_plurals():
    one = {"type": "tiles_drawn", "seat": 0, "tiles": [4]}
    three = {"type": "hand_dealt", "seat": 0, "count": 3}
    assert presenter.describe_event(one, ["Ann"]) == "(Only you see this: you drew 1 tile.)"
    assert presenter.describe_event(three, ["Ann"]) == "Ann gets 3 tiles."
    with translation.override("pl"):
        assert presenter.describe_event(three, ["Ann"]) == "Ann dostaje 3 płytki."
        five = {**three, "count": 5}
        assert presenter.describe_event(five, ["Ann"]) == "Ann dostaje 5 płytek."
    with translation.override("cs"):
        assert presenter.describe_event(five, ["Ann"]) == "Ann dostává 5 dílků."


def test_no_ability_text_without_heroes():
    plain = build_state(2, hands=[["empty A1"], []])
    mine = presenter.private_context(view_of(plain, 0), 0, ["Ann", "Bob"])
    assert mine["hero_text"] == ""
    heroes = build_state(2, hands=[["empty A1"], []], options={"heroes": True})
    mine = presenter.private_context(view_of(heroes, 0), 0, ["Ann", "Bob"])
    assert mine["hero_text"]


def ghost_arrows(board) -> list[list[str]]:
    return [ghost["arrows"] for ghost in board["ghosts"]]


@pytest.mark.parametrize("edition", ["4e", "1e"])
def test_placing_a_tile_draws_a_ghost_at_every_rotation_offered(edition):
    tile = "steal_right" if edition == "4e" else "find_gold"
    state = build_state(2, hands=[[tile], []], stack=["empty"], edition=edition)
    view = view_of(state, 0)
    legal = GAME.legal_actions(state, 0)
    place = next(a for a in legal if a["type"] == "place" and a["rot"] != 0)
    path = [f"tile-{place['tile']}", f"cell-{place['at']}"]
    level = presenters.choice_level(legal, view, presenter, path)
    board = presenter.board_context(view, 0, ["Ann", "Bob"], level)
    rots = sorted(a["rot"] for a in legal if a["type"] == "place" and a["at"] == place["at"])
    pattern = view["me"]["hand"][0]["pattern"]
    assert len(rots) > 1
    # One ghost per rotation button, in the same order, each with that rotation's arrows,
    # all on the cell the tile will lie on.
    assert [g["option"] for g in board["ghosts"]] == list(range(len(board["previews"])))
    assert [g["label"] for g in board["ghosts"]] == [p.label for p in board["previews"]]
    assert ghost_arrows(board) == [presenter.pattern_arrows(pattern, r) for r in rots]
    assert len({tuple(a) for a in ghost_arrows(board)}) == len(rots)
    x, y = (int(v) for v in place["at"].split(","))
    entrance = next(t for t in board["tiles"] if t.at == "0,0")
    cell = presenter.board.CELL
    assert {(g["x"], g["y"]) for g in board["ghosts"]} == {
        (entrance.x + x * cell, entrance.y - y * cell)
    }
    top = presenters.choice_level(legal, view, presenter, [])
    assert presenter.board_context(view, 0, ["Ann", "Bob"], top)["ghosts"] == []


@pytest.mark.parametrize("edition", ["4e", "1e"])
def test_the_rotate_room_draws_the_turned_chamber_as_a_ghost_at_every_turn(edition):
    state = build_state(2, rooms={(0, 1): "rotate {N,E}", (0, -1): "empty {N}"}, edition=edition)
    state, _events = GAME.apply(state, 0, {"type": "move", "to": "0,1"})
    view = view_of(state, 0)
    legal = GAME.legal_actions(state, 0)
    turns = [a["turns"] for a in legal if a["type"] == "rotate" and a["at"] == "0,-1"]
    assert turns == [1, 2, 3]
    level = presenters.choice_level(legal, view, presenter, ["rotate-0,-1"])
    board = presenter.board_context(view, 0, ["Ann", "Bob"], level)
    room = next(r for r in view["board"] if r["at"] == "0,-1")
    assert ghost_arrows(board) == [
        presenter.pattern_arrows(room["pattern"], (room["rot"] + t) % 4) for t in turns
    ]
    below = next(t for t in board["tiles"] if t.at == "0,-1")
    assert {(g["x"], g["y"]) for g in board["ghosts"]} == {(below.x, below.y)}
    assert ghost_arrows(board)[1] == ["S"]  # {N} turned by 180 degrees


def test_a_rotation_awaiting_confirmation_is_the_only_ghost():
    state = build_state(2, hands=[["steal_right"], []], stack=["empty"])
    view = view_of(state, 0)
    legal = GAME.legal_actions(state, 0)
    place = next(a for a in legal if a["type"] == "place" and a["rot"] != 0)
    path = [f"tile-{place['tile']}", f"cell-{place['at']}", f"rot-{place['rot']}"]
    level = presenters.choice_level(legal, view, presenter, path)
    assert level.confirm is not None and not level.choices
    board = presenter.board_context(view, 0, ["Ann", "Bob"], level)
    pattern = view["me"]["hand"][0]["pattern"]
    assert ghost_arrows(board) == [presenter.pattern_arrows(pattern, place["rot"])]


def test_the_board_template_draws_each_ghost_and_ties_it_to_its_rotation_button():
    state = build_state(2, hands=[["steal_right"], []], stack=["empty"])
    view = view_of(state, 0)
    legal = GAME.legal_actions(state, 0)
    place = next(a for a in legal if a["type"] == "place" and a["rot"] != 0)
    level = presenters.choice_level(
        legal, view, presenter, [f"tile-{place['tile']}", f"cell-{place['at']}"]
    )
    board = presenter.board_context(view, 0, ["Ann", "Bob"], level)
    html = render_to_string(
        presenter.BOARD_TEMPLATE, {"board": board, "match": SimpleNamespace(pk=1, version=1)}
    )
    n = len(board["previews"])
    for option in range(n):
        assert html.count(f'class="ghost" data-option="{option}"') == 1
        assert html.count(f'aria-hidden="true" data-option="{option}"') == 1
