"""Notifications: outbox rows written with the change that causes them, then
delivered by a worker that records the outcome.

A row exists once per (user, match, kind, version, tag). Its status says what
happens to it: ``pending`` rows are emailed now, ``digest`` rows wait for the
daily digest, ``skipped`` rows are only shown in the app (the player chose
"never", or was looking at the match a moment ago).

Delivery claims a row (``sending``, committed) before talking to the mail
server and marks it ``sent`` after. A task that is retried after a worker died
finds the row already claimed and does not send again, so no email goes out
twice; a claim left behind by a worker that died before sending is reported
as ``failed`` by ``release_stuck_claims`` for a moderator to look at.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from accounts.models import Delivery
from games.models import DeliveryStatus, Match, Notification, NotificationKind

logger = logging.getLogger(__name__)

RECENTLY_VIEWED = timedelta(minutes=5)
STUCK_AFTER = timedelta(minutes=15)
UNSUBSCRIBE_SALT = "smoki.unsubscribe"

# Which profile preference governs each kind.
PREFERENCE_FIELD = {
    NotificationKind.YOUR_TURN: "email_your_turn",
    NotificationKind.REMINDER: "email_reminder",
    NotificationKind.TIMED_OUT: "email_reminder",
    NotificationKind.MATCH_STARTED: "email_match_events",
    NotificationKind.MATCH_FINISHED: "email_match_events",
    NotificationKind.INVITATION: "email_invitation",
    NotificationKind.MODERATION: "email_match_events",
}


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
    """Write one outbox row (once) inside the caller's transaction and deliver
    it after the commit. Returns the row, or None if it already existed.

    ``surely_new`` skips the look-up when the caller holds the match lock and
    has just bumped the version, so no row with this key can exist yet.
    """
    if user is None or not user.is_active:
        return None
    version = match.version if version is None else version
    status = initial_status(user, kind, seat)
    key = {"user": user, "match": match, "kind": kind, "version": version, "tag": tag}
    if surely_new:
        notification = Notification.objects.create(**key, status=status)
    else:
        notification, created = Notification.objects.get_or_create(
            **key, defaults={"status": status}
        )
        if not created:
            return None
    if status == DeliveryStatus.PENDING:
        transaction.on_commit(lambda: _deliver_later(notification.pk))
    return notification


def initial_status(user, kind: str, seat=None) -> str:
    preference = getattr(user.profile, PREFERENCE_FIELD[kind])
    if preference == Delivery.NEVER or not user.email:
        return DeliveryStatus.SKIPPED
    if (
        kind == NotificationKind.YOUR_TURN
        and seat is not None
        and seat.last_seen_at
        and timezone.now() - seat.last_seen_at < RECENTLY_VIEWED
    ):
        return DeliveryStatus.SKIPPED
    if preference == Delivery.DIGEST:
        return DeliveryStatus.DIGEST
    return DeliveryStatus.PENDING


def _deliver_later(notification_id: int) -> None:
    from games.tasks import deliver_notification

    deliver_notification.delay(notification_id)


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
    """Send one notification's email exactly once. Returns the final status.

    Raises the mail error after putting the row back to ``pending`` so the
    task can retry; after ``MAX_ATTEMPTS`` the row is ``failed``.
    """
    row = claim(notification_id)
    if row is None:
        return "nothing to do"
    try:
        build_email(row).send()
    except Exception as error:
        failed_for_good = row.attempts >= MAX_ATTEMPTS
        row.status = DeliveryStatus.FAILED if failed_for_good else DeliveryStatus.PENDING
        row.last_error = f"{type(error).__name__}: {error}"[:2000]
        row.save(update_fields=["status", "last_error"])
        if failed_for_good:
            logger.error("notification %s failed for good: %s", row.pk, row.last_error)
            return row.status
        raise
    row.status = DeliveryStatus.SENT
    row.sent_at = timezone.now()
    row.save(update_fields=["status", "sent_at"])
    return row.status


MAX_ATTEMPTS = 5


def release_stuck_claims(now=None) -> int:
    """Claims older than STUCK_AFTER belong to a worker that died mid-send: the
    email may or may not have left, so it is not sent again but marked failed
    for a moderator to see."""
    now = now or timezone.now()
    return Notification.objects.filter(
        status=DeliveryStatus.SENDING, claimed_at__lt=now - STUCK_AFTER
    ).update(
        status=DeliveryStatus.FAILED,
        last_error="The worker stopped while sending; the email may not have been delivered.",
    )


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
        context.update(
            unsubscribe_url=unsubscribe,
            preferences_url=absolute(reverse("profile")),
            name=profile.name,
        )
        text = render_to_string("emails/notification.txt", context)
        html = render_to_string("emails/notification.html", context)
    return make_message(user, context["subject"], text, html, unsubscribe, row.pk)


def make_message(user, subject, text, html, unsubscribe_url, ref) -> EmailMultiAlternatives:
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
    from games.selectors import seat_name

    match = row.match
    title = registry.get(match.game_key).title
    url = absolute(reverse("match_detail", args=[match.pk]))
    what = {"game": title, "id": match.pk}
    deadline = (
        formats.date_format(timezone.localtime(match.deadline), "DATETIME_FORMAT")
        if match.deadline
        else ""
    )
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
            lines.append(f"{seat.rank}. {seat_name(seat)}{score}")
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
    from games.services import loses_on_time

    if loses_on_time(match):
        return str(_("Under this match's rules that is a loss on time."))
    if seat is not None and seat.status == "bot":
        return str(_("After three missed deadlines a bot has taken over your seat."))
    return str(
        _("A bot made the move for you. Missed deadlines so far: %(n)s of 3.")
        % {"n": seat.strikes if seat else 0}
    )
