"""Time the match panel's rendering for every registered game (no server).

    uv run python tests/load/render_bench.py [--moves 12] [--renders 200]

Builds one two-player match of each game in a throw-away SQLite database,
plays ``--moves`` bot moves, then, for the player to move, times in-process:

- ``context``: ``build.match_panel`` (the game's view, the choices, the
  presenter's board context, the log tail, the chat), and
- ``render``: the panel template drawn from that context,

each the median of ``--renders`` runs, in ms, with the number of template
variables the render resolved and of catalogue look-ups (gettext) the
context and the render made together, counted at the third drawing, as a
process that has drawn panels before draws it. A one-query view's cost is printed first as
the baseline (as in ``make load``), since the machine's load moves every
absolute figure. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import startup
from cpu_timing import median_cpu_ms

BASE_DIR = Path(__file__).resolve().parents[2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=12)
    parser.add_argument("--renders", type=int, default=200)
    parser.add_argument("--only", nargs="*", help="game keys (default: every registered game)")
    args = parser.parse_args()

    startup.start("scratch", env={"CELERY_TASK_ALWAYS_EAGER": "false"}, migrate=True, no_tasks=True)
    from django.contrib.auth import get_user_model
    from django.template.base import Variable
    from django.test import RequestFactory
    from django.utils import translation

    from games.engine import registry
    from games.lobby import services as lobby
    from games.models import Match
    from games.panel import build, jinja
    from games.play import access, bots, services

    User = get_user_model()
    factory = RequestFactory()

    class Panel:
        """The panel as the views draw it (games/panel.jinja, Jinja2)."""

        @staticmethod
        def render(ctx, request):
            return jinja.render(jinja.PANEL_TEMPLATE, ctx, request)

    template = Panel()

    print(f"load average before: {os.getloadavg()[0]:.1f}")
    baseline = median_cpu_ms(lambda: Match.objects.filter(pk=0).exists(), args.renders)
    print(f"baseline (one query, SQLite): {baseline:.3f} ms")
    print(
        f"{'game':16} {'context ms':>10} {'render ms':>10} {'variables':>10}"
        f" {'gettext':>8} {'bytes':>8}"
    )
    keys = args.only or [game.key for game in registry.all()]
    for key in keys:
        game = registry.get(key)
        users = [User.objects.get_or_create(username=f"render-{key[:10]}-{i}")[0] for i in range(2)]
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
        viewer = match.seats.get(index=game.current_seats(match.state)[0]).user
        request = factory.get(f"/m/{match.pk}/")
        request.user = viewer
        request.htmx = False
        loaded = access.get_match_for(match.pk, viewer)

        def context(loaded=loaded, viewer=viewer):
            return build.match_panel(loaded, viewer)

        ctx = context()
        html = template.render(ctx, request)

        counted = [0]
        resolve = Variable.resolve

        def counting(self, context, counted=counted, resolve=resolve):
            counted[0] += 1
            return resolve(self, context)

        Variable.resolve = counting
        template.render(ctx, request)
        Variable.resolve = resolve
        looked_up = [0]
        translation.gettext("")  # Django binds its catalogue function on first use
        lookup = translation._trans.gettext

        def counting_lookup(message, looked_up=looked_up, lookup=lookup):
            looked_up[0] += 1
            return lookup(message)

        translation._trans.gettext = counting_lookup
        template.render(context(), request)
        translation._trans.gettext = lookup
        context_ms = median_cpu_ms(context, args.renders)
        render_ms = median_cpu_ms(
            lambda ctx=ctx, request=request: template.render(ctx, request), args.renders
        )
        print(
            f"{key:16} {context_ms:10.2f} {render_ms:10.2f} {counted[0]:10d}"
            f" {looked_up[0]:8d} {len(html):8d}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
