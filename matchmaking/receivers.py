"""What quick match listens to: a player deactivated (``is_active`` saved
False), whose waiting requests are withdrawn (a deleted player's go with
the account). Thin: the service does the work."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models.signals import post_save

from matchmaking import services


def _user_saved(sender, instance, **kwargs) -> None:
    # Every login saves the user (last_login): only a deactivation costs a query.
    if not instance.is_active and not kwargs.get("raw"):
        services.withdraw_all(instance)


def connect() -> None:
    post_save.connect(_user_saved, sender=get_user_model(), dispatch_uid="matchmaking.user_saved")
