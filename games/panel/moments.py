"""Moments shown to people: in their zone, and never two alike for two times.

When daylight saving time ends, one hour of wall-clock time happens twice
(in Europe/Warsaw, 02:30 is first CEST, then CET an hour later). A deadline
in that hour would read the same for both instants, so there the zone's
abbreviation (or its offset, for zones without one) is shown too.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import formats, timezone


def is_ambiguous(local: datetime) -> bool:
    """Whether this wall-clock time occurs twice in its zone."""
    other = local.replace(fold=1 - local.fold)
    return other.utcoffset() != local.utcoffset()


def local_moment(value: datetime | None, fmt: str = "DATETIME_FORMAT") -> str:
    """``value`` in the active zone and language; with the zone where ambiguous."""
    if value is None:
        return ""
    local = timezone.localtime(value)
    text = formats.date_format(local, fmt)
    if is_ambiguous(local):
        text = f"{text} {local.tzname()}"
    return text
