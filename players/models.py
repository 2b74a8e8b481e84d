"""Ratings per game, their history, and blocks between players.

A ``Rating`` is a player's current OpenSkill estimate for one game key; each
rated match appends one ``RatingChange`` per human seat, in the order the
ratings were updated, so the stored ratings can always be rebuilt from the
finished matches (``players/ratings.py: recompute``).
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

# A player's rating is provisional until this many rated matches of the game:
# it is marked so on every page, and listed below the leaderboard's ranked
# players, without a place.
PROVISIONAL_MATCHES = 5

# OpenSkill's own starting point (Plackett-Luce defaults).
START_MU = 25.0
START_SIGMA = 25.0 / 3.0

# The number players read: the conservative estimate mu - 3 sigma on a
# familiar scale. A newcomer shows 1000; an established average player
# about 1400; each point of OpenSkill's scale is 20 here.
DISPLAY_BASE = 1000
DISPLAY_SCALE = 20


def display_of(mu: float, sigma: float) -> int:
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma))


NEWCOMER_RATING = display_of(START_MU, START_SIGMA)


class Rating(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    game_key = models.CharField(max_length=32)
    mu = models.FloatField(default=START_MU)
    sigma = models.FloatField(default=START_SIGMA)
    # display_of(mu, sigma), stored for the leaderboard's index.
    display = models.IntegerField(default=display_of(START_MU, START_SIGMA))
    rated_matches = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    last_played_at = models.DateTimeField(null=True, blank=True)
    # Whether the rating is a bot account's (``accounts.bots``), copied from
    # the profile when the row is made (an account turns into a bot before
    # its first match, so before its first rating): the bots' leaderboard
    # and the humans' are two ranges of the same indexes.
    bot = models.BooleanField(default=False, db_default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game_key"], name="rating_once_per_game"),
        ]
        indexes = [
            # The leaderboard: established players of one game, best first.
            # The partial condition keeps provisional players out of the index;
            # last_played_at is carried in it (PostgreSQL's INCLUDE) so the
            # recency filter and the viewer's place need no table reads.
            models.Index(
                fields=["game_key", "bot", "-display", "user"],
                name="rating_leaderboard",
                include=["last_played_at"],
                condition=Q(rated_matches__gte=PROVISIONAL_MATCHES),
            ),
            # The leaderboard's count (its pages): the established players of
            # one game who played since a date are one range of this index
            # (an index-only scan) rather than every established player of
            # the game filtered, which PostgreSQL reads with a sequential scan
            # once the game holds most of the ratings.
            models.Index(
                fields=["game_key", "bot", "last_played_at"],
                name="rating_active",
                condition=Q(rated_matches__gte=PROVISIONAL_MATCHES),
            ),
            # The provisional players listed below the ranked ones, and the
            # best of them on the lobby's tiles: one game's players with 1 to 4
            # rated matches, best first (a LIMIT over a range of this index).
            models.Index(
                fields=["game_key", "bot", "-display", "user"],
                name="rating_provisional",
                include=["last_played_at"],
                condition=Q(rated_matches__gte=1, rated_matches__lt=PROVISIONAL_MATCHES),
            ),
        ]

    def __str__(self):
        return f"{self.user} {self.game_key} {self.display}"

    @property
    def provisional(self) -> bool:
        return self.rated_matches < PROVISIONAL_MATCHES


class RatingChange(models.Model):
    """One human seat's rating before and after one rated match."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    game_key = models.CharField(max_length=32)
    seat = models.PositiveSmallIntegerField()
    rank = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    display_before = models.IntegerField()
    display_after = models.IntegerField()
    # The match's finishing moment, copied for the history chart's order.
    rated_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="rating_change_once"),
        ]
        indexes = [
            models.Index(fields=["user", "game_key", "rated_at"], name="rating_change_history"),
        ]

    def __str__(self):
        return f"{self.user} {self.match_id} {self.display_before}->{self.display_after}"

    @property
    def delta(self) -> int:
        return self.display_after - self.display_before


def rating_of(user_id: int, game_key: str) -> int:
    """The number a player shows for a game (a newcomer's when unrated): one query."""
    display = (
        Rating.objects.filter(user_id=user_id, game_key=game_key)
        .values_list("display", flat=True)
        .first()
    )
    return display if display is not None else display_of(START_MU, START_SIGMA)


class Outcome(models.Model):
    """One human seat's result in one finished match, for the statistics on
    the player pages (``players.statistics``).

    Written when a match finishes (``players.outcomes.record``, from the
    match-ended receiver) and rewritten when a moderator corrects its result;
    aborted matches never get one. Private and unrated matches do: they were
    played. ``streak`` is the number of matches of this game the player won in
    a row up to and including this one (0 for a match not won), so the longest
    winning streak is one ``MAX`` instead of a walk through every result."""

    # No index of their own: "outcome_once" (match, user) and "outcome_recent"
    # (user, ...) lead with them.
    match = models.ForeignKey(
        "games.Match", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    game_key = models.CharField(max_length=32)
    finished_at = models.DateTimeField()
    seat = models.PositiveSmallIntegerField()
    # Seats at the table, bots included.
    players = models.PositiveSmallIntegerField()
    # Whether this seat moved first; None when the game's opening says no one seat.
    first = models.BooleanField(null=True)
    # The side played in an asymmetric game (Drako: "dragon" or "dwarves"), else "".
    side = models.CharField(max_length=16, blank=True, default="")
    rank = models.PositiveSmallIntegerField()
    won = models.BooleanField()
    rated = models.BooleanField()
    streak = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="outcome_once"),
        ]
        indexes = [
            # A player's results of one game, newest first: the recent form,
            # the latest streak, and (its leading column) every aggregate.
            models.Index(fields=["user", "game_key", "-finished_at"], name="outcome_recent"),
        ]

    def __str__(self):
        return f"{self.user} {self.match_id} rank {self.rank}"
