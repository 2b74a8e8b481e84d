"""The ``critical`` template library: what a page needs before its first paint.

On a slow phone (400 kbit/s, 150 ms a round trip) a ``<link rel=stylesheet>``
holds the first paint back by a round trip and by the bandwidth the scripts
and the icon sprite take from it meanwhile; the style sheet is small (about
6 KB gzipped), so every page carries it inline in a ``<style>`` with the
request's CSP nonce instead (docs/performance.md, "Critical path").
"""

import re
from functools import cache
from pathlib import Path

from django import template
from django.conf import settings
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@cache
def _cached_text(name: str) -> str:
    """The file read once per process: in production it changes only with a deploy."""
    return _read(name)


#: A CSS comment, or a quoted string (kept whole: it could hold "/*").
_COMMENT_OR_STRING = re.compile(r"""("(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')|/\*.*?\*/""", re.S)


def without_comments(css: str) -> str:
    """``css`` less its comments and blank lines: they are a third of our sheet,
    and every page carries it (2.3 of 6.7 KB gzipped)."""
    css = _COMMENT_OR_STRING.sub(lambda found: found.group(1) or "", css)
    return "\n".join(line.rstrip() for line in css.splitlines() if line.strip()) + "\n"


def _read(name: str) -> str:
    """The static file ``name`` from the source folders, less its comments (the
    collected copy is the same text: the style sheet names no other file, so
    nothing in it is rewritten)."""
    found = finders.find(name)
    if not found:
        raise template.TemplateSyntaxError(f"inline_style: no static file {name!r}")
    return without_comments(Path(found).read_text(encoding="utf-8"))


def stylesheet_text(name: str) -> str:
    """The text of the static style sheet ``name``; read anew each time in
    development, so an edit shows on the next page."""
    return _read(name) if settings.DEBUG else _cached_text(name)


@register.simple_tag(takes_context=True)
def inline_style(context, name: str) -> SafeString:
    """``<style nonce=…>`` with the style sheet ``name`` (a static file) inside.

    The sheet is ours and holds no ``</style>``; the check keeps it so. An
    htmx request that gets a whole page (a form's answer, ``hx-select``)
    swaps in a part of its body only, so it gets the plain link instead: the
    browser parses the answer against the current page's CSP, where the new
    answer's nonce would be refused (a console error), and the sheet is
    already there."""
    request = context.get("request")
    if request is not None and getattr(request, "htmx", False):
        return format_html('<link rel="stylesheet" href="{}">', static(name))
    text = stylesheet_text(name)
    if "</" in text:
        raise template.TemplateSyntaxError(f"inline_style: {name} holds '</'")
    nonce = context.get("csp_nonce")
    opening = format_html('<style nonce="{}">', nonce) if nonce is not None else "<style>"
    return mark_safe(f"{opening}{text}</style>")  # noqa: S308 - our own file, checked above
