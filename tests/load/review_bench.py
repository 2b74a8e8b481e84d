"""How long the computer review of a finished match takes (docs/bots.md, "Reviews").

    python tests/load/review_bench.py                 # Nogi, 100 decisions
    python tests/load/review_bench.py --only nogi drakon --decisions 100

For each game: 100 decisions of seeded two-player games of heuristic bots
(one game when it is that long, else as many as it takes), reviewed at the
site's review budget (``SMOKI_REVIEW_ITERATIONS`` and ``SMOKI_REVIEW_SAMPLES``'
defaults, or ``--iterations`` and ``--samples``) with the game's caps on it
(a bot module's ``REVIEW``: the "work" column, search iterations / judged
deals / deals after a roll or draw), in CPU seconds of one core.
The baseline, measured in the same run on the same positions: one hint (the
strong bot's search at the site's budget, 256 iterations capped per game),
so the ratio says how many hints a review costs. Pure Python: no Django.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.engine import bots, registry, review  # noqa: E402
from games.engine.base import resolve_options  # noqa: E402
from games.engine.rng import Rng  # noqa: E402
from games.engine.search import Budget  # noqa: E402

CATALOG = ("nogi", "drakon", "drakon_classic", "drako", "seven_dragons")
#: The site's defaults (config/settings.py: REVIEW_ITERATIONS, REVIEW_SAMPLES, BOT_STRONG_ITERATIONS).
ITERATIONS, SAMPLES, HINT_ITERATIONS = 24, 20, 256
LIMIT_SECONDS = 60.0


def long_game(key: str, decisions: int):
    """Seeded two-player heuristic games, (start, moves) each, holding
    ``decisions`` decisions in all: one game when it is that long, else the
    first decisions of as many as it takes (a Nogi game has about 50)."""
    game = registry.get(key)
    games, total = [], 0
    for index in range(1_000):
        start = game.setup(2, resolve_options(game, {}), f"review-bench-{index}")
        rng = Rng.from_seed(f"review-bench-{index}")
        state, moves = start, []
        while game.current_seats(state) and total + len(moves) < decisions:
            seat = game.current_seats(state)[0]
            action = bots.choose(key, state, seat, rng, "heuristic")
            moves.append((len(moves) + 1, seat, action))
            state = game.apply(state, seat, action)[0]
        games.append((start, moves))
        total += len(moves)
        if total >= decisions:
            return games
    raise SystemExit(f"{key}: no {decisions} decisions")


def hint_seconds(key: str, games, positions: int = 10) -> float:
    """The CPU seconds of one hint, averaged over positions spread along the games."""
    game = registry.get(key)
    stride = max(1, sum(len(moves) for _start, moves in games) // positions)
    total, counted, seen_moves = 0.0, 0, 0
    for start, moves in games:
        state = start
        for _step, seat, action in moves:
            if seen_moves % stride == 0 and len(game.legal_actions(state, seat)) > 1:
                cpu = time.process_time()
                guess = game.sample_secrets(state, seat, Rng.from_seed(f"hint-{seen_moves}"))
                bots.choose_with_report(
                    key, guess, seat, Rng(seen_moves), "strong", Budget(HINT_ITERATIONS)
                )
                total += time.process_time() - cpu
                counted += 1
            seen_moves += 1
            state = game.apply(state, seat, action)[0]
    return total / max(1, counted)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*", default=["nogi"], choices=CATALOG)
    parser.add_argument("--decisions", type=int, default=100)
    parser.add_argument("--iterations", type=int, default=ITERATIONS)
    parser.add_argument("--samples", type=int, default=SAMPLES)
    parser.add_argument(
        "--agreement",
        action="store_true",
        help="review the same decisions again without the game's caps and compare the marks",
    )
    args = parser.parse_args()
    budget = review.ReviewBudget(iterations=args.iterations, samples=args.samples)
    print(f"review budget: {budget.iterations} iterations, {budget.samples} samples a decision")
    print(
        "game | work | games | decisions | review CPU s | one hint CPU s | review / hint"
        " | within 60 s"
    )
    for key in args.only:
        games = long_game(key, args.decisions)
        baseline = hint_seconds(key, games)
        cpu = time.process_time()
        decisions = _review_all(key, games, budget)
        seconds = time.process_time() - cpu
        marks = sum(bool(d.mark) for d in decisions)
        luck = sum(bool(d.lucky) for d in decisions)
        spent = review.work(key, budget)
        work = f"{spent.iterations}/{spent.samples}/{spent.luck_samples}"
        forced = sum(d.forced for d in decisions)
        print(
            f"{key} | {work} | {len(games)} | {len(decisions)} | {seconds:.1f} | {baseline:.2f} | "
            f"{seconds / baseline:.0f} | {'yes' if seconds <= LIMIT_SECONDS else 'NO'}"
            f"   ({marks} marked, {luck} luck, {forced} forced)",
            flush=True,
        )
        if args.agreement:
            print(agreement(key, games, budget, decisions), flush=True)


def _review_all(key: str, games, budget: review.ReviewBudget) -> list[review.Decision]:
    return [
        decision
        for index, (start, moves) in enumerate(games)
        for decision in review.review_match(key, start, moves, f"bench-{index}", budget)
    ]


def agreement(key: str, games, budget: review.ReviewBudget, capped: list[review.Decision]) -> str:
    """The same decisions reviewed without the game's caps (``REVIEW``), the
    marks compared: how many of the capped review's marks the full budget
    marks too (any mark), and how many of the full budget's it finds."""
    module = registry.registration(key).bot_module()
    caps = getattr(module, "REVIEW", None)
    if caps is None:
        return f"{key}: no caps, nothing to compare"
    module.REVIEW = {}
    try:
        cpu = time.process_time()
        full = _review_all(key, games, budget)
        seconds = time.process_time() - cpu
    finally:
        module.REVIEW = caps
    both = sum(bool(a.mark) and bool(b.mark) for a, b in zip(capped, full, strict=True))
    same_best = sum(a.best == b.best for a, b in zip(capped, full, strict=True))
    return (
        f"  {key} without its caps: {seconds:.1f} s, {sum(bool(d.mark) for d in full)} marked; "
        f"of the capped review's {sum(bool(d.mark) for d in capped)} marks {both} marked there too; "
        f"the same preferred choice at {same_best} of {len(full)} decisions; "
        f"blunders {sum(d.mark == 'blunder' for d in capped)} capped, "
        f"{sum(d.mark == 'blunder' for d in full)} uncapped"
    )


if __name__ == "__main__":
    main()
