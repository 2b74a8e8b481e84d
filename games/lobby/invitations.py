"""Invitations to a match still gathering players: sent by a seated player
(with limits, blocks and the invitee's own rule), declined, withdrawn."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.selectors import is_blocked_by_any, not_accepting
from core import limits
from core.errors import Conflict, Forbidden, ServiceError
from games import signals
from games.dispatch import notifications
from games.models import (
    Invitation,
    Match,
    MatchStatus,
    Notification,
    NotificationKind,
    Seat,
)
from games.play import friendship


@dataclass(frozen=True)
class Terms:
    """What an invitation made by an app above the games is, when it is more
    than a seat offered: a ladder's challenge, with its deadline and what
    each answer costs. Worded in the active language and zone when the
    email, the bell or the lobby is drawn.

    ``subject`` names it (the email's subject, the bell's entry), ``lines``
    say what it is, by when, and what each answer does; Accept and Decline
    post to ``accept_url`` and ``decline_url`` (the app's own answers, not a
    plain join or decline) under the labels given; ``page_url`` is the page
    where it is answered."""

    subject: str
    lines: tuple[str, ...]
    accept_url: str
    decline_url: str
    accept_label: str
    decline_label: str
    page_url: str


#: Functions ``(invitee, match_ids) -> {match_id: Terms}`` registered by apps.
_terms_providers: list[Callable[[object, list[int]], dict[int, Terms]]] = []


def register_terms(provider: Callable[[object, list[int]], dict[int, Terms]]) -> None:
    """Let an app say what its invitations are (called from its ``ready``;
    registering the same function again is harmless)."""
    if provider not in _terms_providers:
        _terms_providers.append(provider)


def terms_for(invitee, match_ids) -> dict[int, Terms]:
    """The terms of the invitations to ``match_ids`` an app registered for
    ``invitee`` (none for a plain invitation); no query without matches."""
    match_ids = [pk for pk in match_ids if pk is not None]
    found: dict[int, Terms] = {}
    if not match_ids:
        return found
    for provider in _terms_providers:
        found.update(provider(invitee, match_ids))
    return found


def require_open(match: Match) -> None:
    """Refuse a match that is no longer gathering players."""
    if match.status != MatchStatus.OPEN:
        raise Conflict(_("This match has already started or ended."))


def invite_user(*, user, match: Match, username: str) -> Invitation:
    """Invite a player by username to a match that is still gathering players."""
    if not match.seats.filter(user=user).exists():
        raise Forbidden(_("Only players in this match can invite others."))
    require_open(match)
    invitee = find_invitee(username)
    if match.seats.filter(user=invitee).exists():
        raise Conflict(_("%(name)s already has a seat.") % {"name": invitee.username})
    require_may_invite(user, invitee)
    existing = Invitation.objects.filter(match=match, invited_user=invitee).first()
    if existing is not None:
        return existing
    count_invitation(user, invitee)
    with transaction.atomic():
        return send_invitation(match, inviter=user, invitee=invitee)


def find_invitee(username: str):
    """The active player ``username`` names (in any case), or a refusal saying
    there is none."""
    User = get_user_model()
    invitee = User.objects.filter(username__iexact=username.strip(), is_active=True).first()
    if invitee is None:
        raise ServiceError(_("No player is called “%(name)s”.") % {"name": username})
    return invitee


def challenge_refusal(inviter, username: str) -> tuple[object | None, str | None]:
    """For the new-match form opened from a player's page ("Challenge"): the
    player ``username`` names, and why an invitation from ``inviter`` would be
    refused now (None when it would be sent), in the words ``invite_user``
    refuses with: no such player, oneself, or the one neutral sentence for a
    block either way or the invitee's own rule. Changes nothing and counts
    nothing against the limits, which apply when the invitation is sent."""
    try:
        invitee = find_invitee(username)
    except ServiceError as error:
        return None, error.message
    if invitee.pk == inviter.pk:
        return invitee, _("You cannot challenge yourself.")
    try:
        require_may_invite(inviter, invitee)
    except ServiceError as error:
        return invitee, error.message
    if is_blocked_by_any(invitee.pk, [inviter.pk]):
        # The inviter blocks them: the same sentence, so neither learns who blocked.
        return invitee, not_accepting()
    return invitee, None


def require_may_invite(inviter, invitee) -> None:
    """Refuse an invitation ``invitee`` does not take from ``inviter``: they
    blocked them, or take invitations only from players they have played
    with, or only from their friends. One neutral sentence for both (``accounts.selectors.not_accepting``):
    the blocked player is not told, and nothing false is said."""
    if is_blocked_by_any(inviter.pk, [invitee.pk]) or not accepts_invitation(invitee, inviter):
        raise Forbidden(not_accepting())


def count_invitation(inviter, invitee) -> None:
    """Each invitation is an email: a few an hour per inviter and per invited
    player (``core.limits``), whatever sends it (an invitation, a rematch)."""
    limits.check(
        limits.INVITE_SENT, inviter.pk, message=_("You have sent many invitations; wait an hour.")
    )
    limits.check(
        limits.INVITE_RECEIVED,
        invitee.pk,
        message=_("%(name)s was invited many times lately; try again later.")
        % {"name": invitee.username},
    )


def send_invitation(match: Match, *, inviter, invitee) -> Invitation:
    """The invitation row and its notification, once per (match, invitee),
    inside the caller's transaction. For a caller that applied its own rules
    first (``invite_user``'s, or a ladder's for a challenge)."""
    invitation, created = Invitation.objects.get_or_create(
        match=match, invited_user=invitee, defaults={"invited_by": inviter}
    )
    if created:
        notifications.queue(invitee, match, NotificationKind.INVITATION, version=0)
    return invitation


def withdraw_invitations(match: Match) -> None:
    """Every invitation to ``match`` is gone from the lobby and the bell (it
    will not be played)."""
    Invitation.objects.filter(match=match).delete()
    Notification.objects.filter(
        match=match, kind=NotificationKind.INVITATION, read_at__isnull=True
    ).update(read_at=timezone.now())


def decline_invitation(*, user, match: Match) -> None:
    """Say no to an invitation: it disappears from the lobby and the bell."""
    inviters = list(
        Invitation.objects.filter(match=match, invited_user=user).values_list(
            "invited_by_id", flat=True
        )
    )
    if not inviters:
        raise Conflict(_("You have no invitation to this match."))
    Invitation.objects.filter(match=match, invited_user=user).delete()
    signals.invitation_declined.send(sender=Match, match=match, user=user, inviter_ids=inviters)
    Notification.objects.filter(user=user, match=match, kind=NotificationKind.INVITATION).update(
        read_at=timezone.now()
    )


def accepts_invitation(invitee, inviter) -> bool:
    """Whether ``invitee`` lets ``inviter`` invite them: anyone, or (their
    choice in the profile) only players they have shared a match with, or
    only their friends (``games.play.friendship``: a block between them
    undoes a friendship)."""
    from accounts.models import InvitationsFrom

    profile = getattr(invitee, "profile", None)
    if profile is None or profile.invitations_from == InvitationsFrom.ANYONE:
        return True
    if profile.invitations_from == InvitationsFrom.FRIENDS:
        return friendship.are_friends(invitee.pk, inviter.pk)
    return Seat.objects.filter(user=invitee, match__seats__user=inviter).exists()
