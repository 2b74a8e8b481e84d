"""Drakon: the bot (games/catalog/drakon/bot.py)."""

from __future__ import annotations

import json

import pytest

from games.catalog.drakon.bot import choose
from games.catalog.drakon.builders import build_state
from games.catalog.drakon.rules import GAME
from games.engine.rng import Rng

HEROES = {"heroes": True}


def perturb_hidden(state, seat):
    """Change every secret ``seat`` may not know, keeping every count."""
    other = json.loads(json.dumps(state))
    own_pool = seat % (other["n_players"] // 2) if other["options"]["team_play"] else seat
    for pool in range(len(other["coins"])):
        if pool != own_pool:
            other["coins"][pool] = [4 - value for value in other["coins"][pool]]
    other["hoard"] = [4 - value for value in reversed(other["hoard"])]
    hidden = [tile for s, hand in enumerate(other["hands"]) if s != seat for tile in hand]
    hidden += other["stack"]
    rotated = hidden[1:] + hidden[:1]
    for s, hand in enumerate(other["hands"]):
        if s != seat:
            other["hands"][s], rotated = rotated[: len(hand)], rotated[len(hand) :]
    other["stack"] = rotated
    other["rng"] = Rng.from_seed("different").dump()
    return other


def decide(state, seat=0, seeds=5):
    """The heuristic's choices over a few rngs (ties may differ, the preference must not)."""
    return [choose(state, seat, Rng.from_seed(f"decide-{i}")) for i in range(seeds)]


@pytest.mark.parametrize("level", ["random", "heuristic"])
def test_bot_returns_a_legal_action_deterministically(level):
    state = GAME.setup(4, {}, "bot-legal")
    seat = GAME.current_seats(state)[0]
    first = choose(state, seat, Rng.from_seed("same"), level)
    assert first == choose(state, seat, Rng.from_seed("same"), level)
    assert first in GAME.legal_actions(state, seat)


def test_bot_refuses_to_act_out_of_turn_or_with_an_unknown_level():
    state = build_state(3)
    with pytest.raises(ValueError):
        choose(state, 1, Rng.from_seed("x"))
    with pytest.raises(ValueError):
        choose(state, 0, Rng.from_seed("x"), level="grandmaster")


def test_bot_only_uses_what_its_seat_may_see():
    compared = 0
    for i in range(40):
        options = [{}, HEROES, {"team_play": True, "heroes": True}][i % 3]
        n_players = 4 if options.get("team_play") else 2 + i % 5
        state = GAME.setup(n_players, options, f"bot-blind-{i}")
        rng = Rng.from_seed(f"bot-walk-{i}")
        for _ in range(5 + i * 2):
            if state["over"]:
                break
            seat = GAME.current_seats(state)[0]
            legal = GAME.legal_actions(state, seat)
            state, _ = GAME.apply(state, seat, legal[rng.below(len(legal))])
        if state["over"]:
            continue
        seat = GAME.current_seats(state)[0]
        other = perturb_hidden(state, seat)
        assert choose(state, seat, Rng.from_seed("r")) == choose(other, seat, Rng.from_seed("r"))
        compared += 1
    assert compared > 30


def test_bot_walks_into_a_coin_room_rather_than_placing():
    state = build_state(2, rooms={(0, 1): "find_coin {N}", (1, 0): "empty {E}"}, hands=[["portal"]])
    assert decide(state) == [{"type": "move", "to": "0,1"}] * 5


def test_bot_avoids_drakon():
    state = build_state(
        2,
        rooms={(0, 1): "find_coin {N}", (1, 0): "empty {E}", (2, 0): "empty {E}"},
        drakon="0,1",
        coins=[[2], []],
    )
    assert decide(state) == [{"type": "move", "to": "1,0"}] * 5


def test_bot_places_a_coin_room_where_its_own_arrow_points():
    state = build_state(
        2, rooms={(0, 1): "empty {N}"}, heroes=["0,1", "0,0"], hands=[["find_coin A1"]]
    )
    assert {action["at"] for action in decide(state)} == {"0,2"}


def test_bot_places_lose_a_coin_in_front_of_an_opponent():
    state = build_state(
        2,
        rooms={(1, 0): "empty {E}"},
        heroes=["0,0", "1,0"],
        hands=[["lose_coin A2s"]],
        coins=[[], [2]],
    )
    assert {action["at"] for action in decide(state)} == {"2,0"}


def test_bot_sends_drakon_to_an_opponent_with_coins_and_away_from_itself():
    state = build_state(
        2,
        rooms={(0, 1): "drakon_moves {N}", (1, 0): "empty {E}", (2, 0): "empty {E}"},
        heroes=["0,0", "2,0"],
        drakon="1,0",
        coins=[[], [3]],
    )
    moved, _ = GAME.apply(state, 0, {"type": "move", "to": "0,1"})
    assert decide(moved) == [{"type": "drakon_move", "to": "2,0"}] * 5


def test_bot_uses_its_heroes_sensibly():
    druid = build_state(
        2,
        rooms={(0, 1): "lose_coin {N}"},
        hero_names=["druid", "thief"],
        coins=[[2], []],
        options=HEROES,
    )
    asked, _ = GAME.apply(druid, 0, {"type": "move", "to": "0,1"})
    assert decide(asked) == [{"type": "protect"}] * 5
    thief = build_state(
        2,
        rooms={(0, 1): "empty {N}"},
        hero_names=["thief", "druid"],
        coins=[[], [3]],
        hands=[["empty A1"], []],
        options=HEROES,
    )
    assert decide(thief) == [{"type": "ability", "hero": "thief", "target": 1}] * 5
    ranger = build_state(
        2,
        rooms={(0, 1): "empty {N}", (0, 2): "find_coin {N}"},
        heroes=["0,1", "0,0"],
        hero_names=["ranger", "thief"],
        hands=[["portal"], []],
        options=HEROES,
    )
    first = decide(ranger)[0]
    assert first == {"type": "ability", "hero": "ranger", "to": "0,2"} or first["type"] == "move"
    assert GAME.legal_actions(ranger, 0)  # and it never ignores a coin two steps away:
    after, _ = GAME.apply(
        ranger, 0, {"type": "place", "tile": ranger["hands"][0][0], "at": "-1,0", "rot": 0}
    )
    assert decide(after) == [{"type": "ability", "hero": "ranger", "to": "0,2"}] * 5


def test_bot_chooses_a_hero_by_preference():
    state = GAME.setup(2, HEROES, "bot-hero")
    seat = GAME.current_seats(state)[0]
    assert decide(state, seat) == [{"type": "choose_hero", "hero": "thief"}] * 5
