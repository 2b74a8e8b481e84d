"""Where an htmx move's time goes: CPU per move and a profile, in-process.

    uv run python tests/load/move_profile.py [--matches 40] [--moves 300] [--top 40] [--show RE]
        [--sort cumulative|tottime] [--whole-log] [--whole-panel]

On PostgreSQL (DATABASE_URL, default ``smoki_prof`` on 127.0.0.1, created if
missing) with ``DEBUG=false``: creates two-player Nogi matches with logged-in
players (``move_load.create_matches``), then posts htmx moves through Django's
test client (CSRF checked, as a browser would post them, with the headers the
panel's ``hx-headers`` send: the log's version and what the page shows, taken
from the previous answer or, after a plain-form move, from the database as a
poll would bring it, outside the timing). Prints the median
CPU time of an htmx move and of a plain-form move (made in turn) (``time.process_time``, which other work on a shared
machine disturbs less than the wall clock), then profiles as many moves again
with cProfile and prints the functions of the site and Django's entry points
by cumulative time. cProfile weighs Python-heavy code (the ORM, templates)
more than it costs; compare shares within one profile, not with the median.
Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import re
import statistics
import sys
import time
from pathlib import Path

import startup

BASE_DIR = Path(__file__).resolve().parents[2]
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/smoki_prof"
SHOWN = re.compile(r"/(games|accounts)/|shortcuts.py:\d+\(render\)|transaction.py:\d+\(__exit__\)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument(
        "--show",
        default=SHOWN.pattern,
        help="a regular expression of the functions the profile lists"
        " (default: the site's code and Django's entry points; '.' lists every one)",
    )
    parser.add_argument(
        "--sort",
        default="cumulative",
        choices=["cumulative", "tottime"],
        help="order of the profile's list: time under a function, or in its own code",
    )
    parser.add_argument(
        "--whole-log",
        action="store_true",
        help="post htmx moves without the Smoki-Log header (the answer draws the whole log)",
    )
    parser.add_argument(
        "--whole-panel",
        action="store_true",
        help="post htmx moves without the Smoki-Panel header (the answer draws the parts"
        " of the panel no move changes, which the page would keep)",
    )
    args = parser.parse_args()
    whole_log = args.whole_log
    whole_panel = args.whole_panel

    sys.path[:0] = [str(BASE_DIR), str(BASE_DIR / "tests" / "load")]
    import move_load

    # The load test's server settings (DEBUG off, an in-process broker), in this process.
    os.environ.update(
        move_load.server_env(os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL)),
        ALLOWED_HOSTS="testserver",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    startup.start(migrate=True)
    from django.test import Client

    from games.engine import registry

    game = registry.get("nogi")
    games = move_load.create_matches(args.matches)
    client = Client(enforce_csrf_checks=True)
    turn = [0]

    def move(htmx: bool = True) -> float:
        live = [g for g in games if not g.state["over"]]
        if not live:  # every match has ended: fresh ones, made outside the timing
            games.extend(move_load.create_matches(args.matches))
            live = [g for g in games if not g.state["over"]]
        g = live[turn[0] % len(live)]
        turn[0] += 1
        (seat,) = game.current_seats(g.state)
        player = g.players[seat]
        action = random.choice(game.legal_actions(g.state, seat))
        client.cookies.load(player.cookie)
        if htmx and g.shown is None:
            move_load.refresh_shown([g])
        headers = {"X-CSRFToken": player.csrf}
        if htmx:
            headers["HX-Request"] = "true"
            if g.version and not whole_log:  # as the panel's hx-headers send it
                headers["Smoki-Log"] = str(g.version)
            if not whole_panel:
                headers["Smoki-Panel"] = g.shown
        started = time.process_time()
        response = client.post(
            f"/m/{g.pk}/act/", {"action": json.dumps(action), "version": g.version}, headers=headers
        )
        spent = time.process_time() - started
        expected = 200 if htmx else 302
        assert response.status_code == expected, (response.status_code, response.content[:300])
        g.state = game.apply(g.state, seat, action)[0]
        g.version += 1
        shown = move_load.PANEL_SHOWN.search(response.content) if htmx else None
        g.shown = shown.group(1).decode() if shown else None
        return spent

    for _warm in range(40):
        move()
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    # htmx and plain-form moves in turn, so the machine's other work touches both alike.
    htmx_times, form_times = [], []
    for _i in range(args.moves):
        htmx_times.append(move())
        form_times.append(move(htmx=False))
    htmx_ms = statistics.median(htmx_times) * 1000
    form_ms = statistics.median(form_times) * 1000
    print(f"htmx Nogi move, median CPU: {htmx_ms:.2f} ms")
    print(f"plain-form Nogi move (a redirect, no panel), median CPU: {form_ms:.2f} ms")
    print(
        f"form ÷ htmx CPU (the htmx move's throughput bound, as a share of the form's): {form_ms / htmx_ms:.2f}"
    )
    print(f"htmx ÷ form CPU: {htmx_ms / form_ms:.2f}")
    profile = cProfile.Profile()
    profile.enable()
    for _i in range(args.moves):
        move()
    profile.disable()
    out = io.StringIO()
    stats = pstats.Stats(profile, stream=out).sort_stats(args.sort)
    stats.print_stats(args.show, args.top)
    print(out.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
