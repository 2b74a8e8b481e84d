"""Quiet hours: the hours of the night (or of work) a player wants no email.

A player sets them as whole hours of their own time zone: from ``quiet_from``
up to ``quiet_until``, across midnight when ``from`` is later than ``until``
(22 to 7 is the night). An email falling due inside them is never dropped:
its row keeps waiting, ``next_attempt_at`` set to the moment they end, and
the outbox relay hands it over then; the daily digest waits the same way.

The hours are cut in the player's zone with ``zoneinfo``, on the wall clock:
22 to 7 ends at 7 o'clock local time even on the night the clocks change
(that night's quiet hours last 8 or 10 hours of real time, not 9).
"""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime, time, timedelta

#: Why a row waits (kept in ``last_error`` until it is sent): an email's, a
#: push's or a chat-app post's.
HELD_QUIET = "Held: the player's quiet hours; sent when they end."


def _zone(name: str):
    try:
        return zoneinfo.ZoneInfo(name or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return UTC


def has_quiet_hours(profile) -> bool:
    """Both ends set, each a real hour, and not the same hour (no window)."""
    start, end = profile.quiet_from, profile.quiet_until
    return (
        start is not None and end is not None and 0 <= start < 24 and 0 <= end < 24 and start != end
    )


def _inside(hour: int, start: int, end: int) -> bool:
    if start < end:
        return start <= hour < end
    return hour >= start or hour < end


def quiet_until(profile, now: datetime) -> datetime | None:
    """When the player's quiet hours end, if ``now`` falls inside them; else None.

    The end is the first ``quiet_until`` o'clock of the player's wall clock
    after ``now``. An hour the clock skips that night (a spring change at
    that very hour) is read as the first moment after the skip."""
    if not has_quiet_hours(profile):
        return None
    zone = _zone(profile.timezone)
    local = now.astimezone(zone)
    if not _inside(local.hour, profile.quiet_from, profile.quiet_until):
        return None
    day = local.date()
    if local.hour >= profile.quiet_until:
        day += timedelta(days=1)
    end = datetime.combine(day, time(profile.quiet_until), tzinfo=zone)
    # Through UTC and back: a wall time the change skipped becomes a real one.
    end = end.astimezone(UTC)
    return end if end > now else None


def hold_until(user, now: datetime) -> datetime | None:
    """``quiet_until`` for a user (None for a user without a profile)."""
    profile = getattr(user, "profile", None)
    return quiet_until(profile, now) if profile is not None else None
