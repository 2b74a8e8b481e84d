"""Defences are reactions in the attacker's turn (R-3.5, R-6.3, C15): a pending decision of
the defender's seat, skipped when it holds no defence."""

from __future__ import annotations

import pytest

from games.catalog.drako.builders import position
from games.catalog.drako.rules import GAME, seat_of
from games.engine.base import IllegalAction
from tests.catalog.drako.helpers import DRAGON, DWARVES, act, legal, play, to_move, types


def bite_position(dwarf_hand):
    return position(dwarves={"fury": "1,0"}, hands={DRAGON: ["G04", "G02"], DWARVES: dwarf_hand})


def test_the_defender_is_asked_in_the_attackers_turn():
    state = bite_position(["W11", "W03"])
    state, events = act(state, DRAGON, play(DRAGON, "G04", "BITE:2", dwarf="fury"))
    assert GAME.current_seats(state) == [seat_of(state, DWARVES)]
    assert state["turn"]["side"] == DRAGON and state["turn"]["actions_left"] == 1
    assert legal(state, DWARVES) == [
        {"type": "defend", "card": state["hands"][DWARVES][0], "attack": 0},
        {"type": "no_defence"},
    ]
    assert GAME.legal_actions(state, seat_of(state, DRAGON)) == []
    with pytest.raises(IllegalAction, match="not your turn"):
        act(state, DRAGON, {"type": "draw"})
    view = GAME.view(state, seat_of(state, DRAGON))
    assert view["pending"]["kind"] == "defend" and view["to_move"] == [seat_of(state, DWARVES)]


def test_blocking_costs_the_card_not_an_action():
    state = bite_position(["W11", "W03"])
    state, _ = act(state, DRAGON, play(DRAGON, "G04", "BITE:2", dwarf="fury"))
    card = state["hands"][DWARVES][0]
    state, events = act(state, DWARVES, {"type": "defend", "card": card, "attack": 0})
    assert state["dwarves"]["fury"]["wounds"] == 0
    assert card in state["out"][DWARVES] and len(state["hands"][DWARVES]) == 1
    assert {"type": "defended", "side": DWARVES, "card": card, "target": "fury"} in events
    assert to_move(state) == DRAGON and state["turn"]["actions_left"] == 1


def test_taking_the_hit():
    state = bite_position(["W11", "W03"])
    state, _ = act(state, DRAGON, play(DRAGON, "G04", "BITE:2", dwarf="fury"))
    state, events = act(state, DWARVES, {"type": "no_defence"})
    assert state["dwarves"]["fury"]["wounds"] == 2
    assert len(state["hands"][DWARVES]) == 2


def test_a_defender_without_a_defence_is_skipped():
    state = bite_position(["W03", "W06"])
    state, events = act(state, DRAGON, play(DRAGON, "G04", "BITE:2", dwarf="fury"))
    assert state["pending"] is None
    assert state["dwarves"]["fury"]["wounds"] == 2
    assert to_move(state) == DRAGON
    assert "no_defence" not in types(events)


def test_s49_two_option_card_used_as_defence():
    state = bite_position(["W01"])
    state, _ = act(state, DRAGON, play(DRAGON, "G04", "BITE:2", dwarf="fury"))
    card = state["hands"][DWARVES][0]
    state, _ = act(state, DWARVES, {"type": "defend", "card": card, "attack": 0})
    assert state["dwarves"]["fury"]["wounds"] == 0 and card in state["out"][DWARVES]


def test_the_dragon_defends_against_the_crossbow_and_a_netted_dragon_defends():
    state = position(
        to_move=DWARVES,
        dwarves={"xbow": "2,-2"},
        netted=True,
        hands={DWARVES: ["W09"], DRAGON: ["G06"]},
    )
    state, _ = act(state, DWARVES, play(DWARVES, "W09", "XBOW:2"))
    assert to_move(state) == DRAGON
    state, _ = act(state, DRAGON, legal(state, DRAGON)[0])
    assert state["dragon"]["armour"] == 0


def test_fire_defences_one_per_attacked_dwarf():
    state = position(
        dwarves={"fury": "1,0", "net": "2,0"},
        hands={DRAGON: ["G07"], DWARVES: ["W11", "W11", "W01"]},
    )
    state, _ = act(state, DRAGON, play(DRAGON, "G07", "FIRE:1", dir=0))
    defends = [a for a in legal(state, DWARVES) if a["type"] == "defend"]
    # one card per type (W11, W01), each against either open attack
    assert len(defends) == 4
    state, _ = act(state, DWARVES, defends[0])
    assert to_move(state) == DWARVES  # a second defence is still possible
    assert {a["attack"] for a in legal(state, DWARVES) if a["type"] == "defend"} == {1}
    state, _ = act(state, DWARVES, [a for a in legal(state, DWARVES) if a["type"] == "defend"][0])
    assert state["dwarves"]["fury"]["wounds"] == 0 and state["dwarves"]["net"]["wounds"] == 0
    assert len(state["hands"][DWARVES]) == 1


def test_no_reaction_to_the_net_nor_to_fury():
    state = position(to_move=DWARVES, hands={DWARVES: ["W10", "W03"], DRAGON: ["G11", "G11"]})
    state, _ = act(state, DWARVES, {"type": "fury"})
    assert to_move(state) == DWARVES
    state, _ = act(state, DWARVES, play(DWARVES, "W10", "NET"))
    assert to_move(state) == DWARVES and state["dragon"]["netted"]
