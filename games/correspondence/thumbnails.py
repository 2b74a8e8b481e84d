"""A match's thumbnail: the board a spectator sees, as a small palette PNG.

Drawn by the your-turn email's machinery (``board_picture``) from the
spectator's view, ``view(state, None)``, whoever asks, so it never holds a
seat's secret; fitted into ``WIDTH`` by ``HEIGHT`` pixels on the picture's
background. A picture is drawn once per match version and kept in the shared
cache ("default") under the match's id and version; the next request for
that version reads it from there without drawing."""

from __future__ import annotations

import io

from django.core.cache import caches
from PIL import Image

from games.correspondence import board_picture
from games.panel.thumbnails import HEIGHT, WIDTH

# Drawn at twice the thumbnail's width, then reduced: small labels and thin
# lines stay readable where resvg alone would drop them.
DRAWN_WIDTH = 2 * WIDTH
# A version's picture never changes; a week covers a match's slow weeks.
CACHE_SECONDS = 7 * 24 * 3600


def cache_key(match) -> str:
    return f"thumb:{match.pk}:{match.version}"


def thumbnail_png(match) -> bytes:
    """The thumbnail of ``match`` at its current version, from the cache or
    drawn (and then cached)."""
    cache = caches["default"]
    key = cache_key(match)
    png = cache.get(key)
    if png is None:
        png = draw(match)
        cache.set(key, png, CACHE_SECONDS)
    return png


def draw(match) -> bytes:
    """The spectator's board fitted into ``WIDTH`` by ``HEIGHT``, centred on
    the picture's background, as a palette PNG."""
    full = board_picture.render_png(board_picture.board_svg(match, None), DRAWN_WIDTH)
    with Image.open(io.BytesIO(full)) as image:
        picture = image.convert("RGB")
    picture.thumbnail((WIDTH, HEIGHT), Image.Resampling.LANCZOS)
    canvas = Image.new("RGB", (WIDTH, HEIGHT), board_picture.BACKGROUND)
    canvas.paste(picture, ((WIDTH - picture.width) // 2, (HEIGHT - picture.height) // 2))
    out = io.BytesIO()
    canvas.save(out, format="PNG")
    return board_picture.palette_png(out.getvalue())
