"""The bell: a player's unread count and their list of notifications, one
entry per match and kind, the newest, unread if any is."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Case, F, Value, When
from django.utils.translation import gettext as _

from accounts.refs import ref_for_seat
from games.lobby import invitations
from games.models import (
    DeliveryStatus,
    Invitation,
    MatchStatus,
    Notification,
    NotificationKind,
    Seat,
)


def unread_count(user) -> int:
    """Unread entries behind the bell: one per match and kind, however many
    moves, and one per piece of competition news (no match: each tag is its
    own entry, as ``recent_notifications`` lists them)."""
    unread = Notification.objects.filter(user=user, read_at__isnull=True).annotate(
        entry=Case(When(match__isnull=True, then=F("tag")), default=Value(""))
    )
    return unread.values("match_id", "kind", "entry").distinct().count()


def recent_notifications(user, limit: int = 50) -> list:
    """The bell's list: one entry per match and kind, the newest, unread if any is.

    A match has at most one unread row per kind (``notifications.queue``
    updates it), plus the read ones of earlier turns: the player sees one
    "your turn" per match, not thirty.
    """
    from games.correspondence import compose, delivery
    from games.dispatch import kinds

    rows = []
    seen: dict[tuple, Notification] = {}
    for row in Notification.objects.filter(user=user).select_related("match")[: limit * 4]:
        key = (row.match_id, row.kind, row.tag if row.match_id is None else "")
        if key in seen:
            if row.read_at is None:
                seen[key].read_at = None
            continue
        seen[key] = row
        rows.append(row)
        if len(rows) == limit:
            break
    open_invitations = set(
        Invitation.objects.filter(invited_user=user, match__status=MatchStatus.OPEN)
        .exclude(match__seats__user=user)
        .values_list("match_id", flat=True)
    )
    seats_by_match: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(match_id__in={row.match_id for row in rows}).select_related(
        "user__profile"
    ):
        seats_by_match.setdefault(seat.match_id, []).append(seat)
    terms = invitations.terms_for(
        user, sorted({row.match_id for row in rows if row.kind == NotificationKind.INVITATION})
    )
    for row in rows:
        # An invitation that is more than a seat (a ladder's challenge) says
        # what it is and answers through its own app.
        row.terms = terms.get(row.match_id) if row.kind == NotificationKind.INVITATION else None
        # The other players of the match, each linked to their page.
        row.players = [
            ref_for_seat(seat)
            for seat in sorted(seats_by_match.get(row.match_id, []), key=lambda s: s.index)
            if seat.user_id != user.pk
        ]
        row.text = compose.message_context(row, terms)["subject"]
        row.link = kinds.link_of(row)
        row.can_answer = row.kind == "invitation" and row.match_id in open_invitations
        # A request to take back a move is answered where it is listed, while it waits.
        row.can_answer_undo = (
            row.kind == "undo_request" and delivery.undo_request_asker(row) is not None
        )
    return rows


#: How many rows "What was sent" lists.
SENT_LIMIT = 100


@dataclass(frozen=True)
class SentRow:
    """One notification as "What was sent" shows it: when, what, and each
    channel's outcome in words (email; the bell always has it)."""

    when: object
    what: str
    link: str
    email: str
    email_state: str  # the DeliveryStatus, for the page's mark
    reason: str
    read: bool
    # Each push to a device and post to a webhook: (channel, outcome, status, why).
    channels: tuple = ()


def sent_history(user, limit: int = SENT_LIMIT) -> list[SentRow]:
    """The player's latest ``limit`` notifications, newest first, each with
    what became of its email and why, so "I never got the email" has an
    answer, and what became of each push and webhook post of it. Two
    queries: what a row is about is its kind's name and its match's title,
    never anything a seat keeps secret."""
    from games.dispatch import kinds
    from games.engine import registry

    rows = list(
        Notification.objects.filter(user=user)
        .select_related("match")
        .order_by("-created_at", "-pk")[:limit]
    )
    sent_by_channel = _channel_outcomes([row.pk for row in rows])
    history = []
    for row in rows:
        what = kinds.label_of(row.kind)
        if row.match_id is not None:
            title = registry.get(row.match.game_key).title
            what = f"{what}: {title} #{row.match_id}"
        history.append(
            SentRow(
                when=row.sent_at or row.created_at,
                what=what,
                link=kinds.link_of(row),
                email=str(DeliveryStatus(row.status).label),
                email_state=row.status,
                reason=reason_in_words(row),
                read=row.read_at is not None,
                channels=tuple(sent_by_channel.get(row.pk, ())),
            )
        )
    return history


def _channel_outcomes(notification_ids: list[int]) -> dict[int, list[tuple]]:
    """Each notification's pushes and webhook posts as (channel, outcome,
    status, why), in one query."""
    from games.models import Channel, ChannelDelivery

    found: dict[int, list[tuple]] = {}
    if not notification_ids:
        return found
    for delivery in ChannelDelivery.objects.filter(notification_id__in=notification_ids).order_by(
        "channel", "pk"
    ):
        found.setdefault(delivery.notification_id, []).append(
            (
                str(Channel(delivery.channel).label),
                str(
                    _("Not sent")
                    if delivery.status == DeliveryStatus.SKIPPED
                    else DeliveryStatus(delivery.status).label
                ),
                delivery.status,
                channel_reason_in_words(delivery),
            )
        )
    return found


def channel_reason_in_words(delivery) -> str:
    """A push's or a post's ``last_error`` said to the player."""
    from games.correspondence import push
    from games.dispatch import quiet

    error = delivery.last_error or ""
    known = {
        quiet.HELD_QUIET: _("Held for your quiet hours; sent when they end."),
        push.UNSUBSCRIBED: _("The device or webhook was removed."),
        push.OUTDATED: _("The turn it was about had ended before it could be sent."),
        push.TURNED_OFF: _("You turned this event off for this channel."),
    }
    if error in known:
        return known[error]
    if not error:
        return ""
    if error.startswith("The device's subscription has ended"):
        return _("The device no longer takes notifications; it was removed.")
    if delivery.status == DeliveryStatus.PENDING:
        return _("Could not be delivered yet; trying again: %(answer)s") % {"answer": error}
    return _("Delivery failed: %(answer)s") % {"answer": error.removeprefix("Refused for good: ")}


def reason_in_words(row: Notification) -> str:
    """``last_error`` said to the player, in their language: why an email
    was not sent, waits, or failed (the server's own answer kept as it is)."""
    from games.correspondence import delivery
    from games.dispatch import notifications

    error = row.last_error or ""
    known = {
        notifications.SKIPPED_NEVER: _("You chose never to be emailed about this."),
        notifications.SKIPPED_NO_ADDRESS: _("Your account has no email address."),
        notifications.SKIPPED_RECENTLY_VIEWED: _(
            "You had the match open a moment before, so you saw it."
        ),
        notifications.TOLD_IN_YOUR_TURN: _("Another email of the same moment said it."),
        notifications.TOLD_IN_MATCH_EMAIL: _("Another email of the same moment said it."),
        notifications.HELD_QUIET: _("Held for your quiet hours; sent when they end."),
        delivery.NO_LONGER_TRUE: _("The turn it was about had ended before it could be sent."),
    }
    if error in known:
        return known[error]
    if not error:
        return ""
    if error.startswith("Refused for good by the mail server: "):
        return _("The mail server refused it: %(answer)s") % {
            "answer": error.removeprefix("Refused for good by the mail server: ")
        }
    if row.status == DeliveryStatus.PENDING:
        return _("The mail server could not be reached; trying again: %(answer)s") % {
            "answer": error
        }
    return _("Sending failed: %(answer)s") % {"answer": error}
