"""Notification rows: written in the transaction of the change that causes
them, then handed to a worker after the commit.

A row exists once per (user, match, kind, version, tag), and at most one
unread row per (user, match, kind): a new event of a kind already waiting to
be read updates that row (``queue``). Its status says what happens to it:
``pending`` rows are emailed now, ``digest`` rows wait for the daily digest,
``skipped`` rows are only shown in the app (the player chose "never", has no
address, or was looking at the match a moment ago), with the reason in
``last_error`` for moderators. If the hand-over to the broker is lost, the
outbox relay (``games.dispatch.outbox``) hands the row over again; delivery
is ``games.correspondence.delivery``'s."""

from __future__ import annotations

import logging
import threading
from contextlib import contextmanager
from datetime import timedelta

from django.db import connection
from django.utils import timezone

from accounts.models import Delivery
from games import signals
from games.dispatch import channels, kinds, outbox, quiet
from games.models import (
    DeliveryStatus,
    Match,
    Notification,
    NotificationKind,
    Seat,
)

logger = logging.getLogger(__name__)


RECENTLY_VIEWED = timedelta(minutes=5)


DELIVER_NOTIFICATION = "games.tasks.deliver_notification"


#: Several rows' deliveries in one task (the sweep's batch of matches).
DELIVER_NOTIFICATIONS = "games.tasks.deliver_notifications"


UNDO_TAG = "undo-"  # + the asking seat's index: the tag says who asks


def queue(
    user,
    match: Match,
    kind: str,
    *,
    version: int | None = None,
    tag: str = "",
    seat=None,
    surely_new: bool = False,
    told_elsewhere: str = "",
    about: dict | None = None,
):
    """Write the outbox row for this event inside the caller's transaction and
    deliver it after the commit. Returns the row, or None if the event was
    already notified (and None for a row deferred to the end of ``batched``).

    One unread row per (user, match, kind): thirty opponent moves leave one
    unread "your turn", brought up to date each time (version, tag, time,
    unread, and a new delivery: its email is about the new turn) rather than
    thirty rows. Once read, the next event starts a new row; read rows are
    the history. The unread row is locked (``FOR UPDATE``) while it is
    updated: callers hold the match lock (or, for an invitation, settled the
    race on the invitation's key), so this is the locking policy's step 3,
    and the partial unique constraint ``notification_one_unread`` guards it.

    ``surely_new``: the caller holds the match lock and has just bumped the
    version, so no row with this exact key can exist yet (one query fewer).

    ``told_elsewhere``: another email of the same moment says this too (the
    reason, kept in ``last_error``): the row is in the bell, not emailed.

    ``about``: what the row's words need beyond the match (a mention: the
    chat message and its writer), kept in ``Notification.about``.
    """
    if user is None or not user.is_active:
        return None
    version = match.version if version is None else version
    batch = _open_batch()
    if batch is not None and batch.covers(match.pk):
        if surely_new:
            batch.add(_Event(user, match, kind, version, tag, seat))
            return None
        batch.flush()  # what was queued before this event is written before it
    if (
        not surely_new
        and Notification.objects.filter(
            user=user, match=match, kind=kind, version=version, tag=tag
        ).exists()
    ):
        return None
    status, reason = _told_elsewhere(initial_status(user, kind, seat), told_elsewhere)
    now = timezone.now()
    next_attempt_at, held = first_attempt(user, status, now)
    fields = {
        "version": version,
        "tag": tag,
        "status": status,
        "last_error": held or reason,
        "next_attempt_at": next_attempt_at,
    }
    if about is not None:
        fields["about"] = about
    unread = (
        Notification.objects.select_for_update(of=("self",))
        .filter(user=user, match=match, kind=kind, read_at__isnull=True)
        .first()
    )
    if unread is None:
        notification = Notification.objects.create(user=user, match=match, kind=kind, **fields)
    elif unread.version > version:
        return None  # a later event of this kind is already waiting to be read
    else:
        fields.update(created_at=now, attempts=0, claimed_at=None, sent_at=None)
        Notification.objects.filter(pk=unread.pk).update(**fields)
        for name, value in fields.items():
            setattr(unread, name, value)
        notification = unread
    if status == DeliveryStatus.PENDING and not held:
        outbox.hand_over_after_commit(DELIVER_NOTIFICATION, notification.pk)
    signals.notification_written.send(sender=Notification, rows=[(user.pk, match, kind, version)])
    channels.fan_out(
        [
            channels.Written(
                notification.pk,
                user.pk,
                kind,
                version,
                tag,
                pushable(status, reason),
                quiet.hold_until(user, now),
            )
        ]
    )
    return notification


#: Why a pending row waits (kept in ``last_error`` until it is sent).
HELD_QUIET = quiet.HELD_QUIET


def first_attempt(user, status: str, now) -> tuple:
    """When the relay should first hand a new row over, and why it waits
    if it does: a pending row inside the player's quiet hours waits until
    they end (``games.dispatch.quiet``), with no hand-over at the commit.
    ``(None, "")`` for a row that is not to be emailed on its own."""
    if status != DeliveryStatus.PENDING:
        return None, ""
    until = quiet.hold_until(user, now)
    if until is not None:
        return until, HELD_QUIET
    return now + outbox.relay_after(), ""


def queue_news(
    user, kind: str, *, tag: str, about: dict, version: int = 0, told_elsewhere: str = ""
) -> Notification | None:
    """News of a kind an app registered (``kinds.register_news``) for one
    player: a row without a match, once per (user, kind, tag), written in the
    caller's transaction and delivered after the commit like any other. It
    follows the player's preference for its kind as match news does: emailed
    at once, kept for the daily digest, or only in the bell. Returns the row,
    or None if this news was queued already (or the player is inactive).
    ``told_elsewhere``: as ``queue``'s (another email says it)."""
    if not kinds.is_news(kind):
        raise ValueError(f"{kind!r} is not a registered kind of news")
    if user is None or not user.is_active:
        return None
    status, reason = _told_elsewhere(initial_status(user, kind), told_elsewhere)
    now = timezone.now()
    next_attempt_at, held = first_attempt(user, status, now)
    notification, created = Notification.objects.get_or_create(
        user=user,
        match=None,
        kind=kind,
        tag=tag,
        defaults={
            "version": version,
            "about": about,
            "status": status,
            "last_error": held or reason,
            "next_attempt_at": next_attempt_at,
        },
    )
    if created and status == DeliveryStatus.PENDING and not held:
        outbox.hand_over_after_commit(DELIVER_NOTIFICATION, notification.pk)
    if created:
        channels.fan_out(
            [
                channels.Written(
                    notification.pk,
                    user.pk,
                    kind,
                    version,
                    tag,
                    pushable(status, reason),
                    quiet.hold_until(user, now),
                )
            ]
        )
    return notification if created else None


class _Event:
    """A ``surely_new`` event queued inside ``batched``, waiting to be written."""

    __slots__ = ("user", "match", "kind", "version", "tag", "seat", "now")

    def __init__(self, user, match, kind, version, tag, seat):
        self.user, self.match, self.kind = user, match, kind
        self.version, self.tag, self.seat = version, tag, seat
        self.now = timezone.now()

    @property
    def key(self) -> tuple[int, int, str]:
        return (self.match.pk, self.user.pk, self.kind)


class _Batch:
    """The events one match's transaction queues (or, ``match_id`` None, the
    sweep's transaction over a batch of matches), written together."""

    def __init__(self, match_id: int | None):
        self.match_id = match_id
        self.events: dict[tuple[int, int, str], _Event] = {}

    def covers(self, match_id: int) -> bool:
        return self.match_id is None or self.match_id == match_id

    def add(self, event: _Event) -> None:
        """Queue ``event``. A later event of the same (user, kind) in the batch
        replaces an earlier one, as ``queue`` one by one would bring the
        earlier one's row up to it; an older one changes nothing."""
        earlier = self.events.get(event.key)
        if earlier is not None and earlier.version > event.version:
            return
        # Written, and handed over, where the earlier one's row was.
        self.events[event.key] = event

    def flush(self) -> None:
        if self.events:
            events, self.events = list(self.events.values()), {}
            _upsert(events, gather=self.match_id is None)


_batches = threading.local()


def _open_batch() -> _Batch | None:
    stack = getattr(_batches, "stack", None)
    return stack[-1] if stack else None


@contextmanager
def batched(match: Match):
    """Inside this block, the ``surely_new`` events queued for ``match`` are
    written together, in one statement, when it ends (or before the next
    event that is not surely new, to keep their order). The caller's
    transaction holds the match lock; the rows written, their hand-overs and
    the order of those are the same as ``queue`` one by one would give, with
    one statement instead of two per row (a row that several events of the
    block bring up to date is handed over once, at the first one's place,
    where one by one hands it over at each). Nothing is written if the block
    raises. Do not roll back to a savepoint inside the block.

    Inside a block already open for the same match (a timeout's move), the
    events join that block's batch, keeping its order and its one statement."""
    open_batch = _open_batch()
    if open_batch is not None and open_batch.covers(match.pk):
        yield open_batch
        return
    with _batch(match.pk) as batch:
        yield batch


@contextmanager
def batched_matches():
    """``batched`` for the sweep's transaction over several locked matches:
    the surely-new events of every match woken in it are written in one
    statement when it ends (each match's own ``batched`` block joins it), and
    the deliveries of the rows written are handed over together, as one
    ``deliver_notifications`` task, after the commit."""
    with _batch(None) as batch:
        yield batch


@contextmanager
def _batch(match_id: int | None):
    stack = _batches.__dict__.setdefault("stack", [])
    batch = _Batch(match_id)
    stack.append(batch)
    try:
        yield batch
    finally:
        stack.pop()
    batch.flush()


_COLUMNS = (
    "user_id",
    "match_id",
    "kind",
    "version",
    "tag",
    "created_at",
    "status",
    "attempts",
    "next_attempt_at",
    "claimed_at",
    "sent_at",
    "last_error",
    "read_at",
)


# What ``queue`` sets on the unread row it brings up to date (``last_error``:
# why it is skipped, or empty).
_UPDATED = ("version", "tag", "created_at", "status", "attempts", "next_attempt_at", "last_error")


_CLEARED = ("claimed_at", "sent_at")


def _upsert(events: list[_Event], gather: bool = False) -> None:
    """Write surely-new events, at most one per (match, user, kind), in one
    locked upsert on the partial unique index ``notification_one_unread``:
    a new row, or the unread row of its (user, match, kind) brought up to date
    unless it is about a later version (``queue``'s rules, row for row).

    ``gather``: the rows' deliveries are handed over as one task after the
    commit (the sweep's batch of matches), not one task each."""
    ops = connection.ops
    table = ops.quote_name(Notification._meta.db_table)
    params: list = []
    reasons: dict[tuple[int, int, str], str] = {}
    held_until: dict[tuple[int, int, str], object] = {}
    for event in events:
        status, reason = initial_status(event.user, event.kind, event.seat)
        reasons[event.key] = reason
        next_attempt_at, held = first_attempt(event.user, status, event.now)
        if held:
            held_until[event.key] = next_attempt_at
            reason = held
        params += [
            event.user.pk,
            event.match.pk,
            event.kind,
            event.version,
            event.tag,
            ops.adapt_datetimefield_value(event.now),
            status,
            0,
            ops.adapt_datetimefield_value(next_attempt_at),
            None,
            None,
            reason,
            None,
        ]
    row = "(" + ", ".join(["%s"] * len(_COLUMNS)) + ")"
    q = ops.quote_name
    sql = (
        f"INSERT INTO {table} ({', '.join(q(c) for c in _COLUMNS)})"
        f" VALUES {', '.join([row] * len(events))}"
        f" ON CONFLICT ({q('user_id')}, {q('match_id')}, {q('kind')})"
        f" WHERE {q('read_at')} IS NULL DO UPDATE SET "
        + ", ".join(
            [f"{q(c)} = EXCLUDED.{q(c)}" for c in _UPDATED] + [f"{q(c)} = NULL" for c in _CLEARED]
        )
        + f" WHERE {table}.{q('version')} <= EXCLUDED.{q('version')}"
        f" RETURNING {q('id')}, {q('match_id')}, {q('user_id')}, {q('kind')}, {q('status')}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        written = {
            (match_id, user_id, kind): (pk, status)
            for pk, match_id, user_id, kind, status in cursor.fetchall()
        }
    signals.notification_written.send(
        sender=Notification,
        rows=[(e.user.pk, e.match, e.kind, e.version) for e in events if e.key in written],
    )
    pending = []
    pushed = []
    for event in events:
        pk, status = written.get(event.key, (None, None))
        if status == DeliveryStatus.PENDING and event.key not in held_until:
            pending.append(pk)
        if pk is not None:
            pushed.append(
                channels.Written(
                    pk,
                    event.user.pk,
                    event.kind,
                    event.version,
                    event.tag,
                    pushable(status, reasons[event.key]),
                    quiet.hold_until(event.user, event.now),
                )
            )
    channels.fan_out(pushed)
    if gather and len(pending) > 1:
        outbox.hand_over_after_commit(DELIVER_NOTIFICATIONS, pending)
        return
    for pk in pending:
        outbox.hand_over_after_commit(DELIVER_NOTIFICATION, pk)


SKIPPED_NEVER = "Not sent: the player chose never to be emailed about this."


SKIPPED_NO_ADDRESS = "Not sent: the player has no email address."


SKIPPED_RECENTLY_VIEWED = (
    "Not sent: the player had the match open in the last five minutes, so saw the turn."
)


def initial_status(user, kind: str, seat=None) -> tuple[str, str]:
    """The status a new event's row starts in, and why it is skipped if it
    is (kept in ``last_error`` for moderators; empty otherwise)."""
    preference = getattr(user.profile, kinds.preference_of(kind))
    if preference == Delivery.NEVER:
        return DeliveryStatus.SKIPPED, SKIPPED_NEVER
    if not user.email:
        return DeliveryStatus.SKIPPED, SKIPPED_NO_ADDRESS
    if (
        kind == NotificationKind.YOUR_TURN
        and seat is not None
        and seat.last_seen_at
        and timezone.now() - seat.last_seen_at < RECENTLY_VIEWED
    ):
        return DeliveryStatus.SKIPPED, SKIPPED_RECENTLY_VIEWED
    if preference == Delivery.DIGEST:
        return DeliveryStatus.DIGEST, ""
    return DeliveryStatus.PENDING, ""


#: ``told_elsewhere`` reasons: the email that says it instead.
TOLD_IN_YOUR_TURN = "Not sent: the your-turn email of the same moment says it."
TOLD_IN_MATCH_EMAIL = "Not sent: the email about the player's match of the same moment says it."


def _told_elsewhere(status: tuple[str, str], reason: str) -> tuple[str, str]:
    """A row another email of the same moment speaks for: in the bell only."""
    if reason and status[0] in (DeliveryStatus.PENDING, DeliveryStatus.DIGEST):
        return DeliveryStatus.SKIPPED, reason
    return status


def pushable(status: str, reason: str) -> bool:
    """Whether a row in ``status`` (skipped for ``reason``) goes to the
    player's devices too: the email preference does not govern push, but a
    player looking at the match, or another notice of the moment, does."""
    return status != DeliveryStatus.SKIPPED or reason in (SKIPPED_NEVER, SKIPPED_NO_ADDRESS)


def forget_mentioned_line(match_id: int, message_id: int) -> None:
    """A moderator hid a chat line: the mentions of it keep who wrote, not
    what (their email, not sent yet, and the bell no longer quote it)."""
    rows = Notification.objects.filter(
        match_id=match_id, kind=NotificationKind.MENTION, tag=f"chat-{message_id}"
    )
    for row in rows:
        row.about = {**(row.about or {}), "text": ""}
        row.save(update_fields=["about"])


def emails_now(user, kind: str, seat=None) -> bool:
    """Whether an event of ``kind`` for ``user`` would be emailed at once."""
    return user is not None and initial_status(user, kind, seat)[0] == DeliveryStatus.PENDING


def record_visit(match: Match, user) -> None:
    """The player opened the match page: no "your turn" email for a few minutes.
    Background polls do not count, so a forgotten tab does not silence email."""
    if user is not None and user.is_authenticated:
        Seat.objects.filter(match=match, user=user).update(last_seen_at=timezone.now())


def mark_notifications_read(user) -> None:
    Notification.objects.filter(user=user, read_at__isnull=True).update(read_at=timezone.now())
