"""Each game's board drawn with Jinja2's own attribute lookup and with the
site's (games/jinja.py ``Environment.getattr``: a plain dict's key read
without the AttributeError first), in turn, in the same run.

    uv run python tests/load/jinja_lookup_bench.py

A match of the game's fewest players after 12 random moves, drawn for the seat to move with its
choices; best of 3 × 50 drawings, median of 7 alternating pairs, in ms, and
the ratio of the site's to Jinja2's. Checks the two drawings are the same.
Prints numbers; asserts nothing about time.
"""

from __future__ import annotations

import functools
import os
import statistics
import sys
import timeit
from pathlib import Path

import startup

BASE_DIR = Path(__file__).resolve().parents[2]


def main() -> int:
    startup.start()
    import jinja2
    from django.template import engines
    from django.utils import translation

    from games.engine import registry
    from tests.boards import board_with_choices

    env = engines["jinja2"].env
    ours, stock = type(env).getattr, jinja2.Environment.getattr
    translation.activate("en")
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    for game in registry.all():
        name, context = board_with_choices(game)
        template = env.get_template(name)
        draw = functools.partial(template.render, context)
        times: dict = {"stock": [], "ours": []}
        drawn = {}
        for _pair in range(7):
            for name, lookup in (("stock", stock), ("ours", ours)):
                type(env).getattr = lookup
                drawn[name] = draw()
                best = min(timeit.repeat(draw, number=50, repeat=3))
                times[name].append(best / 50 * 1000)
        type(env).getattr = ours
        assert drawn["stock"] == drawn["ours"], game.key
        before, after = statistics.median(times["stock"]), statistics.median(times["ours"])
        print(
            f"{game.key:15} Jinja2's lookup {before:.3f} ms, the site's {after:.3f} ms:"
            f" {after / before:.2f} of the time ({len(drawn['ours']):,} characters)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
