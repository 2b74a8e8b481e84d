from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.db import transaction
from django.db.models.signals import post_delete, post_init, post_save
from django.dispatch import receiver

from accounts import presence
from accounts.models import Profile
from accounts.names import name_keys
from accounts.selectors import forget_preferences, preferences


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def create_profile(sender, instance, created, **kwargs):
    """Every user has a profile from the start, so views never need to check."""
    if created:
        Profile.objects.get_or_create(user=instance)
    elif kwargs.get("update_fields") is None or "username" in kwargs["update_fields"]:
        # A renamed user (from the admin) keeps the key others are checked against.
        key, lower_key = name_keys(instance.username)
        Profile.objects.filter(user=instance).exclude(
            username_key=key, username_lower_key=lower_key
        ).update(username_key=key, username_lower_key=lower_key)


@receiver(post_save, sender=Profile)
def profile_changed(sender, instance, **kwargs):
    """Pages read the language, zone, colours and name from the cache: drop
    them when the profile changes, so the next request reads them afresh."""
    forget_preferences(instance.user_id)
    if not instance.show_presence:
        presence.forget(instance.user_id)


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def user_changed(sender, instance, created, update_fields=None, **kwargs):
    """The top bar shows the username when there is no display name."""
    if not created and set(update_fields or ()) != {"last_login"}:
        forget_preferences(instance.pk)


@receiver(user_logged_in)
def read_preferences_at_login(sender, request, user, **kwargs):
    """Read the preferences once at login, so the requests after it find them."""
    preferences(user)


# -- A picture's file goes with the picture ----------------------------------------------------
#
# Whatever takes a picture away (a new one, "Remove my picture", a
# moderator's removal, the admin's form, the account deleted), its file is
# deleted from storage once the change is committed; a change rolled back
# keeps the file its row still names.


def _stored_picture(profile) -> str | None:
    """The picture's name as loaded or last saved; None when the field was
    not loaded (deferred), so nothing is read to find out."""
    raw = profile.__dict__.get("picture")
    return getattr(raw, "name", raw)


def _delete_after_commit(name: str) -> None:
    storage = Profile._meta.get_field("picture").storage
    transaction.on_commit(lambda: storage.delete(name))


@receiver(post_init, sender=Profile)
def remember_picture(sender, instance, **kwargs):
    instance._picture_on_record = _stored_picture(instance)


@receiver(post_save, sender=Profile)
def forget_replaced_picture(sender, instance, update_fields=None, **kwargs):
    if update_fields is not None and "picture" not in update_fields:
        return
    old, new = getattr(instance, "_picture_on_record", None), _stored_picture(instance)
    if new is None:
        return
    if old and old != new:
        _delete_after_commit(old)
    instance._picture_on_record = new


@receiver(post_delete, sender=Profile)
def forget_deleted_picture(sender, instance, **kwargs):
    """A deleted profile (its account deleted) takes its picture's file along."""
    name = _stored_picture(instance)
    if name:
        _delete_after_commit(name)
