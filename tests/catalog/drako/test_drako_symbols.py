"""Every symbol of both decks (R-6, R-7, R-8, C3, C10-C13), with the spec's scenarios."""

from __future__ import annotations

import pytest

from games.catalog.drako.builders import position
from games.engine.base import IllegalAction
from tests.catalog.drako.helpers import DRAGON, DWARVES, act, legal, play, to_move, types


def test_s11_no_moving_through_figures():
    state = position(
        to_move=DWARVES,
        dragon_at="1,-1",
        dwarves={"net": "1,-2", "xbow": "2,-2"},
        hands={DWARVES: ["W02"]},
    )
    with pytest.raises(IllegalAction, match="never through or onto"):
        act(state, DWARVES, play(DWARVES, "W02", "MOVE1:2", dwarf="xbow", to="0,-1"))
    state, events = act(state, DWARVES, play(DWARVES, "W02", "MOVE1:2", dwarf="xbow", to="1,0"))
    assert state["dwarves"]["xbow"]["at"] == "1,0"
    assert {"type": "moved", "figure": "xbow", "from": "2,-2", "to": "1,0"} in events


def test_move_may_not_end_on_a_figure_nor_leave_the_board():
    state = position(to_move=DWARVES, hands={DWARVES: ["W02"]})
    targets = {a["to"] for a in legal(state, DWARVES) if a.get("dwarf") == "xbow"}
    assert "0,0" not in targets and "-1,-1" not in targets
    assert "2,-1" in targets  # 0 steps is legal
    assert all(
        t in {"2,-1", "1,-1", "2,-2", "1,0", "2,0", "1,-2", "0,-1", "0,1", "1,1"} for t in targets
    )


def test_s13_two_dwarf_move_one_step_each():
    state = position(to_move=DWARVES, hands={DWARVES: ["W03"]})
    state, events = act(state, DWARVES, play(DWARVES, "W03", "MOVE2:1"))
    assert to_move(state) == DWARVES and state["pending"]["kind"] == "move2"
    assert state["turn"]["actions_left"] == 1
    state, _ = act(state, DWARVES, {"type": "move", "dwarf": "xbow", "to": "1,-1"})
    # the same dwarf cannot take a second step from the same card
    with pytest.raises(IllegalAction):
        act(state, DWARVES, {"type": "move", "dwarf": "xbow", "to": "0,-1"})
    state, _ = act(state, DWARVES, {"type": "move", "dwarf": "net", "to": "0,-1"})
    assert state["pending"] is None
    assert state["dwarves"]["xbow"]["at"] == "1,-1" and state["dwarves"]["net"]["at"] == "0,-1"
    assert {
        a["dwarf"] for a in legal(state, DWARVES) if a.get("symbol", "").startswith("ATK")
    } == set()


def test_ruling_move_steps_are_never_split_among_dwarves():
    """docs/rules/drako.md: a one-dwarf card moves one dwarf; a two-dwarf card gives each of
    up to two dwarves its full value; steps are never pooled or shared."""
    state = position(to_move=DWARVES, hands={DWARVES: ["W02", "W04"]})
    moves = [a for a in legal(state, DWARVES) if a.get("symbol") == "MOVE1:2"]
    assert moves and all(set(a) == {"type", "card", "symbol", "dwarf", "to"} for a in moves)
    state, _ = act(state, DWARVES, play(DWARVES, "W02", "MOVE1:2", dwarf="xbow", to="1,-1"))
    assert state["pending"] is None  # no second dwarf gets the unused step
    state, _ = act(state, DWARVES, play(DWARVES, "W04", "MOVE2:2"))
    state, _ = act(state, DWARVES, {"type": "move", "dwarf": "net", "to": "-2,1"})  # 2 steps
    state, _ = act(state, DWARVES, {"type": "move", "dwarf": "fury", "to": "1,1"})  # 2 steps
    assert state["dwarves"]["net"]["at"] == "-2,1" and state["dwarves"]["fury"]["at"] == "1,1"
    assert state["pending"]["kind"] == "turn_end"  # both actions spent; fury still available


def test_two_dwarf_move_may_move_one_dwarf_or_none():
    state = position(to_move=DWARVES, hands={DWARVES: ["W03", "W03"]})
    state, _ = act(state, DWARVES, play(DWARVES, "W03", "MOVE2:1"))
    state, events = act(state, DWARVES, {"type": "stop"})
    assert state["pending"] is None and "move_stopped" in types(events)
    state, _ = act(state, DWARVES, play(DWARVES, "W03", "MOVE2:1", nth=1))
    state, _ = act(state, DWARVES, {"type": "move", "dwarf": "fury", "to": "0,1"})
    state, _ = act(state, DWARVES, {"type": "stop"})
    assert state["dwarves"]["fury"]["at"] == "0,1"


def test_s15_melee_needs_adjacency():
    state = position(to_move=DWARVES, dwarves={"fury": "2,0"}, hands={DWARVES: ["W06"]})
    with pytest.raises(IllegalAction, match="next to"):
        act(state, DWARVES, play(DWARVES, "W06", "ATK1:2", dwarf="fury"))


@pytest.mark.parametrize(("defences", "armour"), [(1, 1), (2, 0), (0, 2)])
def test_s17_two_dwarf_attack_partial_block(defences, armour):
    state = position(
        to_move=DWARVES,
        dwarves={"fury": "1,0", "net": "0,1"},
        hands={DWARVES: ["W07"], DRAGON: ["G11", "G11"]},
    )
    state, events = act(state, DWARVES, play(DWARVES, "W07", "ATK2:1", dwarves=["net", "fury"]))
    assert types(events).count("attack") == 2
    assert to_move(state) == DRAGON
    for _i in range(defences):
        options = [a for a in legal(state, DRAGON) if a["type"] == "defend"]
        state, _ = act(state, DRAGON, options[0])
    if to_move(state) == DRAGON:
        state, _ = act(state, DRAGON, {"type": "no_defence"})
    assert state["dragon"]["armour"] == armour
    assert to_move(state) == DWARVES and state["turn"]["actions_left"] == 1


def test_two_dwarf_attack_used_by_one_dwarf():
    state = position(
        to_move=DWARVES, dwarves={"fury": "1,0"}, hands={DWARVES: ["W07"], DRAGON: ["G02"]}
    )
    options = [a for a in legal(state, DWARVES) if a.get("symbol") == "ATK2:1"]
    assert options == [play(DWARVES, "W07", "ATK2:1", dwarves=["fury"])]
    state, _ = act(state, DWARVES, options[0])
    assert state["dragon"]["armour"] == 1


def test_s21_crossbow_kills_the_dragon():
    state = position(
        to_move=DWARVES,
        dwarves={"xbow": "2,-2"},
        dragon_tracks={"armour": 4, "fly": 2, "move": 2, "fire": 1},
        hands={DWARVES: ["W09"], DRAGON: ["G02"]},
    )
    state, events = act(state, DWARVES, play(DWARVES, "W09", "XBOW:2"))
    assert state["dragon"]["fire"] == 2
    assert state["phase"] == "over" and state["winner"] == DWARVES
    assert state["end_reason"] == "dragon_killed"
    assert events[-1] == {"type": "game_over", "winner": DWARVES, "reason": "dragon_killed"}


def test_s23_crossbow_blocked_by_a_dwarf():
    state = position(
        to_move=DWARVES, dwarves={"xbow": "2,-2", "net": "1,-1"}, hands={DWARVES: ["W09"]}
    )
    with pytest.raises(IllegalAction, match="straight line"):
        act(state, DWARVES, play(DWARVES, "W09", "XBOW:2"))


def test_crossbow_needs_a_straight_line():
    state = position(to_move=DWARVES, hands={DWARVES: ["W09"]})  # (2,-1) is not in line
    assert not [a for a in legal(state, DWARVES) if a.get("symbol") == "XBOW:2"]


def test_s25_crossbow_at_point_blank():
    state = position(to_move=DWARVES, dwarves={"xbow": "1,0"}, hands={DWARVES: ["W09"]})
    state, _ = act(state, DWARVES, play(DWARVES, "W09", "XBOW:2"))
    assert state["dragon"]["armour"] == 2


def test_c7_dead_crossbow_dwarf_card_keeps_its_other_option():
    state = position(to_move=DWARVES, dwarves={"xbow": None}, hands={DWARVES: ["W08"]})
    symbols = {a.get("symbol") for a in legal(state, DWARVES)}
    assert "XBOW:1" not in symbols and "MOVE1:1" in symbols
    with pytest.raises(IllegalAction, match="dead"):
        act(state, DWARVES, play(DWARVES, "W08", "XBOW:1"))


def test_s27_fire_passes_through_dwarves():
    state = position(
        dwarves={"fury": "1,0", "net": "2,0", "xbow": "0,1"},
        hands={DRAGON: ["G08"], DWARVES: ["W11", "W03"]},
    )
    state, events = act(state, DRAGON, play(DRAGON, "G08", "FIRE:2", dir=0))
    assert {"type": "fire", "dir": 0, "targets": ["fury", "net"]} in events
    assert to_move(state) == DWARVES and state["pending"]["kind"] == "defend"
    state, _ = act(
        state, DWARVES, {"type": "defend", "card": state["hands"][DWARVES][0], "attack": 1}
    )
    wounds = {d: state["dwarves"][d]["wounds"] for d in ("fury", "net", "xbow")}
    assert wounds == {"fury": 2, "net": 0, "xbow": 0}
    assert to_move(state) == DRAGON and state["turn"]["actions_left"] == 1


def test_s29_fire_into_nothing():
    state = position(hands={DRAGON: ["G08"]})
    state, events = act(state, DRAGON, play(DRAGON, "G08", "FIRE:2", dir=5))
    assert {"type": "fire", "dir": 5, "targets": []} in events
    assert "attack" not in types(events)
    assert len(state["hands"][DRAGON]) == 0 and state["turn"]["actions_left"] == 1


def test_s31_bite_kills_a_dwarf():
    state = position(
        dwarves={"net": "0,-1"}, wounds={"net": 2}, hands={DRAGON: ["G05"], DWARVES: ["W10"]}
    )
    state, events = act(state, DRAGON, play(DRAGON, "G05", "BITE:3", dwarf="net"))
    assert state["dwarves"]["net"] == {"at": None, "wounds": 4}
    assert {"type": "dwarf_died", "dwarf": "net", "at": "0,-1"} in events
    state, _ = act(state, DRAGON, {"type": "draw"})
    assert to_move(state) == DWARVES
    with pytest.raises(IllegalAction, match="net dwarf is dead"):
        act(state, DWARVES, play(DWARVES, "W10", "NET"))


def test_bite_needs_an_adjacent_dwarf():
    state = position(hands={DRAGON: ["G04"]})
    with pytest.raises(IllegalAction, match="next to"):
        act(state, DRAGON, play(DRAGON, "G04", "BITE:2", dwarf="net"))


def test_s33_walking_blocked_flying_is_not():
    state = position(
        dragon_at="-2,0",
        dwarves={"xbow": "-1,0", "net": "-1,-1", "fury": "-2,1"},
        hands={DRAGON: ["G02", "G09"]},
    )
    with pytest.raises(IllegalAction):
        act(state, DRAGON, play(DRAGON, "G02", "DMOVE:2", to="0,0"))
    walks = [a for a in legal(state, DRAGON) if a.get("symbol") == "DMOVE:2"]
    assert walks == [play(DRAGON, "G02", "DMOVE:2", to="-2,0")]
    state, events = act(state, DRAGON, play(DRAGON, "G09", "FLY", to="2,0"))
    assert state["dragon"]["at"] == "2,0"
    assert {"type": "flew", "from": "-2,0", "to": "2,0"} in events


def test_fly_lands_only_on_an_empty_hex_or_stays():
    state = position(hands={DRAGON: ["G09"]})
    targets = {a["to"] for a in legal(state, DRAGON) if a.get("symbol") == "FLY"}
    assert len(targets) == 19 - 3 and "0,0" in targets and "2,-1" not in targets


def test_dragon_walks_step_by_step():
    state = position(hands={DRAGON: ["G02"]})
    targets = {a["to"] for a in legal(state, DRAGON) if a.get("symbol") == "DMOVE:2"}
    assert "2,-2" in targets and "-2,2" in targets and "2,-1" not in targets
    state, _ = act(state, DRAGON, play(DRAGON, "G02", "DMOVE:2", to="2,-2"))
    assert state["dragon"]["at"] == "2,-2"


def test_s35_net_cannot_be_blocked_and_immobilises():
    state = position(
        to_move=DWARVES,
        dwarves={"net": "-2,2", "fury": "1,0"},
        hands={DWARVES: ["W10"], DRAGON: ["G11", "G02", "G09", "G04", "G07"]},
        actions_left=1,
        fury_available=False,
    )
    state, events = act(state, DWARVES, play(DWARVES, "W10", "NET"))
    assert "netted" in types(events) and "attack" not in types(events)
    assert state["dragon"]["netted"] and not state["net_available"]
    assert to_move(state) == DRAGON  # no defence was offered: the dragon's own turn began
    symbols = {a.get("symbol") for a in legal(state, DRAGON)}
    assert "DMOVE:2" not in symbols and "FLY" not in symbols
    assert {"BITE:2", "FIRE:1"} <= symbols and {"type": "draw"} in legal(state, DRAGON)
    with pytest.raises(IllegalAction, match="net"):
        act(state, DRAGON, play(DRAGON, "G02", "DMOVE:2", to="0,1"))


def test_net_only_once_on_the_dragon():
    state = position(to_move=DWARVES, netted=True, hands={DWARVES: ["W10"]})
    assert not [a for a in legal(state, DWARVES) if a.get("symbol") == "NET"]
    with pytest.raises(IllegalAction, match="already"):
        act(state, DWARVES, play(DWARVES, "W10", "NET"))


def test_defence_is_never_an_action():
    state = position(hands={DRAGON: ["G11", "G02"]})
    with pytest.raises(IllegalAction, match="reaction"):
        act(state, DRAGON, play(DRAGON, "G11", "DEF"))
    assert not [a for a in legal(state, DRAGON) if a.get("symbol") == "DEF"]
