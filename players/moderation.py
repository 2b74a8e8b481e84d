"""The desk's two actions on a player's identity: remove their picture, or
their bio (``accounts.services``, the accounts' own writes), each with a
reason in the moderators' one audit (``games.moderation.audit``), under the
permission ``accounts.moderate_identity`` the moderator group holds."""

from __future__ import annotations

from django.db import models, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts import services as account_services
from core.errors import ServiceError
from games.models import ModerationAction
from games.moderation import audit

PERMISSION = "accounts.moderate_identity"


class AuditKind(models.TextChoices):
    """The players' kinds of moderation, registered with the audit when the app starts."""

    REMOVE_PICTURE = "remove_picture", gettext_lazy("Remove a player's picture")
    REMOVE_BIO = "remove_bio", gettext_lazy("Remove a player's bio")


def remove_picture(moderator, user, reason: str) -> ModerationAction:
    """The player's own picture goes; their page shows the identicon again."""
    audit.require(moderator, PERMISSION)
    reason = audit.reason_of(reason)
    with transaction.atomic():
        if not account_services.remove_picture(user):
            raise ServiceError(_("This player has no picture."))
        return audit.record(moderator, AuditKind.REMOVE_PICTURE, reason, user=user)


def remove_bio(moderator, user, reason: str) -> ModerationAction:
    """The player's bio is emptied; the words removed are kept in the audit."""
    audit.require(moderator, PERMISSION)
    reason = audit.reason_of(reason)
    with transaction.atomic():
        bio = user.profile.bio
        if not account_services.remove_bio(user):
            raise ServiceError(_("This player has no bio."))
        return audit.record(
            moderator, AuditKind.REMOVE_BIO, reason, user=user, details={"bio": bio}
        )
