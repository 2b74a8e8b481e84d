"""The board as a picture for email: the seat's own board, drawn by the same
board template the match page draws, its SVG pieces laid out on one sheet
and rendered to PNG (resvg). Only the mail worker calls this, never a web
request.

The board template draws a game's board as HTML holding SVG drawings (the
labyrinth, the grid, the track's fields, the dice, the mats). The picture
keeps those drawings, in page order, flowed left to right in rows on a
sheet of ``SHEET_WIDTH``; the icons they use are copied in from the sprite,
and the site's stylesheet is applied, so each drawing looks as it does on
the page. What the seat may see is what its view holds: the drawing is made
from ``view(state, seat)``, never from the state.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import resvg_py
from django.conf import settings
from django.template import engines

from games import icons, presenters
from games.engine import registry

SHEET_WIDTH = 640  # the sheet's width in SVG units
PICTURE_WIDTH = 480  # the PNG's width in pixels: resvg's time grows with the pixels
GAP = 8
SMALL = 64  # a drawing with a viewBox but no size is drawn this wide
BACKGROUND = "#faf6f0"

_SVG_TAG = re.compile(r"<svg\b|</svg>", re.IGNORECASE)
_ATTR = re.compile(r'([\w:-]+)="([^"]*)"')
_USE = re.compile(r'href="[^"#]*#([\w-]+)"')


def board_html(match, seat: int) -> str:
    """The board exactly as the match page draws it for ``seat``, with no choices."""
    game = registry.get(match.game_key)
    presenter = presenters.get(match.game_key)
    seats = sorted(match.seats.all(), key=lambda s: s.index)
    names = [s.display_name for s in seats]
    view = {**game.view(match.state, seat), "_names": names, "_version": match.version}
    context = {
        "match": match,
        "game": game,
        "board": presenter.board_context(view, seat, names, None),
        "choices": None,
        "urls": presenters.MatchUrls.of(match.pk),
        "me": next((s for s in seats if s.index == seat), None),
    }
    template = engines["jinja2"].env.get_template(presenter.BOARD_TEMPLATE)
    return template.render(context)


def drawings(html: str) -> list[str]:
    """Every outermost ``<svg>…</svg>`` of ``html``, in order."""
    found, depth, start = [], 0, 0
    for mark in _SVG_TAG.finditer(html):
        if mark.group(0).lower() == "<svg":
            if depth == 0:
                start = mark.start()
            depth += 1
        elif depth:
            depth -= 1
            if depth == 0:
                found.append(html[start : mark.end()])
    return found


def _size(svg: str) -> tuple[float, float]:
    opening = svg[: svg.index(">")]
    attrs = dict(_ATTR.findall(opening))
    box = [float(v) for v in attrs.get("viewBox", "").replace(",", " ").split()] or [0, 0, 0, 0]
    width = _number(attrs.get("width"))
    height = _number(attrs.get("height"))
    if width is None and len(box) == 4 and box[2]:
        width = min(box[2], SMALL)
    if height is None and len(box) == 4 and box[2]:
        height = (width or 0) * box[3] / box[2]
    return width or 0.0, height or 0.0


def _number(text: str | None) -> float | None:
    try:
        return float(text) if text not in (None, "") else None
    except ValueError:
        return None


def sheet(html: str) -> str:
    """One SVG holding the board's drawings flowed in rows, with the icons
    they use and the definitions (gradients) of zero-size ``<svg>`` blocks."""
    defs, placed = [], []
    x = y = row = 0.0
    for svg in drawings(html):
        width, height = _size(svg)
        if not width or not height:
            defs.append(svg)  # a block of shared definitions only
            continue
        if width > SHEET_WIDTH:
            height, width = height * SHEET_WIDTH / width, SHEET_WIDTH
        if x and x + width > SHEET_WIDTH:
            x, y, row = 0.0, y + row + GAP, 0.0
        body = re.sub(r"^<svg\b", f'<svg x="{x:.1f}" y="{y:.1f}"', svg, count=1)
        body = re.sub(r'(<svg[^>]*?)\swidth="[^"]*"', r"\1", body, count=1)
        body = re.sub(r'(<svg[^>]*?)\sheight="[^"]*"', r"\1", body, count=1)
        body = body.replace("<svg ", f'<svg width="{width:.1f}" height="{height:.1f}" ', 1)
        placed.append(body)
        x, row = x + width + GAP, max(row, height)
    total = y + row
    used = sorted(set(_USE.findall("".join(placed))))
    symbols = icons.symbols(used)
    content = "".join(placed)
    content = _USE.sub(lambda m: f'href="#{m.group(1)}"', content)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
        f' viewBox="0 0 {SHEET_WIDTH} {max(total, 1):.1f}" width="{SHEET_WIDTH}"'
        f' height="{max(total, 1):.1f}"><defs>{symbols}</defs>{"".join(defs)}{content}</svg>'
    )


# One font family, loaded from its files: letting resvg scan every system
# font costs about a second a picture. Debian's fonts-dejavu-core.
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf")


@cache
def _fonts() -> dict:
    files = [str(FONT_DIR / name) for name in FONT_FILES if (FONT_DIR / name).exists()]
    if not files:
        return {}  # the system's fonts, slower
    return {
        "skip_system_fonts": True,
        "font_files": files,
        "font_family": "DejaVu Sans",
        "sans_serif_family": "DejaVu Sans",
        "serif_family": "DejaVu Serif",
    }


@cache
def _style_sheet() -> str:
    """The site's stylesheet, as the drawings' classes are styled on the page."""
    return (Path(settings.BASE_DIR) / "static" / "css" / "smoki.css").read_text()


def board_svg(match, seat: int) -> str:
    return sheet(board_html(match, seat))


def board_png(match, seat: int, width: int = PICTURE_WIDTH) -> bytes:
    """The seat's board as PNG bytes, ``width`` pixels wide."""
    return bytes(
        resvg_py.svg_to_bytes(
            svg_string=board_svg(match, seat),
            width=width,
            background=BACKGROUND,
            style_sheet=_style_sheet(),
            **_fonts(),
        )
    )
