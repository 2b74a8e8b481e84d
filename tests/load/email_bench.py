"""The your-turn email along whole matches, per game (no server): its bytes and its time.

    uv run python tests/load/email_bench.py [--matches 3] [--every 4] [--only drakon nogi]

Plays ``--matches`` bot-played matches of each game in a throw-away SQLite
database (two seats, then the game's largest table, then two again, and so
on), each to its end (at most ``--max-moves`` moves), and every ``--every``
moves builds the your-turn email of the seat to move, as the mail worker
does. At each such point it records:

- the bytes of the board's picture (the PNG, ``games/correspondence/board_picture.py``),
- the bytes of the whole message (text, HTML, move links, picture), and
- the CPU time of the picture and of the whole email.

Per game and over every game it prints the median, the 95th percentile and
the largest of each, so a long match's crowded board counts as often as its
opening. A one-query view's cost is printed first as the baseline, as in the
other benchmarks, since the machine's load moves every absolute figure.
``--seed`` makes the matches repeatable (the same seeds, bots and points).
Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import startup
from cpu_timing import median_cpu_ms

BASE_DIR = Path(__file__).resolve().parents[2]


def p95(values: list[float]) -> float:
    """The 95th percentile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[max(0, -(-95 * len(ordered) // 100) - 1)]


def cpu_ms(func):
    started = time.process_time()
    result = func()
    return result, (time.process_time() - started) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3, help="matches per game")
    parser.add_argument("--every", type=int, default=4, help="build the email every N moves")
    parser.add_argument("--max-moves", type=int, default=400)
    parser.add_argument("--seed", default="email-bench")
    parser.add_argument("--runs", type=int, default=20, help="runs of the baseline query")
    parser.add_argument("--only", nargs="*", help="game keys (default: every registered game)")
    args = parser.parse_args()

    startup.start("scratch", migrate=True, no_tasks=True)
    from django.contrib.auth import get_user_model

    from games.correspondence import board_picture, compose
    from games.engine import registry
    from games.lobby import services as lobby
    from games.models import Match, Notification, NotificationKind
    from games.play import bots, services

    User = get_user_model()

    print(f"load average before: {os.getloadavg()[0]:.1f}")
    baseline = median_cpu_ms(lambda: Match.objects.filter(pk=0).exists(), args.runs)
    print(f"baseline (one query, SQLite): {baseline:.3f} ms")
    header = (
        f"{'game':16} {'points':>6} {'png kB med/p95/max':>20} {'email kB med/p95/max':>22}"
        f" {'png ms':>7} {'email ms':>9} {'email/base':>10}"
    )
    print(header)
    every: dict[str, list[float]] = {"png": [], "email": []}
    keys = args.only or [game.key for game in registry.all()]
    for key in keys:
        game = registry.get(key)
        found: dict[str, list[float]] = {"png": [], "email": [], "png_ms": [], "email_ms": []}
        for number in range(args.matches):
            n_seats = game.min_players if number % 2 == 0 else game.max_players
            users = [
                User.objects.get_or_create(
                    username=f"mail-{key[:10]}-{number}-{i}", email=f"m{number}-{i}@x.org"
                )[0]
                for i in range(n_seats)
            ]
            match = lobby.create_match(user=users[0], game_key=key, n_seats=n_seats)
            # Repeatable matches: the seed (so the deal and the bots' choices) from --seed,
            # set before the last player joins and the game is set up.
            Match.objects.filter(pk=match.pk).update(seed=f"{args.seed}:{key}:{number}")
            match.refresh_from_db()
            for user in users[1:]:
                lobby.join_match(user=user, match=match)
            for step in range(args.max_moves):
                match.refresh_from_db()
                waiting = game.current_seats(match.state)
                if not waiting:
                    break
                seat = match.seats.get(index=waiting[0])
                if step % args.every == 0:
                    row = Notification(
                        match=match,
                        user=seat.user,
                        kind=NotificationKind.YOUR_TURN,
                        version=match.version,
                    )
                    png, png_ms = cpu_ms(
                        lambda m=match, s=seat.index: board_picture.board_png(m, s)
                    )
                    size, email_ms = cpu_ms(
                        lambda r=row: len(compose.build_email(r).message().as_bytes())
                    )
                    found["png"].append(len(png) / 1000)
                    found["email"].append(size / 1000)
                    found["png_ms"].append(png_ms)
                    found["email_ms"].append(email_ms)
                action = bots.choose_action(match, game, seat)
                services.submit_action(match, seat.user, action, match.version, queue_bots=False)
        every["png"] += found["png"]
        every["email"] += found["email"]
        png, email = found["png"], found["email"]
        email_ms = statistics.median(found["email_ms"])
        print(
            f"{key:16} {len(png):6d}"
            f" {statistics.median(png):6.1f}/{p95(png):5.1f}/{max(png):5.1f}"
            f"  {statistics.median(email):6.1f}/{p95(email):6.1f}/{max(email):6.1f}"
            f" {statistics.median(found['png_ms']):7.1f} {email_ms:9.1f}"
            f" {email_ms / baseline:10.0f}"
        )
    png, email = every["png"], every["email"]
    print(
        f"{'every game':16} {len(png):6d}"
        f" {statistics.median(png):6.1f}/{p95(png):5.1f}/{max(png):5.1f}"
        f"  {statistics.median(email):6.1f}/{p95(email):6.1f}/{max(email):6.1f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
