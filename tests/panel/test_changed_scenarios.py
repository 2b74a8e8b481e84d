"""What each game highlights after a move (issue 26): a position, a move, and the
exact set of board elements its presenter's ``changed`` names for each viewer.

Both views are the same viewer's, so a card only one seat drew is named on
that seat's board alone.
"""

from __future__ import annotations

import pytest

from games.catalog.drako import builders as drako
from games.catalog.drakon import builders as drakon
from games.catalog.nogi import builders as nogi
from games.catalog.seven_dragons import builders as seven_dragons
from games.engine import registry
from games.panel import presenters

SPECTATOR = None


def _changed(key: str, state, seat: int, action: dict):
    """The state after ``action`` and what changed for a spectator and each seat."""
    game = registry.get(key)
    presenter = presenters.get(key)
    assert action in game.legal_actions(state, seat)
    after, _events = game.apply(state, seat, action)
    viewers = [SPECTATOR, *range(len(game.view(state, None).get("hand_counts") or [0, 0]))]
    seen = {
        viewer: presenter.changed(game.view(state, viewer), game.view(after, viewer))
        for viewer in viewers
    }
    return after, seen


def test_nogi_the_knight_moved_and_the_dice_rolled_again():
    """Yellow's die moves the yellow knight from 3 to 4 and is set aside; the pool is
    rolled again, and the dice that came up with another face are named (a die
    showing the same face as before is not)."""
    state = nogi.build_state(2, board={"blue": 5}, rest=3, roll={"green": ("NUM", 2)})
    _after, seen = _changed(
        "nogi", state, 0, {"type": "use_die", "die": "yellow", "knight": "yellow"}
    )
    expected = {"knight:yellow", "die:yellow", "die:green", "die:pink", "die:purple", "die:white"}
    assert seen == {SPECTATOR: expected, 0: expected, 1: expected}


def test_drakon_a_room_laid_and_the_tile_drawn_show_only_to_the_one_who_drew():
    state = drakon.build_state(2, hands=[["empty A2s", "find_coin A1"], ["empty A1"]])
    placed = {"type": "place", "tile": 65, "at": "-1,0", "rot": 0}
    after, seen = _changed("drakon", state, 0, placed)
    # Seat 0 drew tile 2 after laying its room: only seat 0 sees it come into its hand.
    assert seen == {SPECTATOR: {"room:-1,0"}, 0: {"room:-1,0", "hand:2"}, 1: {"room:-1,0"}}
    _after, seen = _changed("drakon", after, 1, {"type": "move", "to": "-1,0"})
    assert seen == {SPECTATOR: {"hero:1"}, 0: {"hero:1"}, 1: {"hero:1"}}


def test_drakon_classic_a_room_laid():
    state = drakon.build_state(2, edition="1e", hands=[["empty A2s"], ["empty A1"]])
    action = {"type": "place", "tile": 58, "at": "-1,0", "rot": 0}
    _after, seen = _changed("drakon_classic", state, 0, action)
    # The first tile of the pile (tile 1, the pile in id order) comes to seat 0.
    assert seen == {SPECTATOR: {"room:-1,0"}, 0: {"room:-1,0", "hand:1"}, 1: {"room:-1,0"}}


def test_seven_dragons_a_card_laid_and_the_next_players_draw():
    state = seven_dragons.position(hands=[["DR-Q04"], ["DR-Q06"]], deck=5)
    action = {"type": "place", "card": "DR-Q04", "cell": "0,-1", "rot": 0}
    _after, seen = _changed("seven_dragons", state, 0, action)
    # The next player draws at the start of their turn: their new card is theirs alone.
    assert seen == {
        SPECTATOR: {"card:0,-1"},
        0: {"card:0,-1"},
        1: {"card:0,-1", "hand:DR-S-blue#1"},
    }


def test_drako_the_dragon_flies_and_a_draw_is_the_drawers_alone():
    state = drako.position()
    game = registry.get("drako")
    move = next(
        a for a in game.legal_actions(state, 0) if a["type"] == "play" and a.get("to") == "0,-2"
    )
    _after, seen = _changed("drako", state, 0, move)
    assert seen == {SPECTATOR: {"figure:dragon"}, 0: {"figure:dragon"}, 1: {"figure:dragon"}}
    _after, seen = _changed("drako", state, 0, {"type": "draw"})
    assert seen == {SPECTATOR: set(), 0: {"hand:0", "hand:1"}, 1: set()}


@pytest.mark.parametrize("key", ["nogi", "drakon", "drakon_classic", "seven_dragons", "drako"])
def test_nothing_is_named_when_nothing_changed(key):
    game = registry.get(key)
    state = game.setup(2, {}, f"same-{key}")
    presenter = presenters.get(key)
    for viewer in (None, 0, 1):
        view = game.view(state, viewer)
        assert presenter.changed(view, view) == set()
