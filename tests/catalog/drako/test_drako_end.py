"""The endings (R-1, R-11, R-12, C1), checked after every resolved effect."""

from __future__ import annotations

from games.catalog.drako.builders import position
from games.catalog.drako.rules import GAME, seat_of
from tests.catalog.drako.helpers import DRAGON, DWARVES, act, legal, play, to_move, types


def test_s41_dwarves_play_their_last_card():
    state = position(
        to_move=DWARVES,
        dwarves={"fury": "1,0"},
        dragon_tracks={"armour": 4, "fly": 1},
        hands={DWARVES: ["W05"], DRAGON: ["G11"]},
        piles={DWARVES: 0},
    )
    state, _ = act(state, DWARVES, play(DWARVES, "W05", "ATK1:1", dwarf="fury"))
    assert to_move(state) == DRAGON  # the attack resolves fully first
    state, events = act(state, DRAGON, legal(state, DRAGON)[0])
    assert state["winner"] == DRAGON and state["end_reason"] == "dwarves_out_of_cards"
    assert state["turn"]["actions_left"] == 1  # they had an action left
    result = GAME.result(state)
    assert result.ranks[seat_of(state, DRAGON)] == 1 and result.ranks[seat_of(state, DWARVES)] == 2
    assert GAME.current_seats(state) == []


def test_s41_unblocked_last_card_that_does_not_kill():
    state = position(
        to_move=DWARVES,
        dwarves={"fury": "1,0"},
        dragon_tracks={"armour": 4, "fly": 1},
        hands={DWARVES: ["W05"], DRAGON: ["G02"]},
        piles={DWARVES: 0},
    )
    state, _ = act(state, DWARVES, play(DWARVES, "W05", "ATK1:1", dwarf="fury"))
    assert state["pending"]["kind"] == "wound"  # the dwarves still place the wound
    state, _ = act(state, DWARVES, {"type": "wound", "track": "fire"})
    assert state["winner"] == DRAGON


def test_last_card_that_kills_the_dragon_is_a_dwarf_win():
    state = position(
        to_move=DWARVES,
        dwarves={"fury": "1,0"},
        dragon_tracks={"armour": 4, "fly": 2, "move": 2, "fire": 1},
        hands={DWARVES: ["W05"], DRAGON: ["G02"]},
        piles={DWARVES: 0},
    )
    state, _ = act(state, DWARVES, play(DWARVES, "W05", "ATK1:1", dwarf="fury"))
    assert state["winner"] == DWARVES and state["end_reason"] == "dragon_killed"


def test_s43_last_card_spent_as_a_reaction():
    state = position(
        dwarves={"fury": "1,0"}, hands={DWARVES: ["W11"], DRAGON: ["G04"]}, piles={DWARVES: 0}
    )
    state, _ = act(state, DRAGON, play(DRAGON, "G04", "BITE:2", dwarf="fury"))
    state, events = act(state, DWARVES, legal(state, DWARVES)[0])
    assert state["winner"] == DRAGON and state["end_reason"] == "dwarves_out_of_cards"


def test_an_empty_pile_alone_ends_nothing():
    state = position(to_move=DWARVES, hands={DWARVES: ["W03", "W03"]}, piles={DWARVES: 0})
    assert {"type": "draw"} not in legal(state, DWARVES)
    state, _ = act(state, DWARVES, play(DWARVES, "W03", "MOVE2:1"))
    state, _ = act(state, DWARVES, {"type": "stop"})
    assert state["phase"] == "play"


def test_all_dwarves_dead():
    state = position(
        dwarves={"xbow": None, "net": None, "fury": "1,0"},
        wounds={"fury": 5},
        hands={DRAGON: ["G04"]},
    )
    state, events = act(state, DRAGON, play(DRAGON, "G04", "BITE:2", dwarf="fury"))
    assert state["winner"] == DRAGON and state["end_reason"] == "dwarves_killed"
    assert types(events)[-1] == "game_over"


def test_fire_kills_two_dwarves_at_once():
    state = position(
        dwarves={"xbow": None, "net": "1,0", "fury": "2,0"},
        wounds={"net": 3, "fury": 5},
        hands={DRAGON: ["G07"], DWARVES: ["W03"]},
    )
    state, _ = act(state, DRAGON, play(DRAGON, "G07", "FIRE:1", dir=0))
    assert state["winner"] == DRAGON


def test_fury_that_kills_the_last_dwarf():
    state = position(
        to_move=DWARVES,
        dwarves={"xbow": None, "net": None},
        wounds={"fury": 5},
        hands={DWARVES: ["W03"]},
    )
    state, _ = act(state, DWARVES, {"type": "fury"})
    assert state["winner"] == DRAGON and state["end_reason"] == "dwarves_killed"


def test_view_shows_the_result_and_reveals_hands():
    state = position(
        dwarves={"xbow": None, "net": None, "fury": "1,0"},
        wounds={"fury": 5},
        hands={DRAGON: ["G04", "G11"], DWARVES: ["W03"]},
    )
    state, _ = act(state, DRAGON, play(DRAGON, "G04", "BITE:2", dwarf="fury"))
    view = GAME.view(state, None)
    assert view["over"] and view["result"]["details"]["winner"] == DRAGON
    assert view["revealed"][DWARVES] == state["hands"][DWARVES]
