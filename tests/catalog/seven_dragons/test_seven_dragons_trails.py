"""The goals' public trails (rules version 2) and the hidden goals they make likely.

A trail counts, for one goal card, the colours whose largest group its holders
grew by laying or moving a card. Trails travel with the goals when they are
traded or rotated. The strong bot's samples deal the hidden goals by them;
matches of rules version 1 have none and play and replay as they did.
"""

from __future__ import annotations

from collections import Counter

import pytest

from games.catalog.seven_dragons import bot
from games.catalog.seven_dragons import components as C
from games.catalog.seven_dragons.builders import position
from games.catalog.seven_dragons.rules import GAME, TRAIL_WEIGHT
from games.engine.base import resolve_options
from games.engine.replay import replay
from games.engine.rng import Rng
from games.engine.testing import play_random_game
from tests.catalog.seven_dragons.helpers import play_action

GOALS = ["red", "blue", "green"]  # seats 0-2; the imaginary seats hold gold, black
RED, GOLD, BLUE, GREEN, BLACK = range(5)  # indexes in C.COLOURS


def trail(*counts):
    return [counts.count(i) for i in range(len(C.COLOURS))]


def test_the_colours_order_is_the_trails_order():
    assert C.COLOURS == ("red", "gold", "blue", "green", "black")


def test_a_new_match_starts_with_an_empty_trail_for_each_of_the_five_goals():
    state = GAME.setup(3, resolve_options(GAME, {}), "trails-new")
    assert state["trails"] == [[0] * 5 for _goal in range(5)]
    assert GAME.view(state, 1)["trails"] == state["trails"]
    assert GAME.view(state, None)["trails"] == state["trails"]


def test_laying_a_card_counts_the_colours_whose_largest_group_it_grows():
    # The red-blue card joins the red pair (red grows to 3); its blue half joins no
    # blue card, so blue's largest group (the two blue cards by the wild silver dragon)
    # stays as it was.
    state = position(
        board={"1,0": "DR-S-red", "-1,0": "DR-S-blue", "0,1": "DR-S-blue"},
        hands=[["DR-H-red-blue"], [], []],
        goals=GOALS,
    )
    before = GAME.view(state, 0)["largest"]
    new, _events = GAME.apply(
        state, 0, {"type": "place", "card": "DR-H-red-blue", "cell": "2,0", "rot": 0}
    )
    after = GAME.view(new, 0)["largest"]
    grown = [i for i, c in enumerate(C.COLOURS) if after[c] > before[c]]
    assert grown == [RED]
    assert new["trails"][0] == trail(RED)
    assert all(t == [0] * 5 for t in new["trails"][1:])


def test_a_trail_belongs_to_the_goal_and_travels_with_it_in_a_trade():
    state = position(hands=[["ACT-TRADEGOALS"], [], []], goals=GOALS)
    state["trails"][0] = trail(RED, RED)
    state["trails"][4] = trail(BLACK)
    state, _ = play_action(state, 0, "ACT-TRADEGOALS")
    new, _events = GAME.apply(state, 0, {"type": "trade_goals", "with": 4})
    assert new["goals"][4] == "red" and new["trails"][4] == trail(RED, RED)
    assert new["goals"][0] == "black" and new["trails"][0] == trail(BLACK)


@pytest.mark.parametrize("direction", ["clockwise", "counterclockwise"])
def test_trails_rotate_with_the_goals(direction):
    state = position(hands=[["ACT-ROTATE"], [], []], goals=GOALS)
    state["trails"] = [trail(i) for i in range(5)]
    state, _ = play_action(state, 0, "ACT-ROTATE")
    new, _events = GAME.apply(state, 0, {"type": "rotate", "direction": direction})
    for goal in range(5):
        colour = new["goals"][goal]
        origin = state["goals"].index(colour)
        assert new["trails"][goal] == state["trails"][origin]


def test_trails_follow_the_goals_along_random_games():
    """Each goal card's trail is the same list wherever the goal goes: the trails,
    read by goal colour, only ever grow."""
    for index in range(6):
        run = play_random_game(GAME, 2 + index % 4, {}, f"trails-{index}", thorough=False)
        state = GAME.setup(len(run.final["hands"]), run.options, run.seed)
        by_colour = {c: [0] * 5 for c in C.COLOURS}
        for seat, action in run.moves:
            state, _events = GAME.apply(state, seat, action)
            for goal, colour in enumerate(state["goals"]):
                now = state["trails"][goal]
                assert all(a >= b for a, b in zip(now, by_colour[colour], strict=True))
                by_colour[colour] = list(now)
        assert sum(map(sum, state["trails"])) > 0


def test_a_match_of_rules_version_1_has_no_trails_and_replays_as_then():
    run = play_random_game(GAME, 3, {}, "trails-v1", thorough=False)
    old = GAME.setup_for(1, 3, run.options, run.seed)
    assert "trails" not in old and GAME.view(old, 0)["trails"] is None
    state = old
    for seat, action in run.moves:
        state, _events = GAME.apply(state, seat, action)
        assert "trails" not in state
    # The same moves: the game is the same game, only the bookkeeping differs.
    assert {k: v for k, v in run.final.items() if k != "trails"} == state
    assert replay(GAME, 3, run.options, run.seed, run.moves, rules_version=1) == state
    assert GAME.knows_rules_version(1) and GAME.knows_rules_version(2)


def sampled_goals(state, seat, samples=300):
    rng = Rng.from_seed("trails-sample")
    return Counter(
        tuple(GAME.sample_secrets(state, seat, rng)["goals"]) for _sample in range(samples)
    )


def test_a_samples_hidden_goals_follow_the_trails():
    state = position(hands=[["DR-Q01"], ["DR-Q02"]], goals=["red", "blue"], deck=20)
    # Seat 1's goal has grown blue five times: blue is far likelier than any other.
    state["trails"][1] = trail(*[BLUE] * 5)
    seen = sampled_goals(state, 0)
    opponent = Counter(goals[1] for goals, count in seen.items() for _ in range(count))
    assert sum(goals[0] == "red" for goals in seen.elements()) == 300
    share = opponent["blue"] / 300
    # e**(3*5) against 3 others at 1: all but certain.
    assert TRAIL_WEIGHT == 3.0 and share > 0.99
    # Without any trail the four colours are alike.
    state["trails"][1] = [0] * 5
    blind = Counter(goals[1] for goals in sampled_goals(state, 0).elements())
    assert set(blind) == {"gold", "blue", "green", "black"}
    assert all(40 <= count <= 110 for count in blind.values())


def test_a_sample_never_gives_a_player_a_colour_already_seven_strong_whatever_the_trails():
    row = ["DR-S-gold", "DR-S-gold", "DR-H-gold-blue", "DR-H-gold-green", "DR-H-gold-black"]
    board = {f"{i + 1},0": name for i, name in enumerate(row)}
    board["6,0"] = "DR-V-gold-blue"
    board["7,0"] = "DR-V-red-gold"
    state = position(board=board, hands=[["DR-Q01"], ["DR-Q02"]], goals=["red", "blue"])
    assert GAME.view(state, 0)["largest"]["gold"] >= C.WIN_SIZE
    state["trails"][1] = trail(*[GOLD] * 8)  # the trail points at gold, which cannot be
    for goals in sampled_goals(state, 0, 100).elements():
        assert goals[1] != "gold"


def test_a_new_match_replays_its_trails_from_the_log():
    run = play_random_game(GAME, 2, {}, "trails-replay", thorough=False)
    assert "trails" in run.final and sum(map(sum, run.final["trails"])) > 0
    assert replay(GAME, 2, run.options, run.seed, run.moves) == run.final


def test_along_heuristic_games_the_samples_find_the_opponents_goal_far_better_than_blind():
    """From the ninth turn on, samples deal the opponent its real goal in well over
    half the cases (a blind deal: one in four)."""
    hits = total = 0
    for index in range(8):
        state = GAME.setup(2, resolve_options(GAME, {}), f"trail-guess-{index}")
        rng = Rng.from_seed(f"trail-guess-{index}")
        while GAME.current_seats(state):
            seat = GAME.current_seats(state)[0]
            if state["turn"] >= 8:
                opponent = 1 - seat
                for _sample in range(5):
                    sample = GAME.sample_secrets(state, seat, rng)
                    hits += sample["goals"][opponent] == state["goals"][opponent]
                    total += 1
            state, _events = GAME.apply(state, seat, bot.choose(state, seat, rng))
    assert total > 100
    assert hits / total > 0.6
