"""Ladders: one ranked list per two-player game, its rungs and its challenges.

A player's place is their position in the ladder ordered by ``rung`` (1 at
the top). Rungs are unique in a ladder but may have gaps (a player who left,
or whose account was deleted): places are counted, never read off the rung,
so a departure closes the gap by itself. See docs/ladders.md.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import Match


class Ladder(models.Model):
    """One per game; made when its first player joins."""

    game_key = models.CharField(max_length=32, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return self.game_key


class Entry(models.Model):
    """A player on a ladder. The lower the rung, the higher the place."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ladder_entries"
    )
    rung = models.IntegerField()
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "entries"
        permissions = [("moderate_ladder", "Can remove players and cancel challenges")]
        constraints = [
            models.UniqueConstraint(fields=["ladder", "user"], name="ladder_entry_once"),
            models.UniqueConstraint(fields=["ladder", "rung"], name="ladder_rung_once"),
        ]

    def __str__(self):
        return f"{self.ladder} {self.rung} {self.user}"


class ChallengeStatus(models.TextChoices):
    OPEN = "open", _("open")
    DONE = "done", _("decided")


class Outcome(models.TextChoices):
    """How a challenge ended; only ``WON``, ``DECLINED`` and ``EXPIRED`` move
    the challenger up."""

    NONE = "", _("not yet")
    WON = "won", _("challenger won")
    LOST = "lost", _("challenged player won")
    DRAWN = "drawn", _("draw: no change")
    DECLINED = "declined", _("declined: challenger moved up")
    EXPIRED = "expired", _("not accepted in time: challenger moved up")
    CANCELLED = "cancelled", _("cancelled: no change")


OPEN = Q(status=ChallengeStatus.OPEN)


class Challenge(models.Model):
    """A challenge and its match: a private two-seat match of the ladder's
    game, the challenger seated, the challenged player invited."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="challenges")
    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ladder_challenges_sent"
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="ladder_challenges_received",
    )
    match = models.OneToOneField(Match, on_delete=models.PROTECT, related_name="ladder_challenge")
    status = models.CharField(
        max_length=8, choices=ChallengeStatus.choices, default=ChallengeStatus.OPEN
    )
    outcome = models.CharField(max_length=12, choices=Outcome.choices, default="", blank=True)
    # Whether the result moved anyone (a player who left by then is not moved).
    moved = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    accept_by = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    note = models.CharField(max_length=200, blank=True, default="")

    class Meta:
        constraints = [
            # One open challenge each way at a time, per ladder.
            models.UniqueConstraint(
                fields=["ladder", "challenger"], condition=OPEN, name="ladder_one_sent_open"
            ),
            models.UniqueConstraint(
                fields=["ladder", "challenged"], condition=OPEN, name="ladder_one_received_open"
            ),
        ]
        indexes = [
            # The expiry sweep: open, not accepted, past the deadline.
            models.Index(
                fields=["accept_by"],
                name="ladder_challenge_due",
                condition=Q(status=ChallengeStatus.OPEN, accepted_at=None),
            ),
        ]

    def __str__(self):
        return f"{self.challenger} → {self.challenged} ({self.ladder})"

    @property
    def is_open(self) -> bool:
        return self.status == ChallengeStatus.OPEN


class AuditKind(models.TextChoices):
    """The ladders' kinds of moderation, in the one audit
    (``games.moderation.audit``, registered when the app starts); each
    action's ``details`` name the ladder's game, and the challenge or the
    place it was about."""

    REMOVE_PLAYER = "remove_player", _("Remove a player from a ladder")
    CANCEL_CHALLENGE = "cancel_challenge", _("Cancel a ladder challenge")
