"""Time the replay's position at step N for every registered game (no server).

    uv run python tests/load/replay_bench.py [--moves 500] [--runs 20]

Plays one match of each game with random bots (the engine alone) for up to
``--moves`` actions (a match that ends sooner is as long as it got), then
times ``games.replay.state_at`` at the step before the last (the last is the
stored state): cold, with no position kept (a rebuild from the setup, which
keeps one every ``CHECKPOINT_EVERY`` steps), and warm, from the kept
position, as every later look at any step does. Medians in ms, with the
number of ``apply`` calls each made. Then the warm step with its highlights
(``step_states`` and the presenter's ``changed`` over the viewer's two
views, what the replay page draws), as a ratio to the warm step alone,
measured in the same run. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace

BASE_DIR = Path(__file__).resolve().parents[2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=500)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    sys.path.insert(0, str(BASE_DIR))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.pop("CACHE_URL", None)
    import django

    django.setup()
    from django.core.cache import cache

    from games import replay
    from games.engine import registry
    from games.engine.rng import Rng

    print(f"CHECKPOINT_EVERY = {replay.CHECKPOINT_EVERY}")
    print(
        f"{'game':16} {'steps':>6} {'cold ms':>9} {'cold applies':>13} {'warm ms':>8}"
        f" {'warm applies':>13} {'highlit ms':>10} {'ratio':>6}"
    )
    for entry in registry.registrations():
        game = entry.rules
        bot = entry.bot_module()
        n = game.min_players
        seed = f"bench-{entry.key}"
        state = game.setup_for(game.rules_version, n, {}, seed)
        entries = [(0, None, {"type": "_opening"})]
        rng = Rng.from_seed(seed)
        while len(entries) <= args.moves and game.result(state) is None:
            seat = game.current_seats(state)[0]
            action = bot.choose(state, seat, rng, level="random")
            state, _events = game.apply(state, seat, action)
            entries.append((len(entries), seat, action))
        last = len(entries) - 1
        match = SimpleNamespace(
            pk=1,
            rules_version=game.rules_version,
            n_seats=n,
            options={},
            seed=seed,
            game_key=entry.key,
            version=last,
            state=state,
        )
        calls = []
        original = type(game).apply

        def counting(self, *a, _original=original, _calls=calls):
            _calls.append(1)
            return _original(self, *a)

        type(game).apply = counting
        step = last - 1
        cold, warm = [], []
        cold_calls = warm_calls = 0
        for _i in range(args.runs):
            cache.clear()
            calls.clear()
            started = time.perf_counter()
            replay.state_at(match, game, entries, step)
            cold.append(time.perf_counter() - started)
            cold_calls = len(calls)
            calls.clear()
            started = time.perf_counter()
            replay.state_at(match, game, entries, step)
            warm.append(time.perf_counter() - started)
            warm_calls = len(calls)
        highlit = []
        for _i in range(args.runs):
            started = time.perf_counter()
            before, after = replay.step_states(match, game, entries, step)
            replay.changes(match, before, after, 0)
            highlit.append(time.perf_counter() - started)
        type(game).apply = original
        warm_ms = statistics.median(warm) * 1000
        highlit_ms = statistics.median(highlit) * 1000
        print(
            f"{entry.key:16} {last:6} {statistics.median(cold) * 1000:9.2f} {cold_calls:13}"
            f" {warm_ms:8.2f} {warm_calls:13} {highlit_ms:10.2f} {highlit_ms / warm_ms:6.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
