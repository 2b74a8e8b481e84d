"""Tournaments, their entrants, rounds and tables.

A tournament is for one game with its options and clock; each round's tables
are ordinary matches (``games.Match``) created through the lobby. A
``Placement`` row is one entrant at one table of one round (a bye has no
match); its points are filled in when the match ends. The unique constraints
are what keep two workers from creating a round, or seating an entrant,
twice (``tournaments.services``).
"""

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Format(models.TextChoices):
    ROUND_ROBIN = "round_robin", _("Round robin")
    SWISS = "swiss", _("Swiss")
    KNOCKOUT = "knockout", _("Knockout")


class TournamentStatus(models.TextChoices):
    OPEN = "open", _("Open for entry")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")
    CANCELLED = "cancelled", _("Cancelled")


class Tournament(models.Model):
    name = models.CharField(max_length=80)
    game_key = models.CharField(max_length=32)
    # The players at each table (2 for a two-player game; tables of N otherwise).
    table_size = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict, blank=True)
    format = models.CharField(max_length=12, choices=Format.choices)
    # Swiss: the number of rounds; round robin: filled in at the start.
    rounds = models.PositiveSmallIntegerField(default=0)
    rated = models.BooleanField(default=True)
    time_per_move = models.DurationField(default=timedelta(days=3))
    time_bank = models.DurationField(default=timedelta(0))
    time_bank_increment = models.DurationField(default=timedelta(0))
    timeout_policy = models.CharField(max_length=12, default="bot_strikes")
    # The bot that plays a seat its player left in the tournament's matches:
    # one of games.models.TakeoverLevel, checked by the services as the
    # timeout policy is (Match.takeover_level).
    takeover_level = models.CharField(max_length=12, default="heuristic")
    # Given to every match of the tournament (``Match.vacation_allowed``,
    # ``Match.weekend_pause``), and shown before anyone enters.
    vacation_allowed = models.BooleanField(default=True)
    weekend_pause = models.BooleanField(default=False)
    # The share (percent) of finished matches an entrant must have completed
    # in the last 90 days (``games.play.reliability``); None: no minimum.
    min_reliability = models.PositiveSmallIntegerField(null=True, blank=True)
    # Whether bot accounts may enter (``accounts.bots``): the organiser's
    # choice on the create form, off unless ticked.
    bots_allowed = models.BooleanField(default=False, db_default=False)
    # With ``start_when_full`` the start is the moment the last place is
    # taken; ``starts_at`` is then the deadline after which the sweep starts
    # (or, with too few entrants, cancels) it as any other.
    starts_at = models.DateTimeField()
    # False for a tournament another app runs as part of something larger (a
    # season's division, ``seasons``): its own page as any other, but the
    # tournaments' list leaves it to that larger thing's page.
    listed = models.BooleanField(default=True)
    start_when_full = models.BooleanField(default=False)
    min_entrants = models.PositiveSmallIntegerField()
    max_entrants = models.PositiveSmallIntegerField()
    status = models.CharField(
        max_length=10, choices=TournamentStatus.choices, default=TournamentStatus.OPEN
    )
    current_round = models.PositiveSmallIntegerField(default=0)
    # Round robin: every round's tables (entrant ids in seat order), fixed at
    # the start so a withdrawal or a deleted account does not reshuffle them.
    schedule = models.JSONField(default=list, blank=True)
    # Null once the creator's account is deleted (possible before their first
    # match, as for any entrant): the tournament goes on without them.
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournaments_created",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    cancel_reason = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        ordering = ["-starts_at"]
        permissions = [("moderate_tournament", "Can cancel tournaments and remove entrants")]
        indexes = [models.Index(fields=["status", "starts_at"], name="tournament_status_start")]

    def __str__(self):
        return f"#{self.pk} {self.name}"

    @property
    def is_over(self) -> bool:
        return self.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)


class AuditKind(models.TextChoices):
    """The tournaments' kinds of moderation, in the one audit
    (``games.moderation.audit``, registered when the app starts)."""

    CANCEL_TOURNAMENT = "cancel_tournament", _("Cancel a tournament")
    REMOVE_ENTRANT = "remove_entrant", _("Remove a tournament entrant")
    HIDE_CHAT = "hide_tournament_chat", _("Hide a tournament chat message")


class EntrantStatus(models.TextChoices):
    ACTIVE = "active", _("Playing")
    WITHDRAWN = "withdrawn", _("Withdrew")
    REMOVED = "removed", _("Removed by a moderator")


class Entrant(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries"
    )
    # The player's rating for the game when the tournament started (seeding, tie-break).
    rating = models.IntegerField(default=0)
    status = models.CharField(
        max_length=10, choices=EntrantStatus.choices, default=EntrantStatus.ACTIVE
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    left_at = models.DateTimeField(null=True, blank=True)
    # The place in the final standings, stored when the tournament finishes:
    # a player's page lists the tournaments they won (place 1) from it.
    final_place = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="entrant_once"),
        ]

    def __str__(self):
        return f"{self.user} in {self.tournament}"


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_once"),
        ]

    def __str__(self):
        return f"{self.tournament} round {self.number}"


class Placement(models.Model):
    """One entrant at one table of a round (or their bye)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="placements")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="placements")
    table = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField(default=0)
    match = models.ForeignKey(
        "games.Match",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournament_placements",
    )
    is_bye = models.BooleanField(default=False)
    # Filled in when the table's match ends (or at once for a bye).
    points = models.FloatField(null=True, blank=True)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    aborted = models.BooleanField(default=False)

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entrant"], name="placement_once"),
        ]
        indexes = [
            models.Index(fields=["match"], name="placement_match", condition=Q(match__isnull=False))
        ]

    def __str__(self):
        return f"{self.round} table {self.table} seat {self.seat}"


class TournamentMessage(models.Model):
    """A line of a tournament's chat (``tournaments.chat``): its entrants and
    moderators write, everyone who sees the tournament reads. Hidden by a
    moderator it stays for the audit but leaves the page, as a match chat's
    line does (``games.ChatMessage``)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_messages"
    )
    text = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [
            models.Index(fields=["tournament", "created_at"], name="tournament_chat_time"),
        ]

    def __str__(self):
        return f"{self.user}: {self.text[:40]}"


class TournamentWebhook(models.Model):
    """An organiser's webhook on their tournament (``tournaments.feed``): it
    gets the tournament's feed (a round started, a round's results, the
    end), never the organiser's own notifications (``Webhook.personal`` is
    False). Removing the webhook removes the link."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="webhooks")
    webhook = models.OneToOneField(
        "games.Webhook", on_delete=models.CASCADE, related_name="tournament_link"
    )

    def __str__(self):
        return f"webhook {self.webhook_id} of {self.tournament}"
