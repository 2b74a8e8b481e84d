"""Time the replay: the position at step N for every registered game, then the
page at several steps of a match of 500 moves (no server).

    uv run python tests/load/replay_bench.py [--moves 500] [--runs 20] [--page-runs 10]

Plays one match of each game with random bots (the engine alone) for up to
``--moves`` actions (a match that ends sooner is as long as it got), then
times ``games.history.replay.state_at`` at the step before the last (the last is the
stored state): cold, with no position kept (a rebuild from the setup, which
keeps one every ``CHECKPOINT_EVERY`` steps), and warm, from the kept
position, as every later look at any step does. Medians in ms, with the
number of ``apply`` calls each made. Then the warm step with its highlights
(``step_states`` and the presenter's ``changed`` over the viewer's two
views, what the replay page draws), as a ratio to the warm step alone,
measured in the same run.

No game's random match lasts 500 actions, so the page is timed on one built
for it in a throw-away SQLite database: a three-player Drakon match whose
heroes walk the rooms already laid rather than lay new ones whenever they
can (a legal choice every time; walking ends no match), played through
``services.submit_action`` move by move, as players would, until it holds
``--page-moves`` (500) moves. The walk is tried on the engine first, from
the match's own setup, and a walk that ends the match sooner is not played.
The replay page (``/m/<id>/replay/?at=N``, the whole view and template, for
a signed-in player of the match) is then timed at several steps: cold (the
kept positions deleted: a rebuild from the setup) and warm (from a kept
position, as every later look), with its queries and ``apply`` calls, and as
a ratio to a one-query baseline (``SELECT 1``) measured in the same run, as
in the other benchmarks, since the machine's load moves every absolute
figure. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from pathlib import Path
from types import SimpleNamespace

import startup
from cpu_timing import median_cpu_ms

BASE_DIR = Path(__file__).resolve().parents[2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=500)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--page-moves", type=int, default=500)
    parser.add_argument("--page-runs", type=int, default=10)
    args = parser.parse_args()
    os.environ.pop("CACHE_URL", None)
    startup.start("scratch")
    positions_by_engine(args)
    page_at_steps(args)
    return 0


def positions_by_engine(args) -> None:
    from django.core.cache import cache

    from games.engine import registry
    from games.engine.rng import Rng
    from games.history import replay

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


def _walk(game, state, moves: int, salt: int) -> list | None:
    """``moves`` legal actions from ``state``, a hero's step whenever one may
    step, else a random choice; None when the match would end sooner."""
    rng = random.Random(salt)
    actions = []
    while len(actions) < moves:
        if game.result(state) is not None:
            return None
        seat = game.current_seats(state)[0]
        legal = game.legal_actions(state, seat)
        steps = [action for action in legal if action.get("type") == "move"]
        action = rng.choice(steps or legal)
        state, _events = game.apply(state, seat, action)
        actions.append((seat, action))
    return actions


def _long_match(moves: int):
    """A Drakon match of three players, ``moves`` moves long, played move by
    move through the service layer."""
    from django.contrib.auth import get_user_model

    from games.engine import registry
    from games.lobby import services as lobby
    from games.play import services

    game = registry.get("drakon")
    users = [get_user_model().objects.create_user(f"walker{i}") for i in range(3)]
    match = lobby.create_match(user=users[0], game_key="drakon", n_seats=3)
    for user in users[1:]:
        lobby.join_match(user=user, match=match)
    match.refresh_from_db()
    walk = next(
        (found for salt in range(50) if (found := _walk(game, match.state, moves, salt))),
        None,
    )
    if walk is None:
        raise SystemExit("no walk of that length from this setup: run again")
    by_seat = {seat.index: seat.user for seat in match.seats.all()}
    started = time.perf_counter()
    for seat, action in walk:
        services.submit_action(match.pk, by_seat[seat], action, match.version)
        match.version += 1
    match.refresh_from_db()
    print(
        f"\nbuilt: drakon match #{match.pk}, {match.version} moves through"
        f" services.submit_action in {time.perf_counter() - started:.1f} s"
    )
    return game, match, users[0]


def page_at_steps(args) -> None:
    """The replay page at several steps of a match of ``--page-moves`` moves."""
    from django.core.cache import cache
    from django.core.management import call_command
    from django.db import connection, reset_queries, transaction
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment

    from games.history import replay
    from games.play import positions

    call_command("migrate", verbosity=0)
    setup_test_environment()  # the test client's host, and no email sent
    real_on_commit = transaction.on_commit

    def on_commit(func, using=None, robust=False):
        # A move keeps every tenth position on commit; no task is queued here.
        if getattr(func, "func", None) is positions.keep:
            real_on_commit(func, using=using, robust=robust)

    transaction.on_commit = on_commit
    game, match, player = _long_match(args.page_moves)
    client = Client()
    client.force_login(player)
    url = f"/m/{match.pk}/replay/"

    def select_one():
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()

    calls = []
    original = type(game).apply

    def counting(self, *a):
        calls.append(1)
        return original(self, *a)

    type(game).apply = counting

    def forget_positions():
        cache.delete_many([positions.key(match, seq) for seq in range(1, match.version + 1)])

    def look(step):
        response = client.get(url, {"at": step})
        assert response.status_code == 200, (step, response.status_code)
        return response

    last = match.version
    look(last)  # the session, the log's words (the match page fills them) and the templates
    baseline = median_cpu_ms(select_one, args.page_runs * 10)
    print(f"load average: {os.getloadavg()[0]:.1f}; baseline (SELECT 1, SQLite): {baseline:.3f} ms")
    print(
        f"{'step':>5} {'cold ms':>8} {'cold applies':>13} {'warm ms':>8} {'warm applies':>13}"
        f" {'context ms':>11} {'queries':>8} {'cold/base':>10} {'warm/base':>10}"
    )
    for step in (0, 1, 10, 11, 19, 250, 255, last - 1, last):
        cold = []
        for _i in range(args.page_runs):
            forget_positions()
            calls.clear()
            started = time.process_time()
            look(step)
            cold.append(time.process_time() - started)
        cold_calls = len(calls)
        look(step)
        calls.clear()
        reset_queries()  # a request empties the log of queries: start from an empty one
        with CaptureQueriesContext(connection) as queries:
            look(step)
        warm_calls = len(calls)
        warm = median_cpu_ms(lambda step=step: look(step), args.page_runs)
        context = median_cpu_ms(
            lambda step=step: replay.replay_page(match, player, str(step)), args.page_runs
        )
        cold_ms = statistics.median(cold) * 1000
        print(
            f"{step:5} {cold_ms:8.1f} {cold_calls:13} {warm:8.1f} {warm_calls:13}"
            f" {context:11.1f} {len(queries.captured_queries):8} {cold_ms / baseline:10.0f}"
            f" {warm / baseline:10.0f}"
        )
    type(game).apply = original


if __name__ == "__main__":
    raise SystemExit(main())
