"""The weekend pause: a player's clock does not run on their weekend days.

A player names up to two days of the week (``Profile.weekend_days``, ISO
numbers, 6 and 7 for Saturday and Sunday, read by
``Profile.weekend_day_numbers``) and a time zone; in a match whose
creator allows it (``Match.weekend_pause``), the time of their turn that
falls on those days, from local midnight to local midnight, is not counted.

The days are cut in the player's own time zone, so a weekend day is 23 or
25 hours long when the clocks change inside it: the pause covers the day the
player lives, not 24 hours of the server's. Pure functions over aware
datetimes; ``games.play.clock`` applies them.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Iterator
from datetime import UTC, date, datetime, time, timedelta

ZERO = timedelta(0)


def zone(name: str) -> zoneinfo.ZoneInfo:
    """The player's time zone; an unknown name counts as UTC."""
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def _day_start(day: date, tz) -> datetime:
    """Local midnight of ``day`` as an instant (in UTC)."""
    return datetime.combine(day, time(0), tzinfo=tz).astimezone(UTC)


def weekend_spans(start: datetime, tz, days: frozenset[int]) -> Iterator[tuple[datetime, datetime]]:
    """The weekend days from the local day of ``start`` on, as (from, to)
    instants, endlessly (the caller stops)."""
    day = start.astimezone(tz).date()
    while True:
        if day.isoweekday() in days:
            yield _day_start(day, tz), _day_start(day + timedelta(days=1), tz)
        day += timedelta(days=1)


def running_time(start: datetime, end: datetime, tz, days: frozenset[int]) -> timedelta:
    """How much of [start, end) the clock ran: the span less its weekend days."""
    if end <= start:
        return ZERO
    total = end - start
    if not days:
        return total
    for span_from, span_to in weekend_spans(start, tz, days):
        if span_from >= end:
            break
        overlap = min(span_to, end) - max(span_from, start)
        if overlap > ZERO:
            total -= overlap
    return total


def add_running_time(start: datetime, duration: timedelta, tz, days: frozenset[int]) -> datetime:
    """The instant at which a clock started at ``start`` has run ``duration``,
    its weekend days skipped. An instant inside a weekend day waits for the
    day's end."""
    if not days or duration <= ZERO:
        return start + duration
    now, left = start, duration
    for span_from, span_to in weekend_spans(start, tz, days):
        if span_to <= now:
            continue
        if span_from > now:
            if now + left <= span_from:
                return now + left
            left -= span_from - now
        now = max(now, span_to)
    raise AssertionError("unreachable: the weekend spans never end")


def weekend_ends(now: datetime, tz, days: frozenset[int]) -> datetime | None:
    """If ``now`` is on one of the player's weekend days, when their clock runs
    again (two weekend days in a row are one pause); else None."""
    if not days:
        return None
    until = None
    for span_from, span_to in weekend_spans(now, tz, days):
        if until is None:
            if not span_from <= now < span_to:
                return None
            until = span_to
        elif span_from == until:
            until = span_to
        else:
            return until
    return until
