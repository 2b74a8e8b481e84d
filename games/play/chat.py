"""Match chat and reports. Plain text only: templates escape it on output."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.selectors import is_blocked_by_any
from core import limits
from core.errors import Forbidden, ServiceError
from games.models import CHAT_MAX_LENGTH, ChatMessage, Match, Report

RATE_LIMIT = limits.CHAT.count  # messages per minute per player and match
REPORT_REASON_MAX = 300


def post_message(user, match: Match, text: str) -> ChatMessage:
    """Seated players may write; spectators only read."""
    if user is None or not user.is_authenticated:
        raise Forbidden(_("Please log in first."))
    seated = list(match.seats.exclude(user=None).values_list("user_id", flat=True))
    if user.pk not in seated:
        raise Forbidden(_("Only the players of this match can write here."))
    if is_blocked_by_any(user.pk, seated):
        # Said without naming who blocked them: the blocked player is not told.
        raise Forbidden(_("This chat is closed to you."))
    text = " ".join((text or "").split())
    if not text:
        raise ServiceError(_("Write something first."))
    if len(text) > CHAT_MAX_LENGTH:
        raise ServiceError(_("Messages are at most %(n)d characters.") % {"n": CHAT_MAX_LENGTH})
    limits.check(
        limits.CHAT, user.pk, match.pk, message=_("You are writing very fast; wait a minute.")
    )
    with transaction.atomic():
        # The match row first, then the row that belongs to it (the locking policy).
        Match.objects.filter(pk=match.pk).update(updated_at=timezone.now(), has_chat=True)
        match.has_chat = True
        return ChatMessage.objects.create(match=match, user=user, text=text)


def report(
    user,
    match: Match,
    reason: str,
    *,
    message_id: int | None = None,
    username: str | None = None,
) -> Report:
    """Report a message, a player, or the match itself to the moderators.

    Only the match's players report (as only they write in its chat), and
    each user a few times an hour: reports must stay worth reading.
    """
    if user is None or not user.is_authenticated:
        raise Forbidden(_("Please log in first."))
    if not match.seats.filter(user=user).exists():
        raise Forbidden(_("Only the players of this match can report."))
    reason = " ".join((reason or "").split())
    if not 3 <= len(reason) <= REPORT_REASON_MAX:
        raise ServiceError(_("Say briefly why (3 to %(n)d characters).") % {"n": REPORT_REASON_MAX})
    message = None
    reported_user = None
    if message_id is not None:
        message = ChatMessage.objects.filter(pk=message_id, match=match).first()
        if message is None:
            raise ServiceError(_("There is no such message in this match."))
        reported_user = message.user
    elif username:
        reported_user = (
            get_user_model().objects.filter(username=username, seats__match=match).first()
        )
        if reported_user is None:
            raise ServiceError(_("There is no such player in this match."))
    if reported_user is not None and reported_user.pk == user.pk:
        raise ServiceError(_("You cannot report yourself."))
    limits.check(
        limits.REPORT,
        user.pk,
        message=_("You have sent many reports; a moderator will read them. Wait an hour."),
    )
    return Report.objects.create(
        reporter=user, match=match, message=message, reported_user=reported_user, reason=reason
    )


def visible_messages(match: Match, limit: int = 50) -> list[ChatMessage]:
    """The latest messages players may read: hidden ones are left out. A match
    nobody wrote in (``has_chat`` unset) has none, and costs no query."""
    if not match.has_chat:
        return []
    rows = (
        ChatMessage.objects.filter(match=match, hidden_at__isnull=True)
        .select_related("user__profile")
        .order_by("-created_at")[:limit]
    )
    return list(rows)[::-1]
