"""Drakon's ``perturb_secrets``: what it changes, what it keeps, and that positions stay legal."""

from __future__ import annotations

from games.catalog.drakon.builders import build_state
from games.catalog.drakon.rules import GAME
from games.engine.rng import Rng


def position(**extra):
    """Three seats mid-game: hands, coins in every pool, a hoard and a pile."""
    return build_state(
        3,
        hands=[["find_coin", "empty"], ["portal", "rotate", "swap"], ["harp"]],
        stack=["lose_coin", "destroy", "escape", "empty", "find_coin"],
        **{"coins": [[1, 2], [3, 2], [3]], "hoard": [1, 1, 2, 3, 2], **extra},
    )


def test_a_seat_keeps_its_own_secrets_and_its_view_while_the_others_change():
    state = position()
    rng = Rng.from_seed("perturb")
    changed_hands = changed_coins = 0
    for _ in range(20):
        new = GAME.perturb_secrets(state, 0, rng)
        GAME.check_invariants(new)
        assert GAME.view(new, 0) == GAME.view(state, 0)
        assert GAME.legal_actions(new, 0) == GAME.legal_actions(state, 0)
        assert new["hands"][0] == state["hands"][0] and new["coins"][0] == state["coins"][0]
        assert [len(h) for h in new["hands"]] == [len(h) for h in state["hands"]]
        assert [len(p) for p in new["coins"]] == [len(p) for p in state["coins"]]
        assert len(new["stack"]) == len(state["stack"]) and new["rng"] != state["rng"]
        assert new["board"] == state["board"] and new["heroes"] == state["heroes"]
        changed_hands += new["hands"][1:] != state["hands"][1:]
        changed_coins += new["coins"][1:] != state["coins"][1:]
    assert changed_hands > 10 and changed_coins > 10


def test_a_spectator_sees_every_hand_and_pool_change_and_no_hidden_pool_reaches_the_goal():
    # Seat 1 holds 9 gold in 4 coins; with four 3s in the hoard, a blind
    # reshuffle would often give it 10 or more (the goal), a finished game.
    state = position(coins=[[1], [2, 2, 2, 3], [1]], hoard=[3, 3, 3, 3, 2])
    rng = Rng.from_seed("spectator")
    seen = set()
    for _ in range(30):
        new = GAME.perturb_secrets(state, None, rng)
        GAME.check_invariants(new)
        assert GAME.view(new, None) == GAME.view(state, None)
        assert all(sum(pool) < 10 for pool in new["coins"])
        seen.add(tuple(map(tuple, new["coins"])))
    assert len(seen) > 10


def test_in_team_play_the_team_pool_is_kept_but_the_partners_hand_is_not():
    state = build_state(
        4,
        options={"team_play": True},
        hands=[["find_coin"], ["portal", "empty"], ["rotate", "swap"], ["harp"]],
        coins=[[1, 2, 3], [2, 2]],
    )
    rng = Rng.from_seed("team")
    partner_moved = False
    for _ in range(10):
        new = GAME.perturb_secrets(state, 0, rng)
        assert new["coins"][0] == state["coins"][0]
        assert GAME.view(new, 0) == GAME.view(state, 0)
        partner_moved |= new["hands"][2] != state["hands"][2]
    assert partner_moved


def test_a_warrior_choosing_keeps_the_tiles_already_chosen():
    state = build_state(
        2,
        options={"heroes": True},
        hero_names=["warrior", "thief"],
        hands=[["lose_coin A3", "empty A1", "portal"], ["find_coin"]],
        stack=["find_coin A1", "find_coin A2s", "rotate"],
    )
    chosen = state["hands"][0][0]
    state, _ = GAME.apply(state, 0, {"type": "ability", "hero": "warrior", "tile": chosen})
    assert state["pending"][-1]["kind"] == "warrior"
    rng = Rng.from_seed("warrior")
    for _ in range(10):
        new = GAME.perturb_secrets(state, 1, rng)
        GAME.check_invariants(new)
        assert chosen in new["hands"][0]
        assert GAME.view(new, 1) == GAME.view(state, 1)
        for action in GAME.legal_actions(new, 0):
            GAME.apply(new, 0, action)  # every answer still works on the changed hand


def test_once_the_game_is_over_the_revealed_coins_stay():
    state = build_state(
        2, rooms={(0, 1): "find_coin {N}"}, coins=[[3, 3, 2], [1]], hoard=[2], stack=["empty"]
    )
    over, _ = GAME.apply(state, 0, {"type": "move", "to": "0,1"})
    assert over["over"]
    new = GAME.perturb_secrets(over, None, Rng.from_seed("over"))
    assert new["coins"] == over["coins"]
    assert GAME.view(new, None) == GAME.view(over, None)
