"""The bell: a player's unread count and their list of notifications, one
entry per match and kind, the newest, unread if any is."""

from __future__ import annotations

from django.db.models import Case, F, Value, When

from accounts.refs import ref_for_seat
from games.lobby import invitations
from games.models import (
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
