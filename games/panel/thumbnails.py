"""Where a match's thumbnail is (``games.correspondence.thumbnails`` draws
it): a URL made of the match's id and version alone, so a list shows it from
what it has already read, with no query per match."""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse

from games.models import MatchStatus

# The thumbnail's size in pixels: every picture is fitted into this box, so a
# list can give each <img> its width and height before it loads.
WIDTH = 160
HEIGHT = 120


@dataclass(frozen=True)
class Thumbnail:
    """What a list's <img> needs (templates/games/thumbnail.html)."""

    pk: int
    url: str
    width: int = WIDTH
    height: int = HEIGHT


def thumbnail_url(match) -> str | None:
    """The URL of ``match``'s thumbnail at its current version, or None for a
    match not in play (no position to show)."""
    if match.status != MatchStatus.ACTIVE:
        return None
    return f"{reverse('match_thumbnail', args=[match.pk])}?v={match.version}"


def thumbnail(match) -> Thumbnail | None:
    """``match``'s thumbnail for a list, or None for a match not in play."""
    url = thumbnail_url(match)
    return Thumbnail(match.pk, url) if url else None
