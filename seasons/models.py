"""Seasons: a league per game for each quarter of the year.

A ``Season`` opens for sign-up some weeks before its quarter starts; at its
start time the players signed up (``SeasonEntry``) are put into
``Division``\\ s of about eight by tier (tier 1 the top), and each division
is a round robin tournament (``tournaments.Tournament``): its matches,
standings, chat and withdrawals are the tournament's own. When every
division's tournament is over the season finishes, and each entry records
whether its player goes up or down a tier for the next season
(``seasons.services``; docs/seasons.md).
"""

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class SeasonStatus(models.TextChoices):
    SIGNUP = "signup", _("Open for sign-up")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")
    CANCELLED = "cancelled", _("Cancelled")


#: What a season cancelled at its start for want of players keeps as its
#: reason (the season page says it in the reader's language).
TOO_FEW_PLAYERS = "Too few players signed up."


class AuditKind(models.TextChoices):
    """The seasons' kind of moderation, in the one audit
    (``games.moderation.audit``, registered when the app starts)."""

    CANCEL_SEASON = "cancel_season", _("Cancel a season")


class Season(models.Model):
    game_key = models.CharField(max_length=32)
    year = models.PositiveSmallIntegerField()
    quarter = models.PositiveSmallIntegerField()  # 1 to 4
    signup_opens_at = models.DateTimeField()
    # Sign-up closes as the season starts (the divisions are made then).
    starts_at = models.DateTimeField()
    status = models.CharField(
        max_length=10, choices=SeasonStatus.choices, default=SeasonStatus.SIGNUP
    )
    # Given to every division's tournament, so to each of its matches, and
    # shown on the season page before anyone signs up.
    time_per_move = models.DurationField(default=timedelta(days=3))
    vacation_allowed = models.BooleanField(default=True)
    weekend_pause = models.BooleanField(default=False)
    division_size = models.PositiveSmallIntegerField(default=8)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    cancel_reason = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        ordering = ["-starts_at", "game_key"]
        constraints = [
            models.UniqueConstraint(
                fields=["game_key", "year", "quarter"], name="season_once_a_quarter"
            ),
        ]
        indexes = [models.Index(fields=["status", "starts_at"], name="season_status_start")]

    def __str__(self):
        return f"{self.game_key} {self.year} Q{self.quarter}"

    @property
    def label(self) -> str:
        """The quarter as the page's language writes it: "Q1 2027"."""
        return gettext("Q%(quarter)s %(year)s") % {"quarter": self.quarter, "year": self.year}


class Division(models.Model):
    """One division of a season: a round robin tournament of its own."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="divisions")
    tier = models.PositiveSmallIntegerField()  # 1 is the top
    number = models.PositiveSmallIntegerField(default=1)  # within the tier
    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.PROTECT, related_name="division"
    )

    class Meta:
        ordering = ["tier", "number"]
        constraints = [
            models.UniqueConstraint(fields=["season", "tier", "number"], name="division_once"),
        ]

    def __str__(self):
        return f"{self.season} division {self.tier}.{self.number}"


class Movement(models.TextChoices):
    UP = "up", _("Promoted")
    DOWN = "down", _("Relegated")
    STAY = "stay", _("Stays")


class SeasonEntry(models.Model):
    """A player signed up for a season; once it starts, their division.
    Goes with the player's account, as a tournament entry does."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="season_entries"
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    # The player's rating for the game when the season started (placement).
    rating = models.IntegerField(default=0)
    division = models.ForeignKey(
        Division, on_delete=models.SET_NULL, null=True, blank=True, related_name="entries"
    )
    # Filled in when the season finishes: the place in the division and
    # whether the player goes up, down or stays for the next season.
    final_place = models.PositiveSmallIntegerField(null=True, blank=True)
    movement = models.CharField(max_length=4, choices=Movement.choices, blank=True, default="")

    class Meta:
        ordering = ["joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["season", "user"], name="season_entry_once"),
        ]

    def __str__(self):
        return f"{self.user} in {self.season}"
