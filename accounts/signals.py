from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_save
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
