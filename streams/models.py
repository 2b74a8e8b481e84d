"""Each player's events, kept for the streams that resume (``streams.events``).

A row is written in the transaction of the change it tells (so it exists
exactly when the change does) with no number of its own yet; the first stream
of its player that reads after the commit gives it the player's next number
(``seq``) under the player's ``Cursor`` lock. Numbers are thus handed out in
the order the rows became visible, which the rows' ids are not (two
transactions commit in either order), and "everything after number N" never
skips a row that committed late.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone


class Event(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveBigIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=32)
    # What the event is about, when a match (no foreign key: the streams know
    # no match; a match is never deleted while its events are kept anyway).
    match_id = models.BigIntegerField(null=True, blank=True)
    version = models.IntegerField(default=0)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        indexes = [models.Index(fields=["user", "seq"], name="stream_event_user_seq")]
        constraints = [
            models.UniqueConstraint(fields=["user", "seq"], name="stream_event_seq_once")
        ]

    def __str__(self) -> str:
        return f"{self.user_id}#{self.seq}: {self.kind}"


class Cursor(models.Model):
    """The last number given to one player's events (and the lock that
    makes numbering them a queue)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    last = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.last}"
