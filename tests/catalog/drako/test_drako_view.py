"""What each seat sees (secrets): its own hand; the other side's hand and pile as counts;
deck orders never."""

from __future__ import annotations

import json

from games.catalog.drako.rules import GAME, seat_of
from games.engine.rng import Rng
from tests.catalog.drako.helpers import DRAGON, DWARVES


def walk(seed, steps):
    state = GAME.setup(2, {"sides": "seat1_dwarves", "exchange": True}, seed)
    rng = Rng.from_seed(seed)
    for _ in range(steps):
        if state["phase"] == "over":
            break
        seat = GAME.current_seats(state)[0]
        legal = GAME.legal_actions(state, seat)
        state, _ = GAME.apply(state, seat, legal[rng.below(len(legal))])
    return state


def test_each_seat_sees_its_own_hand_and_counts_of_the_other():
    state = walk("view", 12)
    for side in (DRAGON, DWARVES):
        view = GAME.view(state, seat_of(state, side))
        assert view["me"]["hand"] == sorted(state["hands"][side])
        other = DWARVES if side == DRAGON else DRAGON
        text = json.dumps(view)
        assert view["hand_counts"][other] == len(state["hands"][other])
        assert view["pile_counts"][other] == len(state["piles"][other])
        assert "piles" not in view and "rng" not in text
    spectator = GAME.view(state, None)
    assert spectator["me"] is None


def test_perturbing_secrets_leaves_every_view_unchanged():
    for i in range(60):
        state = walk(f"perturb-{i}", i * 3)
        for viewer in (None, 0, 1):
            other = GAME.perturb_secrets(state, viewer, Rng.from_seed(f"p{i}"))
            GAME.check_invariants(other)
            assert GAME.view(other, viewer) == GAME.view(state, viewer)
            if viewer is not None and state["phase"] != "over":
                assert GAME.legal_actions(other, viewer) == GAME.legal_actions(state, viewer)


def test_perturbing_changes_what_the_other_seat_holds():
    state = walk("changes", 5)
    changed = GAME.perturb_secrets(state, 0, Rng.from_seed("z"))
    other_side = DRAGON if state["dragon_seat"] == 1 else DWARVES
    assert changed["rng"] != state["rng"]
    assert (changed["hands"][other_side], changed["piles"][other_side]) != (
        state["hands"][other_side],
        state["piles"][other_side],
    )
    mine = DWARVES if other_side == DRAGON else DRAGON
    assert changed["hands"][mine] == state["hands"][mine]
