"""Notifications: outbox rows written with the change that causes them, then
delivered by a worker that records the outcome.

A row exists once per (user, match, kind, version, tag), and at most one
unread row per (user, match, kind): a new event of a kind already waiting to
be read updates that row (``queue``). Its status says what happens to it:
``pending`` rows are emailed now, ``digest`` rows wait for the daily digest,
``skipped`` rows are only shown in the app (the player chose "never", has no
address, or was looking at the match a moment ago), with the reason in
``last_error`` for moderators.

After the commit a pending row is handed to the broker; if that hand-over is
lost, the outbox relay (``games.outbox``) hands it over again. Delivery claims
the row (``sending``, committed) before talking to the mail server and
records the outcome after, each change conditional on the claim it expects:
a retried or duplicated task finds the row already claimed and does not send
again, so no email goes out twice. A failed send is retried with back-off for
about a day, then marked ``failed`` for moderators, who can send it again; a
permanent refusal (a 5xx answer) is ``failed`` at once, with the server's
reason. A
claim left behind by a worker that died mid-send is reported as ``failed``
by ``release_stuck_claims``, because whether that email left is unknown.
"""

from __future__ import annotations

import json
import logging
import smtplib
import threading
from contextlib import contextmanager
from datetime import timedelta
from urllib.parse import urlencode

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import connection, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import Delivery
from games import board_picture, move_links, outbox, presenters
from games.models import (
    DeliveryStatus,
    Match,
    MatchStatus,
    Move,
    Notification,
    NotificationKind,
    Seat,
    pending_undo,
    undo_judges,
)
from games.moments import local_moment
from players.models import RatingChange
from players.refs import rating_change_text

logger = logging.getLogger(__name__)

RECENTLY_VIEWED = timedelta(minutes=5)
UNSUBSCRIBE_SALT = "smoki.unsubscribe"
DELIVER_NOTIFICATION = "games.tasks.deliver_notification"
#: Several rows' deliveries in one task (the sweep's batch of matches).
DELIVER_NOTIFICATIONS = "games.tasks.deliver_notifications"

# Which profile preference governs each kind.
PREFERENCE_FIELD = {
    NotificationKind.YOUR_TURN: "email_your_turn",
    NotificationKind.REMINDER: "email_reminder",
    NotificationKind.TIMED_OUT: "email_reminder",
    NotificationKind.MATCH_STARTED: "email_match_events",
    NotificationKind.MATCH_FINISHED: "email_match_events",
    NotificationKind.INVITATION: "email_invitation",
    NotificationKind.MODERATION: "email_match_events",
    # Asked while it is the judge's turn to move: as urgent as "your turn".
    NotificationKind.UNDO_REQUEST: "email_your_turn",
    NotificationKind.TOURNAMENT: "email_match_events",
    NotificationKind.LADDER: "email_match_events",
}
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
    status, reason = initial_status(user, kind, seat)
    now = timezone.now()
    fields = {
        "version": version,
        "tag": tag,
        "status": status,
        "last_error": reason,
        "next_attempt_at": now + outbox.relay_after() if status == DeliveryStatus.PENDING else None,
    }
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
    if status == DeliveryStatus.PENDING:
        outbox.hand_over_after_commit(DELIVER_NOTIFICATION, notification.pk)
    return notification


#: The kinds of competition news: rows without a match, saying in ``about``
#: what they are about (``queue_news``).
NEWS_KINDS = (NotificationKind.TOURNAMENT, NotificationKind.LADDER)


def queue_news(user, kind: str, *, tag: str, about: dict, version: int = 0) -> Notification | None:
    """Competition news for one player (a tournament's, a ladder's): a row
    without a match, once per (user, kind, tag), written in the caller's
    transaction and delivered after the commit like any other. It follows
    the player's preference for its kind as match news does: emailed at
    once, kept for the daily digest, or only in the bell. Returns the row,
    or None if this news was queued already (or the player is inactive)."""
    if user is None or not user.is_active:
        return None
    status, reason = initial_status(user, kind)
    notification, created = Notification.objects.get_or_create(
        user=user,
        match=None,
        kind=kind,
        tag=tag,
        defaults={
            "version": version,
            "about": about,
            "status": status,
            "last_error": reason,
            "next_attempt_at": timezone.now() + outbox.relay_after()
            if status == DeliveryStatus.PENDING
            else None,
        },
    )
    if created and status == DeliveryStatus.PENDING:
        outbox.hand_over_after_commit(DELIVER_NOTIFICATION, notification.pk)
    return notification if created else None


def queue_tournament(
    user, *, tournament_id: int, name: str, event: str, round_number: int = 0, bye: bool = False
) -> Notification | None:
    """A tournament's news for one entrant (``tournaments.notify``), once
    per (user, tournament, event, round); ``bye``: the entrant sits this
    round out (the start's news then says so, not "your first match")."""
    about = {"tournament": tournament_id, "name": name, "event": event, "round": round_number}
    if bye:
        about["bye"] = True
    return queue_news(
        user,
        NotificationKind.TOURNAMENT,
        tag=f"t{tournament_id}-{event[:1]}{round_number}",
        version=round_number,
        about=about,
    )


def tournament_context(row: Notification) -> dict:
    """Subject and sentences of a tournament's news, in the active language."""
    about = row.about or {}
    what = {"name": about.get("name", ""), "round": about.get("round", 0)}
    event = about.get("event")
    if event == "started":
        subject = _("The tournament %(name)s has started") % what
        if about.get("bye"):
            line = (
                _("The tournament %(name)s has started; you sit out round 1 with a bye (a win).")
                % what
            )
        else:
            line = _("The tournament %(name)s has started; your first match is waiting.") % what
    elif event == "round":
        subject = _("Round %(round)s of %(name)s has started") % what
        line = _("Round %(round)s of the tournament %(name)s has started.") % what
    elif event == "finished":
        subject = _("The tournament %(name)s is over") % what
        line = _("The tournament %(name)s is over: see the final standings.") % what
    else:
        subject = _("The tournament %(name)s was cancelled") % what
        line = _("The tournament %(name)s was cancelled.") % what
    return {"subject": str(subject), "lines": [str(line)], "match_url": absolute(link_of(row))}


def ladder_context(row: Notification) -> dict:
    """Subject and sentences of a ladder's news (``ladders.services``), in
    the active language: the game's title and the reason are translated
    here, when the email or the bell is drawn, not when the row is written."""
    from games.engine import registry

    about = row.about or {}
    try:
        game = str(registry.get(about.get("ladder", "")).title)
    except KeyError:
        game = about.get("ladder", "")
    what = {"game": game, "who": about.get("opponent", ""), "place": about.get("place", 0)}
    event = about.get("event")
    if event == "declined":
        subject = _("%(who)s declined your challenge on the %(game)s ladder") % what
        line = (
            _(
                "%(who)s declined your challenge, so you take their place: "
                "you are now in place %(place)s."
            )
            % what
        )
    elif event == "expired":
        subject = _("Your challenge on the %(game)s ladder was not answered") % what
        line = (
            _(
                "%(who)s did not answer your challenge in time, so you take their place: "
                "you are now in place %(place)s."
            )
            % what
        )
    elif event == "expired_against":
        subject = _("You did not answer a challenge on the %(game)s ladder") % what
        line = (
            _(
                "You did not answer the challenge of %(who)s in time, so they take your place: "
                "you are now in place %(place)s."
            )
            % what
        )
    elif event == "won":
        subject = _("You climbed the %(game)s ladder") % what
        line = _("You won your challenge against %(who)s: you are now in place %(place)s.") % what
    else:
        subject = _("A challenge on the %(game)s ladder was cancelled") % what
        line = _(
            "The challenge between you and %(who)s was cancelled (%(reason)s); nobody moved."
        ) % {**what, "reason": _cancel_reason(about.get("reason", ""))}
    return {"subject": str(subject), "lines": [str(line)], "match_url": absolute(link_of(row))}


def _cancel_reason(reason: str) -> str:
    if reason == "moderator":
        return str(_("by a moderator"))
    if reason == "player_left":
        return str(_("a player left the ladder"))
    return str(_("its match was not played"))


#: Where each kind of competition news leads, from its ``about``.
_NEWS_LINKS = {
    NotificationKind.TOURNAMENT: lambda about: reverse(
        "tournament_detail", args=[about.get("tournament", 0)]
    ),
    NotificationKind.LADDER: lambda about: reverse("ladder_detail", args=[about.get("ladder", "")]),
}
_NEWS_CONTEXTS = {
    NotificationKind.TOURNAMENT: tournament_context,
    NotificationKind.LADDER: ladder_context,
}


def news_context(row: Notification) -> dict:
    """Subject, sentences and link of a row of competition news."""
    return _NEWS_CONTEXTS[row.kind](row)


def link_of(row: Notification) -> str:
    """Where the bell's entry for ``row`` leads: its match, or for
    competition news the tournament's or the ladder's page."""
    if row.match_id is None:
        return _NEWS_LINKS[row.kind](row.about or {})
    return reverse("match_detail", args=[row.match_id])


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
    for event in events:
        status, reason = initial_status(event.user, event.kind, event.seat)
        pending = status == DeliveryStatus.PENDING
        next_attempt_at = event.now + outbox.relay_after() if pending else None
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
    pending = []
    for event in events:
        pk, status = written.get(event.key, (None, None))
        if status == DeliveryStatus.PENDING:
            pending.append(pk)
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
    preference = getattr(user.profile, PREFERENCE_FIELD[kind])
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


# -- Delivery ------------------------------------------------------------------


def claim(notification_id: int) -> Notification | None:
    """Take a pending row for sending, in its own committed transaction."""
    with transaction.atomic():
        row = (
            Notification.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("user__profile", "match")
            .filter(pk=notification_id, status=DeliveryStatus.PENDING)
            .first()
        )
        if row is None:
            return None
        row.status = DeliveryStatus.SENDING
        row.attempts += 1
        row.claimed_at = timezone.now()
        row.save(update_fields=["status", "attempts", "claimed_at"])
    return row


def deliver(notification_id: int) -> str:
    """Send one notification's email at most once. Returns what happened.

    Never raises for a mail error: the row records it and waits for its next
    try (``next_attempt_at``, picked up by the relay), or is ``failed`` after
    ``max_attempts()``. Every outcome is written only if the row is still
    under this claim, so a claim released meanwhile is never undone.
    """
    row = claim(notification_id)
    if row is None:
        return "nothing to do"
    if no_longer_true(row):
        _settle(row, status=DeliveryStatus.SKIPPED, last_error=NO_LONGER_TRUE)
        return DeliveryStatus.SKIPPED
    try:
        build_email(row).send()
    except Exception as error:
        return _record_failure(
            row, f"{type(error).__name__}: {error}"[:2000], permanent=permanent_refusal(error)
        )
    now = timezone.now()
    # Sent is true even if the claim was released as stuck meanwhile.
    Notification.objects.filter(
        pk=row.pk,
        claimed_at=row.claimed_at,
        status__in=[DeliveryStatus.SENDING, DeliveryStatus.FAILED],
    ).update(status=DeliveryStatus.SENT, sent_at=now, last_error="", next_attempt_at=None)
    return DeliveryStatus.SENT


NO_LONGER_TRUE = "Not sent: the turn it was about had ended before it could be delivered."


def no_longer_true(row: Notification) -> bool:
    """A "your turn" or reminder email about a turn that is over would mislead, and
    so would a request to take back a move that was already answered."""
    match = row.match
    if row.kind == NotificationKind.UNDO_REQUEST:
        return undo_request_asker(row) is None
    if row.kind not in (NotificationKind.YOUR_TURN, NotificationKind.REMINDER):
        return False
    return match.status != MatchStatus.ACTIVE or match.version != row.version


def undo_request_asker(row: Notification) -> int | None:
    """The seat whose request this row is about, while it still waits for this
    player's answer; None once it is answered, withdrawn by a move, or over."""
    request = pending_undo(row.match)
    if request is None or row.tag != f"{UNDO_TAG}{request['seat']}":
        return None
    if row.version != request["seq"]:
        return None
    seats = list(row.match.seats.all())
    mine = next((s.index for s in seats if s.user_id == row.user_id), None)
    if mine not in undo_judges(seats, request["seat"]) or mine in request["agreed"]:
        return None
    return request["seat"]


def _settle(row: Notification, **fields) -> bool:
    """Write the outcome of this claim, only if the row is still under it."""
    return bool(
        Notification.objects.filter(
            pk=row.pk, status=DeliveryStatus.SENDING, claimed_at=row.claimed_at
        ).update(**fields)
    )


def permanent_refusal(error: BaseException) -> str | None:
    """The server's reason when it refused for good (a 5xx answer: no such
    mailbox, a rejected sender or message), or None for anything worth trying
    again (a 4xx answer, a timeout, a lost connection).

    A refusal of the recipients names each address with its own answer; it is
    permanent only if every address was refused with a 5xx.
    """
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        answers = list(error.recipients.values())
        if answers and all(500 <= code < 600 for code, _reason in answers):
            return "; ".join(f"{code} {_text(reason)}" for code, reason in answers)
        return None
    if isinstance(error, smtplib.SMTPResponseException) and 500 <= error.smtp_code < 600:
        return f"{error.smtp_code} {_text(error.smtp_error)}"
    return None


def _text(reason) -> str:
    return reason.decode(errors="replace") if isinstance(reason, bytes) else str(reason)


def _record_failure(row: Notification, error: str, permanent: str | None = None) -> str:
    if permanent:
        status, next_at = DeliveryStatus.FAILED, None
        error = f"Refused for good by the mail server: {permanent}"[:2000]
        logger.error("notification %s refused for good: %s", row.pk, permanent)
    elif row.attempts >= max_attempts():
        status, next_at = DeliveryStatus.FAILED, None
        logger.error("notification %s failed for good: %s", row.pk, error)
    else:
        status, next_at = DeliveryStatus.PENDING, timezone.now() + retry_delay(row.attempts)
        logger.warning("notification %s attempt %s failed: %s", row.pk, row.attempts, error)
    if not _settle(row, status=status, last_error=error, next_attempt_at=next_at):
        logger.warning("notification %s: claim released meanwhile, left as it is", row.pk)
    return status


def max_attempts() -> int:
    return settings.SMOKI["EMAIL_ATTEMPTS"]


def retry_delay(attempts: int) -> timedelta:
    """Back-off after the ``attempts``-th failure: doubling from
    ``RETRY_BASE_SECONDS`` up to ``RETRY_MAX_SECONDS``. With the defaults
    (1 minute, 1 hour, 30 attempts) an email keeps trying for about a day."""
    base = settings.SMOKI["RETRY_BASE_SECONDS"]
    cap = settings.SMOKI["RETRY_MAX_SECONDS"]
    return timedelta(seconds=min(cap, base * 2 ** min(attempts - 1, 30)))


def release_stuck_claims(now=None) -> int:
    """Claims older than ``STUCK_AFTER_SECONDS`` (15 minutes) belong to a worker that died mid-send: the
    email may or may not have left, so it is not sent again but marked failed
    for a moderator to see. The same holds for a digest whose rows were
    claimed but never recorded as sent."""
    now = now or timezone.now()
    stuck = now - timedelta(seconds=settings.SMOKI["STUCK_AFTER_SECONDS"])
    released = Notification.objects.filter(
        status=DeliveryStatus.SENDING, claimed_at__lt=stuck
    ).update(
        status=DeliveryStatus.FAILED,
        last_error="The worker stopped while sending; the email may not have been delivered.",
        next_attempt_at=None,
    )
    released += Notification.objects.filter(
        status=DeliveryStatus.IN_DIGEST, sent_at__isnull=True, claimed_at__lt=stuck
    ).update(
        status=DeliveryStatus.FAILED,
        last_error="The worker stopped while sending the daily digest; "
        "it may not have been delivered.",
        next_attempt_at=None,
    )
    return released


def resend(row: Notification) -> bool:
    """A moderator sends a failed email again: back to ``pending`` with a fresh
    count of attempts, handed over after the commit. False if it was not failed."""
    changed = Notification.objects.filter(pk=row.pk, status=DeliveryStatus.FAILED).update(
        status=DeliveryStatus.PENDING,
        attempts=0,
        claimed_at=None,
        next_attempt_at=timezone.now() + outbox.relay_after(),
    )
    if changed:
        outbox.hand_over_after_commit(DELIVER_NOTIFICATION, row.pk)
    return bool(changed)


# -- Building messages ----------------------------------------------------------


def unsubscribe_token(user, field: str) -> str:
    return signing.dumps({"u": user.pk, "f": field}, salt=UNSUBSCRIBE_SALT)


def read_unsubscribe_token(token: str) -> tuple[int, str] | None:
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("f") not in set(PREFERENCE_FIELD.values()) | {"all"}:
        return None
    return data["u"], data["f"]


def absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def build_email(row: Notification) -> EmailMultiAlternatives:
    user = row.user
    profile = user.profile
    field = PREFERENCE_FIELD[row.kind]
    unsubscribe = absolute(reverse("unsubscribe", args=[unsubscribe_token(user, field)]))
    with translation.override(profile.language), timezone.override(profile.timezone):
        context = message_context(row)
        position = email_position(row)
        picture = board_picture_of(row) if position else None
        context.update(
            unsubscribe_url=unsubscribe,
            preferences_url=absolute(reverse("profile")),
            name=profile.name,
            choices=email_choices(row),
            board_cid=BOARD_CID if picture else "",
            **position,
        )
        text = render_to_string("emails/notification.txt", context)
        html = render_to_string("emails/notification.html", context)
    message = make_message(user, context["subject"], text, html, unsubscribe, email_ref(row))
    if picture:
        attach_inline_png(message, picture, BOARD_CID)
    return message


BOARD_CID = "board@smoki"


def board_picture_of(row: Notification, width: int = board_picture.PICTURE_WIDTH) -> bytes | None:
    """The seat's board as a PNG for a "your turn" or reminder email, drawn
    here, in the mail worker (``games.board_picture``); None when it cannot
    be drawn (the email then goes without it)."""
    seat = next((s for s in row.match.seats.all() if s.user_id == row.user_id), None)
    if seat is None:
        return None
    try:
        return board_picture.board_png(row.match, seat.index, width=width)
    except Exception:  # a picture is a nicety: the email goes without it
        logger.exception("The board picture of match %s could not be drawn", row.match_id)
        return None


def attach_inline_png(message: EmailMultiAlternatives, png: bytes, cid: str) -> None:
    """Show ``png`` inside the HTML part as ``cid:<cid>`` (several may be added)."""
    if not isinstance(message, MessageWithPicture):
        message.__class__ = MessageWithPicture
        message.inline_pngs = []
    message.inline_pngs.append((png, cid))


class MessageWithPicture(EmailMultiAlternatives):
    """An email whose HTML part carries pictures: the HTML becomes
    multipart/related (the HTML, then the pictures), beside the plain text."""

    inline_pngs: list[tuple[bytes, str]]

    def _add_bodies(self, msg):
        msg = super()._add_bodies(msg)
        html = msg.get_body(preferencelist=("html",))
        for png, cid in self.inline_pngs:
            html.add_related(
                png, maintype="image", subtype="png", cid=f"<{cid}>", disposition="inline"
            )
        return msg


RECENT_MOVES_IN_EMAIL = 30


def email_position(row: Notification) -> dict:
    """For a "your turn" or reminder email: the board in words as the
    player's seat sees it (the page's text alternative), and what happened
    since the player's own last move, in the log's words."""
    from games.engine import registry
    from games.engine.replay import MODERATION

    match = row.match
    if (
        row.kind not in (NotificationKind.YOUR_TURN, NotificationKind.REMINDER)
        or match is None
        or match.status != "active"
        or match.state is None
    ):
        return {}
    seats = sorted(match.seats.all(), key=lambda s: s.index)
    seat = next((s for s in seats if s.user_id == row.user_id), None)
    if seat is None:
        return {}
    game = registry.get(match.game_key)
    presenter = presenters.get(match.game_key)
    names = [s.player_name for s in seats]
    view = {**game.view(match.state, seat.index), "_names": names, "_version": match.version}
    board = [str(line) for line in presenters.hook(presenter, "describe_board")(view, names)]
    last_own = (
        Move.objects.filter(match=match, seat=seat.index, actor_kind="player")
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
    ) or 0
    recent = []
    moves = Move.objects.filter(match=match, seq__gt=last_own).order_by("seq")
    for move in moves[:RECENT_MOVES_IN_EMAIL]:
        said = [
            str(presenter.describe_event(event, names))
            for event in move.events
            if event.get("private_to") in (None, seat.index) and event.get("type") != MODERATION
        ]
        if not said:
            continue
        who = (
            names[move.seat]
            if move.seat is not None
            and move.seat < len(names)
            and not presenter.SENTENCES_NAME_THE_ACTOR
            else ""
        )
        recent.append((f"{who}: " if who else "") + " ".join(said))
    return {"board_lines": board, "recent_lines": recent}


def email_choices(row: Notification) -> list[tuple[str, str]]:
    """The player's first decision as (words, address) pairs, for a "your
    turn" email still current: a whole move links to its confirmation page
    (a signed link, ``games.move_links``), a first step of a longer move to
    the match page at that step. Empty when there are more than
    ``MAX_CHOICES``, or the position moved on since the row was written."""
    from games.engine import registry

    match = row.match
    if (
        row.kind != NotificationKind.YOUR_TURN
        or match is None
        or match.status != "active"
        or match.version != row.version
        or match.deadline is None
        or match.state is None
    ):
        return []
    seat = next((s for s in match.seats.all() if s.user_id == row.user_id), None)
    game = registry.get(match.game_key)
    if seat is None or seat.index not in game.current_seats(match.state):
        return []
    presenter = presenters.get(match.game_key)
    names = [s.display_name for s in sorted(match.seats.all(), key=lambda s: s.index)]
    view = {**game.view(match.state, seat.index), "_names": names, "_version": match.version}
    level = presenters.choice_level(
        game.legal_actions(match.state, seat.index), view, presenter, []
    )
    if not level.choices or len(level.choices) > move_links.MAX_CHOICES:
        return []
    detail = reverse("match_detail", args=[match.pk])
    choices = []
    for choice in level.choices:
        if choice.action_json is None:
            url = f"{detail}?{urlencode({'path': choice.path})}"
        else:
            token = move_links.make_token(
                match_id=match.pk,
                seat=seat.index,
                user_id=row.user_id,
                version=match.version,
                action=json.loads(choice.action_json),
                deadline=match.deadline,
            )
            url = move_links.url_for(token, match.pk)
        choices.append((str(choice.label), absolute(url)))
    return choices


def email_ref(row: Notification) -> str:
    """What one email is about: the row, and the version and tag it was brought
    up to. The unread row of a (user, match, kind) is sent again for each new
    turn or later reminder, each a different email; the same ref twice is the
    same email twice (the ``X-Smoki-Ref`` header the fault run counts by)."""
    return f"{row.pk}-v{row.version}" + (f"-{row.tag}" if row.tag else "")


def make_message(user, subject, text, html, unsubscribe_url, ref) -> EmailMultiAlternatives:
    # A header is one line: a name saved before names were checked must not
    # break the message.
    subject = " ".join(subject.split())
    message = EmailMultiAlternatives(
        subject=settings.ACCOUNT_EMAIL_SUBJECT_PREFIX + subject,
        body=text,
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe_url}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "X-Smoki-Ref": str(ref),
        },
    )
    message.attach_alternative(html, "text/html")
    return message


def message_context(row: Notification) -> dict:
    """Subject and sentences for one notification, in the active language and zone."""
    from games.engine import registry

    if row.kind in NEWS_KINDS:
        return news_context(row)
    match = row.match
    title = registry.get(match.game_key).title
    url = absolute(reverse("match_detail", args=[match.pk]))
    what = {"game": title, "id": match.pk}
    deadline = local_moment(match.deadline)
    lines: list[str] = []
    if row.kind == NotificationKind.YOUR_TURN:
        subject = _("Your turn in %(game)s #%(id)s") % what
        lines.append(_("It is your turn in %(game)s #%(id)s.") % what)
        if deadline:
            lines.append(_("Please move before %(deadline)s.") % {"deadline": deadline})
    elif row.kind == NotificationKind.REMINDER:
        subject = _("Reminder: your move in %(game)s #%(id)s") % what
        lines.append(
            _("Your time to move in %(game)s #%(id)s runs out at %(deadline)s.")
            % {**what, "deadline": deadline}
        )
    elif row.kind == NotificationKind.TIMED_OUT:
        subject = _("You ran out of time in %(game)s #%(id)s") % what
        lines.append(_("Your time ran out in %(game)s #%(id)s.") % what)
        lines.append(describe_timeout(match, row.user))
    elif row.kind == NotificationKind.MATCH_STARTED:
        subject = _("%(game)s #%(id)s has started") % what
        lines.append(_("All seats are taken and %(game)s #%(id)s has started.") % what)
    elif row.kind == NotificationKind.MATCH_FINISHED:
        subject = _("%(game)s #%(id)s is over") % what
        lines.append(_("%(game)s #%(id)s is over. Final standings:") % what)
        for seat in sorted(match.seats.all(), key=lambda s: (s.rank or 99, s.index)):
            score = "" if seat.score is None else f" ({seat.score})"
            lines.append(f"{seat.rank}. {seat.display_name}{score}")
        change = (
            RatingChange.objects.filter(match=match, user=row.user).first() if match.rated else None
        )
        if change is not None:
            lines.append(rating_change_text(change, match.game_key))
    elif row.kind == NotificationKind.UNDO_REQUEST:
        seat_index = int(row.tag[len(UNDO_TAG) :]) if row.tag.startswith(UNDO_TAG) else -1
        asker = next((s for s in match.seats.all() if s.index == seat_index), None)
        who = asker.player_name if asker else "?"
        subject = _("%(who)s asks to take back a move in %(game)s #%(id)s") % {
            **what,
            "who": who,
        }
        lines.append(
            _(
                "%(who)s asks to take back their last move in %(game)s #%(id)s. "
                "Nothing new was revealed since; the move is taken back only if every "
                "other player agrees."
            )
            % {**what, "who": who}
        )
        lines.append(_("Agree or refuse on the match page or in your notifications."))
    elif row.kind == NotificationKind.MODERATION:
        subject = _("A moderator changed %(game)s #%(id)s") % what
        lines.append(
            _("A moderator changed %(game)s #%(id)s. The match log says what was done.") % what
        )
    else:
        inviter = match.invitations.filter(invited_user=row.user).first()
        who = inviter.invited_by.profile.name if inviter else match.created_by.username
        subject = _("%(who)s invites you to %(game)s #%(id)s") % {**what, "who": who}
        lines.append(_("%(who)s invites you to play %(game)s (#%(id)s).") % {**what, "who": who})
    return {"subject": str(subject), "lines": [str(line) for line in lines], "match_url": url}


def describe_timeout(match: Match, user) -> str:
    seat = match.seats.filter(user=user).first()
    from games.clock import loses_on_time

    if loses_on_time(match):
        return str(_("Under this match's rules that is a loss on time."))
    if seat is not None and seat.status == "bot":
        return str(_("After three missed deadlines a bot has taken over your seat."))
    return str(
        _("A bot made the move for you. Missed deadlines so far: %(n)s of 3.")
        % {"n": seat.strikes if seat else 0}
    )


# -- Read and seen ------------------------------------------------------------


def record_visit(match: Match, user) -> None:
    """The player opened the match page: no "your turn" email for a few minutes.
    Background polls do not count, so a forgotten tab does not silence email."""
    if user is not None and user.is_authenticated:
        Seat.objects.filter(match=match, user=user).update(last_seen_at=timezone.now())


def mark_notifications_read(user) -> None:
    Notification.objects.filter(user=user, read_at__isnull=True).update(read_at=timezone.now())
