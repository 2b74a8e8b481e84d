"""Each player's kept events: written with the change they tell, numbered
in the order they became visible, read by number, pruned after a while.

- ``record`` writes rows inside the caller's transaction and, once it
  commits, tells the player's streams on ``user:<id>`` (``bus``): the
  message says only that something is new; a stream reads what.
- ``settle`` numbers a player's committed rows that have no number yet, under
  the player's ``Cursor`` row lock: numbers follow visibility, so a stream
  that has sent number N and reads "after N" never misses a row whose
  transaction committed after one with a later id.
- ``after`` reads the numbered rows past a number; ``prune`` deletes rows
  older than the kept window (a beat task).
- ``read`` does both for a stream: on PostgreSQL in ONE statement (the
  functions of migration 0002: when nothing waits for a number they take no
  lock and write nothing; else they lock the cursor, number and read, each
  step seeing what committed before the lock), on SQLite as ``settle`` then
  ``after`` (its one writer at a time needs no row lock).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.db import IntegrityError, connection, transaction
from django.db.models import Case, Value, When
from django.utils import timezone

from streams import bus
from streams.models import Cursor, Event

#: How many rows one read numbers and returns at most.
BATCH = 200


def topic(user_id: int) -> str:
    return f"user:{user_id}"


@dataclass(frozen=True)
class New:
    """One event for one player, before it is written."""

    user_id: int
    kind: str
    match_id: int | None = None
    version: int = 0
    data: dict = field(default_factory=dict)


def record(events: list[New]) -> None:
    """Write ``events`` in the caller's transaction (one INSERT) and tell each
    player's streams after the commit."""
    if not events:
        return
    now = timezone.now()
    Event.objects.bulk_create(
        [
            Event(
                user_id=e.user_id,
                kind=e.kind,
                match_id=e.match_id,
                version=e.version,
                data=e.data,
                created_at=now,
            )
            for e in events
        ]
    )
    for user_id in sorted({e.user_id for e in events}):
        bus.publish_on_commit(topic(user_id), "event")


def settle(user_id: int) -> int:
    """Number the player's committed rows that have none yet, oldest first;
    returns the last number given (0 before any)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT smoki_stream_settle(%s, %s)", [user_id, BATCH])
            return cursor.fetchone()[0]
    with transaction.atomic():
        cursor = _locked_cursor(user_id)
        ids = list(
            Event.objects.filter(user_id=user_id, seq=None)
            .order_by("id")
            .values_list("id", flat=True)[:BATCH]
        )
        if ids:
            first = cursor.last + 1
            Event.objects.filter(pk__in=ids).update(
                seq=Case(*[When(pk=pk, then=Value(first + i)) for i, pk in enumerate(ids)])
            )
            cursor.last += len(ids)
            Cursor.objects.filter(pk=user_id).update(last=cursor.last)
    return cursor.last


def _locked_cursor(user_id: int) -> Cursor:
    cursor = Cursor.objects.select_for_update().filter(pk=user_id).first()
    if cursor is not None:
        return cursor
    try:
        with transaction.atomic():
            Cursor.objects.create(user_id=user_id, last=0)
    except IntegrityError:  # another stream of the player made it first
        pass
    return Cursor.objects.select_for_update().get(pk=user_id)


def after(user_id: int, seq: int, kinds, limit: int = BATCH) -> list[Event]:
    """The player's numbered rows past ``seq`` of ``kinds``, in order."""
    return list(
        Event.objects.filter(user_id=user_id, seq__gt=seq, kind__in=list(kinds)).order_by("seq")[
            :limit
        ]
    )


def read(user_id: int, seq: int, kinds, limit: int = BATCH) -> list[Event]:
    """``settle`` then ``after``: what a stream sends when told something is
    new (one statement on PostgreSQL)."""
    if connection.vendor == "postgresql":
        return list(
            Event.objects.raw(
                "SELECT * FROM smoki_stream_read(%s, %s, %s::varchar[], %s)",
                [user_id, seq, list(kinds), limit],
            )
        )
    settle(user_id)
    return after(user_id, seq, kinds, limit)


def keep_for() -> timedelta:
    from django.conf import settings

    return timedelta(hours=settings.SMOKI["STREAM_KEEP_HOURS"])


def prune(now=None) -> int:
    """Delete the rows older than the kept window; returns how many."""
    before = (now or timezone.now()) - keep_for()
    deleted, _rows = Event.objects.filter(created_at__lt=before).delete()
    return deleted
