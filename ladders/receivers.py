"""What the ladders listen to: a challenge's match ending
(``games.signals.match_ended``, inside the finishing transaction), and a
player deactivated (``is_active`` saved False) or deleted, who leaves every
ladder. Thin: the services do the work."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models.signals import post_save, pre_delete

from games.signals import match_ended
from ladders import services


def _match_ended(sender, match, seats, **kwargs) -> None:
    services.match_ended(match, seats)


def _user_saved(sender, instance, **kwargs) -> None:
    # Every login saves the user (last_login): only a deactivation costs a query.
    if not instance.is_active and not kwargs.get("raw"):
        services.drop_player(instance)


def _user_deleted(sender, instance, **kwargs) -> None:
    services.drop_player(instance)


def connect() -> None:
    User = get_user_model()
    match_ended.connect(_match_ended, dispatch_uid="ladders.match_ended")
    post_save.connect(_user_saved, sender=User, dispatch_uid="ladders.user_saved")
    pre_delete.connect(_user_deleted, sender=User, dispatch_uid="ladders.user_deleted")
