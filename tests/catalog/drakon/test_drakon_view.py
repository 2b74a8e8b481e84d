"""Drakon: what each seat may see (A-2, A-8, D-9, D-21) and which events are private.

Secrecy is tested as non-interference: changing a secret a seat may not know
must leave that seat's serialized view identical.
"""

from __future__ import annotations

import json

from games.catalog.drakon.builders import build_state
from games.catalog.drakon.rules import GAME
from games.engine.rng import Rng

#: Keys that carry secret values; public events must never hold them.
SECRET_KEYS = {"value", "tiles", "under", "gave", "got", "pattern"}
#: Public events that name a tile: it is face up on the board.
PUBLIC_TILE_EVENTS = {"room_placed", "room_removed", "room_destroyed"}


def dump(value):
    return json.dumps(value, sort_keys=True)


def walk(n_players, options, seed, steps):
    """A random position reached by ``steps`` random legal actions."""
    state = GAME.setup(n_players, options, seed)
    rng = Rng.from_seed("walk:" + seed)
    for _ in range(steps):
        if state["over"]:
            break
        seat = GAME.current_seats(state)[0]
        legal = GAME.legal_actions(state, seat)
        state, _ = GAME.apply(state, seat, legal[rng.below(len(legal))])
    return state


def perturb_secrets(state, viewer):
    """Change everything ``viewer`` may not know, keeping every count."""
    other = json.loads(json.dumps(state))
    team = {pool for pool in range(len(other["coins"]))}
    own_pool = viewer % (other["n_players"] // 2) if other["options"]["team_play"] else viewer
    for pool in team - {own_pool}:
        other["coins"][pool] = [4 - value for value in other["coins"][pool]]
    other["hoard"] = [4 - value for value in reversed(other["hoard"])]
    hidden = [tile for seat, hand in enumerate(other["hands"]) if seat != viewer for tile in hand]
    hidden += other["stack"]
    shuffled = hidden[1:] + hidden[:1]
    for seat, hand in enumerate(other["hands"]):
        if seat != viewer:
            other["hands"][seat], shuffled = shuffled[: len(hand)], shuffled[len(hand) :]
    other["stack"] = shuffled
    other["rng"] = Rng.from_seed("another").dump()
    return other


def test_a_seat_never_sees_other_hands_the_pile_the_hoard_or_others_coins():
    checked = 0
    for i in range(30):
        options = {"team_play": True} if i % 3 == 0 else {"heroes": i % 2 == 0}
        n_players = 4 if i % 3 == 0 else 2 + i % 5
        state = walk(n_players, options, f"secret-{i}", 20 + i * 3)
        if state["over"]:
            continue
        for viewer in range(n_players):
            other = perturb_secrets(state, viewer)
            assert dump(GAME.view(state, viewer)) == dump(GAME.view(other, viewer))
            checked += 1
    assert checked > 50


def test_own_secrets_are_shown_and_others_only_as_counts():
    state = build_state(
        3,
        hands=[["find_coin A1", "portal"], ["empty A1"], []],
        coins=[[3, 1], [2], []],
    )
    view = GAME.view(state, 0)
    assert view["me"] == {
        "seat": 0,
        "hero": "knight",
        "hand": [
            {"tile": state["hands"][0][0], "room": "find_coin", "pattern": "A1"},
            {"tile": state["hands"][0][1], "room": "portal", "pattern": "A0"},
        ],
        "coins": [1, 3],
        "gold": 4,
    }
    assert view["hands"] == [2, 1, 0] and view["coins"] == [2, 1, 0]
    assert view["stack"] == len(state["stack"]) and view["hoard"] == len(state["hoard"])
    spectator = GAME.view(state, None)
    assert spectator["me"] is None and spectator["viewer"] is None
    assert GAME.view(state, 7)["me"] is None


def test_the_view_describes_the_board_and_figures_for_a_presenter():
    state = build_state(
        2, rooms={(1, 0): "find_coin {E}", (0, 1): "portal {}"}, drakon="1,0", heroes=["0,1", "0,0"]
    )
    view = GAME.view(state, 1)
    assert view["board"] == [
        {
            "at": "0,0",
            "x": 0,
            "y": 0,
            "tile": 0,
            "room": "entrance",
            "pattern": "A3",
            "rot": 0,
            "arrows": ["N", "E", "W"],
        },
        {
            "at": "0,1",
            "x": 0,
            "y": 1,
            "tile": state["board"]["0,1"][0],
            "room": "portal",
            "pattern": "A0",
            "rot": 0,
            "arrows": [],
        },
        {
            "at": "1,0",
            "x": 1,
            "y": 0,
            "tile": state["board"]["1,0"][0],
            "room": "find_coin",
            "pattern": "A1",
            "rot": 1,
            "arrows": ["E"],
        },
    ]
    assert view["drakon"] == "1,0" and view["entrance"] == "0,0"
    assert [(h["seat"], h["hero"], h["at"]) for h in view["heroes"]] == [
        (0, "knight", "0,1"),
        (1, "warrior", "0,0"),
    ]
    assert view["pending"] == {"kind": "action", "seat": 0}
    assert view["to_act"] == [0] and view["active"] == 0
    assert view["goal"] == {"gold": 10, "escape_gold": None, "escape_rooms": []}


def test_the_warriors_chosen_tiles_are_shown_only_to_her():
    state = build_state(
        2,
        hero_names=["warrior", "thief"],
        hands=[["empty A1", "portal", "find_coin A1"], []],
        options={"heroes": True},
    )
    tile = state["hands"][0][0]
    new, _ = GAME.apply(state, 0, {"type": "ability", "hero": "warrior", "tile": tile})
    assert GAME.view(new, 0)["pending"]["chosen"] == [
        {"tile": tile, "room": "empty", "pattern": "A1"}
    ]
    assert "chosen" not in GAME.view(new, 1)["pending"]
    assert GAME.view(new, 1)["pending"]["chosen_count"] == 1


def test_coins_are_revealed_once_the_game_is_over():
    state = build_state(
        2,
        rooms={(0, 1): "empty {N}", (1, 0): "empty {E}"},
        heroes=["0,1", "1,0"],
        coins=[[3], [1, 1]],
        decision=False,
    )
    from games.catalog.drakon.builders import start_next_turn

    over, _ = start_next_turn(state)
    view = GAME.view(over, None)
    assert view["revealed"] == {"coins": [[3], [1, 1]]}
    assert view["result"]["ranks"] == [1, 2]
    assert view["pending"] is None


def test_secret_details_travel_only_in_private_events():
    seen_private = set()
    for i in range(40):
        options = [{}, {"heroes": True}, {"team_play": True, "heroes": True}][i % 3]
        n_players = 4 if options.get("team_play") else 2 + i % 5
        state = GAME.setup(n_players, options, f"events-{i}")
        rng = Rng.from_seed(f"events-walk-{i}")
        while not state["over"]:
            seat = GAME.current_seats(state)[0]
            legal = GAME.legal_actions(state, seat)
            kinds = sorted({a["type"] for a in legal})
            kind = kinds[rng.below(len(kinds))]
            choices = [a for a in legal if a["type"] == kind]
            state, events = GAME.apply(state, seat, choices[rng.below(len(choices))])
            for event in events:
                if "private_to" in event:
                    seen_private.add(event["type"])
                    assert 0 <= event["private_to"] < n_players
                    continue
                if event["type"] == "game_over":
                    continue
                assert not SECRET_KEYS & set(event) or event["type"] in PUBLIC_TILE_EVENTS, event
                assert "tile" not in event or event["type"] in PUBLIC_TILE_EVENTS, event
    assert {"tiles_drawn", "coin_found_value"} <= seen_private
