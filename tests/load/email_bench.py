"""Time the your-turn email's board picture and the whole email, per game (no server).

    uv run python tests/load/email_bench.py [--moves 12] [--runs 20]

Builds one two-player match of each game in a throw-away SQLite database,
plays ``--moves`` bot moves, then, for the player to move, times in-process
(CPU time, the median of ``--runs``):

- ``svg``: the board drawn by its template and laid out as one SVG sheet,
- ``png``: that sheet rendered to PNG (resvg), and
- ``email``: the whole your-turn email built (text, HTML, move links, picture),

with the bytes of the PNG and of the whole message. A one-query view's cost
is printed first as the baseline, as in the other benchmarks, since the
machine's load moves every absolute figure. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from cpu_timing import median_cpu_ms

BASE_DIR = Path(__file__).resolve().parents[2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=12)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--only", nargs="*", help="game keys (default: every registered game)")
    args = parser.parse_args()

    sys.path.insert(0, str(BASE_DIR))
    folder = tempfile.mkdtemp(prefix="smoki-email-")
    os.environ["DATABASE_URL"] = f"sqlite:///{folder}/email.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import transaction

    from games.correspondence import board_picture, compose
    from games.engine import registry
    from games.lobby import services as lobby
    from games.models import Match, Notification, NotificationKind
    from games.play import bots, services

    call_command("migrate", verbosity=0)
    transaction.on_commit = lambda func, using=None, robust=False: None  # no tasks here
    User = get_user_model()

    print(f"load average before: {os.getloadavg()[0]:.1f}")
    baseline = median_cpu_ms(lambda: Match.objects.filter(pk=0).exists(), args.runs)
    print(f"baseline (one query, SQLite): {baseline:.3f} ms")
    print(
        f"{'game':16} {'svg ms':>8} {'png ms':>8} {'email ms':>9}"
        f" {'png/base':>9} {'email/base':>10} {'png bytes':>10} {'email bytes':>11}"
    )
    keys = args.only or [game.key for game in registry.all()]
    for key in keys:
        game = registry.get(key)
        users = [
            User.objects.get_or_create(username=f"mail-{key[:10]}-{i}", email=f"m{i}@x.org")[0]
            for i in range(2)
        ]
        match = lobby.create_match(user=users[0], game_key=key, n_seats=2)
        lobby.join_match(user=users[1], match=match)
        for _step in range(args.moves):
            match.refresh_from_db()
            seat_index = game.current_seats(match.state)[0]
            seat = match.seats.get(index=seat_index)
            action = bots.choose_action(match, game, seat)
            if game.result(game.apply(match.state, seat_index, action)[0]) is not None:
                break
            services.submit_action(match, seat.user, action, match.version)
        match.refresh_from_db()
        seat_index = game.current_seats(match.state)[0]
        seat = match.seats.get(index=seat_index)
        row = Notification.objects.filter(
            match=match, user=seat.user, kind=NotificationKind.YOUR_TURN
        ).first() or Notification(
            match=match, user=seat.user, kind=NotificationKind.YOUR_TURN, version=match.version
        )
        row.version = match.version
        svg_ms = median_cpu_ms(
            lambda m=match, s=seat_index: board_picture.board_svg(m, s), args.runs
        )
        png = board_picture.board_png(match, seat_index)
        png_ms = median_cpu_ms(
            lambda m=match, s=seat_index: board_picture.board_png(m, s), args.runs
        )
        message = compose.build_email(row)
        email_ms = median_cpu_ms(lambda r=row: compose.build_email(r).message(), args.runs)
        size = len(message.message().as_bytes())
        print(
            f"{key:16} {svg_ms:8.1f} {png_ms:8.1f} {email_ms:9.1f}"
            f" {png_ms / baseline:9.0f} {email_ms / baseline:10.0f} {len(png):10d} {size:11d}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
