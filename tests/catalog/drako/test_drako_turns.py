"""The turn: actions, drawing, the hand limit, passing and forced discards
(R-3, R-4, R-11, C2, C4, C5, C6), fury (R-10.1, C8) and the net (R-10.3, R-10.4, C9)."""

from __future__ import annotations

import pytest

from games.catalog.drako.builders import card_id, position
from games.engine.base import IllegalAction
from tests.catalog.drako.helpers import DRAGON, DWARVES, act, legal, play, to_move, types


def test_s07_hand_limit_owner_discards():
    state = position(
        to_move=DWARVES, hands={DWARVES: ["W01", "W02", "W03", "W05", "W06"]}, piles={DWARVES: 10}
    )
    state, _ = act(state, DWARVES, {"type": "draw"})
    assert len(state["hands"][DWARVES]) == 7
    assert state["pending"] == {"kind": "discard", "side": DWARVES, "count": 1}
    assert all(a["type"] == "discard" for a in legal(state, DWARVES))
    card = state["hands"][DWARVES][0]
    state, events = act(state, DWARVES, {"type": "discard", "card": card})
    assert len(state["hands"][DWARVES]) == 6 and len(state["piles"][DWARVES]) == 8
    assert card in state["out"][DWARVES]
    assert {"type": "discarded", "side": DWARVES, "card": card, "forced": False} in events
    assert state["turn"]["actions_left"] == 1


def test_drawing_at_six_discards_two():
    state = position(hands={DRAGON: ["G01", "G02", "G03", "G04", "G05", "G06"]})
    state, _ = act(state, DRAGON, {"type": "draw"})
    assert state["pending"]["count"] == 2


def test_s09_short_pile():
    state = position(hands={DRAGON: ["G01", "G02", "G03"]}, piles={DRAGON: 1})
    state, events = act(state, DRAGON, {"type": "draw"})
    assert len(state["hands"][DRAGON]) == 4 and state["piles"][DRAGON] == []
    assert {"type": "drew", "side": DRAGON, "count": 1} in events
    with pytest.raises(IllegalAction, match="empty"):
        act(state, DRAGON, {"type": "draw"})


def test_drawn_cards_are_told_only_to_their_owner():
    state = position(hands={DRAGON: ["G01"]})
    state, events = act(state, DRAGON, {"type": "draw"})
    private = [e for e in events if "private_to" in e]
    assert private == [
        {
            "type": "drawn_cards",
            "side": DRAGON,
            "cards": state["hands"][DRAGON][1:],
            "private_to": 0,
        }
    ]


def test_no_declining_every_action_is_taken():
    state = position(hands={DRAGON: ["G02"]})
    kinds = {a["type"] for a in legal(state, DRAGON)}
    assert kinds == {"draw", "play"}  # no pass, no end of turn while actions are left


def test_c4_forced_discard_when_nothing_else_is_possible():
    state = position(
        hands={DRAGON: ["G11", "G11", "G01"]}, piles={DRAGON: 0}, netted=True, actions_left=1
    )
    g01, g11 = card_id(DRAGON, "G01"), card_id(DRAGON, "G11")
    # one discard per card type: the G11 copies offer the same choice
    assert legal(state, DRAGON) == [
        {"type": "discard", "card": g01},
        {"type": "discard", "card": g11},
    ]
    card = g01
    state, events = act(state, DRAGON, {"type": "discard", "card": card})
    assert {"type": "discarded", "side": DRAGON, "card": card, "forced": True} in events
    assert to_move(state) == DWARVES


def test_s45_dragon_out_of_cards_passes():
    state = position(
        to_move=DWARVES,
        actions_left=1,
        fury_available=False,
        hands={DRAGON: [], DWARVES: ["W03", "W03"]},
        piles={DRAGON: 0},
    )
    state, events = act(state, DWARVES, {"type": "draw"})
    assert {"type": "passed", "side": DRAGON} in events
    assert to_move(state) == DWARVES and state["turn"]["actions_left"] == 2


def test_c5_dragon_plays_its_last_card_and_passes_the_rest():
    state = position(hands={DRAGON: ["G02"]}, piles={DRAGON: 0})
    state, events = act(state, DRAGON, play(DRAGON, "G02", "DMOVE:2", to="0,1"))
    assert {"type": "passed", "side": DRAGON} in events
    assert to_move(state) == DWARVES


def test_c18_netted_dragon_without_cards_frees_itself():
    state = position(
        to_move=DWARVES,
        actions_left=1,
        fury_available=False,
        netted=True,
        hands={DRAGON: [], DWARVES: ["W03", "W03"]},
        piles={DRAGON: 0},
    )
    state, events = act(state, DWARVES, {"type": "draw"})
    assert {"type": "freed", "auto": True} in events
    assert not state["dragon"]["netted"] and state["net_available"]
    assert to_move(state) == DWARVES


def test_s37_freeing_needs_the_whole_turn():
    state = position(netted=True, hands={DRAGON: ["G04", "G07"]})
    assert {"type": "free"} in legal(state, DRAGON)
    state, _ = act(state, DRAGON, play(DRAGON, "G07", "FIRE:1", dir=1))
    with pytest.raises(IllegalAction, match="whole turn"):
        act(state, DRAGON, {"type": "free"})
    state, _ = act(state, DRAGON, {"type": "draw"})
    assert state["dragon"]["netted"] and to_move(state) == DWARVES


def test_freeing_returns_the_net_which_may_be_thrown_again_next_turn():
    state = position(netted=True, hands={DRAGON: ["G04"], DWARVES: ["W10", "W03"]})
    state, events = act(state, DRAGON, {"type": "free"})
    assert {"type": "freed", "auto": False} in events
    assert not state["dragon"]["netted"] and state["net_available"]
    assert to_move(state) == DWARVES
    state, _ = act(state, DWARVES, play(DWARVES, "W10", "NET"))
    assert state["dragon"]["netted"]


def test_c9_net_stays_when_the_net_dwarf_dies():
    state = position(
        dwarves={"net": "1,0"},
        wounds={"net": 3},
        netted=True,
        hands={DRAGON: ["G04", "G02"], DWARVES: ["W10"]},
    )
    state, _ = act(state, DRAGON, play(DRAGON, "G04", "BITE:2", dwarf="net"))
    assert state["dwarves"]["net"]["at"] is None and state["dragon"]["netted"]


def test_s39_fury():
    state = position(to_move=DWARVES, hands={DWARVES: ["W03", "W03", "W03"]})
    state, events = act(state, DWARVES, {"type": "fury"})
    assert state["dwarves"]["fury"]["wounds"] == 1
    assert state["turn"]["actions_left"] == 3 and not state["fury_available"]
    assert "fury" in types(events)
    with pytest.raises(IllegalAction):
        act(state, DWARVES, {"type": "fury"})


def test_fury_not_in_the_dragons_turn():
    state = position(hands={DRAGON: ["G02"]})
    with pytest.raises(IllegalAction, match="not your turn"):
        act(state, DWARVES, {"type": "fury"})


def test_fury_after_both_actions_before_handing_over():
    state = position(to_move=DWARVES, actions_left=1, hands={DWARVES: ["W03", "W06"]})
    state, _ = act(state, DWARVES, {"type": "draw"})
    assert state["pending"] == {"kind": "turn_end", "side": DWARVES}
    state, _ = act(state, DWARVES, {"type": "fury"})
    assert state["pending"] is None and state["turn"]["actions_left"] == 1
    state, _ = act(state, DWARVES, {"type": "draw"})
    assert to_move(state) == DRAGON  # fury gone: the turn passes by itself
