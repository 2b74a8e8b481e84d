"""Each game's pure bot (named by the game's registration), at three levels.

A bot module defines ``choose(state, seat, rng, level) -> action`` for the
levels ``"random"`` and ``"heuristic"``. It may read only ``view(state,
seat)`` and ``legal_actions(state, seat)``: the conformance kit changes
everything the seat must not know and checks that the choice stays the same.

The level ``"strong"`` is the same for every game: a search
(``games.engine.search``) over samples of what the seat cannot see
(``Game.sample_secrets``), played out with the game's heuristic bot. A bot
module may tune it with ``SEARCH`` (a dict of ``search_settings`` keys) and
help it with ``scores(state, seat, legal)``, its own ranking of the legal
actions, which narrows the search to the best few.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from games.engine import registry, search
from games.engine.base import Action, Game, State
from games.engine.rng import Rng

LEVELS = ("heuristic", "random", "strong")

#: The search's defaults; a game's bot module overrides them with ``SEARCH``.
SEARCH_DEFAULTS: dict[str, Any] = {
    # share of uniformly random moves in the rollouts (1.0: random rollouts)
    "random_share": 0.0,
    # the search tries at most this many of the heuristic's best actions
    "max_candidates": 4,
    # at most this many iterations a move, whatever the settings allow: a game
    # whose rollouts are slow keeps its searches inside the wall-time cap (and
    # so repeatable) on an ordinary core
    "max_iterations": None,
    # stop each rollout after this many moves and score the sample with the bot
    # module's ``evaluate(state, seat)`` (None: play every rollout to the end);
    # a function of the position gives the number for each search
    "rollout_moves": None,
}

#: The budget when none is given (the site passes the one from its settings).
DEFAULT_BUDGET = search.Budget(iterations=64, seconds=1.0)


def choose(
    game_key: str,
    state: State,
    seat: int,
    rng: Rng,
    level: str,
    budget: search.Budget | None = None,
) -> Action:
    """The choice of the game's bot at ``level`` (every level of ``LEVELS``)."""
    return choose_with_report(game_key, state, seat, rng, level, budget).action


def choose_with_report(
    game_key: str,
    state: State,
    seat: int,
    rng: Rng,
    level: str,
    budget: search.Budget | None = None,
) -> search.SearchResult:
    """``choose`` with how it was found (for the strong level: iterations, time, cut short)."""
    entry = registry.registration(game_key)
    module = entry.bot_module()
    if level != "strong":
        return search.SearchResult(module.choose(state, seat, rng, level=level), level)
    settings = search_settings(module)

    choose = module.choose

    def heuristic(s: State, s_seat: int, r: Rng) -> Action:
        return choose(s, s_seat, r, "heuristic")

    budget = DEFAULT_BUDGET if budget is None else budget
    if settings["max_iterations"] is not None:
        budget = search.Budget(min(budget.iterations, settings["max_iterations"]), budget.seconds)
    return search.search(
        entry.rules,
        state,
        seat,
        rng,
        budget=budget,
        heuristic=heuristic,
        rollout_policy=search.mixed_policy(entry.rules, heuristic, settings["random_share"]),
        ranker=getattr(module, "scores", None),
        max_candidates=settings["max_candidates"],
        rollout_moves=_per_position(settings["rollout_moves"], state),
        evaluate=getattr(module, "evaluate", None),
    )


def _per_position(setting, state: State):
    """A search setting given as a number, or as a function of the position."""
    return setting(state) if callable(setting) else setting


def search_settings(module) -> dict[str, Any]:
    return {**SEARCH_DEFAULTS, **getattr(module, "SEARCH", {})}


def score_legal(
    game: Game,
    state: State,
    seat: int,
    legal: list[Action],
    scorer: Callable[[dict[str, Any]], Callable[[Action], float]],
    view: Callable[[State, int], dict[str, Any]] | None = None,
) -> list[float]:
    """The heuristic's score of each legal action, from the seat's view (a bot's ``scores``).

    ``view``: what the scorer reads instead of ``game.view`` (a game's own part of
    the seat's view that holds all its scorer reads, built faster)."""
    score = scorer((view or game.view)(state, seat))
    return [score(action) for action in legal]


def choose_best(
    game: Game,
    state: State,
    seat: int,
    rng: Rng,
    level: str,
    scorer: Callable[[dict[str, Any]], Callable[[Action], float]],
    view: Callable[[State, int], dict[str, Any]] | None = None,
) -> Action:
    """What every game's bot does around its own judgement.

    The seat must have a legal action; ``"random"`` picks one uniformly;
    ``"heuristic"`` asks ``scorer(view)`` for a scoring function, built once
    from the seat's own view (the bot sees nothing else; ``view``, when given,
    builds the part of it the scorer reads), and picks among the best-scoring
    actions with ``rng``. Pure: bots import this.
    """
    legal = game.legal_actions(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no legal action now")
    if level == "random":
        return rng.choice(legal)
    if level != "heuristic":
        raise ValueError(f"unknown bot level {level!r}; choose from {LEVELS}")
    return pick_best(legal, score_legal(game, state, seat, legal, scorer, view), rng)


def pick_best(items: Sequence[Any], scores: Sequence[float], rng: Rng) -> Any:
    """One of the best-scoring ``items`` (within 1e-9 of the best: the same
    position scored along two paths may differ in the last bit), drawn with ``rng``."""
    floor = max(scores) - 1e-9
    return rng.choice([item for item, score in zip(items, scores, strict=True) if score >= floor])


def bot_module(game_key: str):
    return registry.registration(game_key).bot_module()
