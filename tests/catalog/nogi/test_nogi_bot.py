"""Nogi za pas!: the bot (games/catalog/nogi/bot.py)."""

from __future__ import annotations

import json

import pytest

from games.catalog.nogi.bot import choose, colour_weights, predict
from games.catalog.nogi.builders import build_state
from games.catalog.nogi.rules import GAME, action_move, legal_moves, move_action
from games.engine.rng import Rng


def perturb_hidden(state, seat):
    """Change every secret ``seat`` may not know; the bot must not notice."""
    other = json.loads(json.dumps(state))
    for other_seat in range(other["n_players"]):
        if other_seat != seat:
            other["collected"][other_seat] = [3 - v for v in other["collected"][other_seat]]
    dealt = {index for shields in other["shields"] for index in shields}
    unused = [index for index in range(7) if index not in dealt]
    others = [s for s in range(other["n_players"]) if s != seat]
    pool = [index for s in others for index in other["shields"][s]] + unused
    pool = pool[1:] + pool[:1]
    for s in others:
        count = len(other["shields"][s])
        other["shields"][s], pool = pool[:count], pool[count:]
    other["bunnies"] = {field: 3 - value for field, value in other["bunnies"].items()}
    other["dragon_stack"] = list(reversed(other["dragon_stack"]))
    other["rng"] = Rng.from_seed("different").dump()
    return other


@pytest.mark.parametrize("level", ["random", "heuristic"])
def test_bot_returns_a_legal_action_deterministically(level):
    state = GAME.setup(4, {}, "bot-legal")
    seat = state["active"]
    first = choose(state, seat, Rng.from_seed("same"), level)
    second = choose(state, seat, Rng.from_seed("same"), level)
    assert first == second
    assert first in GAME.legal_actions(state, seat)


def test_bot_refuses_to_act_out_of_turn_or_with_an_unknown_level():
    state = GAME.setup(3, {"first_player": "host"}, "bot-turn")
    with pytest.raises(ValueError):
        choose(state, 1, Rng.from_seed("x"))
    with pytest.raises(ValueError):
        choose(state, 0, Rng.from_seed("x"), level="grandmaster")


def test_bot_only_uses_what_its_seat_may_see():
    for i in range(40):
        state = GAME.setup(2 + i % 6, {}, f"bot-blind-{i}")
        rng = Rng.from_seed(f"walk-{i}")
        for _ in range(i % 15):
            if state["over"]:
                break
            legal = GAME.legal_actions(state, state["active"])
            state, _ = GAME.apply(state, state["active"], rng.choice(legal))
        if state["over"]:
            continue
        seat = state["active"]
        other = perturb_hidden(state, seat)
        assert choose(state, seat, Rng.from_seed("r")) == choose(other, seat, Rng.from_seed("r"))


def test_colour_weights_favour_own_colours():
    state = build_state(3, shields=[[0], [1], [2]], roll={})
    weights = colour_weights(GAME.view(state, 0))
    for colour in ("yellow", "green", "purple"):  # S1
        assert weights[colour] > 0
    for colour in ("orange", "blue", "pink", "black"):
        assert weights[colour] < 0


def test_colour_weights_two_players_count_the_shared_colour_twice():
    state = build_state(2, shields=[[0, 4], [1, 2]], roll={})
    weights = colour_weights(GAME.view(state, 0))
    assert weights["yellow"] > weights["green"] > 0


def test_bot_does_not_abandon_its_own_knight_to_the_dragon():
    # Seat 0 holds S1 {yellow, green, purple}; green and pink face the dragon on 13.
    board = {
        "green": 13,
        "pink": 13,
        "yellow": 16,
        "orange": 18,
        "purple": 20,
        "blue": 22,
        "black": 24,
    }
    state = build_state(
        3, shields=[[0], [1], [3]], board=board, dragon=13, roll={"white": ("NUM_ANY", 4)}
    )
    for seed in range(10):
        action = choose(state, 0, Rng.from_seed(f"abandon-{seed}"))
        assert action["die"] != "white" or action["knight"] != "pink"


def test_bot_sends_an_opponent_colour_to_the_cowards_space():
    # Yellow (ours) and blue (not ours) both stand on 34 with an empty castle: the
    # first to arrive gets X. The bot pushes blue in, leaving yellow heading for 5.
    board = {
        "yellow": 34,
        "blue": 34,
        "black": 30,
        "pink": 29,
        "green": 10,
        "orange": 10,
        "purple": 10,
    }
    state = build_state(
        3,
        shields=[[0], [1], [3]],
        board=board,
        aside=["yellow", "orange", "purple", "pink", "black", "blue"],
        roll={"white": ("NUM_ANY", 4), "green": ("NUM", 2)},
        check=False,
    )
    for seed in range(5):
        action = choose(state, 0, Rng.from_seed(f"coward-{seed}"))
        assert action == {"type": "use_die", "die": "white", "knight": "blue"}


def test_predict_counts_bunnies_and_defeats_from_the_view():
    board = {
        "orange": 16,
        "blue": 20,
        "pink": 13,
        "green": 13,
        "yellow": 15,
        "purple": 22,
        "black": 24,
    }
    state = build_state(3, board=board, dragon=13, roll={"white": "ONE_PLUS_ONE"})
    view = GAME.view(state, 0)
    outcome = predict(view, {"type": "use_die", "die": "white", "knights": ["orange", "pink"]})
    assert outcome["bunnies"] == 1
    assert outcome["defeated"] == ["green"]
    assert outcome["board"]["orange"] == 17 and outcome["board"]["pink"] == 14


def _knight_values_reference(board, castle, dragon):
    """The heuristic's knight values as first written (every field against every other):
    the faster ``knight_values`` must give exactly these."""
    from games.catalog.nogi import bot as nogi_bot
    from games.catalog.nogi import components as NC

    values = dict.fromkeys(NC.COLOURS, 0.0)
    for index, space in enumerate(castle):
        for colour in space:
            values[colour] = NC.CASTLE_POINTS[index] if index < len(NC.CASTLE_POINTS) else 0.0
    taken = len(castle)
    level_at = {}
    for field in board.values():
        level_at[field] = level_at.get(field, 0) + 1
    expected_at = {}
    for field, level in level_at.items():
        ahead = sum(count for other, count in level_at.items() if other > field)
        places = [taken + ahead + offset for offset in range(level)]
        expected = sum(
            NC.CASTLE_POINTS[p] if p < len(NC.CASTLE_POINTS) else nogi_bot.BACKMARKER_VALUE
            for p in places
        ) / len(places)
        if field - dragon <= nogi_bot.DANGER_DISTANCE:
            expected *= 1 - (nogi_bot.LONE_DANGER if level == 1 else nogi_bot.GROUP_DANGER)
        expected_at[field] = expected
    for colour, field in board.items():
        values[colour] = expected_at[field]
    return values


def test_knight_values_equal_the_first_written_ones_on_random_positions():
    from games.catalog.nogi import bot as nogi_bot
    from games.catalog.nogi import components as NC

    rng = Rng.from_seed("knight-values")
    for _case in range(3000):
        colours = rng.shuffled(list(NC.COLOURS))
        on_board = rng.below(len(colours) + 1)
        spread = rng.choice([3, 8, 36])  # narrow spreads put knights on shared fields
        board = {c: 1 + rng.below(spread) for c in colours[:on_board]}
        rest = colours[on_board:]
        castle = [[c] for c in rest[: rng.below(len(rest) + 1)]]
        dragon = rng.below(30)
        assert nogi_bot.knight_values(board, castle, dragon) == _knight_values_reference(
            board, castle, dragon
        )


def _bot_positions(games=12):
    """Every position of bot games of 2 to 7 players (a random move in four)."""
    for index in range(games):
        state = GAME.setup(2 + index % 6, {}, f"nogi-speed-{index}")
        rng = Rng.from_seed(f"nogi-speed-{index}")
        while GAME.current_seats(state):
            seat = GAME.current_seats(state)[0]
            yield state, seat
            level = "random" if rng.below(4) == 0 else "heuristic"
            state, _events = GAME.apply(state, seat, choose(state, seat, rng, level))


def test_the_decision_scorer_equals_score_action_on_every_legal_action():
    """``_scorer`` (what the heuristic and the strong level's rollouts use) gives
    exactly ``score_action``'s number for every legal action along bot games."""
    from games.catalog.nogi import bot as nogi_bot

    compared = 0
    for state, seat in _bot_positions():
        view = GAME.view(state, seat)
        weights = colour_weights(view)
        score = nogi_bot._scorer(view)
        for action in GAME.legal_actions(state, seat):
            expected = nogi_bot.score_action(view, action, weights)
            assert score(action_move(action)) == expected, action
            compared += 1
    assert compared > 5000


def test_the_decision_scorer_equals_score_action_on_random_positions():
    """Random boards, castles, dragons and rolls, the knights crowded about the
    dragon or the castle, where a move defeats a knight left alone with the
    dragon, takes a castle space, lands on an empty field or on a bunny:
    ``_scorer`` gives ``score_action``'s very number for every legal action of
    every seat. Positions no game reaches are skipped (``refuse_impossible``)."""
    from games.catalog.nogi import bot as nogi_bot
    from games.catalog.nogi import components as NC
    from games.catalog.nogi.builders import DEFAULT_TEST_BUNNIES, build_state

    rng = Rng.from_seed("scorer-random")
    compared = built = 0
    for _case in range(2500):
        colours = rng.shuffled(list(NC.COLOURS))
        in_castle = rng.below(4)
        dragon = rng.choice([0, 0, 1 + rng.below(30)])
        start = rng.choice([max(1, dragon), max(1, dragon - 2), 28, 1 + rng.below(30)])
        spread = rng.choice([2, 4, 9])
        board = {c: min(NC.LAST_FIELD, start + rng.below(spread)) for c in colours[in_castle:]}
        pool = [die for die in NC.DICE if die == NC.WHITE or die in board]
        roll = {die: rng.choice(list(NC.DIE_SPECS[die].faces)) for die in pool}
        # Some bunnies still out, on fields no knight stands on; seat 0 took the rest.
        bunnies = {
            field: value
            for field, value in DEFAULT_TEST_BUNNIES.items()
            if field not in board.values() and rng.below(2)
        }
        taken = [v for f, v in DEFAULT_TEST_BUNNIES.items() if f not in bunnies]
        players = 2 + rng.below(4)
        try:
            state = build_state(
                players,
                board=board,
                castle=colours[:in_castle],
                dragon=dragon,
                bunnies=bunnies,
                collected=[taken] + [[] for _ in range(players - 1)],
                roll=roll,
            )
        except ValueError:
            continue
        built += 1
        for seat in range(state["n_players"]):
            state["active"] = seat
            view = GAME.view(state, seat)
            weights = colour_weights(view)
            score = nogi_bot._scorer(view)
            for action in GAME.legal_actions(state, seat):
                expected = nogi_bot.score_action(view, action, weights)
                assert score(action_move(action)) == expected, (state, action)
                compared += 1
    assert built > 1000 and compared > 50_000


def test_the_legal_moves_in_short_are_the_legal_actions():
    """``legal_moves`` lists the legal actions in their order, each turned back
    into its action by ``move_action``, and ``action_move`` is its inverse."""
    compared = 0
    for state, _seat in _bot_positions(6):
        for other in range(state["n_players"]):
            legal = GAME.legal_actions(state, other)
            moves = legal_moves(state, other)
            assert [move_action(move) for move in moves] == legal
            assert [action_move(action) for action in legal] == moves
            compared += len(legal)
    assert compared > 2000


def test_the_heuristic_on_moves_chooses_what_it_chooses_on_actions():
    """The heuristic picks among ``legal_moves`` what ``choose_best`` picks among
    the legal actions, with the same draws: the same action, the same rng after."""
    from games.catalog.nogi import bot as nogi_bot
    from games.catalog.nogi.rules import sight_view
    from games.engine.bots import choose_best

    compared = 0
    for index, (state, seat) in enumerate(_bot_positions(8)):
        short, full = Rng.from_seed(f"pick-{index}"), Rng.from_seed(f"pick-{index}")
        action = choose_best(
            GAME, state, seat, full, "heuristic", nogi_bot._action_scorer, sight_view
        )
        assert choose(state, seat, short) == action
        assert short.dump() == full.dump()
        compared += 1
    assert compared > 300


def test_the_schema_copy_equals_the_generic_copy_and_shares_nothing():
    from games.catalog.nogi.rules import copy_state
    from games.engine.state import clone
    from games.engine.testing import shared_containers

    checked = 0
    for state, _seat in _bot_positions(6):
        copied = copy_state(state)
        assert copied == clone(state)
        assert not shared_containers(copied, state)
        checked += 1
    extra = dict(state, extra={"nested": [[1]]})
    copied = copy_state(extra)
    copied["extra"]["nested"][0].append(2)
    assert extra["extra"] == {"nested": [[1]]}
    assert checked > 200


def test_the_bots_part_of_the_view_equals_the_view():
    """``sight_view`` (what the heuristic reads in the rollouts) holds the view's own
    values for every key the scorer reads, and the scores from it are the view's."""
    from games.catalog.nogi import bot as nogi_bot
    from games.catalog.nogi.rules import SIGHT_KEYS, SIGHT_ME_KEYS, sight_view

    compared = 0
    for state, seat in _bot_positions(6):
        view = GAME.view(state, seat)
        part = sight_view(state, seat)
        assert {key: part[key] for key in SIGHT_KEYS} == {key: view[key] for key in SIGHT_KEYS}
        assert part["me"] == {key: view["me"][key] for key in SIGHT_ME_KEYS}
        legal = GAME.legal_actions(state, seat)
        fast, slow = nogi_bot._scorer(part), nogi_bot._scorer(view)
        moves = [action_move(action) for action in legal]
        assert [fast(move) for move in moves] == [slow(move) for move in moves]
        compared += 1
    assert compared > 200
