"""How the pages and emails write durations, moments and log lines: the same
in the Django templates (the ``smoki`` tag library), the Jinja2 panel and
the emails.

Moments are shown in the reader's zone, and never two alike for two times:
when daylight saving time ends, one hour of wall-clock time happens twice
(in Europe/Warsaw, 02:30 is first CEST, then CET an hour later). A deadline
in that hour would read the same for both instants, so there the zone's
abbreviation (or its offset, for zones without one) is shown too."""

import re
from datetime import datetime, timedelta

from django.utils import formats as django_formats
from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.timezone import template_localtime
from django.utils.translation import gettext as _


def is_ambiguous(local: datetime) -> bool:
    """Whether this wall-clock time occurs twice in its zone."""
    other = local.replace(fold=1 - local.fold)
    return other.utcoffset() != local.utcoffset()


def local_moment(value: datetime | None, fmt: str = "DATETIME_FORMAT") -> str:
    """``value`` in the active zone and language; with the zone where ambiguous."""
    if value is None:
        return ""
    local = timezone.localtime(value)
    text = django_formats.date_format(local, fmt)
    if is_ambiguous(local):
        text = f"{text} {local.tzname()}"
    return text


_DOUBLE_STOP = re.compile(r"(?<!\.)\.\.(?!\.)")


def one_full_stop(text: str) -> str:
    """A sentence whose moment ends with a full stop of its own (English
    writes "6 p.m.") ends with that one: "... before 6 p.m.." reads "... before
    6 p.m.". An ellipsis stays."""
    return _DOUBLE_STOP.sub(".", str(text))


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


def moment(value, fmt: str = "DATETIME_FORMAT") -> str:
    """A date and time in the viewer's zone, with the zone's abbreviation when
    that wall-clock time happens twice (the hour repeated when DST ends)."""
    return local_moment(value, fmt) if isinstance(value, datetime) else ""


def move_log_items(lines, newest_first: bool = False, with_times: bool = False, links=None) -> str:
    """The ``<li>`` of each log line: who moved, when (``with_times``), and each
    sentence in its own span, every value escaped unless marked safe.

    Drawn here rather than by two nested loops in the template: the match panel
    draws up to 30 lines on every move and poll, and Django's template
    language spends 25–30 µs a line on them, this under 8.
    """
    if newest_first:
        lines = reversed(lines)
    linkify = _linker(links or [])
    return mark_safe("\n".join(_log_item(line, with_times, linkify) for line in lines))


def _linker(links):
    """A function that turns each player's name in an escaped text into a link
    to their page (``links``: (name, url) of each person seated), whole words
    only, longest names first."""
    escaped = {str(conditional_escape(name)): url for name, url in links if name and url}
    if not escaped:
        return lambda text: text
    pattern = re.compile(
        "|".join(
            rf"(?<![\w&]){re.escape(name)}(?!\w)" for name in sorted(escaped, key=len, reverse=True)
        )
    )

    def linkify(text: str) -> str:
        return pattern.sub(
            lambda m: f'<a class="player-link" href="{escaped[m.group(0)]}">{m.group(0)}</a>', text
        )

    return linkify


def _log_item(line, with_times: bool, linkify=lambda text: text) -> str:
    who = (
        f'<span class="who">{linkify(str(conditional_escape(line.who)))}</span>' if line.who else ""
    )
    when = ""
    if with_times:
        stamp = conditional_escape(date_format(template_localtime(line.created_at), "c"))
        shown = conditional_escape(moment(line.created_at, "SHORT_DATETIME_FORMAT"))
        when = f'\n<time datetime="{stamp}">{shown}</time>'
    sentences = "".join(
        f'<span class="sentence">{linkify(str(conditional_escape(sentence)))}</span> '
        for sentence in line.sentences
    )
    return f'<li value="{int(line.seq)}">{who}{when}\n{sentences}</li>'
