"""The strong bot's search (``games.engine.search`` through ``games.engine.bots``)."""

from __future__ import annotations

import json
import tracemalloc

import pytest

from games.engine import bots, registry, search
from games.engine.rng import Rng
from games.engine.search import Budget
from games.engine.testing import play_random_game

TINY = Budget(iterations=4, seconds=None)


def _positions(key, count=5):
    """Decision points with more than one legal action, along a random game."""
    game = registry.get(key)
    run = play_random_game(game, 2, {}, f"search-{key}", thorough=False)
    state = game.setup(2, run.options, run.seed)
    found = []
    for seat, action in run.moves:
        if len(game.legal_actions(state, seat)) > 1:
            found.append((state, seat))
        state, _events = game.apply(state, seat, action)
    stride = max(1, len(found) // count)
    return found[::stride][:count]


@pytest.mark.parametrize("key", ["nogi", "drako", "seven_dragons", "drakon", "drakon_classic"])
def test_the_strong_bot_plays_only_legal_moves(key):
    game = registry.get(key)
    for index, (state, seat) in enumerate(_positions(key)):
        found = bots.choose_with_report(
            key, state, seat, Rng.from_seed(f"s{index}"), "strong", TINY
        )
        assert found.how == "search" and found.iterations == TINY.iterations
        assert found.action in game.legal_actions(state, seat)


def test_the_same_position_and_seed_give_the_same_move():
    for index, (state, seat) in enumerate(_positions("nogi", 6)):
        first = bots.choose("nogi", state, seat, Rng.from_seed(f"d{index}"), "strong", TINY)
        again = bots.choose("nogi", state, seat, Rng.from_seed(f"d{index}"), "strong", TINY)
        assert first == again


def test_a_single_legal_action_answers_at_once_without_search(monkeypatch):
    game = registry.get("drako")
    state, seat = next(
        (s, seat) for s, seat in _all_positions("drako") if len(game.legal_actions(s, seat)) == 1
    )
    monkeypatch.setattr(type(game), "sample_secrets", _no_sampling)
    found = bots.choose_with_report("drako", state, seat, Rng.from_seed("one"), "strong", TINY)
    assert found.how == "single" and found.iterations == 0
    assert found.action == game.legal_actions(state, seat)[0]


@pytest.mark.parametrize("budget", [Budget(0, 1.0), Budget(10, 0)])
def test_a_budget_of_zero_falls_back_to_the_heuristic(monkeypatch, budget):
    game = registry.get("nogi")
    monkeypatch.setattr(type(game), "sample_secrets", _no_sampling)
    for index, (state, seat) in enumerate(_positions("nogi", 6)):
        found = bots.choose_with_report(
            "nogi", state, seat, Rng.from_seed(f"z{index}"), "strong", budget
        )
        assert found.how == "heuristic"
        assert found.action == bots.choose(
            "nogi", state, seat, Rng.from_seed(f"z{index}"), "heuristic"
        )


def test_the_wall_time_cap_cuts_the_search_short_and_says_so():
    game = registry.get("nogi")
    state, seat = _positions("nogi", 3)[1]
    ticks = iter(range(1000))
    heuristic = registry.registration("nogi").bot_module().choose
    found = search.search(
        game,
        state,
        seat,
        Rng.from_seed("cap"),
        budget=Budget(iterations=500, seconds=3),
        heuristic=lambda s, st, r: heuristic(s, st, r, level="heuristic"),
        clock=lambda: float(next(ticks)),  # one "second" a rollout
    )
    assert found.cut_short
    assert 1 <= found.iterations <= 3
    assert found.action in game.legal_actions(state, seat)


def test_a_search_uses_little_memory():
    state, seat = _positions("drakon", 3)[1]
    tracemalloc.start()
    bots.choose("drakon", state, seat, Rng.from_seed("memory"), "strong", TINY)
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 20_000_000


def test_rewards_rank_the_seat_from_first_to_last():
    game = registry.get("nogi")
    run = play_random_game(game, 3, {}, "reward", thorough=False)
    result = game.result(run.final)
    rewards = [search.reward(game, run.final, seat) for seat in range(3)]
    for a in range(3):
        for b in range(3):
            if result.ranks[a] < result.ranks[b]:
                assert rewards[a] > rewards[b]
            if result.ranks[a] == result.ranks[b]:
                assert rewards[a] == rewards[b]
    assert all(0 <= r <= 1 for r in rewards)


def _all_positions(key):
    game = registry.get(key)
    for index in range(10):
        run = play_random_game(game, 2, {}, f"single-{key}-{index}", thorough=False)
        state = game.setup(2, run.options, run.seed)
        for seat, action in run.moves:
            yield state, seat
            state, _events = game.apply(state, seat, action)


def _no_sampling(*args, **kwargs):
    raise AssertionError("the search ran")


def test_a_game_with_slow_rollouts_caps_its_iterations():
    """A bot module's ``max_iterations`` caps what the settings allow (Seven Dragons 192)."""
    state, seat = _positions("seven_dragons", 2)[0]
    found = bots.choose_with_report(
        "seven_dragons", state, seat, Rng.from_seed("cap"), "strong", Budget(512, None)
    )
    cap = bots.search_settings(registry.registration("seven_dragons").bot_module())
    assert found.iterations == cap["max_iterations"] == 192


def _heuristic(key):
    """The game's heuristic bot as the search's policy."""
    choose = registry.registration(key).bot_module().choose
    return lambda state, seat, rng: choose(state, seat, rng, level="heuristic")


class _Counting:
    """A game whose moves played (``apply`` and the rollouts' ``apply_legal``) are
    counted (the rest is the real game's)."""

    def __init__(self, game):
        self.game, self.applied = game, 0

    def __getattr__(self, name):
        return getattr(self.game, name)

    def apply(self, state, seat, action):
        self.applied += 1
        return self.game.apply(state, seat, action)

    def apply_legal(self, state, seat, action):
        self.applied += 1
        return self.game.apply_legal(state, seat, action)


def test_a_short_rollout_stops_after_its_moves_and_the_evaluator_scores_it():
    """With ``rollout_moves`` and ``evaluate`` each iteration applies the candidate and
    at most that many moves more, and an unfinished sample gets the evaluator's score."""
    real = registry.get("seven_dragons")
    state, seat = _positions("seven_dragons", 4)[1]
    game = _Counting(real)
    scored = []

    def evaluate(sample, who):
        assert who == seat and real.result(sample) is None
        scored.append(sample)
        return 0.25

    found = search.search(
        game,
        state,
        seat,
        Rng.from_seed("short"),
        budget=Budget(iterations=12, seconds=None),
        heuristic=_heuristic("seven_dragons"),
        rollout_moves=2,
        evaluate=evaluate,
    )
    assert found.iterations == 12
    assert game.applied <= 12 * 3
    assert 0 < len(scored) <= 12


def test_without_an_evaluator_rollouts_play_to_the_end():
    real = registry.get("seven_dragons")
    state, seat = _positions("seven_dragons", 4)[1]
    game = _Counting(real)
    search.search(
        game,
        state,
        seat,
        Rng.from_seed("long"),
        budget=Budget(iterations=2, seconds=None),
        heuristic=_heuristic("seven_dragons"),
        rollout_moves=2,
    )
    assert game.applied > 2 * 3


def test_sequential_halving_spends_the_budget_exactly_and_most_on_the_survivors():
    """Four candidates, 16 iterations: 2 samples of all four, then 4 of the better two;
    the move is one of the two that stayed in the race."""
    game = registry.get("nogi")
    for index, (state, seat) in enumerate(_positions("nogi", 4)):
        found = bots.choose_with_report(
            "nogi", state, seat, Rng.from_seed(f"h{index}"), "strong", Budget(16, None)
        )
        if found.candidates < 4:
            continue
        assert sum(found.visits) == found.iterations == 16
        assert sorted(found.visits) == [2, 2, 6, 6]
        survivors = [arm for arm, count in enumerate(found.visits) if count == 6]
        module = registry.registration("nogi").bot_module()
        legal = game.legal_actions(state, seat)
        ranked = sorted(range(len(legal)), key=lambda i: -module.scores(state, seat, legal)[i])
        assert found.action in [legal[ranked[arm]] for arm in survivors]
        return
    raise AssertionError("no position with four candidates")


@pytest.mark.parametrize("iterations", [1, 5, 7, 13])
def test_any_budget_is_spent_exactly(iterations):
    state, seat = _positions("nogi", 3)[1]
    found = bots.choose_with_report(
        "nogi", state, seat, Rng.from_seed("odd"), "strong", Budget(iterations, None)
    )
    assert found.how == "search"
    assert sum(found.visits) == found.iterations == iterations


def test_a_rollout_length_may_depend_on_the_position():
    """Seven Dragons looks one move per player ahead: two with two players, three
    with three (a function of the position in its ``SEARCH``)."""
    module = registry.registration("seven_dragons").bot_module()
    setting = bots.search_settings(module)["rollout_moves"]
    for players in (2, 3, 5):
        game = registry.get("seven_dragons")
        state = game.setup(players, {}, f"length-{players}")
        assert bots._per_position(setting, state) == players
    assert bots._per_position(4, state) == 4 and bots._per_position(None, state) is None


def test_apply_legal_gives_what_apply_gives_along_rollouts():
    """The rollouts' unchecked ``apply_legal`` makes the same state and events as
    ``apply`` for every legal action, in every game, and leaves its input alone."""
    for key in ("drako", "drakon", "nogi", "seven_dragons"):
        game = registry.get(key)
        for state, seat in _positions(key, 3):
            before = json.dumps(state, sort_keys=True)
            for action in game.legal_actions(state, seat)[:12]:
                assert game.apply_legal(state, seat, action) == game.apply(state, seat, action)
            assert json.dumps(state, sort_keys=True) == before


class _Copying:
    """The real game, its rollouts copying the state at every move."""

    resolves_in_place = False

    def __init__(self, game):
        self.game = game

    def __getattr__(self, name):
        return getattr(self.game, name)


def _rollout_seen(game, state, heuristic, seed):
    """Every position a rollout's policy sees, then its end, as JSON."""
    seen = []

    def policy(position, seat, rng):
        seen.append(json.dumps(position, sort_keys=True))
        return heuristic(position, seat, rng)

    final = search.rollout(game, state, policy, Rng.from_seed(seed))
    return [*seen, json.dumps(final, sort_keys=True)]


def test_a_rollout_in_place_plays_the_states_a_copying_one_plays():
    """A game that resolves in place (Nogi) plays its rollouts on one copy: every
    state the policy sees and the end are those of a rollout copying at every
    move, from the same stream, and the state it starts from is left alone."""
    in_place = [game.key for game in registry.all() if game.resolves_in_place]
    assert "nogi" in in_place
    for key in in_place:
        game = registry.get(key)
        heuristic = _heuristic(key)
        for index, (state, _seat) in enumerate(_positions(key, 4)):
            before = json.dumps(state, sort_keys=True)
            seen = _rollout_seen(game, state, heuristic, f"place-{index}")
            assert seen == _rollout_seen(_Copying(game), state, heuristic, f"place-{index}")
            assert len(seen) > 5
            assert json.dumps(state, sort_keys=True) == before
