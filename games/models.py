"""Matches, their seats and their append-only move log.

The rules never live here: a match stores the game's plain-JSON state and the
service layer (services.py) is the only writer. Models hold data and the few
invariants that must hold whoever writes.
"""

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class MatchStatus(models.TextChoices):
    OPEN = "open", _("Waiting for players")
    ACTIVE = "active", _("In play")
    FINISHED = "finished", _("Finished")
    ABORTED = "aborted", _("Aborted")


class Visibility(models.TextChoices):
    PUBLIC = "public", _("Public")
    PRIVATE = "private", _("Private (invitation only)")


TIME_PER_MOVE_CHOICES = [
    (timedelta(hours=12), _("12 hours")),
    (timedelta(days=1), _("1 day")),
    (timedelta(days=2), _("2 days")),
    (timedelta(days=3), _("3 days")),
    (timedelta(days=5), _("5 days")),
    (timedelta(days=7), _("7 days")),
    (timedelta(days=14), _("14 days")),
]


class Match(models.Model):
    game_key = models.CharField(max_length=32, db_index=True)
    rules_version = models.PositiveIntegerField()
    options = models.JSONField(default=dict)
    n_seats = models.PositiveSmallIntegerField()
    # The seed is committed to by its hash from the start and revealed when
    # the match ends, so anyone can replay the log and check every roll.
    seed = models.CharField(max_length=64)
    seed_hash = models.CharField(max_length=64)
    state = models.JSONField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(
        max_length=10, choices=MatchStatus.choices, default=MatchStatus.OPEN, db_index=True
    )
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    time_per_move = models.DurationField(default=timedelta(days=3))
    deadline = models.DateTimeField(null=True, blank=True)
    invite_token = models.CharField(max_length=32, unique=True)
    result = models.JSONField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_matches"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "matches"
        indexes = [
            # The clock's sweep only ever looks at active matches with a deadline.
            models.Index(
                fields=["deadline"],
                name="match_active_deadline",
                condition=Q(status="active", deadline__isnull=False),
            ),
        ]

    def __str__(self):
        return f"#{self.pk} {self.game_key}"

    @property
    def is_over(self) -> bool:
        return self.status in (MatchStatus.FINISHED, MatchStatus.ABORTED)

    @property
    def seed_revealed(self) -> bool:
        return self.is_over


class SeatStatus(models.TextChoices):
    PLAYING = "playing", _("Playing")
    RESIGNED = "resigned", _("Resigned")
    TIMED_OUT = "timed_out", _("Timed out")
    BOT = "bot", _("Replaced by a bot")


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
    )
    is_bot = models.BooleanField(default=False)
    bot_level = models.CharField(max_length=16, default="heuristic")
    joined_at = models.DateTimeField(auto_now_add=True)
    strikes = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=10, choices=SeatStatus.choices, default=SeatStatus.PLAYING)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    score = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="seat_unique_index"),
            models.UniqueConstraint(
                fields=["match", "user"],
                condition=Q(user__isnull=False),
                name="seat_one_per_user",
            ),
        ]

    def __str__(self):
        return f"{self.match} seat {self.index + 1}"

    @property
    def played_by_bot(self) -> bool:
        return self.is_bot or self.status == SeatStatus.BOT


class ActorKind(models.TextChoices):
    PLAYER = "player", _("Player")
    BOT = "bot", _("Bot")
    TIMEOUT = "timeout", _("Timeout")
    MODERATOR = "moderator", _("Moderator")


class AppendOnlyQuerySet(models.QuerySet):
    """The move log is never rewritten: bulk updates and deletes are refused."""

    def update(self, **kwargs):
        raise PermissionError("The move log is append-only.")

    def delete(self):
        raise PermissionError("The move log is append-only.")


class Move(models.Model):
    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="moves")
    seq = models.PositiveIntegerField(help_text="1 for the first move; equals the version after it")
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    events = models.JSONField(default=list)
    actor_kind = models.CharField(max_length=10, choices=ActorKind.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        ordering = ["match", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="move_unique_seq"),
        ]

    def __str__(self):
        return f"{self.match} move {self.seq}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise PermissionError("The move log is append-only.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise PermissionError("The move log is append-only.")


class Invitation(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="invitations")
    invited_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations"
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "invited_user"], name="invitation_once"),
        ]

    def __str__(self):
        return f"{self.invited_user} to {self.match}"
