"""The computer review of a finished match: every decision judged from the
deciding seat's view at that moment, and the luck of every roll and draw.

Pure: no Django, no I/O. The site (``games.play.reviews``) replays the
match's log and hands each decision to ``review_decision``, which plays
the strong bot's rollouts (``games.engine.search``: the same policy, depth,
evaluation and candidates) without changing them.

Honest by construction: every estimate starts from
``sample_secrets(state, seat, rng)``, a position drawn from what the seat
could see then, and ``rng`` comes from a key that names the match, the step
and the seat (never the seed, the real hidden cards or the dice to come).
Two positions that look the same to the seat get the same review of its
decision; the conformance kit checks it for every game.

For one decision of seat S in position P, where S chose M (one search
serves both the preferred choice and the loss):

1. the contenders: the heuristic's best few (as the strong search weighs
   them: a bot module's ``scores`` and ``SEARCH["max_candidates"]``), M, and
   a choice that wins the game at once when there is one;
2. the search: ``iterations`` rollouts spread evenly over the contenders,
   each contender played on the same deals of what S cannot see and the same
   dice (common random numbers), the heuristic playing every seat as in the
   strong search's rollouts; the leader, and M, go on;
3. the judgement: the two play more deals until they have met ``samples``
   deals in all (the search's deals count). The better of them, B (M itself
   when M did as well), has the mean reward that is S's estimated chance
   before the decision (for two players the chance to win, with more the
   expected share of the places above last), and
   ``loss = value(B) - value(M)`` over the same deals, marked only beyond
   the samples' noise;
4. ``mark`` names the loss: doubtful, mistake or blunder (``THRESHOLDS``);
5. a chance step (S's view after M depends on what S could not see: a roll,
   a draw) is played out again from S's view after it; how far that moved
   S's chance from value(M) is luck, marked when it reaches ``LUCK`` and
   stands out of the two estimates' noise;
6. a decision with a single legal choice is neither searched nor judged:
   its chance is estimated on the luck's number of deals.

The work per decision is the budget's, capped per game (a bot module's
``REVIEW``: ``max_iterations``, ``max_samples``, ``luck_samples``) where the
rollouts are slow, so that every game's review of a 100-decision match keeps
to a minute of one core (docs/bots.md, "Reviews").
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass

from games.engine import bots, registry, search
from games.engine.base import Action, Game, State
from games.engine.rng import Rng

#: Loss (in chance, 0 to 1) from which a decision is marked, worst first.
THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("blunder", 0.30),
    ("mistake", 0.15),
    ("doubtful", 0.08),
)
#: A loss is marked only when it is at least this many standard errors of the
#: paired differences (two choices played out on the same deals): a mark is
#: never the samples' noise alone.
SIGNIFICANCE = 2.0
#: A roll or draw that moved the seat's chance by at least this much is luck.
LUCK = 0.30
#: Deals of the hidden information that test a chance step (two that tell
#: the seat's view after the step apart make it one).
CHANCE_PROBES = 3


def _standard_error(best: list[float], made: list[float]) -> float:
    """The standard error of the mean of the paired differences best - made."""
    n = len(best)
    if n < 2:
        return float("inf")
    diffs = [b - m for b, m in zip(best, made, strict=True)]
    mean = sum(diffs) / n
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return math.sqrt(variance / n)


@dataclass(frozen=True)
class ReviewBudget:
    """The work per decision: the search's ``iterations`` over the contenders,
    and the ``samples`` deals the preferred choice and the one made are
    judged on (the search's count); each capped per game (``settings``)."""

    iterations: int = 24
    samples: int = 20


#: A game's caps on the review's budget (a bot module's ``REVIEW``): None, no cap.
#: ``luck_samples``: the deals that estimate a chance after a roll or a draw, and
#: a forced decision's chance (default: the capped ``samples``).
REVIEW_DEFAULTS: dict[str, int | None] = {
    "max_iterations": None,
    "max_samples": None,
    "luck_samples": None,
}


@dataclass(frozen=True)
class Work:
    """The review's work per decision in one game: the budget, capped."""

    iterations: int
    samples: int
    luck_samples: int


def settings(game_key: str) -> dict[str, int | None]:
    """The game's caps on the review's budget (``REVIEW_DEFAULTS`` and its bot's ``REVIEW``)."""
    module = registry.registration(game_key).bot_module()
    return {**REVIEW_DEFAULTS, **getattr(module, "REVIEW", {})}


def work(game_key: str, budget: ReviewBudget) -> Work:
    """The budget as this game's review spends it: each number no more than
    the game's cap (Drakon's rollouts are the slowest, so its review searches
    and judges on fewer deals and marks only losses that stand out of them)."""
    caps = settings(game_key)

    def capped(value: int, cap: int | None) -> int:
        return max(1, value if cap is None else min(value, cap))

    samples = capped(budget.samples, caps["max_samples"])
    luck = caps["luck_samples"]
    return Work(
        iterations=capped(budget.iterations, caps["max_iterations"]),
        samples=samples,
        luck_samples=samples if luck is None else max(1, min(samples, luck)),
    )


@dataclass
class Decision:
    """One decision of one seat, as the review judged it."""

    step: int
    seat: int
    made: Action
    best: Action
    #: The seat's estimated chance before the decision (value of ``best``).
    chance: float
    #: The estimated chance after the choice it made.
    made_value: float
    loss: float
    #: "", "doubtful", "mistake" or "blunder".
    mark: str
    #: True when the seat had a single legal action.
    forced: bool = False
    #: Whether the choice turned up what the seat could not foresee (a roll, a draw).
    chance_step: bool = False
    #: For a chance step: the seat's chance once the roll or draw was seen,
    #: and ``lucky`` "good" or "bad" when it moved by ``LUCK`` or more.
    after_chance: float | None = None
    lucky: str = ""

    def to_json(self) -> dict:
        return asdict(self)


def mark_for(loss: float) -> str:
    """The documented name of a loss: the worst threshold it reaches, or ""."""
    for name, threshold in THRESHOLDS:
        if loss >= threshold - 1e-9:
            return name
    return ""


@dataclass(frozen=True)
class _Player:
    """How the review plays a sample out: the strong bot's own rollouts."""

    game: Game
    policy: search.Policy
    depth: int
    evaluate: search.Evaluator | None

    def value(self, state: State, seat: int, rng: Rng) -> float:
        final = search.rollout(self.game, state, self.policy, rng, self.depth)
        if self.evaluate is not None and self.game.result(final) is None:
            return self.evaluate(final, seat)
        return search.reward(self.game, final, seat)


def _player(game_key: str, state: State) -> _Player:
    """The rollout policy, depth and evaluation the strong bot uses for this game."""
    entry = registry.registration(game_key)
    module = entry.bot_module()
    settings = bots.search_settings(module)

    def heuristic(s: State, s_seat: int, r: Rng) -> Action:
        return module.choose(s, s_seat, r, level="heuristic")

    evaluate = getattr(module, "evaluate", None)
    moves = settings["rollout_moves"]
    moves = moves(state) if callable(moves) else moves
    depth = search.MAX_ROLLOUT_MOVES if moves is None or evaluate is None else moves
    return _Player(
        entry.rules,
        search.mixed_policy(entry.rules, heuristic, settings["random_share"]),
        depth,
        evaluate,
    )


def review_decision(
    game_key: str,
    state: State,
    seat: int,
    made: Action,
    key: str,
    budget: ReviewBudget,
    step: int = 0,
) -> Decision:
    """The review of ``seat`` choosing ``made`` in ``state``, from its view only.

    ``key`` seeds every sample (the site: ``review:<match id>:<step>:<seat>``);
    nothing of ``state`` that the seat cannot see reaches the answer, since
    the work starts from a sample of it drawn from the seat's view.
    """
    return _review(game_key, state, seat, made, key, budget, step)[0]


def _review(
    game_key: str,
    state: State,
    seat: int,
    made: Action,
    key: str,
    budget: ReviewBudget,
    step: int,
) -> tuple[Decision, float]:
    """``review_decision``, with the standard error of the made choice's value."""
    game = registry.get(game_key)
    spend = work(game_key, budget)
    rng = Rng.from_seed(key)
    seen = game.sample_secrets(state, seat, rng)
    legal = game.legal_actions(seen, seat)
    forced = len(legal) == 1
    player = _player(game_key, seen)
    if forced:
        contenders = [legal[0]]
        first_deals, total_deals = spend.luck_samples, spend.luck_samples
    else:
        contenders = _contenders(game_key, game, seen, seat, legal, made)
        first_deals = max(1, spend.iterations // len(contenders))
        total_deals = max(first_deals, spend.samples)
    mine = contenders.index(made)
    values: list[list[float]] = [[] for _c in contenders]

    def play(arms: list[int], count: int) -> None:
        for _deal in range(count):
            # One deal and one stream of dice for every contender still in
            # (common random numbers): the choices are compared on the same luck.
            deal = game.sample_secrets(seen, seat, rng)
            stream = rng.next64()
            for arm in arms:
                after = game.apply(deal, seat, contenders[arm])[0]
                values[arm].append(player.value(after, seat, Rng(stream)))

    # The search: every contender on the same first deals.
    play(list(range(len(contenders))), first_deals)
    leader = _leader(values, range(len(contenders)))
    # The judgement: the leader and the choice made, on more deals.
    finalists = sorted({leader, mine})
    play(finalists, total_deals - first_deals)
    top = _leader(values, finalists)
    if _mean(values[mine]) >= _mean(values[top]) - 1e-12:
        top = mine  # as good as the best: it lost nothing, and it is shown as the best
    chance, made_value = _mean(values[top]), _mean(values[mine])
    loss = max(0.0, chance - made_value)
    # A loss is marked only when it stands out of the samples' noise: at least
    # SIGNIFICANCE standard errors of the paired differences.
    noise = 0.0 if top == mine else _standard_error(values[top], values[mine])
    marked = not forced and loss > 0 and loss >= SIGNIFICANCE * noise
    decision = Decision(
        step=step,
        seat=seat,
        made=made,
        best=contenders[top],
        chance=round(chance, 4),
        made_value=round(made_value, 4),
        loss=round(loss, 4),
        mark=mark_for(loss) if marked else "",
        forced=forced,
    )
    decision.chance_step = _is_chance_step(game, seen, seat, made, rng)
    return decision, _mean_error(values[mine])


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def _mean_error(values: list[float]) -> float:
    """The standard error of the mean of ``values`` (0 for fewer than two)."""
    n = len(values)
    if n < 2:
        return 0.0
    mean = _mean(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def _leader(values: list[list[float]], arms) -> int:
    """The arm with the best mean, the earlier (the heuristic's order) among equals."""
    return max(arms, key=lambda arm: (_mean(values[arm]), -arm))


def _contenders(
    game_key: str, game: Game, seen: State, seat: int, legal: list[Action], made: Action
) -> list[Action]:
    """The choices the search compares, as the strong search would (the
    heuristic's best ``max_candidates``, its favourite first), the one made,
    and a choice that wins at once, which the heuristic may not rank high
    but which nothing beats."""
    module = registry.registration(game_key).bot_module()
    ranker = getattr(module, "scores", None)
    limit = bots.search_settings(module)["max_candidates"]
    contenders = search.ranked_candidates(seen, seat, legal, ranker, limit)
    winning = _wins_at_once(game, seen, seat, legal)
    for extra in (winning, made):
        if extra is not None and extra not in contenders:
            contenders.append(extra)
    return contenders


def _wins_at_once(game: Game, seen: State, seat: int, legal: list[Action]) -> Action | None:
    """A legal action that ends the game with the seat alone first in the
    seat's sample, if any: the search weighs only the heuristic's favourites
    and may not try it, but nothing beats it."""
    for action in legal:
        after = game.apply(seen, seat, action)[0]
        if game.result(after) is not None and search.reward(game, after, seat) == 1.0:
            return action
    return None


def _is_chance_step(game: Game, seen: State, seat: int, made: Action, rng: Rng) -> bool:
    """Whether the choice's outcome was one the seat could not foresee (a roll,
    a draw): among a few deals of what it cannot see, its view after the
    choice differs."""
    views = []
    for _probe in range(CHANCE_PROBES):
        deal = game.sample_secrets(seen, seat, rng)
        views.append(game.view(game.apply(deal, seat, made)[0], seat))
    return any(view != views[0] for view in views[1:])


def chance_after(game_key: str, after: State, seat: int, key: str, budget: ReviewBudget) -> float:
    """The seat's chance once it has seen what its choice turned up: played
    out from deals drawn from its view after the step (what it then knew,
    the roll or the card drawn among it, nothing more), on the game's
    ``luck_samples`` deals."""
    return _chance_after(game_key, after, seat, key, budget)[0]


def _chance_after(
    game_key: str, after: State, seat: int, key: str, budget: ReviewBudget
) -> tuple[float, float]:
    """``chance_after``, with the standard error of its mean."""
    game = registry.get(game_key)
    if not game.current_seats(after):
        return search.reward(game, after, seat), 0.0
    rng = Rng.from_seed(key)
    seen = game.sample_secrets(after, seat, rng)
    player = _player(game_key, seen)
    values = []
    for _sample in range(work(game_key, budget).luck_samples):
        deal = game.sample_secrets(seen, seat, rng)
        values.append(player.value(deal, seat, Rng(rng.next64())))
    return _mean(values), _mean_error(values)


def judge_luck(decision: Decision, after: float, noise: float = 0.0) -> None:
    """Record the chance after a chance step, and call it luck when it moved
    the seat's chance from what its choice promised by ``LUCK`` or more and
    by at least ``SIGNIFICANCE`` times ``noise`` (the standard error of the
    difference of the two estimates, made on different deals): with few
    deals a swing of 30 % can be the samples' noise, and luck must not be."""
    decision.after_chance = round(after, 4)
    swing = after - decision.made_value
    if abs(swing) >= LUCK - 1e-9 and abs(swing) >= SIGNIFICANCE * noise:
        decision.lucky = "good" if swing > 0 else "bad"


def review_match(
    game_key: str,
    start: State,
    moves: list[tuple[int, int, Action]],
    key: str,
    budget: ReviewBudget,
    progress: Callable[[int], None] | None = None,
) -> list[Decision]:
    """Every decision of ``moves`` ((step, seat, action) in effect, in order,
    from ``start``), each reviewed from its seat's view then."""
    game = registry.get(game_key)
    state = start
    decisions = []
    for step, seat, action in moves:
        decision, made_error = _review(
            game_key, state, seat, action, f"{key}:{step}:{seat}", budget, step
        )
        decisions.append(decision)
        state = game.apply(state, seat, action)[0]
        if decision.chance_step:
            after, after_error = _chance_after(
                game_key, state, seat, f"{key}:{step}:{seat}:after", budget
            )
            judge_luck(decision, after, math.hypot(made_error, after_error))
        if progress is not None:
            progress(len(decisions))
    return decisions


@dataclass
class SeatSummary:
    """One player's line: how many of each mark, and the average loss."""

    seat: int
    decisions: int
    doubtful: int
    mistakes: int
    blunders: int
    average_loss: float
    good_luck: int
    bad_luck: int


def summarize(decisions: list[Decision], n_seats: int) -> list[SeatSummary]:
    """Each seat's counts of marks and its average loss over its unforced decisions."""
    rows = []
    for seat in range(n_seats):
        mine = [d for d in decisions if d.seat == seat]
        judged = [d for d in mine if not d.forced]
        rows.append(
            SeatSummary(
                seat=seat,
                decisions=len(judged),
                doubtful=sum(d.mark == "doubtful" for d in mine),
                mistakes=sum(d.mark == "mistake" for d in mine),
                blunders=sum(d.mark == "blunder" for d in mine),
                average_loss=round(sum(d.loss for d in judged) / len(judged), 4) if judged else 0.0,
                good_luck=sum(d.lucky == "good" for d in mine),
                bad_luck=sum(d.lucky == "bad" for d in mine),
            )
        )
    return rows
