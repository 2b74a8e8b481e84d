from datetime import timedelta

from django import template
from django.utils.translation import gettext as _

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
