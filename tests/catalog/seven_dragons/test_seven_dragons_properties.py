"""Seven Dragons: random games over 2-5 players and every option (games.engine.testing).

Every step the harness checks ``check_invariants`` (all 72 cards and 5 goals
conserved, the silver dragon fixed at 0,0, only actions on the pile, no
completed goal of a real player left unnoticed), plain-JSON states, that
``apply`` never mutates its input, that garbage, forged and out-of-turn
actions are refused, that every game ends, and that replaying the log
rebuilds the final state.
"""

from __future__ import annotations

import pytest

from games.catalog.seven_dragons import components as C
from games.catalog.seven_dragons.rules import GAME, largest_groups, resolved_board
from games.engine.testing import play_random_game, run_many

OPTIONS = GAME.option_matrix(3)


def test_the_option_matrix_is_complete():
    assert len(OPTIONS) == 4
    assert all(len(GAME.option_matrix(n)) == 4 for n in range(2, 6))


def test_random_games_over_two_to_five_players():
    stats = run_many(GAME, 24, options_list=OPTIONS, seed_prefix="sd-property", thorough_every=6)
    assert stats.games == 24
    assert stats.by_players == {2: 6, 3: 6, 4: 6, 5: 6}


@pytest.mark.slow
def test_hundreds_of_random_games():
    stats = run_many(GAME, 150, options_list=OPTIONS, seed_prefix="sd-many", thorough_every=40)
    assert stats.games == 150


def test_random_games_reach_every_ending_action_and_mode():
    seen = set()
    reasons = set()

    def chooser(state, seat, legal, rng):
        for action in legal:
            seen.add(action["type"])
            if action["type"] == "action":
                seen.add((C.ACTIONS[action["card"]], action["mode"]))
        return legal[rng.below(len(legal))]

    for i in range(40):
        run = play_random_game(
            GAME, 2 + i % 4, OPTIONS[i % 4], f"sd-reach-{i}", thorough=False, chooser=chooser
        )
        final = run.final
        reasons.add(final["end_reason"])
        largest = largest_groups(resolved_board(final["board"], final["pile"]))
        if final["end_reason"] == "seven":
            (winner,) = final["winners"]
            assert largest[final["goals"][winner]] >= C.WIN_SIZE
        else:
            assert final["deck"] == []
            best = max(largest[final["goals"][s]] for s in range(len(final["hands"])))
            assert all(largest[final["goals"][s]] == best for s in final["winners"])
    assert reasons == {"seven", "exhausted"}
    expected = {"place", "action", "zap", "lift", "drop", "rotate", "trade_goals", "trade_hands"}
    assert expected <= seen
    for kind in C.ACTION_COLOURS:
        for mode in ("top", "top_no_effect", "bottom"):
            assert (kind, mode) in seen


def test_a_seat_never_sees_another_seats_hand_or_goal():
    state = GAME.setup(4, {}, "sd-view")
    for seat in range(4):
        view = GAME.view(state, seat)
        assert view["my_hand"] == sorted(state["hands"][seat])
        assert view["my_goal"] == state["goals"][seat]
        text = repr(view)
        for other in range(4):
            if other != seat:
                for card in state["hands"][other]:
                    if card not in state["hands"][seat]:
                        assert card not in text
        assert "deck" not in {k for k in view if k != "deck_count"}
    spectator = GAME.view(state, None)
    assert spectator["my_hand"] is None and spectator["my_goal"] is None
    assert spectator["revealed"] is None
