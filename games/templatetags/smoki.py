from datetime import datetime, timedelta

from django import template
from django.utils.translation import gettext as _

from games.moments import local_moment

register = template.Library()


@register.filter
def duration(value) -> str:
    """A timedelta as a short human length: "2 d 5 h", "3 h 10 min", "0 min"."""
    if not isinstance(value, timedelta):
        return ""
    minutes = int(value.total_seconds()) // 60
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    parts = []
    if days:
        parts.append(_("%(n)d d") % {"n": days})
    if hours:
        parts.append(_("%(n)d h") % {"n": hours})
    if minutes and not days:
        parts.append(_("%(n)d min") % {"n": minutes})
    return " ".join(parts) or _("%(n)d min") % {"n": 0}


@register.filter
def moment(value, fmt: str = "DATETIME_FORMAT") -> str:
    """A date and time in the viewer's zone, with the zone's abbreviation when
    that wall-clock time happens twice (the hour repeated when DST ends)."""
    return local_moment(value, fmt) if isinstance(value, datetime) else ""
