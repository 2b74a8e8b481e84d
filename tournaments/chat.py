"""A tournament's chat: its entrants talk between rounds.

Who writes: the tournament's entrants (also after withdrawing, not once a
moderator removed them) and moderators (``games.moderate_chat``). Who
reads: everyone who sees the tournament's page, signed in or not, as
spectators read a public match's chat (tournament matches are public).
Plain text only: templates escape it on output. Length and pace are the
match chat's (``games.models.CHAT_MAX_LENGTH``, ``core.limits.CHAT``).

Blocks: in a match chat a player blocked by a seated player cannot write
there. A tournament's chat is shared by up to hundreds of entrants, so a
block there hides the blocked player's lines from the one who blocked them
(``selectors.chat_lines``) instead of silencing them for everyone; and a
player the organiser blocked cannot write (nor enter: ``services.join``).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.selectors import is_blocked_by_any
from core import limits
from core.errors import Conflict, Forbidden, ServiceError
from games.models import CHAT_MAX_LENGTH, ModerationAction
from games.moderation import audit
from tournaments.models import AuditKind, EntrantStatus, Tournament, TournamentMessage

#: Messages per player and tournament a minute: the match chat's pace.
CHAT_LIMIT = limits.Limit("tournament-chat", limits.CHAT.count, limits.CHAT.seconds)
MODERATE_CHAT = "games.moderate_chat"


def is_chat_moderator(user) -> bool:
    return bool(user.is_active and user.is_staff and user.has_perm(MODERATE_CHAT))


def may_write(user, tournament: Tournament) -> bool:
    """Whether ``user`` may write in the tournament's chat (one query)."""
    if user is None or not user.is_authenticated:
        return False
    if is_chat_moderator(user):
        return True
    return tournament.entrants.filter(user=user).exclude(status=EntrantStatus.REMOVED).exists()


def post_message(user, tournament: Tournament, text: str) -> TournamentMessage:
    """A new line in the chat, checked as a match chat's line is."""
    if user is None or not user.is_authenticated:
        raise Forbidden(_("Please log in first."))
    if not may_write(user, tournament):
        raise Forbidden(_("Only the entrants of this tournament can write here."))
    if is_blocked_by_any(user.pk, [tournament.created_by_id]):
        # Said without naming who blocked them, as in a match chat.
        raise Forbidden(_("This chat is closed to you."))
    text = " ".join((text or "").split())
    if not text:
        raise ServiceError(_("Write something first."))
    if len(text) > CHAT_MAX_LENGTH:
        raise ServiceError(_("Messages are at most %(n)d characters.") % {"n": CHAT_MAX_LENGTH})
    limits.check(
        CHAT_LIMIT, user.pk, tournament.pk, message=_("You are writing very fast; wait a minute.")
    )
    return TournamentMessage.objects.create(tournament=tournament, user=user, text=text)


def hide_message(moderator, message: TournamentMessage, reason: str) -> ModerationAction:
    """Hide a line from every page; it stays on the desk and in the audit.

    A moderator who entered the tournament leaves its chat to another
    moderator, as with a match they play in."""
    audit.require(moderator, MODERATE_CHAT)
    if message.tournament.entrants.filter(user=moderator).exists():
        raise Forbidden(_("You play in this tournament, so another moderator moderates it."))
    reason = audit.reason_of(reason)
    with transaction.atomic():
        locked = TournamentMessage.objects.select_for_update().filter(pk=message.pk).first()
        if locked is None or locked.hidden_at is not None:
            raise Conflict(_("That message is already hidden."))
        locked.hidden_at = timezone.now()
        locked.hidden_by = moderator
        locked.save(update_fields=["hidden_at", "hidden_by"])
        return audit.record(
            moderator,
            AuditKind.HIDE_CHAT,
            reason,
            user=locked.user,
            details={
                "tournament": locked.tournament_id,
                "message": locked.pk,
                "text": locked.text,
            },
        )
