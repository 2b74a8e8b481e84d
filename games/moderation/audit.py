"""The moderators' one rule book, for every desk of every app: who may act,
what a reason must be, and the one append-only audit every action is
written to (``ModerationAction``).

The games' own kinds of action are ``ModerationAction.Kind``; an app built
on matches (tournaments, ladders) registers its own kinds when it starts
(``register_kinds``), as it registers its kinds of news, so the audit table
names no competition. Its ``details`` say what an action was about beyond a
match or a user (a tournament's id, a ladder's game).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext as _

from core.errors import Forbidden, ServiceError
from games.models import ModerationAction, Seat

#: The fewest characters a reason may have, once stripped: a few words, so
#: the audit tells why, not only that.
REASON_MIN_LENGTH = 5

_labels: dict[str, object] = {value: label for value, label in ModerationAction.Kind.choices}


def register_kinds(kinds: type[models.TextChoices]) -> None:
    """Make an app's kinds of action known to the audit (called from its ``ready``)."""
    for value, label in kinds.choices:
        if len(value) > ModerationAction._meta.get_field("kind").max_length:
            raise ValueError(f"{value!r} is longer than an audited kind may be")
        _labels[value] = label


def label_of(kind: str) -> str:
    """An action's name, in the active language."""
    return str(_labels.get(kind, kind))


def require(moderator, permission: str) -> None:
    """Refuse anyone but an active staff member holding ``permission``
    (the moderator group holds every desk's, ``accounts.roles``)."""
    if not (
        moderator is not None
        and moderator.is_active
        and moderator.is_staff
        and moderator.has_perm(permission)
    ):
        raise Forbidden(_("You may not do that."))


def plays_in(user, match) -> bool:
    """Whether ``user`` holds a seat in ``match`` (now or once: a seat they
    resigned or lost to a bot is still theirs)."""
    if match is None or user is None or user.pk is None:
        return False
    return Seat.objects.filter(match=match, user=user).exists()


def own_match_refusal() -> str:
    return _("You play in this match, so another moderator moderates it.")


def refuse_own_match(moderator, match) -> None:
    """A moderator's own matches are moderated by another moderator: no action
    on a match they hold a seat in, in play or over."""
    if plays_in(moderator, match):
        raise Forbidden(own_match_refusal())


def reason_of(reason: str) -> str:
    """The reason to keep, stripped; refused when it says less than a few words."""
    reason = (reason or "").strip() if isinstance(reason, str) else ""
    if len(reason) < REASON_MIN_LENGTH:
        raise ServiceError(_("Please give a reason (at least a few words)."))
    return reason


def record(
    moderator,
    kind: str,
    reason: str,
    *,
    match=None,
    user=None,
    before: int | None = None,
    details: dict | None = None,
) -> ModerationAction:
    """Append one action to the audit, inside the caller's transaction."""
    if kind not in _labels:
        raise ValueError(f"{kind!r} is no registered kind of moderation")
    return ModerationAction.objects.create(
        moderator=moderator,
        kind=kind,
        reason=reason,
        match=match,
        user=user,
        version_before=before,
        version_after=match.version if match is not None else None,
        details=details or {},
    )
