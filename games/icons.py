"""Smoki's pictures for pieces and rooms: icons of the game-icons.net collection.

One visual language across games: the same drawn icon for a dragon, a coin,
a key, wherever a game shows one. The paths are vendored in
``games/game_icons.json`` by ``tools/vendor_icons.py`` (CC BY 3.0; the
authors are credited on the about page from the same file), so the site needs
neither npm nor the network. Templates draw them with the board toolkit's
``{% icon %}`` tag.
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from pathlib import Path

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

DATA = Path(__file__).with_name("game_icons.json")


@cache
def collection() -> dict:
    return json.loads(DATA.read_text())


def names() -> list[str]:
    return sorted(collection()["icons"])


@lru_cache(maxsize=4096)
def svg(
    name: str,
    size: float = 24,
    x: float | None = None,
    y: float | None = None,
    color: str = "currentColor",
    css: str = "",
) -> SafeString:
    """The icon as an ``<svg>``: nested in a board's SVG at ``x``, ``y`` (its units), or
    inline in HTML. Decorative: the piece or room it decorates carries the words.
    An unknown name is a programming error (KeyError), not a missing picture.
    Cached: a board draws the same few icons at the same places on every page."""
    data = collection()
    body = data["icons"][name]["body"]
    box = data["size"]
    place = "" if x is None else format_html(' x="{}" y="{}"', x, y)
    return format_html(
        '<svg class="icon{}" viewBox="0 0 {} {}" width="{}" height="{}"{} color="{}" '
        'aria-hidden="true" focusable="false">{}</svg>',
        f" {css}" if css else "",
        box,
        box,
        size,
        size,
        place,
        color,
        mark_safe(body),  # vendored paths from our own JSON, not user input
    )


def credits() -> list[dict]:
    """Per author: name, link and the icons of theirs Smoki uses, for the about page."""
    data = collection()
    by_author: dict[str, list[str]] = {}
    for name, icon in sorted(data["icons"].items()):
        by_author.setdefault(icon["author"], []).append(name)
    return [
        {
            "key": key,
            "name": data["authors"][key]["name"],
            "url": data["authors"][key]["url"],
            "icons": [
                {"name": name, "url": f"https://game-icons.net/1x1/{key}/{name}.html"}
                for name in icons
            ],
        }
        for key, icons in sorted(by_author.items())
    ]
