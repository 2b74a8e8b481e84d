"""Quick match: a player's request to be seated at a table of a game (or
any game) with players who fit it, waiting until a pass forms one
(``matchmaking.matching``; docs/quick-match.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import Match


class RequestStatus(models.TextChoices):
    WAITING = "waiting", _("waiting")
    SEATED = "seated", _("seated")
    WITHDRAWN = "withdrawn", _("withdrawn")


WAITING = Q(status=RequestStatus.WAITING)


class Request(models.Model):
    """One player's quick-match request. ``game_key`` is "" for any game
    (then ``options`` is empty: each game's defaults); ``counts`` the player
    counts accepted, a bit mask (bit n: n players, ``matching.mask_of``);
    ``window`` the rating points either side accepted at first (None: any
    rating), widened with waiting time by ``matching.widened``; ``bots_after`` the
    hours after which a request still waiting is seated with bots."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="quick_requests"
    )
    game_key = models.CharField(max_length=32, blank=True, default="")
    options = models.JSONField(default=dict, blank=True)
    counts = models.PositiveIntegerField()
    clock_min = models.DurationField()
    clock_max = models.DurationField()
    rated = models.BooleanField(default=True)
    window = models.PositiveIntegerField(null=True, blank=True)
    # After this many hours without a table, the player plays bots instead
    # (None: wait for players however long it takes).
    bots_after = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(
        max_length=10, choices=RequestStatus.choices, default=RequestStatus.WAITING
    )
    match = models.ForeignKey(
        Match, on_delete=models.SET_NULL, null=True, blank=True, related_name="quick_requests"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            # One waiting request per player and game ("" being any game).
            models.UniqueConstraint(
                fields=["user", "game_key"], condition=WAITING, name="quick_request_once"
            ),
        ]
        indexes = [
            models.Index(fields=["game_key"], name="quick_request_waiting", condition=WAITING),
        ]

    def __str__(self):
        return f"{self.user} {self.game_key or '*'} ({self.status})"

    @property
    def is_waiting(self) -> bool:
        return self.status == RequestStatus.WAITING
