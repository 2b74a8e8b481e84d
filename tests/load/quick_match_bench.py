"""Benchmark one quick-match pass over 10,000 waiting requests.

    uv run python tests/load/quick_match_bench.py        # or: make quick-match-bench

1. The algorithm alone (``matchmaking.matching.plan``, no database): QB_REQUESTS
   (10,000) requests spread over the five games (a tenth for any game), with
   ratings around 1,200 (σ 200), one to four player counts each within the
   game's, clock ranges, rated or not, windows of ±100 to ±800 or any
   rating, waiting up to two days, and a block for one player in twenty.
   Timed in CPU time of the one process (the median of QB_RUNS runs); the
   baseline, measured in the same run, sorts the same requests by game and
   rating (what any pass by rating must do at least).
2. The pass's read and plan on a database (``matchmaking.services.plan``:
   the requests, the players' ratings and the blocks in three queries, then
   the algorithm): the same requests as rows of QB_REQUESTS players, on a
   fresh SQLite file, or on PostgreSQL when DATABASE_URL names one. The
   baseline reads the same rows with one plain query.
3. Seating: QB_SEAT (50) of the planned tables are formed through
   ``services.seat`` (each a transaction that locks its requests and starts
   the match through ``games.lobby.services.start_table``), timed per table.

Checks the plan's tables are valid (sizes, no request or player twice) and
exits 1 if the algorithm took a second or more of CPU.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time

import startup
from cpu_timing import median_cpu_ms

REQUESTS = int(os.environ.get("QB_REQUESTS", "10000"))
RUNS = int(os.environ.get("QB_RUNS", "5"))
SEAT = int(os.environ.get("QB_SEAT", "50"))
LIMIT_MS = 1000.0
GAMES = ["nogi", "drakon", "drakon_classic", "seven_dragons", "drako"]


def generated(rng: random.Random, games) -> tuple[list, set]:
    """The requests (``matching.Waiting``) and blocks of the bench."""
    from matchmaking import matching

    day = 86400
    clocks = [day // 2, day, 2 * day, 3 * day, 5 * day, 7 * day, 14 * day]
    now = time.time()
    made = []
    for i in range(REQUESTS):
        user = i + 1
        key = "" if rng.random() < 0.1 else rng.choice(GAMES)
        possible = matching.counts_of(games[key].counts) if key else list(range(2, 8))
        counts = rng.sample(possible, min(len(possible), rng.randint(1, 4)))
        low = rng.randrange(len(clocks) - 1)
        high = rng.randrange(low, len(clocks))
        rating = int(rng.gauss(1200, 200))
        made.append(
            matching.Waiting(
                id=i + 1,
                user=user,
                game=key,
                options=games[key].default_options if key else "",
                counts=matching.mask_of(counts),
                clock_min=clocks[low],
                clock_max=clocks[high],
                rated=rng.random() < 0.7,
                window=rng.choice([100, 200, 400, 800, None]),
                created=now - rng.uniform(0, 2 * day),
                ratings={g: rating + rng.randint(-50, 50) for g in GAMES},
            )
        )
    blocks = {
        (u, rng.randint(1, REQUESTS)) for u in rng.sample(range(1, REQUESTS + 1), REQUESTS // 20)
    }
    return made, matching.blocked_pairs((a, b) for a, b in blocks if a != b)


def check(tables, requests) -> bool:
    by_id = {r.id: r for r in requests}
    seated = [pk for t in tables for pk in t.requests]
    users = [u for t in tables for u in t.users]
    ok = len(seated) == len(set(seated)) and len(users) == len(set(users))
    for t in tables:
        n = len(t.requests)
        ok &= all(by_id[pk].counts >> n & 1 for pk in t.requests)
    return ok


def bench_algorithm(games) -> tuple[float, bool]:
    from matchmaking import matching

    requests, blocks = generated(random.Random(2026), games)
    now = time.time()
    tables = matching.plan(requests, games, blocks, now)
    ok = check(tables, requests)
    plan_ms = median_cpu_ms(lambda: matching.plan(requests, games, blocks, now), RUNS)
    base_ms = median_cpu_ms(
        lambda: sorted(requests, key=lambda r: (r.game, r.ratings.get(r.game or "nogi"))), RUNS
    )
    seated = sum(len(t.requests) for t in tables)
    sizes = statistics.mean(len(t.requests) for t in tables) if tables else 0
    print(f"requests: {len(requests)}, blocked pairs: {len(blocks)}")
    print(f"tables planned: {len(tables)} (mean size {sizes:.2f}), requests seated: {seated}")
    print(f"algorithm: {plan_ms:.0f} ms CPU (median of {RUNS})")
    print(
        f"baseline (sort by game and rating): {base_ms:.1f} ms CPU; ratio {plan_ms / base_ms:.0f}"
    )
    return plan_ms, ok


def bench_database(games) -> None:
    from datetime import UTC, datetime, timedelta

    from django.contrib.auth import get_user_model
    from django.db import connection

    from accounts.models import Block, Profile
    from games.models import Match, Move, Notification
    from matchmaking import services
    from matchmaking.models import Request
    from players.models import Rating

    requests, blocks = generated(random.Random(2026), games)
    User = get_user_model()
    Request.objects.all().delete()
    # A run before this one seated some tables: their matches go first.
    mine = Match.objects.filter(created_by__username__startswith="qb")
    Notification.objects.filter(user__username__startswith="qb").delete()
    Move.objects.filter(match__in=mine)._raw_delete(Move.objects.db)  # the log refuses deletes
    mine.delete()
    User.objects.filter(username__startswith="qb").delete()
    users = User.objects.bulk_create(
        [User(username=f"qb{r.user:05d}", email=f"qb{r.user}@example.com") for r in requests]
    )
    Profile.objects.bulk_create([Profile(user=u) for u in users], ignore_conflicts=True)
    pk_of = {r.user: u.pk for r, u in zip(requests, users, strict=True)}
    Rating.objects.bulk_create(
        [
            Rating(user_id=pk_of[r.user], game_key=g, display=value)
            for r in requests
            for g, value in r.ratings.items()
        ],
        batch_size=5000,
    )
    Block.objects.bulk_create(
        [Block(blocker_id=pk_of[a], blocked_id=pk_of[b]) for a, b in blocks], ignore_conflicts=True
    )
    rows = Request.objects.bulk_create(
        [
            Request(
                user_id=pk_of[r.user],
                game_key=r.game,
                options={} if not r.game else __import__("json").loads(r.options),
                counts=r.counts,
                clock_min=timedelta(seconds=r.clock_min),
                clock_max=timedelta(seconds=r.clock_max),
                rated=r.rated,
                window=r.window,
            )
            for r in requests
        ],
        batch_size=2000,
    )
    for row, r in zip(rows, requests, strict=True):
        row.created_at = datetime.fromtimestamp(r.created, UTC)
    Request.objects.bulk_update(rows, ["created_at"], batch_size=2000)
    print(f"\ndatabase: {connection.vendor}, {Request.objects.count()} waiting requests")
    tables = services.plan()
    plan_ms = median_cpu_ms(services.plan, RUNS)
    started = time.perf_counter()
    services.plan()
    wall_ms = (time.perf_counter() - started) * 1000
    base_ms = median_cpu_ms(lambda: list(Request.objects.values_list("id", "user_id")), RUNS)
    print(f"read + plan: {plan_ms:.0f} ms CPU (median of {RUNS}), {wall_ms:.0f} ms wall once")
    print(
        f"baseline (the rows' ids read in one query): {base_ms:.1f} ms CPU; ratio {plan_ms / base_ms:.0f}"
    )
    print(f"tables planned: {len(tables)}")
    times = []
    for table in tables[:SEAT]:
        started = time.perf_counter()
        services.seat(table)
        times.append(time.perf_counter() - started)
    if times:
        print(
            f"seating {len(times)} tables: {statistics.median(times) * 1000:.0f} ms median a table "
            f"(start_table included), {len(times) / sum(times):.1f} tables a second"
        )


def main() -> int:
    sys.stdout.reconfigure(line_buffering=True)
    startup.start(
        os.environ.get("DATABASE_URL", "scratch"),
        migrate=True,
        test_environment=True,
        no_tasks=True,
    )
    from matchmaking import selectors

    games = {k: v for k, v in selectors.game_seats().items() if k in GAMES}
    plan_ms, ok = bench_algorithm(games)
    bench_database(games)
    fast = plan_ms < LIMIT_MS
    print("\nOK" if ok and fast else "\nFAILED")
    return 0 if ok and fast else 1


if __name__ == "__main__":
    sys.exit(main())
