"""Following and unfollowing a player. A block, either way, refuses a follow
and removes the follows between the two players (``friends.receivers``)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from accounts.models import Block
from core import limits
from core.errors import NotFound, ServiceError
from friends import news
from friends.models import Follow

#: The most players one may follow.
MAX_FOLLOWS = 1000
#: Follows a player may make in an hour (each may tell someone).
FOLLOW_LIMIT = limits.Limit("follow", 30, 3600)


def _other(username: str):
    """The active player ``username`` names, or a refusal (404)."""
    other = get_user_model().objects.filter(username=username, is_active=True).first()
    if other is None:
        raise NotFound(_("There is no such player."))
    return other


def blocked_either_way(a_id: int, b_id: int) -> bool:
    """Whether one of the two players blocks the other (one query)."""
    return Block.objects.filter(
        Q(blocker_id=a_id, blocked_id=b_id) | Q(blocker_id=b_id, blocked_id=a_id)
    ).exists()


def follow(user, username: str) -> Follow:
    """``user`` follows the player ``username``: idempotent; the followed
    player is told once (unless their profile says not to). Refused for
    oneself, and when either blocks the other, in words that do not say
    which of them blocked."""
    other = _other(username)
    if other.pk == user.pk:
        raise ServiceError(_("You cannot follow yourself."))
    if blocked_either_way(user.pk, other.pk):
        raise ServiceError(_("You cannot follow this player."))
    existing = Follow.objects.filter(follower=user, followed=other).first()
    if existing is not None:
        return existing
    if Follow.objects.filter(follower=user).count() >= MAX_FOLLOWS:
        raise ServiceError(_("You follow %(n)d players, the most allowed.") % {"n": MAX_FOLLOWS})
    limits.check(FOLLOW_LIMIT, user.pk, message=_("You have followed many players; wait an hour."))
    try:
        with transaction.atomic():
            made = Follow.objects.create(follower=user, followed=other)
            news.tell_followed(other, follower=user)
            return made
    except IntegrityError:  # the same follow, posted twice at once
        return Follow.objects.get(follower=user, followed=other)


def unfollow(user, username: str) -> None:
    """``user`` no longer follows ``username`` (nothing happens if they did not)."""
    other = _other(username)
    Follow.objects.filter(follower=user, followed=other).delete()


def forget_between(a_id: int, b_id: int) -> int:
    """Remove the follows between two players, both ways (a block made
    between them). How many were removed."""
    deleted, _rows = Follow.objects.filter(
        Q(follower_id=a_id, followed_id=b_id) | Q(follower_id=b_id, followed_id=a_id)
    ).delete()
    return deleted
