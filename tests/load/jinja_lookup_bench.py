"""Each game's board drawn with Jinja2's own attribute lookup and with the
site's (games/jinja.py ``Environment.getattr``: a plain dict's key read
without the AttributeError first), in turn, in the same run.

    uv run python tests/load/jinja_lookup_bench.py

A two-player match after 12 random moves, drawn for the seat to move with its
choices; best of 3 × 50 drawings, median of 7 alternating pairs, in ms, and
the ratio of the site's to Jinja2's. Checks the two drawings are the same.
Prints numbers; asserts nothing about time.
"""

from __future__ import annotations

import functools
import os
import random
import statistics
import sys
import timeit
from pathlib import Path
from types import SimpleNamespace

BASE_DIR = Path(__file__).resolve().parents[2]


def main() -> int:
    sys.path.insert(0, str(BASE_DIR))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    import jinja2
    from django.template import engines
    from django.utils import translation

    from games import presenters
    from games.engine import registry

    env = engines["jinja2"].env
    ours, stock = type(env).getattr, jinja2.Environment.getattr
    translation.activate("en")
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    for game in registry.all():
        presenter = presenters.get(game.key)
        rnd = random.Random(3)
        state = game.setup(2, {}, "seed-1")
        for _i in range(12):
            if game.is_over(state):
                break
            seat = game.current_seats(state)[0]
            state = game.apply(state, seat, rnd.choice(game.legal_actions(state, seat)))[0]
        seat = game.current_seats(state)[0]
        names = ["Ann", "Ben"]
        view = {**game.view(state, seat), "_names": names, "_version": 12}
        choices = presenters.choice_level(game.legal_actions(state, seat), view, presenter, [])
        context = {
            "board": presenter.board_context(view, seat, names, choices),
            "choices": choices,
            "match": SimpleNamespace(pk=1, version=12),
            "urls": presenters.MatchUrls.of(1),
            "me": None,
            "changed": frozenset(),
        }
        template = env.get_template(presenter.BOARD_TEMPLATE)
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
