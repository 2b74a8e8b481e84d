"""Benchmark a large Swiss tournament played out by bots.

    uv run python tests/load/tournament_bench.py          # or: make tournament-bench

1. Uses PostgreSQL from DATABASE_URL (default
   postgres://postgres@127.0.0.1:5432/smoki_tournament_bench, a database of
   its own), creating and migrating it, and empties its tournaments,
   matches and players.
2. Makes TB_ENTRANTS (128) players with random ratings for Nogi (rating
   rows, which the start's seeding reads, so pairing by points then rating
   sees a real spread), a Swiss tournament of TB_ROUNDS (7) rounds of Nogi
   for them, and starts it through ``tournaments.services``.
3. Each round: every match's seats are handed to bots of level TB_LEVEL
   ("random", the fastest; "heuristic" also works) which play it to the
   end through ``games.play.services.play_bot_turns``, then ``services.advance``
   records the results and pairs the next round. The pairing alone
   (``services._pair``: standings, history and the networkx matching) is
   timed, and so is the whole advance (with the 64 new matches started);
   a baseline measured in the same run (sorting the same standings and
   pairing neighbours, no matching) gives the ratio.
4. Checks that each entrant's rating at the start is their rating for the
   game, and the standings: every entrant played every round, the points add
   up to one a match, no pair met twice, the rows are ordered by points,
   Buchholz and Sonneborn-Berger, and each Buchholz is the sum of the
   opponents' points. Exits 1 if a pairing took a second or more, or a
   check failed.
"""

from __future__ import annotations

import os
import sys
import time
from itertools import combinations
from pathlib import Path

import startup

BASE_DIR = Path(__file__).resolve().parents[2]
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/smoki_tournament_bench"
ENTRANTS = int(os.environ.get("TB_ENTRANTS", "128"))
ROUNDS = int(os.environ.get("TB_ROUNDS", "7"))
LEVEL = os.environ.get("TB_LEVEL", "random")
LIMIT_SECONDS = 1.0


def main() -> int:
    sys.stdout.reconfigure(line_buffering=True)
    startup.start(
        os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL),
        env={"CELERY_TASK_ALWAYS_EAGER": "false"},  # the bench drives every step itself
        migrate=True,
        test_environment=True,  # no email sent
    )
    from games.signals import match_ended

    # The bench advances the tournament itself, once per round: no hand-over.
    match_ended.disconnect(dispatch_uid="tournaments.match_ended")
    time_the_pairing()
    tournament = prepare()
    timings = play(tournament)
    ok = report(timings) & check(tournament)
    print("\nOK" if ok else "\nFAILED")
    return 0 if ok else 1


PAIR_TIMES: list[float] = []


def time_the_pairing() -> None:
    """Wrap ``services._pair`` (standings, history, matching) with a timer."""
    from tournaments import services

    real_pair = services._pair

    def timed_pair(*args, **kwargs):
        started = time.perf_counter()
        result = real_pair(*args, **kwargs)
        PAIR_TIMES.append(time.perf_counter() - started)
        return result

    services._pair = timed_pair


def prepare():
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.models import Match, Notification
    from tournaments import services
    from tournaments.models import Tournament

    User = get_user_model()
    Tournament.objects.all().delete()
    Notification.objects.all().delete()
    from games.models import ModerationAction, Move

    if ModerationAction.objects.exists():
        raise SystemExit("the bench database has moderation records: use a database of its own")
    from seeded_ratings import bulk_rate

    from players.models import Rating, RatingChange

    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    Move.objects.all()._raw_delete(Move.objects.db)
    Match.objects.all().delete()
    User.objects.filter(username__startswith="tb").delete()
    users = [
        User.objects.create_user(f"tb{i:03d}", f"tb{i:03d}@example.com", None)
        for i in range(ENTRANTS)
    ]
    starts = timezone.now() + timedelta(minutes=1)
    tournament = services.create_tournament(
        user=users[0],
        name="Bench Swiss",
        game_key="nogi",
        table_size=2,
        format="swiss",
        rounds=ROUNDS,
        starts_at=starts,
        min_entrants=2,
        max_entrants=256,
        rated=False,
    )
    from tournaments.models import Entrant

    Entrant.objects.bulk_create(Entrant(tournament=tournament, user=u) for u in users[1:])
    # Ratings for the game, which the start's seeding reads (the entrant's
    # rating at the start): "points, then rating" is played with real spread.
    bulk_rate(users, seed=7, mu=(18.0, 40.0), sigma=(2.0, 5.0))
    started = time.perf_counter()
    services.start(tournament.pk, now=starts)
    print(f"{ENTRANTS} entrants, {ROUNDS} rounds, bots of level {LEVEL!r}")
    print(
        f"start: round 1 paired in {PAIR_TIMES[-1] * 1000:.0f} ms, its matches started,"
        f" {time.perf_counter() - started:.2f} s in all"
    )
    return tournament


def play(tournament) -> list[tuple[int, float, float, float, float]]:
    """Per round: (round, pairing s, baseline s, advance s, playing s)."""
    from games.models import Match, MatchStatus, Seat
    from games.play import services as game_services
    from tournaments import pairing, services
    from tournaments.models import Placement

    timings = [(0, PAIR_TIMES[0], 0.0, 0.0, 0.0)]
    for number in range(1, ROUNDS + 1):
        ids = list(
            Placement.objects.filter(
                round__tournament=tournament, round__number=number, match__isnull=False
            ).values_list("match_id", flat=True)
        )
        started = time.perf_counter()
        Seat.objects.filter(match_id__in=ids).update(is_bot=True, bot_level=LEVEL)
        for match_id in ids:
            while Match.objects.filter(pk=match_id, status=MatchStatus.ACTIVE).exists():
                game_services.play_bot_turns(match_id, 500)
        playing = time.perf_counter() - started
        entrants = list(tournament.entrants.all())
        players = [pairing.Standing(e.pk, 0.0, e.rating) for e in entrants]
        started = time.perf_counter()
        order = pairing.standings_order(players)
        _naive = [order[i : i + 2] for i in range(0, len(order), 2)]
        baseline = time.perf_counter() - started
        started = time.perf_counter()
        outcome = services.advance(tournament.pk)
        advancing = time.perf_counter() - started
        paired = PAIR_TIMES[-1] if outcome == "next round" else 0.0
        timings.append((number, paired, baseline, advancing, playing))
        print(
            f"round {number}: played in {playing:.1f} s; advance {advancing:.2f} s"
            + (f", pairing round {number + 1}: {paired * 1000:.0f} ms" if paired else "")
            + f" ({outcome})"
        )
    return timings


def report(timings) -> bool:
    print("\nround  pairing ms  baseline ms  ratio  advance s")
    ok = True
    for number, paired, baseline, advancing, _playing in timings:
        if not paired:
            continue
        ratio = f"{paired / baseline:>5.0f}" if baseline else "    -"
        print(
            f"{number + 1:>5}  {paired * 1000:>10.0f}  {baseline * 1000:>11.3f}"
            f"  {ratio}  {advancing:>9.2f}"
        )
        ok &= paired < LIMIT_SECONDS
    print("every pairing under a second" if ok else "A PAIRING TOOK A SECOND OR MORE")
    return ok


def check(tournament) -> bool:
    from players.models import Rating
    from tournaments import selectors, services
    from tournaments.models import Placement

    tournament.refresh_from_db()
    problems = []
    shown = dict(Rating.objects.filter(game_key="nogi").values_list("user_id", "display"))
    seeded = dict(tournament.entrants.values_list("user_id", "rating"))
    if seeded != {user: shown.get(user) for user in seeded} or len(set(seeded.values())) < 2:
        problems.append("the entrants' ratings at the start are not their ratings for the game")
    if tournament.status != "finished":
        problems.append(f"status {tournament.status}")
    placements = list(
        Placement.objects.filter(round__tournament=tournament).values_list(
            "round__number", "table", "entrant_id", "points", "is_bye"
        )
    )
    played: dict[int, int] = {}
    tables: dict[tuple[int, int], list[tuple[int, float]]] = {}
    for number, table, entrant, points, bye in placements:
        played[entrant] = played.get(entrant, 0) + 1
        if points is None:
            problems.append(f"no points for {entrant} in round {number}")
        if not bye:
            tables.setdefault((number, table), []).append((entrant, points or 0.0))
    if set(played.values()) != {ROUNDS}:
        problems.append(f"rounds played per entrant: {sorted(set(played.values()))}")
    total = sum(p for _n, _t, _e, p, _b in placements if p is not None)
    expected = len(tables) + sum(1 for p in placements if p[4])
    if abs(total - expected) > 1e-9:
        problems.append(f"points add up to {total}, not {expected}")
    pairs = [
        frozenset(pair)
        for seated in tables.values()
        for pair in combinations([e for e, _ in seated], 2)
    ]
    if len(pairs) != len(set(pairs)):
        problems.append(f"{len(pairs) - len(set(pairs))} pairs met twice")
    rows = services.standings(
        [(e.pk, e.rating) for e in tournament.entrants.all()], services.results_of(tournament)
    )
    points = {r.entrant: r.points for r in rows}
    for row in rows:
        opponents = [
            e
            for seated in tables.values()
            if row.entrant in [x for x, _ in seated]
            for e, _ in seated
            if e != row.entrant
        ]
        if abs(row.buchholz - sum(points[o] for o in opponents)) > 1e-9:
            problems.append(f"Buchholz of {row.entrant}")
    keys = [(-r.points, -r.buchholz, -r.berger) for r in rows]
    if keys != sorted(keys):
        problems.append("standings out of order")
    page = selectors.tournament_page(tournament.pk, None)
    if [s.points for s in page.standings] != [r.points for r in rows]:
        problems.append("the page's standings differ from the services'")
    top = rows[:3]
    print(
        "\ntop three: "
        + ", ".join(
            f"{r.entrant}: {r.points} (Buchholz {r.buchholz}, S-B {r.berger:.2f})" for r in top
        )
    )
    if problems:
        print("INCONSISTENT STANDINGS: " + "; ".join(problems[:10]))
        return False
    print(
        f"standings consistent: {len(tables)} matches, {ROUNDS} rounds each, "
        "points add up, no pair twice, ordered by points and tie-breaks"
    )
    return True


if __name__ == "__main__":
    raise SystemExit(main())
