"""Benchmark the start of a season of 1,000 players.

    uv run python tests/load/season_bench.py          # or: make season-bench

1. Uses PostgreSQL from DATABASE_URL (default
   postgres://postgres@127.0.0.1:5432/smoki_season_bench, a database of its
   own), creating and migrating it, and empties its seasons, tournaments,
   matches and bench players.
2. Makes SB_PLAYERS (1000) players with random ratings for Nogi, and a few
   blocked pairs among them (SB_BLOCKS, 20).
3. Baseline, in the same run: SB_BASELINE (100) plain two-player Nogi
   matches started through ``games.lobby.services.start_table`` (what a
   division's round creates, without the season), timed, then deleted.
4. Signs everyone up for a Nogi season and times ``seasons.services.start``:
   the placement (ratings, the previous season, blocked pairs) and the
   125 divisions with their round robin tournaments and entrants, in one
   transaction. Prints it and its ratio to the baseline.
5. Then times what the start hands to the workers, here one after the
   other: each division's ``seasons.services.start_division`` (its
   schedule and round 1's matches, 500 in all, with their notifications),
   and prints the time per match beside a plain match's.
6. Checks: every player in a division, divisions of eight, each player
   within a tier of the one their rating gives, no blocked pair in one
   division, every tournament running with its first round's matches. Exits 1 if the season's start
   took SB_LIMIT (10) seconds or more, or a check failed.
"""

from __future__ import annotations

import os
import sys
import time

import startup

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/smoki_season_bench"
PLAYERS = int(os.environ.get("SB_PLAYERS", "1000"))
BLOCKS = int(os.environ.get("SB_BLOCKS", "20"))
BASELINE = int(os.environ.get("SB_BASELINE", "100"))
LIMIT_SECONDS = float(os.environ.get("SB_LIMIT", "10"))


def main() -> int:
    sys.stdout.reconfigure(line_buffering=True)
    startup.start(
        os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL),
        env={"CELERY_TASK_ALWAYS_EAGER": "false"},
        migrate=True,
        test_environment=True,  # no email sent
        no_tasks=True,  # the emails and bots queued after the commit are not timed
    )
    users = prepare()
    baseline = time_baseline(users)
    season, elapsed = time_the_start(users)
    matches, divisions_elapsed = time_the_divisions(season)
    ratio = elapsed / baseline if baseline else float("nan")
    per_match = divisions_elapsed / matches * 1000 if matches else float("nan")
    plain = baseline / BASELINE * 1000
    print(
        f"\n{PLAYERS} players: the season started (divisions made) in {elapsed:.2f} s,"
        f" {ratio:.2f} x the baseline ({BASELINE} plain matches: {baseline:.2f} s)"
        f"\nthe divisions' first rounds: {matches} matches in {divisions_elapsed:.1f} s,"
        f" {per_match:.0f} ms a match ({per_match / plain:.2f} x a plain match's {plain:.0f} ms)"
    )
    ok = check(season, users)
    if elapsed >= LIMIT_SECONDS:
        print(f"THE START TOOK {LIMIT_SECONDS:.0f} SECONDS OR MORE")
        ok = False
    print("\nOK" if ok else "\nFAILED")
    return 0 if ok else 1


def prepare():
    from django.contrib.auth import get_user_model
    from seeded_ratings import bulk_rate

    from accounts.models import Block
    from games.models import Match, ModerationAction, Move, Notification
    from players.models import Rating, RatingChange
    from seasons.models import Season
    from tournaments.models import Tournament

    if ModerationAction.objects.exists():
        raise SystemExit("the bench database has moderation records: use a database of its own")
    User = get_user_model()
    Season.objects.all().delete()
    Tournament.objects.all().delete()
    Notification.objects.all().delete()
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    Move.objects.all()._raw_delete(Move.objects.db)
    Match.objects.all().delete()
    User.objects.filter(username__startswith="sb").delete()
    started = time.perf_counter()
    users = [
        User.objects.create_user(f"sb{i:04d}", f"sb{i:04d}@example.com", None)
        for i in range(PLAYERS)
    ]
    ratings = bulk_rate(users, seed=41, mu=(15.0, 40.0), sigma=(2.0, 6.0))
    by_rating = sorted(ratings, key=lambda r: -r.display)
    # Neighbours by rating, so each pair would share a division unless kept apart.
    Block.objects.bulk_create(
        Block(blocker=by_rating[i].user, blocked=by_rating[i + 1].user)
        for i in range(0, min(2 * BLOCKS, len(by_rating) - 1), 2)
    )
    print(f"{PLAYERS} players made in {time.perf_counter() - started:.1f} s, {BLOCKS} blocks")
    return users


def time_baseline(users) -> float:
    from games.lobby import services as lobby
    from games.models import Match, Visibility

    started = time.perf_counter()
    made = []
    for i in range(BASELINE):
        pair = [users[(2 * i) % len(users)], users[(2 * i + 1) % len(users)]]
        made.append(
            lobby.start_table(
                users=pair, game_key="nogi", options={}, visibility=Visibility.PUBLIC
            ).pk
        )
    elapsed = time.perf_counter() - started
    print(f"baseline: {BASELINE} plain matches started in {elapsed:.2f} s")
    from games.models import Move, Notification

    Notification.objects.filter(match_id__in=made).delete()
    moves = Move.objects.filter(match_id__in=made)
    moves._raw_delete(moves.db)
    Match.objects.filter(pk__in=made).delete()
    return elapsed


def time_the_start(users):
    from datetime import timedelta

    from django.utils import timezone

    from seasons import services
    from seasons.models import Season, SeasonEntry

    now = timezone.now()
    season = Season.objects.create(
        game_key="nogi",
        year=2099,
        quarter=1,
        signup_opens_at=now - timedelta(days=21),
        starts_at=now,
    )
    SeasonEntry.objects.bulk_create(SeasonEntry(season=season, user=u) for u in users)
    started = time.perf_counter()
    outcome = services.start(season.pk, now=now)
    elapsed = time.perf_counter() - started
    print(f"season start: {outcome} in {elapsed:.2f} s")
    return season, elapsed


def time_the_divisions(season) -> tuple[int, float]:
    from datetime import timedelta

    from django.utils import timezone

    from seasons import services
    from tournaments.models import Placement

    started = time.perf_counter()
    outcomes = [
        services.start_division(pk, timezone.now())
        for pk in services.waiting_divisions(limit=1000, grace=timedelta(0))
    ]
    elapsed = time.perf_counter() - started
    matches = (
        Placement.objects.filter(round__tournament__division__season=season, match__isnull=False)
        .values("match_id")
        .distinct()
        .count()
    )
    print(f"{outcomes.count('started')} divisions' first rounds started in {elapsed:.1f} s")
    return matches, elapsed


def check(season, users) -> bool:
    from accounts.models import Block
    from players.models import Rating
    from seasons.models import SeasonEntry
    from tournaments.models import Placement, TournamentStatus

    problems = []
    entries = list(SeasonEntry.objects.filter(season=season).select_related("division"))
    if any(e.division is None for e in entries) or len(entries) != PLAYERS:
        problems.append("not every player is in a division")
    sizes: dict[int, int] = {}
    for entry in entries:
        sizes[entry.division.tier] = sizes.get(entry.division.tier, 0) + 1
    if max(sizes.values()) - min(sizes.values()) > 1 or max(sizes.values()) > 8:
        problems.append(f"division sizes {sorted(set(sizes.values()))}")
    rating = dict(Rating.objects.filter(game_key="nogi").values_list("user_id", "display"))
    tiers = {e.user_id: e.division.tier for e in entries}
    # By rating, each player's tier is their eighth (a swap for a blocked
    # pair moves a player to the next division at most).
    ranked = sorted(tiers, key=lambda u: -rating[u])
    off = [u for i, u in enumerate(ranked) if abs(tiers[u] - (i // 8 + 1)) > 1]
    if off:
        problems.append(f"{len(off)} players more than a tier from their rating's")
    together = [
        (a, b)
        for a, b in Block.objects.values_list("blocker_id", "blocked_id")
        if a in tiers and tiers[a] == tiers.get(b)
    ]
    if together:
        problems.append(f"{len(together)} blocked pairs share a division")
    divisions = list(season.divisions.select_related("tournament"))
    if any(d.tournament.status != TournamentStatus.RUNNING for d in divisions):
        problems.append("a division's tournament is not running")
    matches = (
        Placement.objects.filter(round__tournament__division__season=season, match__isnull=False)
        .values("match_id")
        .distinct()
        .count()
    )
    print(
        f"{len(divisions)} divisions of {min(sizes.values())} to {max(sizes.values())},"
        f" {matches} matches in play, {len(together)} blocked pairs together"
    )
    if problems:
        print("PROBLEMS: " + "; ".join(problems))
        return False
    return True


if __name__ == "__main__":
    raise SystemExit(main())
