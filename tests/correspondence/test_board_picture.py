"""The email's board picture (games/board_picture.py): laid out without
nested viewports, styled by the rules that can apply, labels drawn as
outlines, so that resvg draws a board in a fraction of the time."""

import html
import io
import math
import re

import pytest
from PIL import Image, ImageChops, ImageStat

from games.correspondence import board_picture
from games.engine import registry
from tests.conformance.kit import GAME_KEYS

CELL = (
    '<svg viewBox="0 0 84 84" class="field" color="#123456">'
    '<rect width="84" height="84"/><use href="/icons.svg?v=1#castle"/>'
    '<svg width="20" height="20" viewBox="0 0 512 512"><use href="/icons.svg?v=1#bunny"/></svg>'
    "</svg>"
)


def test_drawings_and_their_icons_become_scaled_groups_with_their_sizes_kept():
    sheet = board_picture.sheet(f"<div>{CELL}{CELL}</div>")
    assert sheet.count("<svg") == 1  # the sheet itself: no nested viewport
    groups = re.findall(
        r'<g transform="translate\(([\d.]+) ([\d.]+)\) scale\(([\d.]+)\)"([^>]*)>', sheet
    )
    # The two cells, scaled from 84 units into SMALL (64) and placed side by side,
    # each holding its icon, scaled from 512 units into 20.
    cells = [g for g in groups if 'class="field"' in g[3]]
    assert [(float(x), float(y)) for x, y, _s, _a in cells] == [
        (0, 0),
        (64 + board_picture.GAP, 0),
    ]
    assert [float(scale) for _x, _y, scale, _a in cells] == [pytest.approx(64 / 84, abs=1e-4)] * 2
    assert all('color="#123456"' in attrs for *_r, attrs in cells)
    icons = [g for g in groups if g not in cells]
    assert [float(scale) for _x, _y, scale, _a in icons] == [pytest.approx(20 / 512, abs=1e-4)] * 2
    # A <use> of a symbol takes its viewport's size, as on the page.
    assert sheet.count('<use width="84" height="84" href="#castle"') == 2
    assert sheet.count('<use width="512" height="512" href="#bunny"') == 2
    assert sheet.count("</g>") == 4


def test_an_svg_without_a_size_in_numbers_stays_a_viewport():
    inner = (
        '<svg width="100%" height="100%" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>'
    )
    sheet = board_picture.sheet(f'<p><svg width="30" height="10">{inner}</svg></p>')
    assert inner in sheet
    assert '<g transform="translate(0.00 0.00) scale(1.0000)">' + inner + "</g>" in sheet


def test_the_style_sheet_keeps_only_rules_that_can_match_the_picture():
    svg = '<svg class="icon"><g class="board-choice"><rect class="ghost"/></g></svg>'
    css = board_picture.style_sheet_for(svg)
    assert "svg.icon {" in css
    assert ".topbar" not in css and "table.matches" not in css  # the page's layout
    assert ":focus" not in css and ":hover" not in css  # states a picture never has
    assert "@media" not in css
    whole = len((board_picture.settings.BASE_DIR / "static" / "css" / "smoki.css").read_text())
    assert len(css) < whole / 4


def test_labels_become_outlines_placed_as_the_text_would_be():
    if not board_picture._outline_fonts():
        pytest.skip("fonts-dejavu-core is not installed (CI installs it)")
    start = board_picture._texts_as_paths(
        '<text x="10" y="20" font-size="10" fill="#222">12</text>'
    )
    middle = board_picture._texts_as_paths(
        '<text x="10" y="20" font-size="10" font-weight="bold" text-anchor="middle" fill="#fff"'
        ' stroke="#000" stroke-width="2" paint-order="stroke">12</text>'
    )
    assert "<text" not in start + middle
    plain, plain_advance = board_picture._text_outline("12", False)
    bold, bold_advance = board_picture._text_outline("12", True)
    assert plain != bold and plain_advance > 0
    units = 2048  # DejaVu's units per em
    assert start == (
        f'<path transform="translate(10.00 20.00) scale({10 / units:.5f} {-10 / units:.5f})"'
        f' fill="#222" d="{plain}"/>'
    )
    shifted = 10 - bold_advance / 2 * 10 / units
    assert middle.startswith(f'<path transform="translate({shifted:.2f} 20.00)')
    # The stroke keeps its width on the page's scale, under the outline's paint order.
    assert f'stroke-width="{2 / (10 / units):.1f}"' in middle and 'paint-order="stroke"' in middle


def test_a_label_it_does_not_understand_stays_text():
    svg = '<text x="1" y="2" class="x">A</text><text x="1" y="2"><tspan>B</tspan></text>'
    assert board_picture._texts_as_paths(svg) == svg


@pytest.mark.django_db
@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_game_picture_is_one_viewport_with_no_text_left(key, alice, bob):
    from games.lobby import services as lobby

    game = registry.get(key)
    match = lobby.create_match(user=alice, game_key=key, n_seats=max(2, game.min_players))
    lobby.join_match(user=bob, match=match)
    match.refresh_from_db()
    if match.state is None:
        pytest.skip(f"{key} needs more than two players to start")
    svg = board_picture.board_svg(match, 0)
    if board_picture._outline_fonts():
        assert "<text" not in svg
    # Every drawing of the board and every icon in it sits on the sheet as a
    # group: the sheet is the one viewport.
    assert svg.count("<svg") == 1 and '<g transform="translate' in svg
    png = board_picture.board_png(match, 0)
    assert png.startswith(b"\x89PNG") and int.from_bytes(png[16:20], "big") == 480


# What docs/correspondence.md promises of a your-turn email with its picture.
EMAIL_BYTES_AT_MOST = 60_000


def _long_match(key: str, n_seats: int, steps: int):
    """A match of ``key`` for ``n_seats`` players after up to ``steps`` moves
    of the random bot, stopped before the move that would end it: a crowded
    board late in a long match."""
    from django.contrib.auth import get_user_model

    from games.lobby import services as lobby
    from games.play import services
    from tests.conformance.kit import bot_choice

    game = registry.get(key)
    users = [
        get_user_model().objects.create_user(f"long{i}", f"long{i}@example.com", "pw")
        for i in range(n_seats)
    ]
    match = lobby.create_match(user=users[0], game_key=key, n_seats=n_seats)
    for user in users[1:]:
        lobby.join_match(user=user, match=match)
    for step in range(steps):
        match.refresh_from_db()
        seat = game.current_seats(match.state)[0]
        action = bot_choice(key, match.state, seat, "random", f"long{step}")
        if game.result(game.apply(match.state, seat, action)[0]) is not None:
            break
        services.submit_action(match, match.seats.get(index=seat).user, action, match.version)
    match.refresh_from_db()
    return match, game.current_seats(match.state)[0]


def _psnr(first: bytes, second: bytes) -> float:
    """Peak signal-to-noise ratio of two pictures of one size, in dB."""
    a, b = (Image.open(io.BytesIO(png)).convert("RGB") for png in (first, second))
    assert a.size == b.size
    squares = [rms * rms for rms in ImageStat.Stat(ImageChops.difference(a, b)).rms]
    mse = sum(squares) / len(squares)
    return math.inf if mse == 0 else 10 * math.log10(255**2 / mse)


@pytest.mark.django_db
@pytest.mark.parametrize(("key", "n_seats"), [("drakon", 6), ("seven_dragons", 5)])
def test_a_crowded_board_is_a_palette_picture_as_readable_in_an_email_under_the_limit(key, n_seats):
    """Late in a long match of a crowded game, the picture is an 8-bit
    palette PNG that differs from the full-colour rendering by no more than
    the eye can tell (PSNR of 40 dB or more), and the whole your-turn email
    carrying it stays under the documented size."""
    from games.correspondence import compose
    from games.models import Notification, NotificationKind

    match, seat = _long_match(key, n_seats, steps=150)
    png = board_picture.board_png(match, seat)
    with Image.open(io.BytesIO(png)) as picture:
        assert picture.format == "PNG" and picture.mode == "P"
        assert len(picture.getpalette()) <= 3 * board_picture.PALETTE_COLOURS
    full = board_picture.render_png(board_picture.board_svg(match, seat))
    assert _psnr(png, full) >= 40
    assert len(png) < len(full) / 2

    row = Notification(
        match=match,
        user=match.seats.get(index=seat).user,
        kind=NotificationKind.YOUR_TURN,
        version=match.version,
    )
    message = compose.build_email(row)
    assert any(
        part.get_content_type() == "image/png" for part in message.message().walk()
    )  # the picture is in it
    assert len(message.message().as_bytes()) <= EMAIL_BYTES_AT_MOST


# -- Drakon's picture: the lair and the player's own tiles (issue 39, item 7) -------------

# A room of the lair is at least this many pixels wide in the 480 px picture.
DRAKON_ROOM_PX_AT_LEAST = 48


def _drakon_sheet(match, seat) -> str:
    """The picture's sheet before its labels become outlines."""
    html, scene = board_picture.board_scene(match, seat)
    focus = board_picture.presenters.get(match.game_key).picture_focus(scene.board, seat)
    return board_picture.sheet(html, focus)


def _room_px(sheet_svg: str) -> float:
    """How wide a room of the lair (64 units) is in the 480 px picture: the
    lair is the sheet's first drawing, a group scaled from its own units."""
    lair = re.search(r'<g transform="translate\([\d. -]+\) scale\(([\d.]+)\)"', sheet_svg)
    assert lair, "the lair is the first drawing"
    return 64 * float(lair.group(1)) * board_picture.PICTURE_WIDTH / board_picture.SHEET_WIDTH


@pytest.mark.django_db
@pytest.mark.parametrize(("n_seats", "steps"), [(2, 1), (2, 40), (6, 150)])
def test_a_drakon_picture_is_its_lair_large_and_the_players_own_tiles_named(n_seats, steps):
    """The picture holds what a player decides from: the lair, cropped to its
    rooms and as large as the width allows (a room at least 48 px wide at 480
    px), and the player's own tiles, each with its name; not the key to the
    chambers (17 unlabelled tiles) nor the heroes' colour dots."""
    match, seat = _long_match("drakon", n_seats, steps=steps)
    svg = _drakon_sheet(match, seat)
    assert _room_px(svg) >= DRAKON_ROOM_PX_AT_LEAST, _room_px(svg)
    view = registry.get("drakon").view(match.state, seat)
    mine = board_picture.presenters.get("drakon").private_context(view, seat, [], None)
    names = [str(tile["name"]) for tile in mine["hand"]]
    assert names or steps > 100  # late in a long match a hand may be empty
    assert all(html.escape(name) in svg for name in names), names
    # The lair, then each own tile: nothing else is drawn.
    html_, scene = board_picture.board_scene(match, seat)
    focus = board_picture.presenters.get("drakon").picture_focus(scene.board, seat)
    placed, _labels, _height = board_picture.focused_layout(html_, focus)
    assert len(placed) == 1 + len(names)
    png = board_picture.render_png(board_picture._texts_as_paths(svg))
    assert int.from_bytes(png[16:20], "big") == board_picture.PICTURE_WIDTH
