"""Fit the weights of Seven Dragons' ``evaluate`` to heuristic games.

    uv run python tests/load/seven_dragons_weights.py                 # 600 games of 2, 300 of 3
    uv run python tests/load/seven_dragons_weights.py --games 100 --players 2 --jobs 2

The strong bot stops its rollouts after a move per player and scores the
sample with ``evaluate``: a logistic of ``evaluation_features``. This plays
games between heuristic bots, records the features of every seat at the start
of every turn with the seat's final reward (``games.engine.search.reward``:
1 for a win, 0 for last, ties shared), and fits the weights by maximum
likelihood (Newton's method on the log loss, no intercept: the features are
leads, so a seat and its rival get opposite scores). Every fifth game is held
out; the script prints each player count's fitted weights and the held-out
log loss of the fitted weights, of the weights in ``EVALUATE_WEIGHTS`` and of
a coin flip (0.693). Pure Python: no Django, no database, no NumPy.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.catalog.seven_dragons import bot  # noqa: E402
from games.catalog.seven_dragons.rules import GAME  # noqa: E402
from games.engine.base import resolve_options  # noqa: E402
from games.engine.rng import Rng  # noqa: E402
from games.engine.search import reward  # noqa: E402

#: A little ridge on the weights keeps Newton's steps finite on separable data.
RIDGE = 1e-3


def positions(job: tuple[int, int]) -> list[tuple[tuple[int, ...], float, int]]:
    """(features, reward, game) for every seat at the start of every turn of one game."""
    n, number = job
    state = GAME.setup(n, resolve_options(GAME, {}), f"weights-{n}-{number}")
    rng = Rng.from_seed(f"weights:{n}:{number}")
    seen: list[tuple[int, tuple[int, ...]]] = []
    while seats := GAME.current_seats(state):
        if not state["pending"]:
            seen += [(seat, bot.evaluation_features(state, seat)) for seat in range(n)]
        seat = seats[0]
        state, _events = GAME.apply(state, seat, bot.choose(state, seat, rng))
    rewards = [reward(GAME, state, seat) for seat in range(n)]
    return [(features, rewards[seat], number) for seat, features in seen]


def log_loss(weights, rows) -> float:
    total = 0.0
    for features, y, _game in rows:
        p = _logistic(sum(w * x for w, x in zip(weights, features, strict=True)))
        p = min(max(p, 1e-9), 1 - 1e-9)
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(rows)


def fit(rows, size: int, steps: int = 25) -> list[float]:
    """The weights that minimise the log loss over ``rows`` (labels may be fractional)."""
    weights = [0.0] * size
    for _step in range(steps):
        gradient = [RIDGE * w for w in weights]
        hessian = [[RIDGE if i == j else 0.0 for j in range(size)] for i in range(size)]
        for features, y, _game in rows:
            p = _logistic(sum(w * x for w, x in zip(weights, features, strict=True)))
            for i in range(size):
                gradient[i] += (p - y) * features[i]
                for j in range(size):
                    hessian[i][j] += p * (1 - p) * features[i] * features[j]
        step = _solve(hessian, gradient)
        weights = [w - s for w, s in zip(weights, step, strict=True)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return weights


def _logistic(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix`` x = ``vector`` by Gaussian elimination with partial pivoting."""
    size = len(vector)
    rows = [list(matrix[i]) + [vector[i]] for i in range(size)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(col + 1, size):
            factor = rows[r][col] / rows[col][col]
            for c in range(col, size + 1):
                rows[r][c] -= factor * rows[col][c]
    x = [0.0] * size
    for r in range(size - 1, -1, -1):
        x[r] = (rows[r][size] - sum(rows[r][c] * x[c] for c in range(r + 1, size))) / rows[r][r]
    return x


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=None, help="games per player count")
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3])
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    for n in args.players:
        games = args.games if args.games is not None else (600 if n == 2 else 300)
        jobs = [(n, number) for number in range(games)]
        with multiprocessing.Pool(args.jobs) as pool:
            rows = [row for game in pool.map(positions, jobs) for row in game]
        train = [row for row in rows if row[2] % 5]
        held_out = [row for row in rows if row[2] % 5 == 0]
        weights = fit(train, 3)
        current = bot.EVALUATE_WEIGHTS[min(n, 3)]
        print(
            f"{n} players: {games} games, {len(rows)} positions; "
            f"fitted weights ({', '.join(f'{w:.3f}' for w in weights)}); held-out log loss "
            f"{log_loss(weights, held_out):.4f} fitted, {log_loss(current, held_out):.4f} "
            f"EVALUATE_WEIGHTS {current}, {math.log(2):.4f} a coin flip"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
