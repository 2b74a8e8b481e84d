"""Random games per second for every registered game, beside a baseline.

    uv run python tests/load/games_per_second.py            # or: make bench-games
    uv run python tests/load/games_per_second.py --games 40 --rounds 5

The machine is shared and noisy, so an absolute rate says little on its own.
Each round therefore times a fixed pure-Python baseline (JSON round trips of
a small game-like state, about the work an engine does per decision) right
before each game's batch, and the script prints every game's rate both in
games per second and as a ratio to the baseline of the same round. The
ratio is the figure to compare between runs; the best round is reported
because noise only ever slows a round down.

A game is played with its whole option matrix in turn and every player count
it allows, by choosing a random legal action for whoever must act (the first
of ``current_seats``) until ``result`` says it is over. No harness checks run:
this is the engine's speed, not the test suite's.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]
BASELINE_OPS = 20_000
MAX_DECISIONS = 100_000


def baseline(ops: int = BASELINE_OPS) -> float:
    """Seconds for ``ops`` JSON round trips of a small nested state."""
    state = {
        "seats": [{"hand": list(range(8)), "score": i} for i in range(4)],
        "board": {str(i): [i, i + 1] for i in range(30)},
        "log": [],
    }
    started = time.perf_counter()
    for i in range(ops):
        state = json.loads(json.dumps(state))
        state["seats"][i % 4]["score"] += 1
    return time.perf_counter() - started


def play(game, count: int, prefix: str) -> tuple[int, int]:
    """Play ``count`` random games; return (games, decisions)."""
    from games.engine.rng import Rng

    setups = [
        (players, options)
        for players in range(game.min_players, game.max_players + 1)
        for options in game.option_matrix(players)
    ]
    decisions = 0
    for i in range(count):
        players, options = setups[i % len(setups)]
        seed = f"{prefix}-{i}"
        state = game.setup(players, options, seed)
        rng = Rng.from_seed("bench:" + seed)
        for _ in range(MAX_DECISIONS):
            if game.result(state) is not None:
                break
            seat = game.current_seats(state)[0]
            legal = game.legal_actions(state, seat)
            state, _events = game.apply(state, seat, legal[rng.below(len(legal))])
            decisions += 1
        else:
            raise RuntimeError(f"{game.key}: game {seed} did not end")
    return count, decisions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per round and game")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", nargs="*", help="game keys (default: every registered game)")
    args = parser.parse_args(argv)

    sys.path.insert(0, str(BASE_DIR))
    from games.engine import registry

    registry.discover()
    keys = args.only or [r.key for r in registry.registrations()]
    load = os.getloadavg()[0]
    print(f"load average (1 min) before: {load:.2f}")
    print(f"baseline: {BASELINE_OPS:,} JSON round trips of a small state, timed before each batch")
    print(f"{'game':<16} {'games/s':>9} {'decisions/s':>12} {'per game':>9} {'÷ baseline':>11}")
    for key in keys:
        game = registry.get(key)
        best = None
        for round_ in range(args.rounds):
            base = BASELINE_OPS / baseline()
            started = time.perf_counter()
            games, decisions = play(game, args.games, f"bench-{round_}")
            elapsed = time.perf_counter() - started
            rate = games / elapsed
            ratio = (decisions / elapsed) / base
            if best is None or ratio > best[3]:
                best = (rate, decisions / elapsed, decisions / games, ratio)
        rate, per_s, per_game, ratio = best
        print(f"{key:<16} {rate:>9.1f} {per_s:>12,.0f} {per_game:>9.1f} {ratio:>10.3f}×")
    print("÷ baseline: decisions per second divided by baseline round trips per second")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
