"""Ratings from finished matches: OpenSkill's Plackett-Luce model, one rating
per player and game key.

``rate_match`` is the one place a finishing match tells the players' layer
(``games.play.services.finish_match`` calls it inside the finishing transaction);
``recompute`` rebuilds every stored rating from the history of finished
matches and must reach exactly what the live updates stored.

What counts (docs/ratings.md):

- only matches marked rated: at creation, public matches whose seats are all
  people; a match that took a bot to fill a seat is unrated;
- every human seat, with its final rank; ties share a rank. A resignation or
  a loss on time is the player's result, and so is a seat the bot played
  after the player's timeouts (``finish_match`` ranks those seats last);
- teams (a game's result naming ``details["teams"]``, as Drakon's team play
  does) are rated as teams: each team's rank is its best member's;
- aborted matches change nothing (a two-player match resigned or lost on
  time before each seat moved is aborted: ``games.play.services.abort_early``);
  a moderator's correction of a finished match rebuilds the ratings from
  that match on (``rerate_from``);
- repeated results: a match counts for nobody when two of its players have
  already had ``PAIR_LIMIT`` counted results together in the game within
  ``PAIR_WINDOW`` before it (``repeated_pair``), so a second account cannot
  feed a rating match after match;
- mass abandonment: a player who lost a rated match of the game on time or
  left it to the bot within ``ABANDON_WINDOW`` before takes the loss again,
  but their opponents are rated only among themselves (``abandoned_again``),
  so one player leaving many matches does not lift each opponent and
  reshuffle the leaderboard.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from itertools import combinations

from django.db import transaction
from django.db.models import Count, Min, Q
from django.utils import timezone
from openskill.models import PlackettLuce

from accounts.models import Profile
from games.models import Match, MatchStatus, Seat, SeatStatus
from players.models import START_MU, START_SIGMA, Rating, RatingChange, display_of

MODEL = PlackettLuce()

#: At most this many results of the same two players in one game count for
#: ratings within ``PAIR_WINDOW`` (a rolling window ending at the match's
#: finish); later ones change nobody's rating (docs/ratings.md). Constants
#: rather than settings: the rebuild must reach what the live updates stored.
PAIR_LIMIT = 5
PAIR_WINDOW = timedelta(days=30)
#: A player's rated matches of one game lost on time or left to the bot
#: within this window after a first one are a mass abandonment: only the
#: first changes their opponents' ratings (docs/ratings.md). A week, because
#: a correspondence player who goes silent runs out of time in each match as
#: its own clock runs out, over days rather than hours.
ABANDON_WINDOW = timedelta(days=7)
#: The seat statuses of a player who left the match (not a resignation).
LEFT = (SeatStatus.TIMED_OUT, SeatStatus.BOT)


@dataclass(frozen=True)
class Outcome:
    """One human seat's part in a rated match."""

    user_id: int
    seat: int
    rank: int
    left: bool = False  # lost on time or left to the bot


def outcomes_of(match: Match, seats: Iterable[Seat]) -> list[Outcome]:
    """The human seats of a finished, rated match, with their final ranks."""
    if not match.rated or match.status != MatchStatus.FINISHED:
        return []
    return [
        Outcome(seat.user_id, seat.index, seat.rank, seat.status in LEFT)
        for seat in seats
        if seat.user_id is not None and not seat.is_bot and seat.rank is not None
    ]


def _teams(match: Match, outcomes: list[Outcome]) -> list[list[Outcome]]:
    """Seats grouped as the game's result groups them (one seat a team otherwise)."""
    teams = ((match.result or {}).get("details") or {}).get("teams")
    by_seat = {o.seat: o for o in outcomes}
    if not teams:
        return [[o] for o in outcomes]
    grouped = [[by_seat[s] for s in team if s in by_seat] for team in teams]
    return [team for team in grouped if team]


def new_ratings(
    teams: list[list[Outcome]], before: dict[int, tuple[float, float]]
) -> dict[int, tuple[float, float]]:
    """OpenSkill's update for one match: {user_id: (mu, sigma)} after it."""
    if len(teams) < 2:
        return {}
    rosters = [[MODEL.create_rating(list(before[o.user_id])) for o in team] for team in teams]
    ranks = [min(o.rank for o in team) for team in teams]
    rated = MODEL.rate(rosters, ranks=ranks)
    return {
        o.user_id: (r.mu, r.sigma)
        for team, rated_team in zip(teams, rated, strict=True)
        for o, r in zip(team, rated_team, strict=True)
    }


def rate_match(match: Match, seats: list[Seat]) -> list[RatingChange]:
    """Update the ratings of a match that has just finished, inside its
    transaction: lock the players' rating rows (ascending user id), compute,
    write the ratings back in one statement and append one change a seat.
    Three statements in all when every player already has a rating row (the
    match's start creates them). Called once per match, by the move that
    finishes it (a second call would rate the match twice; its changes are
    unique per match and player, so the history would keep the first).
    """
    outcomes = outcomes_of(match, seats)
    teams = _teams(match, outcomes)
    if len(teams) < 2:
        return []
    user_ids = sorted(o.user_id for o in outcomes)
    rows = _lock_ratings(match.game_key, user_ids)
    if any(uid not in rows for uid in user_ids):
        ensure_ratings(match.game_key, user_ids)
        rows = _lock_ratings(match.game_key, user_ids)
    # The finishing moment is taken under the rating rows' locks: of two
    # matches sharing a player, the one rated first finished first, so the
    # history's order (``rated_history``) is the order the updates ran in.
    match.finished_at = timezone.now()
    if repeated_pair(match, outcomes):
        return []
    return _apply(match, outcomes, teams, rows, abandoned_again(match, outcomes))


def abandoned_again(match: Match, outcomes: list[Outcome]) -> set[int]:
    """The players of ``match`` who left it (on time or to the bot) and had
    already left another rated match of its game that finished within
    ``ABANDON_WINDOW`` before it. No query when nobody left. Read under the
    players' rating locks (two such matches of one player queue on their
    rating row, so the later one sees the earlier), and by the rebuild in
    the same order (finishing moment, then id), so both reach one answer."""
    left = sorted({o.user_id for o in outcomes if o.left})
    if not left:
        return set()
    finished = match.finished_at
    earlier = Q(match__finished_at__lt=finished) | Q(
        match__finished_at=finished, match_id__lt=match.pk
    )
    return set(
        Seat.objects.filter(
            earlier,
            user_id__in=left,
            status__in=LEFT,
            match__game_key=match.game_key,
            match__rated=True,
            match__status=MatchStatus.FINISHED,
            match__finished_at__gte=finished - ABANDON_WINDOW,
        )
        .exclude(match_id=match.pk)
        .values_list("user_id", flat=True)
        .distinct()
    )


def repeated_pair(match: Match, outcomes: list[Outcome]) -> tuple[int, int] | None:
    """Two players of ``match`` (user ids) who already have ``PAIR_LIMIT``
    counted results together in its game within ``PAIR_WINDOW`` before its
    finish, or None. Such a match changes no rating. One query, under the
    players' rating locks (a match of the same two finishing at the same
    time waits, then counts this one). The rebuild asks the same question
    of the changes it has rebuilt so far, and so reaches the same answer."""
    players = sorted({o.user_id for o in outcomes})
    if len(players) < 2:
        return None
    since = match.finished_at - PAIR_WINDOW
    together: dict[int, set[int]] = {}
    for match_id, user_id in (
        RatingChange.objects.filter(
            game_key=match.game_key, user_id__in=players, rated_at__gt=since
        )
        .exclude(match_id=match.pk)
        .values_list("match_id", "user_id")
    ):
        together.setdefault(match_id, set()).add(user_id)
    for pair in combinations(players, 2):
        if sum(1 for users in together.values() if set(pair) <= users) >= PAIR_LIMIT:
            return pair
    return None


def _lock_ratings(game_key: str, user_ids: list[int]) -> dict[int, Rating]:
    rows = (
        Rating.objects.select_for_update()
        .filter(game_key=game_key, user_id__in=user_ids)
        .order_by("user_id")
    )
    return {row.user_id: row for row in rows}


def ensure_ratings(game_key: str, user_ids: Iterable[int]) -> None:
    """A starting rating row for each player who has none (one statement):
    a rated match creates them at its start, so its end only locks them."""
    user_ids = sorted(set(user_ids))
    # A bot account's rating is marked so (``Rating.bot``): the boards keep them apart.
    bots = set(
        Profile.objects.filter(user_id__in=user_ids, is_bot_account=True).values_list(
            "user_id", flat=True
        )
    )
    Rating.objects.bulk_create(
        [Rating(user_id=uid, game_key=game_key, bot=uid in bots) for uid in user_ids],
        ignore_conflicts=True,
    )


def _after(
    teams: list[list[Outcome]], before: dict[int, tuple[float, float]], again: set[int]
) -> dict[int, tuple[float, float]]:
    """The ratings after the match. A player who abandoned again
    (``abandoned_again``) takes the whole match's update; the others are
    rated among themselves without them (nobody changes when fewer than two
    sides remain), so the abandoner's loss lifts none of them."""
    after = new_ratings(teams, before)
    if not again:
        return after
    rest = [[o for o in team if o.user_id not in again] for team in teams]
    among = new_ratings([team for team in rest if team], before)
    return {uid: after[uid] for uid in again if uid in after} | among


def _apply(
    match: Match,
    outcomes: list[Outcome],
    teams: list[list[Outcome]],
    rows: dict[int, Rating],
    again: set[int] | frozenset[int] = frozenset(),
) -> list[RatingChange]:
    before = {uid: (row.mu, row.sigma) for uid, row in rows.items()}
    after = _after(teams, before, set(again))
    rated_at = match.finished_at
    changes = []
    for o in outcomes:
        if o.user_id not in after:
            continue  # an abandoner's opponent with nobody left to be rated against
        row = rows[o.user_id]
        mu, sigma = after[o.user_id]
        changes.append(
            RatingChange(
                match=match,
                user_id=o.user_id,
                game_key=match.game_key,
                seat=o.seat,
                rank=o.rank,
                mu_before=row.mu,
                sigma_before=row.sigma,
                mu_after=mu,
                sigma_after=sigma,
                display_before=row.display,
                display_after=display_of(mu, sigma),
                rated_at=rated_at,
            )
        )
        row.mu, row.sigma, row.display = mu, sigma, display_of(mu, sigma)
        row.rated_matches += 1
        row.wins += 1 if o.rank == 1 else 0
        row.last_played_at = rated_at
    Rating.objects.bulk_update(
        [row for uid, row in rows.items() if uid in after],
        ["mu", "sigma", "display", "rated_matches", "wins", "last_played_at"],
    )
    return RatingChange.objects.bulk_create(changes, ignore_conflicts=True)


# -- Rebuilding from the history -------------------------------------------------------


def rated_history(game_key: str | None = None, since=None):
    """Finished rated matches in the order their ratings were applied: by
    finishing moment (set under the rating rows' locks), then id."""
    matches = Match.objects.filter(rated=True, status=MatchStatus.FINISHED)
    if game_key is not None:
        matches = matches.filter(game_key=game_key)
    if since is not None:
        matches = matches.filter(
            Q(finished_at__gt=since[0]) | Q(finished_at=since[0], pk__gte=since[1])
        )
    return matches.order_by("finished_at", "pk")


@transaction.atomic
def recompute(game_key: str | None = None) -> int:
    """Rebuild every rating (of one game, or all) from the finished matches,
    in order. Returns how many matches were rated."""
    ratings = Rating.objects.all() if game_key is None else Rating.objects.filter(game_key=game_key)
    changes = (
        RatingChange.objects.all()
        if game_key is None
        else RatingChange.objects.filter(game_key=game_key)
    )
    list(ratings.select_for_update().order_by("user_id", "game_key").values_list("pk"))
    changes.delete()
    ratings.update(
        mu=START_MU,
        sigma=START_SIGMA,
        display=display_of(START_MU, START_SIGMA),
        rated_matches=0,
        wins=0,
        last_played_at=None,
    )
    return _replay(rated_history(game_key))


def rerate_from(match: Match) -> int:
    """After a moderator changed a finished match: take back every rating
    change of its game from that match on, restore each player's rating to
    what it was before, and rate those matches again in order. Call inside
    the moderator's transaction."""
    since = (match.finished_at, match.pk)
    # The matches to rate again, read once: a match of other players that
    # finishes meanwhile is neither taken back nor rated a second time.
    later = list(rated_history(match.game_key, since).values_list("pk", flat=True))
    undone = RatingChange.objects.filter(game_key=match.game_key, match__in=later)
    first = undone.values("user_id").annotate(first=Min("pk")).values_list("user_id", "first")
    firsts = dict(first)
    restore = {c.user_id: c for c in RatingChange.objects.filter(pk__in=firsts.values())}
    counts = {
        row["user_id"]: row
        for row in undone.values("user_id").annotate(n=Count("pk"), w=Count("pk", filter=Q(rank=1)))
    }
    rows = _lock_ratings(match.game_key, sorted(restore))
    for uid, row in rows.items():
        change = restore[uid]
        row.mu, row.sigma, row.display = (
            change.mu_before,
            change.sigma_before,
            change.display_before,
        )
        row.rated_matches -= counts[uid]["n"]
        row.wins -= counts[uid]["w"]
        row.last_played_at = (
            RatingChange.objects.filter(user_id=uid, game_key=match.game_key)
            .exclude(pk__in=undone.values("pk"))
            .order_by("-rated_at")
            .values_list("rated_at", flat=True)
            .first()
        )
    Rating.objects.bulk_update(
        list(rows.values()), ["mu", "sigma", "display", "rated_matches", "wins", "last_played_at"]
    )
    undone.delete()
    return _replay(Match.objects.filter(pk__in=later).order_by("finished_at", "pk"))


def _replay(matches) -> int:
    rated = 0
    for match in matches.iterator():
        seats = list(match.seats.order_by("index"))
        outcomes = outcomes_of(match, seats)
        teams = _teams(match, outcomes)
        if len(teams) < 2:
            continue
        user_ids = sorted(o.user_id for o in outcomes)
        if repeated_pair(match, outcomes):
            continue
        ensure_ratings(match.game_key, user_ids)
        rows = _lock_ratings(match.game_key, user_ids)
        _apply(match, outcomes, teams, rows, abandoned_again(match, outcomes))
        rated += 1
    return rated
