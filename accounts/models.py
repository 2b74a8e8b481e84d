"""A player's profile: how they are named, spoken to and notified."""

import zoneinfo

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts.names import name_keys

TIMEZONE_CHOICES = [(name, name) for name in sorted(zoneinfo.available_timezones())]


MAX_REMINDER_HOURS = 72
VACATION_DAYS_PER_YEAR = 30


class Delivery(models.TextChoices):
    IMMEDIATE = "immediate", _("Immediately")
    DIGEST = "digest", _("In a daily digest")
    NEVER = "never", _("Never")


class ConfirmMoves(models.TextChoices):
    AUTO = "auto", _("On touch screens")
    ALWAYS = "always", _("Always")
    NEVER = "never", _("Never")


class Theme(models.TextChoices):
    AUTO = "auto", _("As my device")
    LIGHT = "light", _("Light")
    DARK = "dark", _("Dark")


class InvitationsFrom(models.TextChoices):
    ANYONE = "anyone", _("Anyone")
    PLAYED_WITH = "played_with", _("Only players I have played with")


#: The profile's email preferences, one per group of notification kinds
#: (``games.dispatch.kinds`` says which kind each governs).
EMAIL_PREFERENCES = ("email_your_turn", "email_reminder", "email_match_events", "email_invitation")


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
    invitations_from = models.CharField(
        _("who may invite me to a match"),
        max_length=12,
        choices=InvitationsFrom.choices,
        default=InvitationsFrom.ANYONE,
    )

    # Hours before a deadline at which to remind, largest first, e.g. "24,2".
    reminder_hours = models.CharField(
        _("remind me this many hours before my time runs out"),
        max_length=40,
        default="24,2",
        blank=True,
        help_text=_("Comma-separated, e.g. 24,2. Leave empty for no reminders."),
    )
    vacation_until = models.DateTimeField(_("on vacation until"), null=True, blank=True)
    # The last click of a move first shows what it will do and asks to confirm.
    confirm_moves = models.CharField(
        _("ask me to confirm each move"),
        max_length=8,
        choices=ConfirmMoves.choices,
        default=ConfirmMoves.AUTO,
    )
    # Whether visitors who are not logged in may see the player's page.
    page_public = models.BooleanField(
        _("show my player page to visitors who are not logged in"), default=True
    )
    theme = models.CharField(_("colours"), max_length=8, choices=Theme.choices, default=Theme.AUTO)
    # "online now" or "last seen" beside the player's name (accounts.presence).
    show_presence = models.BooleanField(
        _("show others when I was last here (online now, last seen)"), default=True
    )
    # The two readings (accounts.names.name_keys) of the username and of the
    # display name, kept by save(): a new name is checked against every other
    # player's with one indexed query. "key" is the name as written, "lower
    # key" the name in small letters.
    username_key = models.CharField(max_length=160, blank=True, default="", db_index=True)
    display_key = models.CharField(max_length=160, blank=True, default="", db_index=True)
    username_lower_key = models.CharField(max_length=160, blank=True, default="", db_index=True)
    display_lower_key = models.CharField(max_length=160, blank=True, default="", db_index=True)

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        """Keep the name keys; a save of other fields only (a vacation) leaves
        them, and the user row, alone."""
        update_fields = kwargs.get("update_fields")
        if update_fields is None:
            self.username_key, self.username_lower_key = name_keys(self.user.username)
            self.display_key, self.display_lower_key = name_keys(self.display_name)
        elif "display_name" in update_fields:
            self.display_key, self.display_lower_key = name_keys(self.display_name)
            kwargs["update_fields"] = {*update_fields, "display_key", "display_lower_key"}
        super().save(*args, **kwargs)

    def reminder_offsets(self) -> list[int]:
        """The reminder ladder in hours, largest first; bad entries are ignored."""
        hours = set()
        for part in self.reminder_hours.split(","):
            part = part.strip()
            if part.isascii() and part.isdigit() and 0 < int(part) <= MAX_REMINDER_HOURS:
                hours.add(int(part))
        return sorted(hours, reverse=True)

    @property
    def name(self) -> str:
        return self.display_name or self.user.username


class VacationPeriod(models.Model):
    """A declared vacation: while it lasts the player's clocks stop everywhere.
    Periods are kept to count the yearly allowance."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()

    class Meta:
        ordering = ["-starts_at"]

    def __str__(self):
        return f"{self.user} {self.starts_at:%Y-%m-%d}–{self.ends_at:%Y-%m-%d}"


class Block(models.Model):
    """``blocker`` does not want to hear from ``blocked``: no invitations, no
    joining their open matches, no chat where they are. The blocked player is
    not told."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_made"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # The table it has had since blocking was the players' app's.
        db_table = "players_block"
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(
                condition=~Q(blocker=models.F("blocked")), name="block_not_self"
            ),
        ]

    def __str__(self):
        return f"{self.blocker} blocks {self.blocked}"
