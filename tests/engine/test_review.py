"""The computer review (games/engine/review.py) on positions where the right
choice is known, and its rules: thresholds, noise, forced moves, summaries.

For every game, a position of a seeded game where the seat to move has a
choice that wins the game at once and another that loses it (at once, or by
handing the opponent a winning move next): playing the winning choice costs
nothing and is not marked; the other is a blunder, and the search prefers a
choice that wins at once.
"""

import pytest

from games.engine import registry, review, search
from games.engine.base import resolve_options
from games.engine.bots import choose
from games.engine.rng import Rng

GAMES = ["nogi", "drakon", "drakon_classic", "drako", "seven_dragons"]
BUDGET = review.ReviewBudget()


def _rewards_now(game, state, seat, guesses=4):
    """Each legal action's reward if it ends the game at once, whatever the
    seat cannot see (the real position and a few guesses at it), else None."""
    positions = [state] + [
        game.sample_secrets(state, seat, Rng.from_seed(f"guess-{i}")) for i in range(guesses)
    ]
    rewards = []
    for action in game.legal_actions(state, seat):
        ends = set()
        for position in positions:
            after = game.apply(position, seat, action)[0]
            ends.add(None if game.result(after) is None else search.reward(game, after, seat))
        rewards.append(ends.pop() if len(ends) == 1 else None)
    return rewards


def _loses_every_play_out(key, game, state, seat, action, play_outs=8):
    """Whether ``action`` loses every one of a few heuristic play-outs of the
    real position (each seat with its own hidden cards: the truth, not a guess)."""
    after = game.apply(state, seat, action)[0]
    for index in range(play_outs):
        rng = Rng.from_seed(f"play-out-{index}")
        final = after
        while game.current_seats(final):
            mover = game.current_seats(final)[0]
            final = game.apply(final, mover, choose(key, final, mover, rng, "heuristic"))[0]
        if search.reward(game, final, seat) > 0.0:
            return False
    return True


def _losing(key, game, state, seat, legal, rewards):
    """A choice that loses at once, hands the opponent a move that wins at
    once, or (Drako, whose turns have several steps) loses every heuristic
    play-out of the real position."""
    if key == "drako":
        return next(
            (
                action
                for action, reward in zip(legal, rewards, strict=True)
                if reward is None and _loses_every_play_out(key, game, state, seat, action)
            ),
            None,
        )
    for action, reward in zip(legal, rewards, strict=True):
        if reward == 0.0:
            return action
        if reward is None:
            after = game.apply(state, seat, action)[0]
            them = game.current_seats(after)
            if them and them[0] != seat and 1.0 in _rewards_now(game, after, them[0], 0):
                return action
    return None


def decisive_position(key, games=60):
    """(state, seat, winning action, losing action) from seeded heuristic games."""
    game = registry.get(key)
    for index in range(games):
        state = game.setup(2, resolve_options(game, {}), f"scan{index}")
        rng = Rng.from_seed(f"p{index}")
        while game.current_seats(state):
            seat = game.current_seats(state)[0]
            legal = game.legal_actions(state, seat)
            if len(legal) > 1:
                rewards = _rewards_now(game, state, seat)
                if 1.0 in rewards:
                    losing = _losing(key, game, state, seat, legal, rewards)
                    if losing is not None:
                        return state, seat, legal[rewards.index(1.0)], losing
            state = game.apply(state, seat, choose(key, state, seat, rng, "heuristic"))[0]
    raise AssertionError(f"{key}: no decisive position in {games} games")


@pytest.mark.parametrize("key", GAMES)
def test_the_winning_choice_is_clean_and_the_losing_one_a_blunder(key):
    game = registry.get(key)
    state, seat, winning, losing = decisive_position(key)
    good = review.review_decision(key, state, seat, winning, "known", BUDGET)
    assert (good.loss, good.mark, good.chance) == (0.0, "", 1.0)
    bad = review.review_decision(key, state, seat, losing, "known", BUDGET)
    assert bad.mark == "blunder"
    assert bad.loss >= review.THRESHOLDS[0][1]
    after_best = game.apply(state, seat, bad.best)[0]
    assert search.reward(game, after_best, seat) == 1.0  # the search would have won at once


def test_marks_follow_the_documented_thresholds():
    assert review.mark_for(0.0) == ""
    assert review.mark_for(0.079) == ""
    assert review.mark_for(0.08) == "doubtful"
    assert review.mark_for(0.15) == "mistake"
    assert review.mark_for(0.29) == "mistake"
    assert review.mark_for(0.30) == "blunder"
    assert review.mark_for(1.0) == "blunder"


def test_a_loss_within_the_noise_is_not_marked():
    # Two choices that differ by a fifth on average but by chance on each deal.
    best = [1.0, 0.0, 1.0, 0.0, 1.0]
    made = [0.0, 1.0, 1.0, 0.0, 1.0]
    assert review._standard_error(best, made) * review.SIGNIFICANCE > 0.2
    # A loss as large on every deal stands out.
    assert review._standard_error([1.0] * 5, [0.5] * 5) == 0.0


def test_a_forced_decision_is_never_marked_and_a_match_is_summarized():
    key = "drako"
    game = registry.get(key)
    state = game.setup(2, resolve_options(game, {}), "forced")
    rng = Rng.from_seed("forced")
    moves = []
    step = 0
    while game.current_seats(state) and len(moves) < 12:
        seat = game.current_seats(state)[0]
        action = choose(key, state, seat, rng, "random")
        step += 1
        moves.append((step, seat, action))
        state = game.apply(state, seat, action)[0]
    start = game.setup(2, resolve_options(game, {}), "forced")
    small = review.ReviewBudget(iterations=4, samples=4)
    decisions = review.review_match(key, start, moves, "forced", small)
    assert [d.step for d in decisions] == [m[0] for m in moves]
    assert all(d.mark == "" for d in decisions if d.forced)
    summary = review.summarize(decisions, 2)
    for row in summary:
        mine = [d for d in decisions if d.seat == row.seat]
        assert row.mistakes == sum(d.mark == "mistake" for d in mine)
        assert row.blunders == sum(d.mark == "blunder" for d in mine)
        assert row.decisions == sum(not d.forced for d in mine)
    # The same match reviewed again gives the same review.
    again = review.review_match(key, start, moves, "forced", small)
    assert [d.to_json() for d in again] == [d.to_json() for d in decisions]


def test_a_games_caps_bound_the_reviews_work():
    # Drakon's rollouts are the slowest: its review searches and judges on fewer deals.
    assert review.work("drakon", BUDGET) == review.Work(iterations=8, samples=6, luck_samples=4)
    # A game without caps spends the budget as it is; a budget below the caps is kept.
    assert review.work("nogi", BUDGET) == review.Work(iterations=24, samples=20, luck_samples=20)
    small = review.ReviewBudget(iterations=4, samples=3)
    assert review.work("drakon", small) == review.Work(iterations=4, samples=3, luck_samples=3)


def test_the_choice_made_and_the_preferred_one_are_judged_on_the_same_deals():
    key = "nogi"
    state, seat, winning, losing = decisive_position(key)
    bad = review.review_decision(key, state, seat, losing, "same-deals", BUDGET)
    # Winning at once scores 1 on every deal, so a loss of 1 - value(made) with
    # no noise: the mark stands whatever the deals.
    assert bad.chance == 1.0
    assert bad.loss == round(1.0 - bad.made_value, 4)


def test_luck_is_marked_only_beyond_the_noise():
    def decision(made_value):
        return review.Decision(1, 0, {}, {}, 0.5, made_value, 0.0, "", chance_step=True)

    # A swing of 40 % with estimates as noisy as 4 deals of wins and losses: not luck.
    noisy = decision(0.5)
    review.judge_luck(noisy, 0.9, noise=0.3)
    assert (noisy.after_chance, noisy.lucky) == (0.9, "")
    # The same swing from estimates without noise is good luck; a fall, bad luck.
    clear = decision(0.5)
    review.judge_luck(clear, 0.9, noise=0.05)
    assert clear.lucky == "good"
    fall = decision(0.8)
    review.judge_luck(fall, 0.1)
    assert fall.lucky == "bad"
    # Below the threshold it is never luck, whatever the noise.
    small = decision(0.5)
    review.judge_luck(small, 0.7)
    assert small.lucky == ""
