"""The picture a player has until they upload one: a symmetric five-by-five
pattern in one colour, drawn from the SHA-256 of the username, so the same
name always gives the same picture, on every page and every server, with no
file and no request (inline SVG, colours as attributes: the site's CSP
allows no inline style)."""

from __future__ import annotations

import colorsys
import hashlib

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

GRID = 5


def _colour(digest: bytes) -> str:
    """A clear, not too light colour: any hue, fixed lightness and saturation."""
    hue = digest[0] / 255
    red, green, blue = colorsys.hls_to_rgb(hue, 0.42, 0.55)
    return f"#{round(red * 255):02x}{round(green * 255):02x}{round(blue * 255):02x}"


def cells(username: str) -> list[tuple[int, int]]:
    """The filled cells (column, row): the left three columns from the hash's
    bits, mirrored to the right."""
    digest = hashlib.sha256(username.encode("utf-8")).digest()
    filled = []
    bit = 0
    for column in range((GRID + 1) // 2):
        for row in range(GRID):
            if digest[1 + bit // 8] >> (bit % 8) & 1:
                filled.append((column, row))
                if column != GRID - 1 - column:
                    filled.append((GRID - 1 - column, row))
            bit += 1
    return sorted(filled)


def identicon_svg(username: str, size: int, css_class: str = "avatar") -> SafeString:
    """The identicon as inline SVG, decorative (the name stands beside it)."""
    digest = hashlib.sha256(username.encode("utf-8")).digest()
    colour = _colour(digest)
    rects = mark_safe(
        "".join(
            format_html('<rect x="{}" y="{}" width="1" height="1"/>', x + 0.5, y + 0.5)
            for x, y in cells(username)
        )
    )
    return format_html(
        '<svg class="{}" width="{}" height="{}" viewBox="0 0 6 6" aria-hidden="true" '
        'focusable="false"><rect width="6" height="6" fill="#eef0f3"/><g fill="{}">{}</g></svg>',
        css_class,
        size,
        size,
        colour,
        rects,
    )
