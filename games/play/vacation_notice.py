"""What automatic vacation tells a player: it started, until when, what it
took from the pool, and how to stop it. A row of the vacation's own kind of
news (``VACATION_NEWS``, registered when the games app starts), once per
vacation, delivered like every notice (the bell and, by the player's
reminder preference, email), worded in the reader's language when drawn."""

from __future__ import annotations

from datetime import datetime

from django.urls import reverse
from django.utils import formats, timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.dispatch import kinds, notifications

#: The kind of the rows (``Notification.kind``).
VACATION_NEWS = "vacation"


def register() -> None:
    """Tell the notification machinery what automatic vacation's news is (``ready``)."""
    kinds.register_news(
        VACATION_NEWS,
        label=lambda: gettext_lazy("Automatic vacation started"),
        # Like a reminder: it is about time that was running out.
        preference="email_reminder",
        words=vacation_words,
        page=lambda about: reverse("profile") + "#vacation",
    )


def automatic_started(user, *, until: datetime, hours: int, left: int):
    """An automatic vacation began (inside its transaction)."""
    return notifications.queue_news(
        user,
        VACATION_NEWS,
        tag=f"auto{int(until.timestamp())}",  # within the row's 16 characters
        about={"until": until.isoformat(), "hours": hours, "left": left},
    )


def vacation_words(row) -> dict:
    """Subject and sentences of the notice, in the active language and time zone."""
    about = row.about or {}
    until = parse_datetime(about.get("until") or "")
    when = formats.date_format(timezone.localtime(until), "DATETIME_FORMAT") if until else "?"
    subject = _("Your automatic vacation has started")
    lines = [
        _(
            "Your time to move was about to run out, so your automatic vacation has "
            "started: your clocks are stopped until %(until)s."
        )
        % {"until": when},
        ngettext(
            "It took %(n)d hour from your vacation pool.",
            "It took %(n)d hours from your vacation pool.",
            about.get("hours", 0),
        )
        % {"n": about.get("hours", 0)},
        ngettext(
            "%(n)d hour is left in the pool.",
            "%(n)d hours are left in the pool.",
            about.get("left", 0),
        )
        % {"n": about.get("left", 0)},
        _(
            "To stop it, end your vacation on your profile page; to stop it happening "
            "again, turn automatic vacation off there."
        ),
    ]
    return {"subject": str(subject), "lines": [str(line) for line in lines]}
