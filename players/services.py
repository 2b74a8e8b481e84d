"""Writes of the players' layer other than ratings: blocking."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from core.errors import NotFound, ServiceError
from players.models import Block

MAX_BLOCKS = 500


def _other(username: str):
    other = get_user_model().objects.filter(username=username, is_active=True).first()
    if other is None:
        raise NotFound(_("There is no such player."))
    return other


def block(user, username: str) -> Block:
    """``user`` blocks a player: idempotent; the blocked player is not told."""
    other = _other(username)
    if other.pk == user.pk:
        raise ServiceError(_("You cannot block yourself."))
    existing = Block.objects.filter(blocker=user, blocked=other).first()
    if existing is not None:
        return existing
    if Block.objects.filter(blocker=user).count() >= MAX_BLOCKS:
        raise ServiceError(
            _("You have blocked %(n)d players, the most allowed.") % {"n": MAX_BLOCKS}
        )
    try:
        with transaction.atomic():
            return Block.objects.create(blocker=user, blocked=other)
    except IntegrityError:  # the same block, posted twice at once
        return Block.objects.get(blocker=user, blocked=other)


def unblock(user, username: str) -> None:
    other = _other(username)
    Block.objects.filter(blocker=user, blocked=other).delete()
