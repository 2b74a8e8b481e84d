"""A player's profile: how they are named, spoken to and notified, and how
they show themselves on their page (a picture, a country, a few words)."""

import zoneinfo
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone as dj_timezone
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField

from accounts.names import name_keys

TIMEZONE_CHOICES = [(name, name) for name in sorted(zoneinfo.available_timezones())]


MAX_REMINDER_HOURS = 72
# The few words about oneself on the player page.
BIO_MAX_LENGTH = 300
# The vacation pool (docs/correspondence.md): a new player starts with a
# week; it grows by three hours a day (about 45 days a year) up to 30 days.
VACATION_POOL_START = timedelta(days=7)
VACATION_ACCRUAL_PER_DAY = timedelta(hours=3)
VACATION_POOL_CAP = timedelta(days=30)
# At most this many weekend days a week (games.play.weekends): a clock must
# run most of the week.
MAX_WEEKEND_DAYS = 2


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
    # Friends: players who follow each other (docs/community.md).
    FRIENDS = "friends", _("Only my friends")


#: The profile's email preferences, one per group of notification kinds
#: (``games.dispatch.kinds`` says which kind each governs).
EMAIL_PREFERENCES = (
    "email_your_turn",
    "email_reminder",
    "email_match_events",
    "email_invitation",
    "email_tournaments",
    "email_follows",
    "email_mentions",
)

#: The events of the preferences grid, one per email preference: the key a
#: channel's list of events (``Profile.push_events``, ``webhook_events``)
#: holds for it is the preference's name without ``email_``.
EVENTS = tuple(name.removeprefix("email_") for name in EMAIL_PREFERENCES)


def all_events() -> list[str]:
    """Every event: what a channel of a player from before the grid gets
    (their devices and webhooks got every kind)."""
    return list(EVENTS)


#: What a player who signs up gets on push and webhooks: their turn and its
#: reminder; the rest by email only (``AccountAdapter.save_user``).
NEW_PLAYER_CHANNEL_EVENTS = ["your_turn", "reminder"]

#: Shares of a turn's time (in per cent) at which a reminder may come; 80 is
#: the moment lichess's correspondence alarm rings.
REMINDER_SHARES = (50, 80)
#: What a player who signs up starts with: no reminder by hours, one at 80 %
#: of the turn's time (``AccountAdapter.save_user``).
NEW_PLAYER_REMINDER_HOURS = ""
NEW_PLAYER_REMINDER_SHARES = "80"


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
    # A competition's news: a tournament started, a round started, it
    # ended; a ladder challenge declined, unanswered, won or cancelled.
    email_tournaments = models.CharField(
        _("news of a tournament or ladder I play in"),
        max_length=10,
        choices=Delivery.choices,
        default=Delivery.IMMEDIATE,
    )
    # Which events (``EVENTS``) go to the player's devices and webhooks at
    # all; a device or webhook narrows it further by its own ``kinds``.
    push_events = models.JSONField(_("pushed to my devices"), default=all_events, blank=True)
    webhook_events = models.JSONField(_("posted to my webhooks"), default=all_events, blank=True)
    # "X now follows you": told at all, and if so how (docs/community.md).
    tell_follows = models.BooleanField(_("tell me when someone follows me"), default=True)
    email_follows = models.CharField(
        _("someone follows me"),
        max_length=10,
        choices=Delivery.choices,
        default=Delivery.IMMEDIATE,
    )
    # "@name" in a match's chat (games.play.chat).
    email_mentions = models.CharField(
        _("someone mentions me in a match chat"),
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
    # Per cent of the turn's time used at which to remind, e.g. "50,80"
    # (REMINDER_SHARES): a reminder that scales with a match's time per move.
    reminder_shares = models.CharField(
        _("remind me when this share of my time is used"), max_length=20, default="", blank=True
    )
    # Quiet hours, whole hours of the player's own time zone: from
    # ``quiet_from`` up to ``quiet_until`` (across midnight when from > until)
    # nothing is emailed; it waits until they end (games.dispatch.quiet).
    quiet_from = models.PositiveSmallIntegerField(_("quiet from"), null=True, blank=True)
    quiet_until = models.PositiveSmallIntegerField(_("quiet until"), null=True, blank=True)
    vacation_until = models.DateTimeField(_("on vacation until"), null=True, blank=True)
    # The vacation pool as it stood at ``vacation_pool_at``; it grows by
    # VACATION_ACCRUAL_PER_DAY up to VACATION_POOL_CAP (``vacation_pool_now``).
    vacation_pool = models.DurationField(default=VACATION_POOL_START)
    vacation_pool_at = models.DateTimeField(default=dj_timezone.now)
    auto_vacation = models.BooleanField(
        _("take vacation from my pool automatically when my time is about to run out"),
        default=False,
    )
    # ISO weekday numbers ("6,7"): in matches that allow it, the clock does not
    # run on these days of the player's time zone (games.play.weekends).
    weekend_days = models.CharField(_("my weekend days"), max_length=20, blank=True, default="")
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
    # The identity on the player page, each optional. The picture is the
    # re-encoded square (accounts.pictures), never the file uploaded; without
    # one the page draws an identicon from the username (accounts.identicon).
    # Moderators can remove a picture or a bio (players.moderation), audited.
    picture = models.ImageField(_("picture"), upload_to="pictures/", blank=True, default="")
    country = CountryField(_("country"), blank=True, default="")
    bio = models.TextField(_("about me"), max_length=BIO_MAX_LENGTH, blank=True, default="")
    username_key = models.CharField(max_length=160, blank=True, default="", db_index=True)
    display_key = models.CharField(max_length=160, blank=True, default="", db_index=True)
    username_lower_key = models.CharField(max_length=160, blank=True, default="", db_index=True)
    display_lower_key = models.CharField(max_length=160, blank=True, default="", db_index=True)
    # A bot account (accounts.bots): a player whose moves come from a program
    # through the API with the ``bot:play`` scope. Set once, by the player,
    # before their first match, and never undone.
    is_bot_account = models.BooleanField(default=False, db_default=False, db_index=True)
    bot_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        permissions = [("moderate_identity", "Can remove a player's picture or bio")]

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

    def vacation_pool_now(self, now) -> timedelta:
        """The pool as it is at ``now``: what it held, plus what it gained since,
        up to the cap (it grows during a vacation too)."""
        days = max(0.0, (now - self.vacation_pool_at).total_seconds() / 86400)
        return min(VACATION_POOL_CAP, self.vacation_pool + VACATION_ACCRUAL_PER_DAY * days)

    def weekend_day_numbers(self) -> frozenset[int]:
        """The ISO weekday numbers of ``weekend_days`` ("6,7"). Anything else in
        it is ignored, and more than MAX_WEEKEND_DAYS means none: a row written
        around the form never stops a clock for most of a week."""
        days = frozenset(
            int(part)
            for part in (p.strip() for p in self.weekend_days.split(","))
            if part.isascii() and part.isdigit() and 1 <= int(part) <= 7
        )
        return days if len(days) <= MAX_WEEKEND_DAYS else frozenset()

    def reminder_offsets(self) -> list[int]:
        """The reminder ladder in hours, largest first; bad entries are ignored."""
        hours = set()
        for part in self.reminder_hours.split(","):
            part = part.strip()
            if part.isascii() and part.isdigit() and 0 < int(part) <= MAX_REMINDER_HOURS:
                hours.add(int(part))
        return sorted(hours, reverse=True)

    def reminder_share_list(self) -> list[int]:
        """The shares of a turn's time (per cent) to remind at, smallest
        first; anything not in REMINDER_SHARES is ignored."""
        shares = set()
        for part in self.reminder_shares.split(","):
            part = part.strip()
            if part.isascii() and part.isdigit() and int(part) in REMINDER_SHARES:
                shares.add(int(part))
        return sorted(shares)

    def channel_events(self, channel: str) -> list[str]:
        """The events (``EVENTS``) the player wants on ``channel`` ("push" or
        "webhook"); anything unknown in the stored list is ignored."""
        stored = self.push_events if channel == "push" else self.webhook_events
        return [event for event in EVENTS if isinstance(stored, list) and event in stored]

    @property
    def name(self) -> str:
        return self.display_name or self.user.username


class VacationPeriod(models.Model):
    """A vacation taken: while it lasts the player's clocks stop in every match
    that allows it. Kept as the player's history (and the desk's)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    # Taken by the sweep when a deadline was about to pass (Profile.auto_vacation).
    automatic = models.BooleanField(default=False)

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
