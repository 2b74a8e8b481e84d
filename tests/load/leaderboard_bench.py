"""Benchmark the leaderboard and the player page on PostgreSQL.

    uv run python tests/load/leaderboard_bench.py          # or: make leaderboard-bench

1. Uses PostgreSQL from DATABASE_URL (default
   postgres://postgres@127.0.0.1:5432/smoki_leaderboard, a database of its
   own), creating and migrating it, and empties its players, matches and
   ratings.
2. Fills it with SQL (``generate_series``, each table in one INSERT … SELECT
   cloning a template row the ORM made): LB_PLAYERS (100,000) players with
   profiles, a Nogi rating each and a Drakon rating for three in ten, most
   past the provisional mark and most active within 180 days; LB_SEATS
   (1,000,000) finished seats of two-player rated matches, each with its
   RatingChange. Then VACUUM ANALYZE.
3. Prints the EXPLAIN (ANALYZE, BUFFERS) plan of every query of a
   leaderboard page (the first page, a deep page, the last page with the
   provisional players, and the first page seen by a player ranked in the
   middle, whose place is counted) and of the leaders every game's lobby
   tile names, and says whether each query on the ratings is an index scan
   on ``rating_leaderboard`` (the order), ``rating_active`` (the count) or
   ``rating_provisional`` (the provisional players);
   then the plans of a player page's queries. Exits 1 if one is not.
4. Times a one-query baseline (SELECT 1), the leaderboard's and the player
   page's selectors, and the whole pages through Django's test client
   (rendering included), and prints each as milliseconds and as a ratio to
   the baseline measured in the same run.

LB_REUSE=1 keeps the tables of an earlier run with the same sizes (the
fill takes minutes) and measures again.

The numbers the ratings carry are made up (only their spread matters to
the plans); the changes' matches and seats are real rows.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

import startup

BASE_DIR = Path(__file__).resolve().parents[2]
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/smoki_leaderboard"
PLAYERS = int(os.environ.get("LB_PLAYERS", "100000"))
SEATS = int(os.environ.get("LB_SEATS", "1000000"))
RUNS = int(os.environ.get("LB_RUNS", "30"))
# The leaderboard's indexes: its order, its count of active players, and the
# provisional players listed below the ranked ones.
INDEXES = ("rating_leaderboard", "rating_active", "rating_provisional")


def main() -> int:
    sys.stdout.reconfigure(line_buffering=True)
    os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "true")
    startup.start(
        os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL), migrate=True, test_environment=True
    )
    started = time.perf_counter()
    if os.environ.get("LB_REUSE") == "1" and _filled():
        print("LB_REUSE=1: the tables are filled already")
    else:
        fill()
        print(f"filled in {time.perf_counter() - started:.0f} s")
    viewer, player = pick_viewer_and_player()
    ok = explain_leaderboard(viewer)
    explain_player_page(player, viewer)
    time_pages(viewer, player)
    names = " or ".join(INDEXES)
    if not ok:
        print(f"\nNOT AN INDEX SCAN on {names} for every leaderboard query (see the plans above)")
        return 1
    print(f"\nevery leaderboard query on the ratings is an index scan on {names}")
    return 0


# -- Filling ---------------------------------------------------------------------------


def _columns(cursor, table: str) -> list[str]:
    cursor.execute(
        "SELECT column_name FROM information_schema.columns"
        " WHERE table_name = %s AND column_name <> 'id' ORDER BY ordinal_position",
        [table],
    )
    return [row[0] for row in cursor.fetchall()]


def _clone(cursor, table: str, template_id: int, source: str, overrides: dict[str, str]) -> int:
    """INSERT … SELECT: one row per row of ``source`` (SQL after FROM, may use
    the template row as ``t``), every column the template's unless overridden."""
    columns = _columns(cursor, table)
    unknown = set(overrides) - set(columns)
    assert not unknown, unknown
    values = ", ".join(overrides.get(c, f't."{c}"') for c in columns)
    names = ", ".join(f'"{c}"' for c in columns)
    cursor.execute(
        f'INSERT INTO "{table}" ({names}) SELECT {values} FROM "{table}" t, {source} AND t.id = %s',
        [template_id],
    )
    return cursor.rowcount


def _filled() -> bool:
    from players.models import RatingChange

    return RatingChange.objects.count() == SEATS


def fill() -> None:
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.utils import timezone

    from accounts.models import Profile
    from games.models import Match, MatchStatus, Seat

    User = get_user_model()
    with connection.cursor() as cursor:
        cursor.execute(
            "TRUNCATE players_ratingchange, players_rating, players_block, games_seat,"
            " games_move, games_match, accounts_profile, auth_user RESTART IDENTITY CASCADE"
        )
    matches = SEATS // 2
    with transaction.atomic():
        template = User.objects.create_user("lb-template", email="t@example.com", password=None)
        profile = Profile.objects.get_or_create(user=template)[0]
        match = Match.objects.create(
            game_key="nogi",
            rules_version=1,
            n_seats=2,
            seed="0" * 32,
            seed_hash="-",
            invite_token="lb-template",
            status=MatchStatus.FINISHED,
            created_by=template,
            rated=True,
            state={},
            result={"ranks": [1, 2], "scores": [None, None], "details": {}},
            finished_at=timezone.now(),
            started_at=timezone.now(),
        )
        seat = Seat.objects.create(match=match, index=0, user=template, rank=1)
        with connection.cursor() as cursor:
            t0 = time.perf_counter()
            _clone(
                cursor,
                "auth_user",
                template.pk,
                f"generate_series(1, {PLAYERS}) g WHERE true",
                {
                    "username": "'p' || g",
                    "email": "'p' || g || '@example.com'",
                    "date_joined": "now() - (g %% 1500) * interval '1 day'",
                    "last_login": "NULL",
                },
            )
            cursor.execute("SELECT min(id) FROM auth_user WHERE username LIKE %s", ["p%"])
            base = cursor.fetchone()[0]
            _clone(
                cursor,
                "accounts_profile",
                profile.pk,
                "auth_user u WHERE u.username LIKE 'p%%'",
                {
                    "user_id": "u.id",
                    "username_key": "u.username",
                    "username_lower_key": "u.username",
                    "display_name": "CASE WHEN u.id %% 4 = 0 THEN 'Player ' || u.id ELSE '' END",
                    "display_key": "CASE WHEN u.id %% 4 = 0 THEN 'player ' || u.id ELSE '' END",
                    "display_lower_key": "CASE WHEN u.id %% 4 = 0 THEN 'player ' || u.id ELSE '' END",
                },
            )
            print(f"{PLAYERS:,} players with profiles ({time.perf_counter() - t0:.0f} s)")
            t0 = time.perf_counter()
            # Two-player rated matches, finished over the last year, one in
            # five of Drakon.
            _clone(
                cursor,
                "games_match",
                match.pk,
                f"generate_series(1, {matches}) g WHERE true",
                {
                    "game_key": "CASE WHEN g %% 5 = 0 THEN 'drakon' ELSE 'nogi' END",
                    "seed": "md5(g::text)",
                    "invite_token": "'lb-' || g",
                    "created_by_id": f"{base} + (g::bigint * 7919) %% {PLAYERS}",
                    "finished_at": "now() - (g %% 365) * interval '1 day' - g * interval '1 second'",
                    "started_at": "now() - (g %% 365) * interval '1 day' - interval '10 days'",
                    "created_at": "now() - (g %% 365) * interval '1 day' - interval '11 days'",
                    "updated_at": "now() - (g %% 365) * interval '1 day'",
                },
            )
            # Seat 0 and seat 1: two different players, pseudo-random.
            a = f"((m.id::bigint * 7919) %% {PLAYERS})"
            b = f"(({a} + 1 + (m.id::bigint * 31) %% {PLAYERS - 1}) %% {PLAYERS})"
            _clone(
                cursor,
                "games_seat",
                seat.pk,
                "games_match m, generate_series(0, 1) s"
                " WHERE m.invite_token LIKE 'lb-%%' AND m.id <> " + str(match.pk),
                {
                    "match_id": "m.id",
                    "index": "s",
                    "user_id": f"{base} + CASE WHEN s = 0 THEN {a} ELSE {b} END",
                    "rank": "1 + ((m.id + s) %% 2)",
                    "joined_at": "m.created_at",
                },
            )
            cursor.execute(
                "INSERT INTO players_ratingchange (match_id, user_id, game_key, seat, rank,"
                " mu_before, sigma_before, mu_after, sigma_after, display_before, display_after,"
                " rated_at)"
                " SELECT s.match_id, s.user_id, m.game_key, s.index, s.rank,"
                " 25, 5, 25 + CASE WHEN s.rank = 1 THEN 1 ELSE -1 END, 4.9,"
                " 700 + (s.id * 37) %% 900, 700 + (s.id * 37) %% 900"
                "   + CASE WHEN s.rank = 1 THEN 12 ELSE -12 END,"
                " m.finished_at"
                " FROM games_seat s JOIN games_match m ON m.id = s.match_id"
                " WHERE m.invite_token LIKE 'lb-%%' AND m.id <> %s",
                [match.pk],
            )
            print(
                f"{matches:,} finished matches, {cursor.rowcount:,} seats with their rating"
                f" changes ({time.perf_counter() - t0:.0f} s)"
            )
            t0 = time.perf_counter()
            # A Nogi rating for everyone, a Drakon rating for three in ten:
            # nine in ten past the provisional mark, about seven in ten of
            # those active within 180 days.
            cursor.execute(
                "INSERT INTO players_rating (user_id, game_key, mu, sigma, display,"
                " rated_matches, wins, last_played_at)"
                " SELECT u.id, k.key, 20 + (u.id * 13 %% 1000) / 100.0, 2 + (u.id %% 6),"
                " 600 + (u.id::bigint * 7919 + k.n * 31) %% 1300, (u.id * 13 + k.n) %% 50,"
                " (u.id * 13 + k.n) %% 50 / 2,"
                " now() - ((u.id * 17 + k.n) %% 260) * interval '1 day'"
                " FROM auth_user u, (VALUES ('nogi', 0), ('drakon', 1)) AS k(key, n)"
                " WHERE u.username LIKE %s AND (k.n = 0 OR u.id %% 10 < 3)",
                ["p%"],
            )
            print(f"{cursor.rowcount:,} ratings ({time.perf_counter() - t0:.0f} s)")
    t0 = time.perf_counter()
    with connection.cursor() as cursor:
        for table in (
            "auth_user",
            "accounts_profile",
            "games_match",
            "games_seat",
            "players_rating",
            "players_ratingchange",
        ):
            cursor.execute(f"VACUUM ANALYZE {table}")
    print(f"VACUUM ANALYZE ({time.perf_counter() - t0:.0f} s)")


def pick_viewer_and_player():
    """Two players ranked in the middle of Nogi's leaderboard (their places
    are counted): one views the pages, the other's page is shown."""
    from django.contrib.auth import get_user_model

    from players import selectors

    rows = selectors.leaderboard_rows().filter(game_key="nogi").order_by("-display", "user_id")
    total = rows.count()
    middle = list(rows[total // 2 : total // 2 + 2])
    users = get_user_model().objects.in_bulk([r.user_id for r in middle])
    return users[middle[0].user_id], users[middle[1].user_id]


# -- Plans -----------------------------------------------------------------------------


def _captured(call) -> list[tuple[str, tuple]]:
    from django.db import connection

    queries: list[tuple[str, tuple]] = []

    def wrapper(execute, sql, params, many, context):
        queries.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(wrapper):
        call()
    return queries


def _plan(sql: str, params) -> str:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql, params)
        return "\n".join(row[0] for row in cursor.fetchall())


def explain_leaderboard(viewer) -> bool:
    from players import selectors

    ok = True
    keys = ["drakon", "nogi"]
    for label, call in (
        ("first page, anonymous", lambda: selectors.leaderboard("nogi", 1, None)),
        ("page 1,000, anonymous", lambda: selectors.leaderboard("nogi", 1000, None)),
        (
            "last page, anonymous (with the provisional players)",
            lambda: selectors.leaderboard("nogi", 10**6, None),
        ),
        (
            f"first page, seen by {viewer.username} (ranked in the middle)",
            lambda: selectors.leaderboard("nogi", 1, viewer),
        ),
        (
            "the leaders of every game (the lobby's tiles, /leaderboards/)",
            lambda: selectors.leaders(keys, selectors.LEADERS_ON_INDEX),
        ),
    ):
        print(f"\n== Leaderboard of Nogi: {label}")
        for sql, params in _captured(call):
            plan = _plan(sql, params)
            print(f"-- {sql[:150]}…" if len(sql) > 150 else f"-- {sql}")
            print(plan)
            if '"players_rating"' in sql:
                used = [
                    f"{kind} {index}"
                    for index in INDEXES
                    for kind in (
                        "Index Scan using",
                        "Index Only Scan using",
                        "Bitmap Index Scan on",
                    )
                    if f"{kind} {index}" in plan
                ]
                seq = "Seq Scan on players_rating" in plan
                print(f">> {', '.join(used) if used and not seq else 'NOT AN INDEX SCAN'}")
                ok = ok and bool(used) and not seq
    return ok


def explain_player_page(player, viewer) -> None:
    from players import selectors

    print(f"\n== Player page of {player.username}, seen by {viewer.username} (first lines)")
    for sql, params in _captured(lambda: selectors.player_page(player.username, viewer)):
        plan = _plan(sql, params).splitlines()
        print(f"-- {sql[:150]}…" if len(sql) > 150 else f"-- {sql}")
        print("\n".join(plan[:4] + [line for line in plan[-2:] if "Execution Time" in line]))


# -- Timings ---------------------------------------------------------------------------


def _median_ms(call, runs: int = RUNS) -> float:
    call()  # warm
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def time_pages(viewer, player) -> None:
    from django.db import connection
    from django.test import Client

    from players import selectors

    def select_one():
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()

    anonymous = Client()
    signed_in = Client()
    signed_in.force_login(viewer)

    def page(client, url):
        def get():
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)

        return get

    baseline = _median_ms(select_one, RUNS * 10)
    rows = [
        ("SELECT 1 (baseline)", baseline),
        (
            "leaderboard selector, page 1",
            _median_ms(lambda: selectors.leaderboard("nogi", 1, None)),
        ),
        (
            "leaderboard selector, page 1, viewer's place",
            _median_ms(lambda: selectors.leaderboard("nogi", 1, viewer)),
        ),
        (
            "leaders of every game (lobby tiles)",
            _median_ms(lambda: selectors.leaders(["drakon", "nogi"], selectors.LEADERS_ON_TILE)),
        ),
        ("leaderboard page 1, anonymous", _median_ms(page(anonymous, "/leaderboards/nogi/"))),
        ("leaderboard page 1, signed in", _median_ms(page(signed_in, "/leaderboards/nogi/"))),
        (
            "leaderboard page 1,000, anonymous",
            _median_ms(page(anonymous, "/leaderboards/nogi/?page=1000")),
        ),
        (
            "player selector",
            _median_ms(lambda: selectors.player_page(player.username, viewer)),
        ),
        (
            "player page, anonymous",
            _median_ms(page(anonymous, f"/players/{player.username}/")),
        ),
        (
            "player page, signed in",
            _median_ms(page(signed_in, f"/players/{player.username}/")),
        ),
    ]
    finished = selectors.player_page(player.username, None)
    print(
        f"\n== Timings, median of {RUNS} ({player.username} has"
        f" {sum(s.rated_matches for s in finished.standings)} rated matches recorded in"
        f" ratings, {len(finished.finished)} finished shown on page 1)"
    )
    for label, ms in rows:
        print(f"{label:48} {ms:8.2f} ms  {ms / baseline:8.1f} x baseline")


if __name__ == "__main__":
    sys.exit(main())
