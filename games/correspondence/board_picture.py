"""The board as a picture for email: the seat's own board, drawn by the same
board template the match page draws, its SVG pieces laid out on one sheet
and rendered to PNG (resvg). Only the mail worker draws the picture, never a
web request (the email link's confirmation page draws ``board_html`` alone).

The board template draws a game's board as HTML holding SVG drawings (the
labyrinth, the grid, the track's fields, the dice, the mats). The picture
keeps those drawings, in page order, flowed left to right in rows on a
sheet of ``SHEET_WIDTH``; the icons they use are copied in from the sprite,
and the site's stylesheet is applied, so each drawing looks as it does on
the page. The PNG is then reduced to a palette of 256 colours (Pillow), which
keeps the email small (``palette_png``). What the seat may see is what its view holds: the drawing is made
from ``view(state, seat)``, never from the state.
"""

from __future__ import annotations

import html
import io
import re
from functools import cache, lru_cache
from html import escape as html_escape
from html import unescape as html_unescape
from pathlib import Path

import resvg_py
import tinycss2
from django.conf import settings
from django.template import engines
from PIL import Image

from games.engine import registry
from games.panel import icons, presenters

SHEET_WIDTH = 640  # the sheet's width in SVG units
PICTURE_WIDTH = 480  # the PNG's width in pixels: resvg's time grows with the pixels
GAP = 8
SMALL = 64  # a drawing with a viewBox but no size is drawn this wide
BACKGROUND = "#faf6f0"

_SVG_TAG = re.compile(r"<svg\b|</svg>", re.IGNORECASE)
_ATTR = re.compile(r'([\w:-]+)="([^"]*)"')
_USE = re.compile(r'href="[^"#]*#([\w-]+)"')


def board_html(match, seat: int | None, seats: list | None = None) -> str:
    """The board exactly as the match page draws it for ``seat``, with no
    choices (``seats``: the match's seats with their players, when read
    already). Also the board of an email link's confirmation page
    (``games.correspondence.email_moves``)."""
    return board_scene(match, seat, seats)[0]


def board_scene(match, seat: int | None, seats: list | None = None):
    """``board_html`` and the scene it is drawn from (the picture asks the
    presenter what matters on it: ``picture_focus``). ``seat`` None draws
    the spectator's board (a thumbnail's, ``games.correspondence.thumbnails``)."""
    game = registry.get(match.game_key)
    presenter = presenters.get(match.game_key)
    seats = sorted(match.seats.all() if seats is None else seats, key=lambda s: s.index)
    names = [s.display_name for s in seats]
    view = presenters.seat_view(game, match.state, seat, names, match.version)
    scene = presenter.scene(view, seat, names, None)
    context = {
        "match": match,
        "game": game,
        "board": scene.board,
        "private": scene.private,
        "choices": None,
        "urls": presenters.MatchUrls.of(match.pk),
        "me": next((s for s in seats if s.index == seat), None),
    }
    template = engines["jinja2"].env.get_template(scene.template)
    return template.render(context), scene


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


def _placed(svg: str, x: float, y: float, width: float, height: float) -> str:
    """A drawing's own ``<svg>`` given its place and size on the sheet."""
    end = svg.index(">")
    opening = re.sub(r'\s(?:x|y|width|height)="[^"]*"', "", svg[:end])
    opening = opening.replace(
        "<svg", f'<svg x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" height="{height:.1f}"', 1
    )
    return opening + svg[end:]


_SVG_OR_USE = re.compile(r"<svg\b[^>]*>|</svg>|<use\b[^>]*>", re.IGNORECASE)
# What an <svg> says that still matters on the group standing in for it.
_KEPT_ON_GROUP = {"class", "color", "fill", "stroke", "style", "font-size", "font-family"}


def flatten(content: str) -> str:
    """Every ``<svg>`` inside ``content`` turned into a scaled ``<g>``.

    A nested ``<svg>`` is a viewport, and resvg clips every viewport with a
    mask as large as the whole picture: a board drawn as fifty small
    ``<svg>`` cells took 55 ms to render, against 6 ms for an empty sheet. A
    ``<g transform>`` needs no mask. The drawings keep inside their viewBox,
    so nothing is lost by not clipping. A ``<use>`` of a symbol without a size
    is 100 % of its nearest viewport: it is given that viewport's size, so an
    icon keeps the size the page gives it. An ``<svg>`` without a number for
    its size stays a viewport.
    """
    stack: list[tuple[str, tuple[float, float] | None]] = []

    def visit(found: re.Match) -> str:
        tag = found.group(0)
        lower = tag[:5].lower()
        if lower == "</svg":
            closing, _box = stack.pop()
            return closing
        if lower == "<use ":
            box = stack[-1][1] if stack else None
            if box is None or " width=" in tag:
                return tag
            return tag.replace("<use", f'<use width="{box[0]:g}" height="{box[1]:g}"', 1)
        group = _as_group(tag)
        if group is None:
            stack.append(("</svg>", None))
            return tag
        opening, box = group
        stack.append(("</g>", box))
        return opening

    return _SVG_OR_USE.sub(visit, content)


def _as_group(tag: str) -> tuple[str, tuple[float, float]] | None:
    """The ``<g>`` standing in for an ``<svg>`` opening tag, and the size its
    content is drawn in (its viewBox's), or None to keep it a viewport."""
    attrs = dict(_ATTR.findall(tag))
    x, y = _number(attrs.get("x")) or 0.0, _number(attrs.get("y")) or 0.0
    width, height = _number(attrs.get("width")), _number(attrs.get("height"))
    if not width or not height:
        return None
    box = [_number(v) for v in attrs.get("viewBox", "").replace(",", " ").split()]
    if len(box) != 4 or None in box or not box[2] or not box[3]:
        box = [0.0, 0.0, width, height]
    left, top, box_width, box_height = box
    scale = min(width / box_width, height / box_height)  # preserveAspectRatio's "meet"
    dx = x + (width - box_width * scale) / 2 - left * scale
    dy = y + (height - box_height * scale) / 2 - top * scale
    kept = "".join(f' {name}="{value}"' for name, value in attrs.items() if name in _KEPT_ON_GROUP)
    return f'<g transform="translate({dx:.2f} {dy:.2f}) scale({scale:.4f})"{kept}>', (
        box_width,
        box_height,
    )


def _number(text: str | None) -> float | None:
    try:
        return float(text) if text not in (None, "") else None
    except ValueError:
        return None


def sheet(html: str, focus: dict | None = None) -> str:
    """One SVG holding the board's drawings flowed in rows, with the icons
    they use and the definitions (gradients) of zero-size ``<svg>`` blocks;
    or, when the game names what matters (``focus``), that alone
    (``focused_sheet``)."""
    if focus:
        return focused_sheet(html, focus)
    defs, placed = [], []
    x = y = row = 0.0
    for svg in drawings(html):
        width, height = _size(svg)
        if not width or not height:
            # A block of shared definitions only (gradients, patterns): its
            # content joins the sheet's, without a viewport of its own.
            defs.append(svg[svg.index(">") + 1 : svg.rindex("</svg>")])
            continue
        if width > SHEET_WIDTH:
            height, width = height * SHEET_WIDTH / width, SHEET_WIDTH
        if x and x + width > SHEET_WIDTH:
            x, y, row = 0.0, y + row + GAP, 0.0
        placed.append(_placed(svg, x, y, width, height))
        x, row = x + width + GAP, max(row, height)
    return _assembled(placed, defs, y + row)


def _assembled(placed: list[str], defs: list[str], total: float, labels: str = "") -> str:
    """The sheet: ``placed`` drawings as groups, the icons they use, ``labels``."""
    used = sorted(set(_USE.findall("".join(placed))))
    symbols = icons.symbols(used)
    content = flatten("".join(placed))
    content = _USE.sub(lambda m: f'href="#{m.group(1)}"', content)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
        f' viewBox="0 0 {SHEET_WIDTH} {max(total, 1):.1f}" width="{SHEET_WIDTH}"'
        f' height="{max(total, 1):.1f}"><defs>{symbols}</defs>{"".join(defs)}{content}'
        f"{labels}</svg>"
    )


# A focused picture (a game's ``picture_focus``): the part of the board that
# matters as large as the sheet's width allows, a cell at most MAX_CELL units
# (84 px at 480) and the whole at most MAX_FOCUS_HEIGHT units tall, then the
# viewer's own drawings, each OWN_SIZE units at most, named under it.
MAX_CELL = 112
MAX_FOCUS_HEIGHT = SHEET_WIDTH * 5 // 4
OWN_SIZE = 96
INK = "#3a2e1c"
_VIEW_BOX = re.compile(r'\sviewBox="[^"]*"')
_CAPTION = re.compile(r"\s*<span\b[^>]*>([^<]*)</span>")


def focused_sheet(html: str, focus: dict) -> str:
    """The board's first drawing cropped to ``focus["box"]`` (in its own
    units) and drawn across the sheet, then the drawings of the viewer's own
    part (``#my-secrets``) in a row under the heading ``focus["own"]``, each
    with the words the page writes right after it. Nothing else of the board
    (keys, legends, colour dots) is drawn."""
    layout = focused_layout(html, focus)
    if layout is None:
        return sheet(html)
    placed, labels, total = layout
    return _assembled(placed, [], total, "".join(labels))


def focused_layout(html: str, focus: dict) -> tuple[list[str], list[str], float] | None:
    """``focused_sheet``'s drawings, each placed (its own ``<svg>``), its
    labels (``<text>``) and its height; None without a drawing to focus on."""
    left, top, width, height = focus["box"]
    main = next((svg for svg in drawings(html) if all(_size(svg))), None)
    if main is None or not width or not height:
        return None
    scale = min(SHEET_WIDTH / width, MAX_CELL / focus["cell"], MAX_FOCUS_HEIGHT / height)
    drawn_width, drawn_height = width * scale, height * scale
    end = main.index(">")
    opening = _VIEW_BOX.sub("", main[:end]) + f' viewBox="{left} {top} {width} {height}"'
    placed = [
        _placed(opening + main[end:], (SHEET_WIDTH - drawn_width) / 2, 0, drawn_width, drawn_height)
    ]
    labels = []
    y = drawn_height + 2 * GAP
    own = _own_drawings(html)
    if own:
        heading = html_escape(str(focus.get("own", "")))
        labels.append(
            f'<text x="{GAP}" y="{y + 20:.1f}" font-size="20" font-weight="bold"'
            f' fill="{INK}">{heading}</text>'
        )
        y += 30
        slot = SHEET_WIDTH / max(3, len(own))
        size = min(OWN_SIZE, slot - 2 * GAP)
        for i, (svg, name) in enumerate(own):
            middle = slot * i + slot / 2
            placed.append(_placed(svg, middle - size / 2, y, size, size))
            if name:
                labels.append(
                    f'<text x="{middle:.1f}" y="{y + size + 20:.1f}" font-size="17"'
                    f' text-anchor="middle" fill="{INK}">{html_escape(name)}</text>'
                )
        y += size + 30
    return placed, labels, y


def _own_drawings(html: str) -> list[tuple[str, str]]:
    """The drawings of the viewer's own part (``#my-secrets``), each with the
    words of the element right after it (a tile's name), if any."""
    start = html.find('id="my-secrets"')
    if start < 0:
        return []
    end = html.find("</section>", start)
    part = html[start : end if end > 0 else len(html)]
    found = []
    for svg in drawings(part):
        after = part[part.index(svg) + len(svg) :]
        caption = _CAPTION.match(after)
        found.append((svg, html_unescape(caption.group(1)).strip() if caption else ""))
    return found


# Text drawn as paths. resvg shapes every <text> anew in each picture, reading
# the font's tables each time: on a board of about forty labels that was half
# of the picture's time. A label here is a number or a short word in one of
# two weights, so its outline is drawn once per process with fontTools (from
# the same DejaVu files) and reused; a <text> this does not understand stays
# text, for resvg to draw.
_TEXT = re.compile(r"<text\b([^>]*)>([^<]*)</text>")
_TEXT_ATTRS = {
    "x",
    "y",
    "dx",
    "font-size",
    "font-weight",
    "text-anchor",
    "fill",
    "stroke",
    "stroke-width",
    "paint-order",
}
_PAINT = ("fill", "stroke", "paint-order")


def _texts_as_paths(svg: str) -> str:
    fonts = _outline_fonts()
    if not fonts:
        return svg

    def outline(found: re.Match) -> str:
        attrs = dict(_ATTR.findall(found.group(1)))
        words = html.unescape(found.group(2))
        # A data attribute draws nothing: kept on the outline. (A class may
        # be styled by the sheet, so a text with one stays text.)
        kept = "".join(
            f' {name}="{value}"' for name, value in attrs.items() if name.startswith("data-")
        )
        if {name for name in attrs if not name.startswith("data-")} - _TEXT_ATTRS:
            return found.group(0)
        if not words.strip():
            return ""  # an empty label draws nothing
        try:
            x = float(attrs.get("x", 0)) + float(attrs.get("dx", 0))
            y = float(attrs.get("y", 0))
            size = float(attrs.get("font-size", 16))
            stroke_width = float(attrs.get("stroke-width", 1))
        except ValueError:
            return found.group(0)
        bold = attrs.get("font-weight") in ("bold", "bolder", "600", "700", "800", "900")
        path, advance = _text_outline(words, bold)
        scale = size / fonts[bold]["units"]
        anchor = attrs.get("text-anchor", "start")
        shift = {"middle": advance / 2, "end": advance}.get(anchor, 0) * scale
        paint = "".join(f' {name}="{attrs[name]}"' for name in _PAINT if name in attrs)
        if "stroke" in attrs:
            paint += f' stroke-width="{stroke_width / scale:.1f}" stroke-linejoin="round"'
        return (
            f'<path transform="translate({x - shift:.2f} {y:.2f}) scale({scale:.5f} {-scale:.5f})"'
            f'{paint}{kept} d="{path}"/>'
        )

    return _TEXT.sub(outline, svg)


@cache
def _outline_fonts() -> dict:
    """DejaVu Sans and its bold, read once, for drawing labels as outlines."""
    from fontTools.ttLib import TTFont

    fonts = {}
    for bold, name in ((False, "DejaVuSans.ttf"), (True, "DejaVuSans-Bold.ttf")):
        path = FONT_DIR / name
        if not path.exists():
            return {}
        font = TTFont(str(path), lazy=True)
        fonts[bold] = {
            "glyphs": font.getGlyphSet(),
            "cmap": font.getBestCmap(),
            "units": font["head"].unitsPerEm,
        }
    return fonts


@lru_cache(maxsize=2048)
def _text_outline(words: str, bold: bool) -> tuple[str, float]:
    """The outline of ``words`` in font units, baseline at 0, and its advance."""
    from fontTools.pens.svgPathPen import SVGPathPen
    from fontTools.pens.transformPen import TransformPen

    font = _outline_fonts()[bold]
    glyphs, cmap = font["glyphs"], font["cmap"]
    pen = SVGPathPen(glyphs)
    advance = 0.0
    for char in words:
        name = cmap.get(ord(char), ".notdef")
        glyph = glyphs[name]
        glyph.draw(TransformPen(pen, (1, 0, 0, 1, advance, 0)))
        advance += glyph.width
    return pen.getCommands(), advance


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
def _style_rules() -> tuple[tuple[str, frozenset[str], frozenset[str], str], ...]:
    """The site stylesheet's plain rules, one selector each: (selector, the
    classes and the element names it needs, its declarations). At-rules
    (``@media``, ``@font-face``) say nothing about a picture and are left out,
    and so are selectors of states a picture never has (hover, focus)."""
    text = (Path(settings.BASE_DIR) / "static" / "css" / "smoki.css").read_text()
    rules = []
    for rule in tinycss2.parse_stylesheet(text, skip_comments=True, skip_whitespace=True):
        if rule.type != "qualified-rule":
            continue
        body = tinycss2.serialize(rule.content).strip()
        for selector in tinycss2.serialize(rule.prelude).split(","):
            selector = " ".join(selector.split())
            if not selector or _DYNAMIC.search(selector):
                continue
            classes = frozenset(_CLASS.findall(selector))
            names = frozenset(_ELEMENT.findall(selector)) - {""}
            rules.append((selector, classes, names, body))
    return tuple(rules)


_DYNAMIC = re.compile(
    r":(?:hover|focus|active|checked|disabled|visited|link|target)|::?(?:before|after)"
)
_CLASS = re.compile(r"\.([\w-]+)")
_ELEMENT = re.compile(r"(?:^|[\s>+~(])([a-zA-Z][\w-]*)")
_CLASS_ATTR = re.compile(r'\sclass="([^"]*)"')
_TAG = re.compile(r"<([a-zA-Z][\w-]*)")


def style_sheet_for(svg: str) -> str:
    """The rules of the site's stylesheet that can apply to ``svg``.

    resvg parses the style sheet and tries each rule on every element of the
    picture: the whole sheet (the page's layout, forms, menus) cost about a
    quarter of a board's picture. A rule whose selector names a class or an
    element the picture does not hold cannot match, and is left out."""
    classes = frozenset(name for found in _CLASS_ATTR.findall(svg) for name in found.split())
    elements = frozenset(_TAG.findall(svg))
    return _rules_for(classes, elements)


@lru_cache(maxsize=64)
def _rules_for(classes: frozenset[str], elements: frozenset[str]) -> str:
    return "\n".join(
        f"{selector} {{{body}}}"
        for selector, needed_classes, needed_elements, body in _style_rules()
        if needed_classes <= classes and needed_elements <= elements
    )


def board_svg(match, seat: int | None) -> str:
    html, scene = board_scene(match, seat)
    focus = presenters.get(match.game_key).picture_focus(scene.board, seat)
    return _texts_as_paths(sheet(html, focus))


def board_png(match, seat: int | None, width: int = PICTURE_WIDTH) -> bytes:
    """The seat's board as PNG bytes, ``width`` pixels wide, in a palette of
    ``PALETTE_COLOURS`` (``palette_png``)."""
    return palette_png(render_png(board_svg(match, seat), width))


def render_png(svg: str, width: int = PICTURE_WIDTH) -> bytes:
    """``svg`` rendered by resvg, in full colour (RGBA)."""
    return bytes(
        resvg_py.svg_to_bytes(
            svg_string=svg,
            width=width,
            background=BACKGROUND,
            style_sheet=style_sheet_for(svg),
            # Labels are outlines already (_texts_as_paths): fonts only for what is left.
            **(_fonts() if "<text" in svg else {"skip_system_fonts": True}),
        )
    )


# A board is flat fills, icons and labels in a few dozen colours, plus the
# shades of their anti-aliased edges: 256 colours hold it. In full colour
# (RGBA, as resvg writes it) a crowded Drakon board took up to 79 kB, and
# the email carries it in base64 (a third more); as a palette PNG it is
# about a third of that, and the eye sees no difference (the tests hold it to
# a peak signal-to-noise ratio of 40 dB against the full-colour rendering).
PALETTE_COLOURS = 256


def palette_png(png: bytes) -> bytes:
    """``png`` as an 8-bit palette PNG of at most ``PALETTE_COLOURS`` colours.

    Pillow's fast octree picks the palette (about 5-15 ms for a board, half
    the time of median cut, and closer on the flat fills); no dithering,
    which would sprinkle noise over the flat fills and cost bytes. The
    picture is opaque (drawn on ``BACKGROUND``), so alpha is dropped first."""
    with Image.open(io.BytesIO(png)) as image:
        quantised = image.convert("RGB").quantize(
            PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
    out = io.BytesIO()
    quantised.save(out, format="PNG")
    return out.getvalue()
