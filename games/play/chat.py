"""Match chat and reports. Plain text only: templates escape it on output.

A line may mention a player of the match as ``@username`` or ``@display
name``: that player is notified (a ``mention``, quoting only the line), and
the page shows the mention as a link to their page. Only the match's seated
players can be mentioned, and never one who blocked the writer or whom the
writer blocked."""

from __future__ import annotations

import re

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.refs import ref_for_user
from accounts.selectors import blocked_pairs, is_blocked_by_any
from core import limits
from core.errors import Forbidden, ServiceError
from games.dispatch import notifications
from games.live import changes
from games.models import CHAT_MAX_LENGTH, ChatMessage, Match, NotificationKind, Report

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
        changes.changed(match.pk, match.version)
        match.has_chat = True
        message = ChatMessage.objects.create(match=match, user=user, text=text)
        _notify_mentions(message, seated)
        return message


def _players(user_ids) -> list:
    """The seated players' users with their profiles (who may be mentioned)."""
    return list(get_user_model().objects.filter(pk__in=set(user_ids)).select_related("profile"))


def _names(users) -> dict[str, object]:
    """Each player's username and display name, in small letters, to the user."""
    names: dict[str, object] = {}
    for user in users:
        for name in (user.username, user.profile.display_name):
            if name:
                names.setdefault(name.casefold(), user)
    return names


def mentions(text: str, users) -> list[tuple[int, int, object]]:
    """(start, end, user) for each ``@name`` in ``text`` naming one of
    ``users``, the ``@`` included. The longest name wins where several fit
    ("@Ann Lee" over "@Ann"), and a name must end where a word ends, so
    "@anna" is not a mention of "ann"."""
    names = _names(users)
    if not names or "@" not in text:
        return []
    pattern = re.compile(
        "@(" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + r")(?!\w)",
        re.IGNORECASE,
    )
    found = [
        (match.start(), match.end(), names.get(match.group(1).casefold()))
        for match in pattern.finditer(text)
    ]
    # A letter the pattern matches without case whose folding differs (rare
    # scripts) names nobody rather than the wrong player.
    return [(start, end, user) for start, end, user in found if user is not None]


def _notify_mentions(message: ChatMessage, seated: list[int]) -> None:
    """Notify each seated player the line mentions, once, in the caller's
    transaction: not the writer, and nobody on either side of a block with
    the writer (the chat is closed to a player someone blocked, but the
    writer may have blocked another player of the match)."""
    if "@" not in message.text:
        return
    others = [uid for uid in seated if uid != message.user_id]
    found = {user.pk: user for _s, _e, user in mentions(message.text, _players(others))}
    if not found:
        return
    blocked = blocked_pairs([message.user_id, *found])
    writer = message.user.profile.name
    for uid, user in found.items():
        if frozenset((uid, message.user_id)) in blocked:
            continue
        notifications.queue(
            user,
            message.match,
            NotificationKind.MENTION,
            tag=f"chat-{message.pk}",
            about={"message": message.pk, "who": writer, "text": message.text},
        )


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


def visible_messages(match: Match, limit: int = 50, seats=None) -> list[ChatMessage]:
    """The latest messages players may read: hidden ones are left out. A match
    nobody wrote in (``has_chat`` unset) has none, and costs no query.
    ``seats``, read already with their users: each message's ``parts`` link
    the mentions of those players (``text_parts``)."""
    if not match.has_chat:
        return []
    rows = list(
        ChatMessage.objects.filter(match=match, hidden_at__isnull=True)
        .select_related("user__profile")
        .order_by("-created_at")[:limit]
    )[::-1]
    users = [seat.user for seat in (seats or ()) if seat.user_id is not None]
    for message in rows:
        message.parts = text_parts(message.text, users)
        # The writer as every page names a player (a bot account with its BOT mark).
        message.ref = ref_for_user(message.user)
    return rows


def text_parts(text: str, users) -> list[tuple[str, str | None]]:
    """The line in pieces for the page: (text, None) as written, and
    (mention, the mentioned player's page) for each ``@name`` of a player."""
    from django.urls import reverse

    parts: list[tuple[str, str | None]] = []
    at = 0
    for start, end, user in mentions(text, users):
        if start > at:
            parts.append((text[at:start], None))
        parts.append((text[start:end], reverse("player_page", args=[user.username])))
        at = end
    if at < len(text):
        parts.append((text[at:], None))
    return parts
