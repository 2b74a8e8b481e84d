"""The "strong" bot: determinized Monte Carlo search, generic over the game contract.

It knows a game only through ``legal_actions``, ``apply``, ``current_seats``,
``result``, ``view`` (through the heuristic policy) and ``sample_secrets``
(a guess at what the seat cannot see, consistent with its view). Each
iteration:

1. deals a sample of the hidden information (other hands, decks, coin
   values, the PRNG state and so the future dice) with ``sample_secrets``;
2. applies each of the seat's candidate actions to that sample and plays
   each out to the end with a rollout policy (by default the game's own
   heuristic bot, with some random moves) from the same random stream, so
   the candidates are compared on the same deals and the same dice;
3. scores each end for the seat: 1 for first place, 0 for last, shared
   ranks in between.

The candidates are every legal action, or the ``max_candidates`` best by the
heuristic's own ranking (a bot module's ``scores``) when the game has one.
The iterations are spent by sequential halving: in rounds, evenly over the
candidates still in the race, the worse half dropping out after each round,
so the close contest among the best gets most of the rollouts. The candidate
with the best mean at the end wins; ties go to the heuristic's order.
Flat search over the samples' shared root (one level of an information-set
tree) was chosen over a deeper tree: a rollout costs 10 to 200 ms here, so a
one-second budget buys tens of rollouts, not the thousands a tree needs.

Determinism: the search runs a fixed number of iterations (``Budget``) and
draws all its randomness from the ``rng`` it is given, so a position and a
seed give one answer. The wall-time limit is a hard cap on top: when it
cuts a search short the result says so (``SearchResult.cut_short``), and only
then may the answer depend on the machine's speed.

Pure: no Django, no I/O.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from games.engine.base import Action, Game, State
from games.engine.rng import Rng

#: policy(state, seat, rng) -> an action legal for ``seat`` in ``state``.
Policy = Callable[[State, int, Rng], Action]
#: ranker(state, seat, legal) -> a score per legal action (larger is better), from the view.
Ranker = Callable[[State, int, list[Action]], Sequence[float]]
#: evaluate(state, seat) -> the seat's chances in an unfinished sample, 0 (lost) to 1 (won).
Evaluator = Callable[[State, int], float]

#: Extra wins credited to the heuristic's favourite when the means are compared.
PRIOR = 0.5
#: A rollout longer than this many moves is stopped and scored as a draw.
MAX_ROLLOUT_MOVES = 2_000


@dataclass(frozen=True)
class Budget:
    """How much search a move may use.

    ``iterations`` fixes the work (and so the answer); ``seconds`` is a hard
    wall-time cap (None: none). Zero iterations or zero seconds: no search,
    the heuristic answers.
    """

    iterations: int
    seconds: float | None = None

    @property
    def searches(self) -> bool:
        return self.iterations > 0 and (self.seconds is None or self.seconds > 0)


@dataclass
class SearchResult:
    action: Action
    #: "single" (one legal action), "heuristic" (no budget), "search".
    how: str
    iterations: int = 0
    seconds: float = 0.0
    #: True when the wall-time cap stopped the search before its iterations.
    cut_short: bool = False
    candidates: int = 0
    #: Rollouts per candidate, in the heuristic's order (sequential halving's trace).
    visits: tuple[int, ...] = ()
    #: The chosen candidate's mean reward over its rollouts (for two players,
    #: its estimated chance to win); None without a search.
    value: float | None = None


def reward(game: Game, state: State, seat: int) -> float:
    """1 for a sole first place, 0 for last, linear in between (ties share)."""
    result = game.result(state)
    if result is None:
        return 0.5
    ranks = result.ranks
    n = len(ranks)
    if n < 2:
        return 1.0
    mine = ranks[seat]
    # Average position over the places this rank shares (1-based).
    tied = sum(1 for rank in ranks if rank == mine)
    position = mine + (tied - 1) / 2
    return (n - position) / (n - 1)


def rollout(
    game: Game, state: State, policy: Policy, rng: Rng, moves: int = MAX_ROLLOUT_MOVES
) -> State:
    """Play ``state`` to the end, or for ``moves`` moves, with ``policy`` for every seat.

    ``policy`` answers with one of the seat's legal actions (every bot level
    does, as the conformance kit checks), so each move is played with
    ``apply_legal``: ``apply``'s checks would list the legal actions a second
    time at every move of every rollout. A game whose ``resolve`` may play
    move after move on one state (``Game.resolves_in_place``) plays them all
    on one copy of ``state``: the same states, without a copy a move."""
    if game.resolves_in_place:
        state = game.copy_state(state)
        for _move in range(moves):
            seats = game.current_seats(state)
            if not seats:
                return state
            seat = seats[0]
            game.resolve(state, seat, policy(state, seat, rng))
        return state
    for _move in range(moves):
        seats = game.current_seats(state)
        if not seats:
            return state
        seat = seats[0]
        state, _events = game.apply_legal(state, seat, policy(state, seat, rng))
    return state


def search(
    game: Game,
    state: State,
    seat: int,
    rng: Rng,
    *,
    budget: Budget,
    heuristic: Policy,
    rollout_policy: Policy | None = None,
    ranker: Ranker | None = None,
    max_candidates: int = 4,
    rollout_moves: int | None = None,
    evaluate: Evaluator | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> SearchResult:
    """The seat's move, found by determinized search within ``budget``.

    ``heuristic`` answers when there is no budget; ``rollout_policy`` plays
    the samples out (default: ``heuristic``). One iteration is one rollout.
    With ``rollout_moves`` and ``evaluate``, a rollout stops after that many
    moves and an unfinished sample is scored by ``evaluate``: in a game of
    much luck a short look ahead judged by what the sample shows (every goal,
    every hand) tells the candidates apart with far less noise than a few
    games played to the end.
    """
    legal = game.legal_actions(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no legal action now")
    if len(legal) == 1:
        return SearchResult(legal[0], "single")
    if not budget.searches:
        return SearchResult(heuristic(state, seat, rng), "heuristic")
    started = clock()
    deadline = None if budget.seconds is None else started + budget.seconds
    candidates = _candidates(state, seat, legal, ranker, max_candidates)
    play = rollout_policy or heuristic
    depth = MAX_ROLLOUT_MOVES if rollout_moves is None or evaluate is None else rollout_moves

    def score(final: State) -> float:
        if evaluate is not None and game.result(final) is None:
            return evaluate(final, seat)
        return reward(game, final, seat)

    visits = [0] * len(candidates)
    totals = [0.0] * len(candidates)
    prior = PRIOR if ranker is not None else 0.0

    def mean(arm: int) -> float:
        # The heuristic's favourite counted with ``prior`` wins more: with few
        # rollouts a near tie is noise, and the heuristic knows the game.
        bonus = prior if arm == 0 else 0.0
        return (totals[arm] + bonus) / visits[arm] if visits[arm] else -1.0

    def order(arms: list[int]) -> list[int]:
        # Best mean first; ties (and unvisited arms) in the heuristic's order.
        return sorted(arms, key=lambda arm: (-mean(arm), arm))

    live = list(range(len(candidates)))
    rounds = max(1, math.ceil(math.log2(len(live))))
    done = 0
    cut_short = False
    for round_ in range(rounds):
        left = budget.iterations - done
        if left <= 0 or cut_short:
            break
        # Sequential halving: each round gets an equal share of what is left
        # (the last round all of it), spread evenly over the live candidates;
        # then the worse half drops out, so the close contest among the best
        # gets the most rollouts.
        share = left if round_ == rounds - 1 else left // (rounds - round_)
        samples = max(
            1, math.ceil(share / len(live)) if round_ == rounds - 1 else share // len(live)
        )
        for _sample in range(samples):
            if done >= budget.iterations or cut_short:
                break
            # One sample of the hidden information, and one stream of rollout
            # randomness, shared by every live candidate: they are compared on
            # the same deals and dice (common random numbers).
            sample = game.sample_secrets(state, seat, rng)
            stream = rng.next64()
            for arm in live:
                if done >= budget.iterations:
                    break
                if deadline is not None and done and clock() >= deadline:
                    cut_short = True
                    break
                after, _events = game.apply(sample, seat, candidates[arm])
                final = rollout(game, after, play, Rng(stream), depth)
                visits[arm] += 1
                totals[arm] += score(final)
                done += 1
        if round_ < rounds - 1 and not cut_short:
            live = order(live)[: math.ceil(len(live) / 2)]
    best = order(live)[0]
    return SearchResult(
        candidates[best],
        "search",
        iterations=done,
        seconds=clock() - started,
        cut_short=cut_short,
        candidates=len(candidates),
        visits=tuple(visits),
        value=totals[best] / visits[best] if visits[best] else None,
    )


def _candidates(
    state: State, seat: int, legal: list[Action], ranker: Ranker | None, limit: int
) -> list[Action]:
    """The legal actions to compare, the heuristic's favourites first."""
    if ranker is None:
        return list(legal)
    scores = ranker(state, seat, legal)
    order = sorted(range(len(legal)), key=lambda i: -scores[i])
    return [legal[i] for i in order[: max(1, limit)]]


def mixed_policy(game: Game, heuristic: Policy, random_share: float) -> Policy:
    """``heuristic``, except a uniformly random legal action ``random_share`` of the time
    (``random_share`` 1: a random policy, which never calls the heuristic)."""
    threshold = int(random_share * 1_000_000)
    if not threshold:
        return heuristic

    def policy(state: State, seat: int, rng: Rng) -> Action:
        if rng.below(1_000_000) < threshold:
            return rng.choice(game.legal_actions(state, seat))
        return heuristic(state, seat, rng)

    return policy


def ranked_candidates(
    state: State, seat: int, legal: list[Action], ranker: Ranker | None, limit: int
) -> list[Action]:
    """The legal actions the search compares, the heuristic's favourites first
    (the computer review weighs the same ones)."""
    return _candidates(state, seat, legal, ranker, limit)
