"""A move on a full database costs what it costs on an empty one (PostgreSQL).

    uv run python tests/load/scale_bench.py [--matches 100000] [--moves-per-match 10]

Not part of ``make test``: it fills a database of its own.

1. Uses PostgreSQL from DATABASE_URL (default
   postgres://postgres@127.0.0.1:5432/smoki_scale), creating and migrating it,
   and empties the match tables.
2. Creates ``--probe`` real two-player Nogi matches through the service layer
   and times an htmx move POST (through Django's test client, in-process) on
   half of them, counting its queries: the empty-database figures.
3. Fills the tables with COPY: ``--matches`` active matches (with their two
   seats each, half of them waiting on one of the probe's players, so the
   "next match waiting" and unread-count lookups have plenty to look through)
   and ``--matches`` × ``--moves-per-match`` move rows, then ANALYZE.
4. Times the same move on the other half of the probe matches and prints
   both medians, their ratio, and both query counts.

Prints numbers; asserts only that every move was applied and that the query
count did not change.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

import startup

BASE_DIR = Path(__file__).resolve().parents[2]
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/smoki_scale"


def _copy(cursor, table: str, columns: list[str], rows) -> None:
    """COPY rows (tuples of text-ready values) into ``table``, in chunks."""
    statement = f"COPY {table} ({', '.join(columns)}) FROM STDIN"
    with cursor.copy(statement) as copy:
        for row in rows:
            copy.write_row(row)


def _measure(probes, label: str):
    """One htmx move per probe match by the player to move: median ms and queries."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from games.engine import registry
    from games.models import Match

    times, counts = [], []
    for pk in probes:
        match = Match.objects.get(pk=pk)
        game = registry.get(match.game_key)
        seat = game.current_seats(match.state)[0]
        user = match.seats.get(index=seat).user
        action = game.legal_actions(match.state, seat)[0]
        client = Client()
        client.force_login(user)
        client.get(reverse("match_detail", args=[pk]))  # the page first, as a player opens it
        url = reverse("match_act", args=[pk])
        data = {"action": json.dumps(action), "version": match.version}
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            response = client.post(url, data, headers={"HX-Request": "true"})
            times.append(time.perf_counter() - started)
        assert response.status_code == 200, response.content[:300]
        counts.append(len(queries))
        assert Match.objects.get(pk=pk).version == match.version + 1
    median = statistics.median(times) * 1000
    p95 = sorted(times)[int(len(times) * 0.95) - 1] * 1000
    print(
        f"{label}: htmx move median {median:.1f} ms, p95 {p95:.1f} ms,"
        f" queries {min(counts)}-{max(counts)} ({len(times)} moves)"
    )
    return median, max(counts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--moves-per-match", type=int, default=10)
    parser.add_argument("--probe", type=int, default=200, help="real matches measured")
    args = parser.parse_args()

    startup.start(
        os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL),
        env={"CELERY_TASK_ALWAYS_EAGER": "false"},
        migrate=True,
        no_tasks=True,
    )
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.utils import timezone

    from games.lobby import services as lobby
    from games.models import Match, Move

    print(f"load average before: {os.getloadavg()[0]:.1f}")
    with connection.cursor() as cursor:
        cursor.execute(
            "TRUNCATE games_notification, games_move, games_invitation, games_seat,"
            " games_chatmessage, games_note, games_match RESTART IDENTITY CASCADE"
        )
    User = get_user_model()
    players = [
        User.objects.get_or_create(username=f"scale-{i}", defaults={"email": f"s{i}@x.invalid"})[0]
        for i in range(2)
    ]
    probes = []
    for _i in range(args.probe):
        match = lobby.create_match(user=players[0], game_key="nogi", n_seats=2)
        lobby.join_match(user=players[1], match=match)
        probes.append(match.pk)
    half = len(probes) // 2
    empty_ms, empty_queries = _measure(probes[:half], "empty database")

    started = time.perf_counter()
    now = timezone.now().isoformat()
    far = (timezone.now() + timezone.timedelta(days=3)).isoformat()
    owner = players[0].pk
    state = json.dumps(Match.objects.get(pk=probes[-1]).state)
    with connection.cursor() as cursor:
        cursor.execute("SELECT COALESCE(MAX(id), 0) FROM games_match")
        first = cursor.fetchone()[0] + 1
        ids = range(first, first + args.matches)
        raw = cursor.connection.cursor()
        _copy(
            raw,
            "games_match",
            [
                "id",
                "game_key",
                "rules_version",
                "options",
                "n_seats",
                "seed",
                "seed_hash",
                "state",
                "version",
                "status",
                "visibility",
                "time_per_move",
                "time_bank",
                "time_bank_increment",
                "timeout_policy",
                "turn_paused",
                "deadline",
                "wake_at",
                "waiting_on_id",
                "invite_token",
                "created_by_id",
                "created_at",
                "updated_at",
                "started_at",
                "turn_started_at",
            ],  # fmt: skip
            (
                (
                    i,
                    "nogi",
                    1,
                    "{}",
                    2,
                    f"{i:032x}",
                    "-",
                    state,
                    args.moves_per_match,
                    "active",
                    "public",
                    "3 days",
                    "0",
                    "0",
                    "bot_strikes",
                    "0",
                    far,
                    far,
                    players[i % 2].pk,
                    f"scale-{i}",
                    owner,
                    now,
                    now,
                    now,
                    now,
                )
                for i in ids
            ),  # fmt: skip
        )
        _copy(
            raw,
            "games_seat",
            [
                "match_id",
                "index",
                "user_id",
                "is_bot",
                "bot_level",
                "joined_at",
                "strikes",
                "bank_left",
                "status",
            ],  # fmt: skip
            (
                (
                    i,
                    index,
                    players[index].pk if index == 0 else None,
                    index == 1,
                    "heuristic",
                    now,
                    0,
                    "0",
                    "playing",
                )
                for i in ids
                for index in (0, 1)
            ),  # fmt: skip
        )
        action = json.dumps({"type": "pass"})
        _copy(
            raw,
            "games_move",
            ["match_id", "seq", "seat", "action", "events", "actor_kind", "created_at"],
            (
                (i, seq, seq % 2, action, "[]", "bot", now)
                for i in ids
                for seq in range(1, args.moves_per_match + 1)
            ),
        )
        cursor.execute("SELECT setval('games_match_id_seq', (SELECT MAX(id) FROM games_match))")
        cursor.execute("ANALYZE")
    moves = Move.objects.count()
    print(
        f"filled {Match.objects.count():,} matches and {moves:,} move rows"
        f" with COPY in {time.perf_counter() - started:.1f} s"
    )
    full_ms, full_queries = _measure(probes[half:], "full database")
    print(f"move latency full ÷ empty: {full_ms / empty_ms:.2f}")
    assert full_queries == empty_queries, (empty_queries, full_queries)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
