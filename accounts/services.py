"""The accounts app's own writes: the language, email preferences, blocks,
and the identity on the player page (picture, country, bio).

(A vacation stops clocks in matches, so it is the matches' own write:
``games.play.vacation``.)"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.models import (
    EMAIL_PREFERENCES,
    Block,
    Delivery,
    Profile,
)
from accounts.pictures import EXTENSION
from accounts.selectors import forget_preferences
from core.errors import NotFound, ServiceError


def unsubscribe(user_id: int, field: str) -> None:
    """Stop one kind of email (or all, ``field == "all"``) for a user."""
    fields = list(EMAIL_PREFERENCES) if field == "all" else [field]
    Profile.objects.filter(user_id=user_id).update(**{name: Delivery.NEVER for name in fields})


def set_language(user, language: str) -> None:
    """Speak to this player in ``language`` (one of ``settings.LANGUAGES``) from now on."""
    if language not in dict(settings.LANGUAGES):
        raise ServiceError(_("Smoki does not speak that language."))
    Profile.objects.filter(user_id=user.pk).update(language=language)
    forget_preferences(user.pk)


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


# -- Identity -------------------------------------------------------------------------------


def save_identity(user, *, country: str, bio: str, picture=None, remove_picture=False) -> Profile:
    """A player's country, bio and picture, as the profile's identity form
    cleaned them. ``picture`` is the re-encoded square
    (``accounts.pictures.normalised``), or None to keep the current one;
    ``remove_picture`` goes back to the drawn identicon. A new picture gets
    a new file name, so no browser shows the old one from its cache. The
    file a change leaves behind is deleted once it is committed
    (``accounts.signals``); a new file whose change fails is deleted at once."""
    written = ""
    try:
        with transaction.atomic():
            profile = Profile.objects.select_for_update().get(user_id=user.pk)
            profile.country = country
            profile.bio = bio
            fields = ["country", "bio"]
            if picture is not None:
                name = f"{user.pk}-{secrets.token_hex(6)}.{EXTENSION}"
                profile.picture.save(name, picture, save=False)
                written = profile.picture.name
                fields.append("picture")
            elif remove_picture and profile.picture:
                profile.picture = ""
                fields.append("picture")
            profile.save(update_fields=fields)
    except BaseException:
        if written:
            Profile._meta.get_field("picture").storage.delete(written)
        raise
    return profile


def remove_picture(user) -> bool:
    """Take a player's picture away (a moderator's removal): whether there
    was one. Its file goes after the commit (``accounts.signals``)."""
    with transaction.atomic():
        profile = Profile.objects.select_for_update().get(user_id=user.pk)
        if not profile.picture:
            return False
        profile.picture = ""
        profile.save(update_fields=["picture"])
    return True


def remove_bio(user) -> bool:
    """Empty a player's bio (a moderator's removal): whether there was one."""
    return bool(Profile.objects.filter(user_id=user.pk).exclude(bio="").update(bio=""))
