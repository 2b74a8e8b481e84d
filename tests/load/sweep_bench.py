"""Benchmark the clock's sweep on PostgreSQL.

    uv run python tests/load/sweep_bench.py          # or: make sweep-bench

1. Uses PostgreSQL from DATABASE_URL (default
   postgres://postgres@127.0.0.1:5432/smoki_sweep), creating and migrating it.
2. Inserts 100,000 active matches none of which is due, and times the sweep's
   due-match query and a whole sweep pass over them (best of several runs),
   printing the query plan.
3. Creates 1,000 real two-player Nogi matches through the service layer,
   makes their deadlines pass, and times one sweep that handles all 1,000
   (a reminder and a timeout each: a bot move through submit_action, a
   strike and the notification rows), then checks every match moved once.
   ``SWEEP_SINGLE=0`` leaves this step out.
4. With SWEEP_WORKERS (default 2) and a Redis CELERY_BROKER_URL (default
   redis://127.0.0.1:6379/7, emptied first): 1,000 more such matches, a real
   Celery worker with that many processes, and the beat's task
   ``sweep_deadlines`` sent to it; timed from the send until every match has
   had its timeout move. The sweep wakes the first batch and hands the rest
   to ``wake_matches`` on the worker's other processes.

Everything it creates carries a run id; the tables are emptied at the start.

To compare two versions of the code on the same 1,000 matches without
creating them for every run (minutes on a busy machine): ``SWEEP_IDLE=0
SWEEP_PREPARED=make`` creates them and stops; copy that database
(``createdb -T``) for each run and time step 4 alone over it with
``SWEEP_PREPARED=use`` (docs/performance.md shows the commands).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import startup

BASE_DIR = Path(__file__).resolve().parents[2]
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/smoki_sweep"
NOT_DUE = int(os.environ.get("SWEEP_IDLE", "100000"))  # idle matches inserted first
DUE = 1_000
WORKERS = int(os.environ.get("SWEEP_WORKERS", "2"))  # 0: no shared sweep
SINGLE = os.environ.get("SWEEP_SINGLE", "1") != "0"  # 0: no single-process sweep (step 3)
# "make": create the due matches of step 4 and stop (to copy the database as a
# template); "use": time step 4 alone over the active matches already there.
PREPARED = os.environ.get("SWEEP_PREPARED", "")
DEFAULT_BROKER_URL = "redis://127.0.0.1:6379/7"


def main() -> int:
    os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "false")
    if WORKERS:
        os.environ.setdefault("CELERY_BROKER_URL", DEFAULT_BROKER_URL)
    # Queued tasks (bots, emails) must not run here: only the sweep is timed.
    startup.start(os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL), migrate=True, no_tasks=True)
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.utils import timezone

    from games.lobby import services as lobby
    from games.models import Match, Move, Notification
    from games.play import timeouts

    if PREPARED == "use":
        shared_sweep(list(Match.objects.filter(status="active").values_list("pk", flat=True)))
        return 0

    with connection.cursor() as cursor:
        cursor.execute(
            "TRUNCATE games_notification, games_move, games_invitation, games_seat, games_match"
            " RESTART IDENTITY CASCADE"
        )
    User = get_user_model()
    owner, _ = User.objects.get_or_create(username="sweep-owner")
    far = timezone.now() + timedelta(days=7)
    started = time.perf_counter()
    Match.objects.bulk_create(
        [
            Match(
                game_key="nogi",
                rules_version=1,
                n_seats=2,
                seed=f"{i:032x}",
                seed_hash="-",
                invite_token=f"bench-{i}",
                status="active",
                deadline=far,
                wake_at=far,
                created_by=owner,
            )
            for i in range(NOT_DUE)
        ],
        batch_size=5_000,
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_match")
    print(f"inserted {NOT_DUE:,} active matches, none due ({time.perf_counter() - started:.1f} s)")
    now = timezone.now()
    print(timeouts.due_matches(now).values("pk")[:1000].explain(analyze=True))
    timings = []
    for _ in range(20):
        t0 = time.perf_counter()
        outcome = timeouts.sweep(now)
        timings.append(time.perf_counter() - t0)
        assert outcome == {}
    timings.sort()
    print(
        f"sweep over {NOT_DUE:,} matches, none due: "
        f"best {timings[0] * 1000:.2f} ms, median {timings[len(timings) // 2] * 1000:.2f} ms"
    )

    ann, _ = User.objects.get_or_create(username="sweep-ann", defaults={"email": "a@example.com"})
    ben, _ = User.objects.get_or_create(username="sweep-ben", defaults={"email": "b@example.com"})

    def create_due():
        t0 = time.perf_counter()
        due = []
        for _ in range(DUE):
            match = lobby.create_match(
                user=ann, game_key="nogi", n_seats=2, time_per_move=timedelta(hours=12)
            )
            lobby.join_match(user=ben, match=match)
            due.append(match.pk)
        print(f"created {DUE:,} real matches ({time.perf_counter() - t0:.1f} s)")
        return due

    if PREPARED == "make":
        create_due()
        return 0
    if not SINGLE:
        if WORKERS:
            shared_sweep(create_due())
        return 0
    due = create_due()
    later = timezone.now() + timedelta(hours=13)
    print(f"load average before the sweep: {os.getloadavg()[0]:.1f}")
    t0, cpu0 = time.perf_counter(), time.process_time()
    outcome = timeouts.sweep(later, limit=DUE)
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    # The CPU time of this process alone (Python's part, not PostgreSQL's)
    # tells more than the wall clock on a machine busy with other work.
    print(
        f"one sweep handling {DUE:,} due deadlines: {elapsed:.2f} s "
        f"({elapsed / DUE * 1000:.1f} ms per match; this process's CPU {cpu:.2f} s) -> {outcome}"
    )
    assert outcome == {"timed out": DUE}, outcome
    assert Move.objects.filter(match_id__in=due, seq__gte=1).count() == DUE  # after the opening
    print(f"notifications written: {Notification.objects.filter(match_id__in=due).count():,}")
    if WORKERS:
        if not os.environ["CELERY_BROKER_URL"].startswith("redis://"):
            print("shared sweep skipped: it needs a Redis CELERY_BROKER_URL")
            return 0
        shared_sweep(create_due())
    return 0


def shared_sweep(due: list[int]) -> None:
    """Step 4: the beat's task on a real Celery worker with WORKERS processes."""
    import redis
    from django.db import connections
    from django.utils import timezone

    from games.models import Match, Move
    from games.tasks import sweep_deadlines

    redis.Redis.from_url(os.environ["CELERY_BROKER_URL"]).flushdb()
    past = timezone.now() - timedelta(minutes=1)
    Match.objects.filter(pk__in=due).update(deadline=past, wake_at=past)
    connections.close_all()
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", "celery",
         f"--concurrency={WORKERS}", "--loglevel=WARNING", "--without-gossip",
         "--without-mingle", "--without-heartbeat"],
        cwd=BASE_DIR,
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        from config.celery import app

        while not app.control.ping(timeout=0.5):
            time.sleep(0.2)
        print(f"load average before the shared sweep: {os.getloadavg()[0]:.1f}")
        t0 = time.perf_counter()
        sweep_deadlines.delay()
        moved = 0
        while moved < DUE and time.perf_counter() - t0 < 300:
            time.sleep(0.05)
            moved = Move.objects.filter(match_id__in=due, seq=1).count()
        elapsed = time.perf_counter() - t0
    finally:
        worker.terminate()
        worker.wait(30)
    print(
        f"one sweep handling {DUE:,} due deadlines, shared by a Celery worker with {WORKERS} "
        f"processes: {elapsed:.2f} s ({elapsed / DUE * 1000:.1f} ms per match)"
    )
    assert moved == DUE, f"{moved} of {DUE} matches moved"
    assert Move.objects.filter(match_id__in=due, seq__gt=1).count() == 0, "one move each"


if __name__ == "__main__":
    raise SystemExit(main())
