"""One source of truth: the ratings the finishing matches stored, one match at
a time, equal exactly what ``manage.py recompute_ratings`` rebuilds from the
history of finished matches.

Two hundred matches of every game, 2 to 7 players, are started together
and finished in a random order through the real finishing paths: a game's
last move (``services.finish_match``, and Hatchlings played to its end
through ``submit_action``), a moderator's adjudication, resignations, the
clock's sweep (a loss on time, and seats handed to the bot after their
timeouts), Drakon's team play. Unrated, bot-filled and aborted matches are
mixed in, and a few finished results are corrected by a moderator on the way.
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command

from games.catalog.drakon.rules.state import teams as drakon_teams
from games.engine import registry
from games.lobby import services as lobby
from games.models import Match, MatchStatus, SeatStatus, TimeoutPolicy
from games.moderation import actions as moderation
from games.play import reliability, safety, services, timeouts
from players.models import Rating, RatingChange
from tests.conftest import each_seat_moves
from tests.players.conftest import finish

pytestmark = pytest.mark.django_db

MATCHES = 200
PLAYERS = 14
SEED = 2323
GAMES = {"nogi": (2, 7), "seven_dragons": (2, 5), "drakon": (2, 6), "drako": (2, 2)}


def stored():
    """Every stored rating and change, in a fixed order, without the changes' ids."""
    ratings = list(
        Rating.objects.order_by("user_id", "game_key").values_list(
            "user_id",
            "game_key",
            "mu",
            "sigma",
            "display",
            "rated_matches",
            "wins",
            "last_played_at",
        )
    )
    changes = list(
        RatingChange.objects.order_by("match_id", "user_id").values_list(
            "match_id",
            "user_id",
            "game_key",
            "seat",
            "rank",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
            "display_before",
            "display_after",
            "rated_at",
        )
    )
    return ratings, changes


def random_ranks(rng: random.Random, n: int) -> list[int]:
    """Ranks 1 = best, ties shared as a game's result gives them."""
    scores = [rng.randint(0, 3) for _ in range(n)]
    return [1 + sum(other > mine for other in scores) for mine in scores]


def _start(rng, users, moderator):
    """One match, started (or aborted, or left open), and how it will end."""
    key = rng.choice(list(GAMES))
    low, high = GAMES[key]
    roll = rng.random()
    if roll < 0.06:
        key, low, high = "hatchlings", 2, 2
        end = "played"
    elif roll < 0.14:
        key, low, high = "drakon", 4, 6
        end = "teams"
    elif roll < 0.22:
        key, low, high = "hatchlings", 2, 2
        end = "loss_on_time"
    elif roll < 0.30:
        end = "timeouts"
    elif roll < 0.40:
        end = "resign"
    elif roll < 0.48:
        end = "adjudicate"
    else:
        end = "finish"
    n = rng.choice([x for x in range(low, high + 1) if end != "teams" or x % 2 == 0])
    seated = rng.sample(users, n)
    options = {"team_play": True} if end == "teams" else None
    kind = rng.random()
    rated = False if kind < 0.07 else None
    policy = TimeoutPolicy.LOSS if end == "loss_on_time" else TimeoutPolicy.BOT_STRIKES
    match = lobby.create_match(
        user=seated[0],
        game_key=key,
        n_seats=n,
        options=options,
        rated=rated,
        timeout_policy=policy,
        time_per_move=timedelta(hours=6),
    )
    if 0.07 <= kind < 0.11:
        lobby.fill_with_bots(user=seated[0], match=match, level="random")
        end = end if end not in ("teams", "played", "loss_on_time") else "finish"
    else:
        for user in seated[1:]:
            lobby.join_match(user=user, match=match)
    match.refresh_from_db()
    if 0.11 <= kind < 0.15:
        moderation.abort_match(moderator, match, "Aborted in the generated history")
        end = "aborted"
    return match, end


def _finish(rng, match, end, moderator) -> str:
    match.refresh_from_db()
    n = match.n_seats
    humans = list(match.seats.exclude(user=None).select_related("user").order_by("index"))
    if end == "aborted":
        return end
    if end == "teams":
        teams = drakon_teams(match.state)
        team_ranks = random_ranks(rng, len(teams))
        ranks = [0] * n
        for team, rank in zip(teams, team_ranks, strict=True):
            for seat in team:
                ranks[seat] = rank
        finish(match, ranks, {"teams": teams})
    elif end == "played":
        game = registry.get(match.game_key)
        while match.status == MatchStatus.ACTIVE:
            (seat,) = game.current_seats(match.state)
            user = humans[seat].user
            action = rng.choice(game.legal_actions(match.state, seat))
            services.submit_action(match, user, action, match.version)
            match.refresh_from_db()
    elif end == "loss_on_time":
        if rng.random() < 0.5:  # else it ends before each seat moved: aborted
            match = each_seat_moves(match)
        assert timeouts.wake_match(match.pk, now=match.deadline + timedelta(minutes=1))
    elif end == "timeouts":
        for _ in range(rng.randint(2, 3 * n)):
            timeouts.wake_match(match.pk, now=match.deadline + timedelta(minutes=1))
            match.refresh_from_db()
            if match.status != MatchStatus.ACTIVE:
                break
        if match.status == MatchStatus.ACTIVE:
            finish(match, random_ranks(rng, n))
    elif end == "resign":
        quitter = rng.choice(humans)
        if rng.random() < 0.5:  # else a two-player match is aborted
            match = each_seat_moves(match)
        safety.resign(user=quitter.user, match=match)
        match.refresh_from_db()
        if match.status == MatchStatus.ACTIVE:
            finish(match, random_ranks(rng, n))
    elif end == "adjudicate":
        moderation.adjudicate(moderator, match, random_ranks(rng, n), "Decided by a moderator")
    else:
        finish(match, random_ranks(rng, n))
    match.refresh_from_db()
    if match.ended_early_by is not None:
        return "early"  # resigned or lost on time before each seat moved
    assert match.status == MatchStatus.FINISHED, (end, match.status)
    return end


def test_recompute_ratings_rebuilds_exactly_what_the_finishing_matches_stored(
    make_user, moderator, monkeypatch
):
    # The history starts every match before it finishes any: far past the
    # cap on a player's matches at once, which this test is not about.
    monkeypatch.setattr(reliability, "BASE_LIMIT", MATCHES)
    rng = random.Random(SEED)
    users = [make_user(f"h{i:02d}") for i in range(PLAYERS)]
    started = [_start(rng, users, moderator) for _ in range(MATCHES)]
    rng.shuffle(started)
    ends = Counter()
    finished = []
    for i, (match, end) in enumerate(started):
        ends[_finish(rng, match, end, moderator)] += 1
        finished.append(match)
        if i % 60 == 59:
            # A moderator corrects an earlier result: its ratings and every
            # later one of its game are computed again.
            earlier = rng.choice([m for m in finished if m.status == MatchStatus.FINISHED])
            ranks = random_ranks(rng, earlier.n_seats)
            moderation.correct_result(moderator, earlier, ranks, "A result corrected")
            ends["corrected"] += 1

    # The history is the varied one this test promises.
    assert ends["aborted"] >= 5 and ends["corrected"] == 3
    assert min(ends[k] for k in ("teams", "played", "loss_on_time", "timeouts", "resign")) >= 5
    assert ends["early"] >= 5
    changes = RatingChange.objects.all()
    assert changes.count() >= 4 * MATCHES // 2
    assert changes.values("match").distinct().count() >= MATCHES * 2 // 3
    # Fourteen players meeting again and again: some rated results of a pair
    # past the limit changed nobody's rating (players/ratings.py: repeated_pair).
    uncounted = (
        Match.objects.filter(rated=True, status=MatchStatus.FINISHED)
        .exclude(pk__in=changes.values("match"))
        .count()
    )
    assert uncounted >= 5
    assert set(changes.values_list("game_key", flat=True)) == {*GAMES, "hatchlings"}
    tied = Counter(changes.values_list("match_id", "rank"))
    assert sum(1 for count in tied.values() if count > 1) >= 50  # ties, teams
    assert changes.filter(match__seats__status=SeatStatus.BOT).exists()
    assert changes.filter(match__seats__status=SeatStatus.RESIGNED).exists()
    assert changes.filter(match__seats__status=SeatStatus.TIMED_OUT).exists()
    assert not RatingChange.objects.filter(match__rated=False).exists()
    assert not RatingChange.objects.exclude(match__status=MatchStatus.FINISHED).exists()

    live = stored()
    out = StringIO()
    call_command("recompute_ratings", stdout=out)
    rated = changes.values("match").distinct().count()
    assert out.getvalue().strip() == f"Rated {rated} matches again."
    rebuilt = stored()
    assert rebuilt[0] == live[0]  # ratings, floats equal to the last bit
    assert rebuilt[1] == live[1]  # every change
    # One game at a time, the same.
    call_command("recompute_ratings", game="nogi", stdout=StringIO())
    assert stored() == live
