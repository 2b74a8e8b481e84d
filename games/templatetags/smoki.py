from datetime import datetime, timedelta

from django import template
from django.utils.dateformat import format as date_format
from django.utils.html import format_html, format_html_join
from django.utils.timezone import template_localtime
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


@register.simple_tag
def move_log_items(lines, newest_first: bool = False, with_times: bool = False) -> str:
    """The ``<li>`` of each log line: who moved, when (``with_times``), and each
    sentence in its own span.

    Drawn here rather than by two nested loops in the template: the match panel
    draws up to 30 lines on every move and poll, and Django's template
    language spends about 30 µs a line on them, this a few.
    """
    if newest_first:
        lines = reversed(lines)
    return format_html_join("\n", "{}", ((_log_item(line, with_times),) for line in lines))


def _log_item(line, with_times: bool) -> str:
    who = format_html('<span class="who">{}</span>', line.who) if line.who else ""
    when = (
        format_html(
            '\n<time datetime="{}">{}</time>',
            date_format(template_localtime(line.created_at), "c"),
            moment(line.created_at, "SHORT_DATETIME_FORMAT"),
        )
        if with_times
        else ""
    )
    sentences = format_html_join(
        "", '<span class="sentence">{}</span> ', ((s,) for s in line.sentences)
    )
    return format_html('<li value="{}">{}{}\n{}</li>', line.seq, who, when, sentences)
