"""Drako setup (R-2), the board (B1) and the once-only hand exchange (R-2.5, C16)."""

from __future__ import annotations

import pytest

from games.catalog.drako import components as C
from games.catalog.drako.rules import (
    GAME,
    NEIGHBOURS,
    between,
    distance,
    seat_of,
)
from games.engine.base import IllegalAction
from tests.catalog.drako.helpers import DRAGON, DWARVES, act, legal, to_move, types


def test_s01_board_geometry():
    assert len(C.HEXES) == 19
    assert len(NEIGHBOURS["0,0"]) == 6
    assert len(NEIGHBOURS["2,0"]) == 3
    assert len(NEIGHBOURS["2,-1"]) == 4
    assert distance("2,-2", "-2,2") == 4
    assert "3,0" not in C.HEXES and "2,1" not in C.HEXES
    assert between("-2,0", "2,0") == ["-1,0", "0,0", "1,0"]
    assert between("0,0", "1,0") == []
    assert between("0,0", "2,-1") is None


def test_s03_first_game_setup():
    state = GAME.setup(2, {"sides": "seat1_dragon"}, "s03")
    assert state["dragon"]["at"] == "0,0"
    assert {d: state["dwarves"][d]["at"] for d in C.DWARF_IDS} == {
        "xbow": "2,-1",
        "net": "-1,-1",
        "fury": "-1,2",
    }
    for side in C.SIDES:
        assert len(state["hands"][side]) == 4
        assert len(state["piles"][side]) == 34
    assert all(state["dragon"][t] == 0 for t in C.DRAGON_BOXES)
    assert state["net_available"] and state["fury_available"]
    assert to_move(state) == DRAGON
    assert state["turn"] == {"side": DRAGON, "number": 1, "actions_left": 1, "free_possible": False}


def test_sides_option_decides_who_plays_the_dragon():
    assert GAME.setup(2, {"sides": "seat1_dragon"}, "x")["dragon_seat"] == 0
    assert GAME.setup(2, {"sides": "seat1_dwarves"}, "x")["dragon_seat"] == 1
    drawn = {GAME.setup(2, {"sides": "random"}, f"r{i}")["dragon_seat"] for i in range(20)}
    assert drawn == {0, 1}
    with pytest.raises(IllegalAction):
        GAME.setup(3, {}, "x")


def test_dragon_first_turn_has_one_action_then_two_each():
    state = GAME.setup(2, {"sides": "seat1_dragon"}, "first-turn")
    state, events = act(state, DRAGON, {"type": "draw"})
    assert to_move(state) == DWARVES
    assert state["turn"]["actions_left"] == 2
    state, _ = act(state, DWARVES, {"type": "draw"})
    assert to_move(state) == DWARVES
    state, _ = act(state, DWARVES, {"type": "draw"})
    assert state["pending"] == {"kind": "discard", "side": DWARVES, "count": 2}  # 8 cards
    for _ in range(2):
        state, _ = act(state, DWARVES, legal(state, DWARVES)[0])
    assert len(state["hands"][DWARVES]) == 6
    # fury is still available: the dwarves choose to end the turn or use it (C8)
    assert to_move(state) == DWARVES
    assert {a["type"] for a in legal(state, DWARVES)} == {"end_turn", "fury"}
    state, _ = act(state, DWARVES, {"type": "end_turn"})
    assert to_move(state) == DRAGON and state["turn"]["actions_left"] == 2


def test_free_placement_after_seeing_the_hand():
    state = GAME.setup(2, {"sides": "seat1_dragon", "placement": "free"}, "free")
    assert to_move(state) == DWARVES
    assert all(state["dwarves"][d]["at"] is None for d in C.DWARF_IDS)
    hexes = {a["at"] for a in legal(state, DWARVES)}
    assert len(hexes) == 12  # the outer ring: not next to the dragon
    assert all(distance(h, "0,0") == 2 for h in hexes)
    with pytest.raises(IllegalAction):
        act(state, DWARVES, {"type": "place", "dwarf": "xbow", "at": "1,0"})
    state, _ = act(state, DWARVES, {"type": "place", "dwarf": "xbow", "at": "2,0"})
    assert {a["at"] for a in legal(state, DWARVES)} == hexes - {"2,0"}
    state, _ = act(state, DWARVES, {"type": "place", "dwarf": "net", "at": "0,2"})
    state, events = act(state, DWARVES, {"type": "place", "dwarf": "fury", "at": "-2,0"})
    assert "turn_started" in types(events)
    assert to_move(state) == DRAGON and state["turn"]["actions_left"] == 1


def test_s05_hand_exchange_dragon_then_dwarves_then_placement():
    state = GAME.setup(2, {"sides": "seat1_dwarves", "placement": "free", "exchange": True}, "s05")
    assert to_move(state) == DRAGON
    assert legal(state, DRAGON) == [{"type": "keep"}, {"type": "exchange"}]
    before = list(state["hands"][DRAGON])
    state, events = act(state, DRAGON, {"type": "exchange"})
    assert len(state["hands"][DRAGON]) == 4 and len(state["piles"][DRAGON]) == 34
    assert sorted(state["hands"][DRAGON] + state["piles"][DRAGON]) == list(range(38))
    assert state["hands"][DRAGON] != before or True  # a reshuffle may deal the same cards
    private = [e for e in events if e.get("private_to") is not None]
    assert private and all(e["private_to"] == seat_of(state, DRAGON) for e in private)
    # a second exchange by the same player is refused: it is now the dwarves' decision
    assert to_move(state) == DWARVES
    with pytest.raises(IllegalAction):
        act(state, DRAGON, {"type": "exchange"})
    state, _ = act(state, DWARVES, {"type": "keep"})
    assert to_move(state) == DWARVES and state["pending"]["kind"] == "place"
    assert all(a["type"] == "place" for a in legal(state, DWARVES))


def test_s05_no_exchange_once_play_began():
    state = GAME.setup(2, {"sides": "seat1_dragon", "exchange": True}, "s05b")
    state, _ = act(state, DRAGON, {"type": "keep"})
    state, _ = act(state, DWARVES, {"type": "keep"})
    assert state["phase"] == "play"
    with pytest.raises(IllegalAction):
        act(state, DRAGON, {"type": "exchange"})


def test_opening_events_deal_privately():
    state = GAME.setup(2, {"sides": "seat1_dwarves"}, "open")
    events = GAME.opening_events(state)
    assert events[0] == {
        "type": "sides",
        "dragon_seat": 1,
        "dwarves_seat": 0,
        "placement": "first_game",
    }
    private = {e["side"]: e for e in events if e["type"] == "your_cards"}
    assert private[DRAGON]["private_to"] == 1 and private[DWARVES]["private_to"] == 0
    assert private[DRAGON]["cards"] == sorted(state["hands"][DRAGON])
