"""Damage box by box (R-9, C14) and what each filled box does (R-9.3, R-10)."""

from __future__ import annotations

import pytest

from games.catalog.drako.builders import position
from games.catalog.drako.rules import GAME
from games.engine.base import IllegalAction
from tests.catalog.drako.helpers import DRAGON, DWARVES, act, legal, play, to_move, types


def test_s19_armour_first_then_the_dwarf_player_chooses():
    state = position(
        to_move=DWARVES,
        dwarves={"fury": "1,0"},
        dragon_tracks={"armour": 3},
        hands={DWARVES: ["W06"], DRAGON: ["G02"]},
    )
    state, events = act(state, DWARVES, play(DWARVES, "W06", "ATK1:2", dwarf="fury"))
    assert {"type": "dragon_wounded", "damage": 2, "armour": 1} in events
    assert state["dragon"]["armour"] == 4
    assert to_move(state) == DWARVES and state["pending"] == {
        "kind": "wound",
        "side": DWARVES,
        "markers": 1,
    }
    assert legal(state, DWARVES) == [
        {"type": "wound", "track": "fly"},
        {"type": "wound", "track": "move"},
        {"type": "wound", "track": "fire"},
    ]
    with pytest.raises(IllegalAction, match="wound"):
        act(state, DWARVES, {"type": "draw"})
    state, _ = act(state, DWARVES, {"type": "wound", "track": "fly"})
    assert state["dragon"]["fly"] == 1 and state["pending"] is None
    assert state["turn"]["actions_left"] == 1


def test_markers_from_one_attack_may_be_split():
    state = position(
        to_move=DWARVES,
        dwarves={"fury": "1,0"},
        dragon_tracks={"armour": 4},
        hands={DWARVES: ["W06"], DRAGON: ["G02"]},
    )
    state, _ = act(state, DWARVES, play(DWARVES, "W06", "ATK1:2", dwarf="fury"))
    state, _ = act(state, DWARVES, {"type": "wound", "track": "fire"})
    assert state["pending"]["markers"] == 1
    state, _ = act(state, DWARVES, {"type": "wound", "track": "move"})
    assert (state["dragon"]["fire"], state["dragon"]["move"]) == (1, 1)


def test_a_full_track_cannot_take_more_and_one_open_track_fills_by_itself():
    state = position(
        to_move=DWARVES,
        dwarves={"fury": "1,0"},
        dragon_tracks={"armour": 4, "fly": 2, "move": 2},
        hands={DWARVES: ["W06"], DRAGON: ["G02"]},
    )
    state, events = act(state, DWARVES, play(DWARVES, "W06", "ATK1:2", dwarf="fury"))
    assert {"type": "wound_placed", "track": "fire", "auto": True} in events
    assert state["winner"] == DWARVES


def test_s47_walking_disabled_but_the_card_still_defends():
    state = position(
        dragon_tracks={"armour": 4, "move": 2},
        dwarves={"fury": "1,0"},
        hands={DRAGON: ["G01", "G09"], DWARVES: ["W06"]},
    )
    symbols = {a.get("symbol") for a in legal(state, DRAGON)}
    assert "DMOVE:1" not in symbols and "FLY" in symbols
    with pytest.raises(IllegalAction, match="legs"):
        act(state, DRAGON, play(DRAGON, "G01", "DMOVE:1", to="0,1"))
    # in the dwarves' turn the same card blocks an attack
    state["turn"]["side"] = DWARVES
    state, _ = act(state, DWARVES, play(DWARVES, "W06", "ATK1:2", dwarf="fury"))
    assert to_move(state) == DRAGON
    assert {"type": "defend", "card": state["hands"][DRAGON][0], "attack": 0} in legal(
        state, DRAGON
    )


def test_full_wings_stop_flying_and_full_fire_stops_fire_breath():
    state = position(
        dragon_tracks={"armour": 4, "fly": 2, "fire": 2},
        hands={DRAGON: ["G09", "G08", "G02"]},
    )
    symbols = {a.get("symbol") for a in legal(state, DRAGON)}
    assert "FLY" not in symbols and "FIRE:2" not in symbols and "DMOVE:2" in symbols
    with pytest.raises(IllegalAction, match="wings"):
        act(state, DRAGON, play(DRAGON, "G09", "FLY", to="0,1"))
    with pytest.raises(IllegalAction, match="fire"):
        act(state, DRAGON, play(DRAGON, "G08", "FIRE:2", dir=0))


def test_bite_and_defence_are_never_lost():
    state = position(
        dragon_tracks={"armour": 4, "fly": 2, "move": 2, "fire": 1},
        dwarves={"net": "0,-1"},
        hands={DRAGON: ["G04", "G11"]},
    )
    assert any(a.get("symbol") == "BITE:2" for a in legal(state, DRAGON))


def test_dwarf_damage_fills_boxes_and_the_excess_is_ignored():
    state = position(dwarves={"xbow": "1,0"}, wounds={"xbow": 3}, hands={DRAGON: ["G04"]})
    state, events = act(state, DRAGON, play(DRAGON, "G04", "BITE:2", dwarf="xbow"))
    assert state["dwarves"]["xbow"] == {"at": None, "wounds": 5}
    assert "dwarf_died" in types(events)
    state = position(dwarves={"fury": "1,0"}, wounds={"fury": 1}, hands={DRAGON: ["G05"]})
    state, _ = act(state, DRAGON, play(DRAGON, "G05", "BITE:3", dwarf="fury"))
    assert state["dwarves"]["fury"] == {"at": "1,0", "wounds": 4}


def test_a_dead_dwarf_frees_its_hex():
    state = position(dwarves={"xbow": "1,0"}, wounds={"xbow": 4}, hands={DRAGON: ["G04", "G02"]})
    state, _ = act(state, DRAGON, play(DRAGON, "G04", "BITE:2", dwarf="xbow"))
    assert any(a.get("to") == "1,0" for a in legal(state, DRAGON))


def test_dead_fury_dwarf_means_no_fury():
    state = position(to_move=DWARVES, dwarves={"fury": None}, hands={DWARVES: ["W03"]})
    assert {"type": "fury"} not in legal(state, DWARVES)
    with pytest.raises(IllegalAction, match="Fury"):
        act(state, DWARVES, {"type": "fury"})


def test_invariants_hold_in_built_positions():
    GAME.check_invariants(position(dragon_tracks={"armour": 4, "fly": 1}))
