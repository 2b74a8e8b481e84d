"""How strong the bots are: strong against heuristic, heuristic against random.

    python tests/load/bot_strength.py --games 200 --iterations 64 --jobs 2

``--jobs`` plays the games in that many processes (each game is still played
by one process, so the results are the same whatever the number of jobs);
``--set key=value`` overrides a setting of the search (``games.engine.bots.SEARCH_DEFAULTS``)
for every game, to measure a change before making it a game's ``SEARCH``.

For every game: 2-player matches with the seats alternated (strong against
heuristic, and heuristic against random), the winner's share (a draw counts
half) with its 95 % Wilson interval; and for each player count of
``--rank-players`` (3 and 5) the game allows, strong's average rank among
heuristic opponents and each opponent's (1 is first; strong's seat moves
round the table, and an opponent is named by its seat after strong's). It
prints the tables with the search's speed (iterations per second of one
core's CPU time) and the memory one search allocates at its peak
(tracemalloc). ``--tally LOG`` prints the same tables from the games a run
logged to stderr, so runs over separate ranges (``--first``) add up. The strong level runs
with a fixed number of iterations and no wall-time cap, so a run is
repeatable. Pure Python: no Django, no database.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import re
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.engine import (
    bots,
    registry,  # noqa: E402
)
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


#: Settings of the search overridden for every game (``--set``); workers receive a copy.
OVERRIDES: dict[str, object] = {}


#: Each game's own ``SEARCH`` (None: the module has none), kept the first time it is overridden.
_OWN_SEARCH: dict[str, dict | None] = {}


def _apply_overrides(overrides: dict) -> None:
    """Put ``overrides`` on top of every game's own ``SEARCH`` (in this process);
    ``{}`` gives every game its own back."""
    OVERRIDES.clear()
    OVERRIDES.update(overrides)
    for key in CATALOG:
        module = bots.bot_module(key)
        # Kept per module, not per game: Drakon's two editions share one bot
        # module, whose own SEARCH must not be taken from the first's override.
        own = _OWN_SEARCH.setdefault(module.__name__, getattr(module, "SEARCH", None))
        if overrides:
            module.SEARCH = {**(own or {}), **overrides}
        elif own is None:
            if hasattr(module, "SEARCH"):
                del module.SEARCH
        else:
            module.SEARCH = own


def _play_job(job: tuple) -> tuple[list[int], dict]:
    """One game in a worker process: its ranks and its search statistics."""
    key, n, levels, seed, budget, overrides = job
    if overrides != OVERRIDES:
        _apply_overrides(overrides)
    stats = {"iterations": 0, "seconds": 0.0}
    return play(key, n, levels, seed, budget, stats), stats


def _run(jobs: list[tuple], workers: int, stats: dict) -> list[list[int]]:
    """Play ``jobs`` in ``workers`` processes (1: in this one); the ranks in job order."""
    jobs = [(*job, dict(OVERRIDES)) for job in jobs]
    if workers > 1 and len(jobs) > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            results = list(_progress(jobs, pool.imap(_play_job, jobs, chunksize=1)))
    else:
        results = list(_progress(jobs, map(_play_job, jobs)))
    for _ranks, job_stats in results:
        stats["iterations"] += job_stats["iterations"]
        stats["seconds"] += job_stats["seconds"]
    return [ranks for ranks, _job_stats in results]


def _progress(jobs: list[tuple], results):
    """Pass the results on, and log each game to stderr as it ends (a long run
    interrupted still says what it measured)."""
    for job, (ranks, job_stats) in zip(jobs, results, strict=True):
        key, _n, levels, seed, _budget, _overrides = job
        print(f"game {seed} levels={','.join(levels)} ranks={ranks}", file=sys.stderr, flush=True)
        yield ranks, job_stats


def duel(
    key: str,
    games: int,
    strong: str,
    weak: str,
    budget: Budget,
    stats: dict,
    workers: int = 1,
    first: int = 0,
) -> float:
    """``strong``'s share of the points against ``weak`` over ``games`` 2-player
    games, numbered from ``first`` (each game's seed is its number: a long run
    may be shared by processes, each its own range)."""
    jobs = []
    for index in range(first, first + games):
        me = index % 2
        levels = [weak, weak]
        levels[me] = strong
        jobs.append((key, 2, levels, f"{key}-{strong}-{weak}-{index}", budget))
    points = 0.0
    for index, ranks in enumerate(_run(jobs, workers, stats), start=first):
        me = index % 2
        if ranks[0] == ranks[1]:
            points += 0.5
        elif ranks[me] == 1:
            points += 1
    return points / games if games else 0.0


def average_ranks(
    key: str, n: int, games: int, budget: Budget, stats: dict, workers: int = 1
) -> tuple[list[float], list[float]]:
    """Strong's rank and each heuristic opponent's over ``games`` games of ``n`` players,
    strong's seat moving round the table: by game, [strong, the seat after it, the
    next, ...] (1 is first; ties share a rank)."""
    jobs = []
    for index in range(games):
        levels = ["heuristic"] * n
        levels[index % n] = "strong"
        jobs.append((key, n, levels, f"{key}-rank{n}-{index}", budget))
    results = _run(jobs, workers, stats)
    return [
        [float(ranks[(index + offset) % n]) for offset in range(n)]
        for index, ranks in enumerate(results)
    ]


def rank_summary(rows: list[list[float]]) -> tuple[float, list[float], float]:
    """(strong's average rank, each opponent's by its place after strong, the
    standard error of strong's rank less the mean of its opponents' in a game)."""
    if not rows:
        return float("nan"), [], float("nan")
    n = len(rows[0])
    strong = statistics.fmean(row[0] for row in rows)
    opponents = [statistics.fmean(row[offset] for row in rows) for offset in range(1, n)]
    lead = [row[0] - statistics.fmean(row[1:]) for row in rows]
    error = statistics.stdev(lead) / math.sqrt(len(lead)) if len(lead) > 1 else float("nan")
    return strong, opponents, error


def wilson(points: float, games: int) -> tuple[float, float]:
    """The 95 % Wilson interval of a share of ``points`` in ``games`` games (a draw
    counts half): the interval the issue's targets are judged by."""
    if not games:
        return float("nan"), float("nan")
    z = 1.96
    share = points / games
    centre = (share + z * z / (2 * games)) / (1 + z * z / games)
    half = (
        z
        * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games))
        / (1 + z * z / games)
    )
    return centre - half, centre + half


def print_ranks(key: str, n: int, rows: list[list[float]]) -> None:
    """One line of the ranks table."""
    strong, opponents, error = rank_summary(rows)
    ahead = "yes" if opponents and all(strong < other for other in opponents) else "no"
    others = " ".join(f"{other:.2f}" for other in opponents)
    print(
        f"{key:<16}{n:>8}{len(rows):>7}{strong:>8.2f}  {others:<28}{error:>7.2f}  {ahead}",
        flush=True,
    )


RANKS_HEADER = (
    f"{'game':<16}{'players':>8}{'games':>7}{'strong':>8}  {'opponents, in seat order':<28}"
    f"{'s.e.':>7}  ahead"
)


def tally(lines) -> int:
    """The tables of runs whose games were logged (``game <seed> levels=... ranks=[...]``
    on stderr): runs over separate ranges, or stopped early, add up here."""
    duels: dict[tuple[str, str], list[float]] = {}
    ranks: dict[tuple[str, int], dict[int, list[float]]] = {}
    for line in lines:
        match = LOGGED.match(line.strip())
        if not match:
            continue
        seed, levels, found = match.group(1), match.group(2).split(","), match.group(3)
        seat_ranks = [int(rank) for rank in found.split(",")]
        key, *kind, index = seed.split("-")
        number = int(index)
        if kind[0].startswith("rank"):
            n = len(seat_ranks)
            me = levels.index("strong")
            row = [float(seat_ranks[(me + offset) % n]) for offset in range(n)]
            ranks.setdefault((key, n), {})[number] = row
            continue
        strong, weak = kind
        me, other = (0, 1) if levels[0] == strong else (1, 0)
        point = 0.5 if seat_ranks[0] == seat_ranks[1] else float(seat_ranks[me] < seat_ranks[other])
        duels.setdefault((key, f"{strong} vs {weak}"), {})[number] = point
    print(f"{'game':<16}{'pairing':<24}{'games':>7}{'points':>8}{'share':>8}  95 % (Wilson)")
    for (key, pairing), points in sorted(duels.items()):
        total = sum(points.values())
        low, high = wilson(total, len(points))
        print(
            f"{key:<16}{pairing:<24}{len(points):>7}{total:>8.1f}{total / len(points):>8.1%}"
            f"  {low:.1%}-{high:.1%}"
        )
    if ranks:
        print()
        print(RANKS_HEADER)
        for (key, n), rows in sorted(ranks.items()):
            print_ranks(key, n, [rows[number] for number in sorted(rows)])
    return 0


#: A game as ``_progress`` logs it.
LOGGED = re.compile(r"^game (\S+) levels=(\S+) ranks=\[([0-9, ]+)\]$")


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


def _setting(text: str) -> tuple[str, object]:
    """``key=value`` for ``--set``: the value read as a number, None, or kept as text."""
    key, _sep, raw = text.partition("=")
    if key not in bots.SEARCH_DEFAULTS:
        raise argparse.ArgumentTypeError(f"{key!r} is not a search setting")
    if raw == "None":
        return key, None
    for kind in (int, float):
        try:
            return key, kind(raw)
        except ValueError:
            pass
    return key, raw


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="2-player games per pairing")
    parser.add_argument(
        "--rank-games", type=int, default=None, help="games per player count in --rank-players"
    )
    parser.add_argument(
        "--rank-players",
        type=int,
        nargs="*",
        default=[3, 5],
        help="player counts of the ranks table (where the game allows)",
    )
    parser.add_argument(
        "--iterations",
        type=int,
        default=256,
        help="strong's iterations a move (the site's default; a game's SEARCH may lower it)",
    )
    parser.add_argument("--only", nargs="*", default=list(CATALOG), help="game keys")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing the games")
    parser.add_argument(
        "--first",
        type=int,
        default=0,
        help="number of the first 2-player game (to share a long run between runs)",
    )
    parser.add_argument(
        "--set", type=_setting, action="append", default=[], help="search setting key=value"
    )
    parser.add_argument("--no-random", action="store_true", help="skip heuristic against random")
    parser.add_argument("--no-strong", action="store_true", help="skip strong against heuristic")
    parser.add_argument(
        "--speed-only", action="store_true", help="only the speed and memory of the search"
    )
    parser.add_argument(
        "--tally",
        nargs="+",
        metavar="LOG",
        help="print the tables of earlier runs from their logged games (stderr) and stop",
    )
    args = parser.parse_args(argv)
    if args.tally:
        lines = []
        for name in args.tally:
            lines.extend(Path(name).read_text().splitlines())
        return tally(lines)
    _apply_overrides(dict(args.set))
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
        f"strong searches {args.iterations} iterations a move (at most its game's "
        f"max_iterations){'; settings ' + str(OVERRIDES) if OVERRIDES else ''}"
    )
    header = (
        f"{'game':<16}{'strong vs heur.':>16}{'95 % (Wilson)':>15}{'heur. vs random':>16}"
        f"{'iter/s':>9}{'peak MB':>9}{'seconds':>9}"
    )
    print(header)
    print("-" * len(header))
    rank_rows: list[tuple[str, int, list[list[float]]]] = []
    for key in args.only:
        started = time.perf_counter()
        stats = {"iterations": 0, "seconds": 0.0}
        strong = (
            float("nan")
            if args.no_strong or not args.games
            else duel(key, args.games, "strong", "heuristic", budget, stats, args.jobs, args.first)
        )
        heuristic = (
            float("nan")
            if args.no_random or not args.games
            else duel(key, args.games, "heuristic", "random", budget, stats, args.jobs, args.first)
        )
        game = registry.get(key)
        for n in args.rank_players:
            if rank_games and game.min_players <= n <= game.max_players:
                rows = average_ranks(key, n, rank_games, budget, stats, args.jobs)
                rank_rows.append((key, n, rows))
        rate = stats["iterations"] / stats["seconds"] if stats["seconds"] else 0.0
        memory = search_memory(key, budget) / 1e6
        low, high = wilson(strong * args.games, args.games)
        interval = "-" if math.isnan(strong) else f"{low:.1%}-{high:.1%}"
        print(
            f"{key:<16}{strong:>15.1%} {interval:>15}{heuristic:>15.1%} "
            f"{rate:>9.0f}{memory:>9.1f}{time.perf_counter() - started:>9.0f}",
            flush=True,
        )
    if rank_rows:
        print()
        print(
            "ranks: strong among heuristic opponents, its seat moving round the table; "
            "each opponent by its seat after strong; s.e.: of strong's rank less its "
            "opponents' mean in a game"
        )
        print(RANKS_HEADER)
        for key, n, rows in rank_rows:
            print_ranks(key, n, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
