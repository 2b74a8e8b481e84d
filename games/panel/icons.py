"""Smoki's pictures for pieces and rooms: icons of the game-icons.net collection.

One visual language across games: the same drawn icon for a dragon, a coin,
a key, wherever a game shows one. The paths are vendored in
``games/panel/game_icons.json`` by ``tools/vendor_icons.py`` (CC BY 3.0; the
authors are credited on the about page from the same file), so the site needs
neither npm nor the network. Templates draw them with the board toolkit's
``{% icon %}`` tag.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache, lru_cache
from pathlib import Path

from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

DATA = Path(__file__).with_name("game_icons.json")


@cache
def collection() -> dict:
    return json.loads(DATA.read_text())


def names() -> list[str]:
    return sorted(collection()["icons"])


@lru_cache(maxsize=16)
def sprite(names: tuple[str, ...] | None = None) -> bytes:
    """Every icon, or only those ``names``, as a ``<symbol id="<name>">`` of one
    SVG file, served at ``/icons.svg`` (``views.icon_sprite``) and cached by
    browsers for a year. An unknown name is a KeyError."""
    data = collection()
    box = data["size"]
    wanted = sorted(data["icons"]) if names is None else names
    symbols = "".join(
        f'<symbol id="{name}" viewBox="0 0 {box} {box}">{data["icons"][name]["body"]}</symbol>'
        for name in wanted
    )
    return f'<svg xmlns="http://www.w3.org/2000/svg">{symbols}</svg>'.encode()


def symbols(wanted) -> str:
    """The ``<symbol>`` of each named icon, for an SVG drawn outside a page
    (the email's board picture), which cannot refer to ``/icons.svg``."""
    data = collection()
    box = data["size"]
    return "".join(
        f'<symbol id="{name}" viewBox="0 0 {box} {box}">{data["icons"][name]["body"]}</symbol>'
        for name in wanted
        if name in data["icons"]
    )


@lru_cache(maxsize=16)
def sprite_url(names: tuple[str, ...] | None = None) -> str:
    """The address of the sprite of every icon, or of only ``names`` (a page
    that shows a few icons outside any board: the lobby's game cards), named
    by its content: a new icon set is a new URL, so a year-long browser cache
    never shows an old picture."""
    digest = hashlib.sha256(sprite(names)).hexdigest()[:12]
    only = "" if names is None else f"icons={','.join(names)}&"
    return f"{reverse('icon_sprite')}?{only}v={digest}"


@lru_cache(maxsize=4096)
def svg(
    name: str,
    size: float = 24,
    x: float | None = None,
    y: float | None = None,
    color: str = "currentColor",
    css: str = "",
    sprite_of: tuple[str, ...] | None = None,
) -> SafeString:
    """The icon as an ``<svg>``: nested in a board's SVG at ``x``, ``y`` (its units), or
    inline in HTML. Decorative: the piece or room it decorates carries the words.
    An unknown name is a programming error (KeyError), not a missing picture.

    The paths come from the sprite by reference (``<use>``): a board draws the same
    few icons many times (a Drakon lair holds dozens of rooms), and each copy of a
    path is 1 to 3.5 kB. Cached: a board draws the same icons at the same places
    on every page.

    ``sprite_of`` refers to the small sprite of those icons instead (the
    lobby's game cards): the whole sprite's first fetch is 17 kB gzipped, and
    the five paths drawn in the page cost it about 3.7 kB on every visit,
    which a phone fetched ahead of the picture it paints first
    (docs/performance.md, "The signed-in lobby within 0.6 s")."""
    data = collection()
    data["icons"][name]  # an unknown name fails here, not in the browser
    box = data["size"]
    place = "" if x is None else format_html(' x="{}" y="{}"', x, y)
    if sprite_of is not None and name not in sprite_of:
        raise KeyError(f"{name} is not in the sprite of {sprite_of}")
    drawing = format_html('<use href="{}#{}"/>', sprite_url(sprite_of), name)
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
        drawing,
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
