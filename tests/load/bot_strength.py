"""How strong the bots are: strong against heuristic, heuristic against random.

    python tests/load/bot_strength.py --games 200 --iterations 64

For every game: 2-player matches with the seats alternated (strong against
heuristic, and heuristic against random), the winner's share (a draw counts
half); and for the games of 3 or more players, strong's average rank among
heuristic opponents (1 is first; a random seat would average (n+1)/2). It
prints the table with the search's speed (iterations per second of one
core's CPU time) and the memory one search allocates at its peak
(tracemalloc). The strong level runs
with a fixed number of iterations and no wall-time cap, so a run is
repeatable. Pure Python: no Django, no database.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games import bots  # noqa: E402
from games.engine import registry  # noqa: E402
from games.engine.base import Game, resolve_options  # noqa: E402
from games.engine.rng import Rng  # noqa: E402
from games.engine.search import Budget  # noqa: E402

CATALOG = ("drako", "drakon", "drakon_classic", "nogi", "seven_dragons")


def play(key: str, n: int, levels: list[str], seed: str, budget: Budget, stats: dict) -> list[int]:
    """One bot-only game; the ranks by seat."""
    game: Game = registry.get(key)
    state = game.setup(n, resolve_options(game, {}), seed)
    rng = Rng.from_seed(f"strength:{seed}")
    for _move in range(5_000):
        seats = game.current_seats(state)
        if not seats:
            break
        seat = seats[0]
        cpu = time.process_time()
        found = bots.choose_with_report(key, state, seat, rng, levels[seat], budget)
        if found.how == "search":
            stats["iterations"] += found.iterations
            # CPU time, not wall time: the speed of one core, whatever else runs.
            stats["seconds"] += time.process_time() - cpu
        state, _events = game.apply(state, seat, found.action)
    result = game.result(state)
    if result is None:
        raise RuntimeError(f"{key} {seed}: the game did not end")
    return result.ranks


def duel(key: str, games: int, strong: str, weak: str, budget: Budget, stats: dict) -> float:
    """``strong``'s share of the points against ``weak`` over ``games`` 2-player games."""
    points = 0.0
    for index in range(games):
        me = index % 2
        levels = [weak, weak]
        levels[me] = strong
        ranks = play(key, 2, levels, f"{key}-{strong}-{weak}-{index}", budget, stats)
        if ranks[0] == ranks[1]:
            points += 0.5
        elif ranks[me] == 1:
            points += 1
    return points / games if games else 0.0


def average_rank(key: str, n: int, games: int, budget: Budget, stats: dict) -> float:
    ranks = []
    for index in range(games):
        me = index % n
        levels = ["heuristic"] * n
        levels[me] = "strong"
        ranks.append(play(key, n, levels, f"{key}-rank{n}-{index}", budget, stats)[me])
    return statistics.fmean(ranks) if ranks else 0.0


def search_memory(key: str, budget: Budget) -> int:
    """Peak bytes allocated by one search from a fresh 2-player position."""
    game = registry.get(key)
    state = game.setup(2, resolve_options(game, {}), f"memory-{key}")
    seat = game.current_seats(state)[0]
    tracemalloc.start()
    bots.choose_with_report(key, state, seat, Rng.from_seed("memory"), "strong", budget)
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def search_speed(key: str, budget: Budget, positions: int = 6) -> float:
    """Iterations per CPU second at positions along one heuristic game."""
    game = registry.get(key)
    state = game.setup(2, resolve_options(game, {}), f"speed-{key}")
    rng = Rng.from_seed(f"speed:{key}")
    iterations, seconds, move = 0, 0.0, 0
    while game.current_seats(state) and iterations < positions * budget.iterations:
        seat = game.current_seats(state)[0]
        if move % 5 == 0 and len(game.legal_actions(state, seat)) > 1:
            cpu = time.process_time()
            found = bots.choose_with_report(key, state, seat, rng, "strong", budget)
            seconds += time.process_time() - cpu
            iterations += found.iterations
        state, _events = game.apply(state, seat, bots.choose(key, state, seat, rng, "heuristic"))
        move += 1
    return iterations / seconds if seconds else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="2-player games per pairing")
    parser.add_argument("--rank-games", type=int, default=None, help="games of 3 players")
    parser.add_argument("--iterations", type=int, default=64, help="strong's iterations a move")
    parser.add_argument("--only", nargs="*", default=list(CATALOG), help="game keys")
    parser.add_argument(
        "--speed-only", action="store_true", help="only the speed and memory of the search"
    )
    args = parser.parse_args(argv)
    if args.speed_only:
        budget = Budget(iterations=args.iterations, seconds=None)
        print(f"{'game':<16}{'iter/s (CPU)':>13}{'peak MB':>9}")
        for key in args.only:
            memory = search_memory(key, budget) / 1e6
            print(f"{key:<16}{search_speed(key, budget):>13.1f}{memory:>9.2f}", flush=True)
        return 0
    rank_games = args.games // 4 if args.rank_games is None else args.rank_games
    budget = Budget(iterations=args.iterations, seconds=None)
    print(
        f"strength: {args.games} 2-player games per pairing, seats alternated; "
        f"strong searches {args.iterations} iterations a move"
    )
    header = (
        f"{'game':<16}{'strong vs heur.':>16}{'heur. vs random':>16}"
        f"{'avg rank (3p)':>15}{'iter/s':>9}{'peak MB':>9}{'seconds':>9}"
    )
    print(header)
    print("-" * len(header))
    for key in args.only:
        started = time.perf_counter()
        stats = {"iterations": 0, "seconds": 0.0}
        strong = duel(key, args.games, "strong", "heuristic", budget, stats)
        heuristic = duel(key, args.games, "heuristic", "random", budget, stats)
        game = registry.get(key)
        rank = (
            f"{average_rank(key, 3, rank_games, budget, stats):.2f}"
            if game.max_players >= 3 and rank_games
            else "-"
        )
        rate = stats["iterations"] / stats["seconds"] if stats["seconds"] else 0.0
        memory = search_memory(key, budget) / 1e6
        print(
            f"{key:<16}{strong:>15.1%} {heuristic:>15.1%} {rank:>14}"
            f"{rate:>9.0f}{memory:>9.1f}{time.perf_counter() - started:>9.0f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
