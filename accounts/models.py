"""A player's profile: how they are named, spoken to and notified."""

import zoneinfo

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

TIMEZONE_CHOICES = [(name, name) for name in sorted(zoneinfo.available_timezones())]


class Delivery(models.TextChoices):
    IMMEDIATE = "immediate", _("Immediately")
    DIGEST = "digest", _("In a daily digest")
    NEVER = "never", _("Never")


class Profile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, default="en"
    )
    # Validated against the zone database by the profile form; not stored as
    # model choices so a tzdata update never needs a migration.
    timezone = models.CharField(_("time zone"), max_length=64, default="UTC")
    email_your_turn = models.CharField(
        _("it is my turn"), max_length=10, choices=Delivery.choices, default=Delivery.IMMEDIATE
    )
    email_reminder = models.CharField(
        _("my time is running out"),
        max_length=10,
        choices=Delivery.choices,
        default=Delivery.IMMEDIATE,
    )
    email_match_events = models.CharField(
        _("a match starts or ends"),
        max_length=10,
        choices=Delivery.choices,
        default=Delivery.IMMEDIATE,
    )
    email_invitation = models.CharField(
        _("I am invited to a match"),
        max_length=10,
        choices=Delivery.choices,
        default=Delivery.IMMEDIATE,
    )

    def __str__(self):
        return self.name

    @property
    def name(self) -> str:
        return self.display_name or self.user.username
