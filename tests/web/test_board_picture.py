"""The email's board picture (games/board_picture.py): laid out without
nested viewports, styled by the rules that can apply, labels drawn as
outlines, so that resvg draws a board in a fraction of the time."""

import re

import pytest

from games import board_picture
from games.engine import registry
from tests.conformance.kit import GAME_KEYS

CELL = (
    '<svg viewBox="0 0 84 84" class="field" color="#123456">'
    '<rect width="84" height="84"/><use href="/icons.svg?v=1#castle"/>'
    '<svg width="20" height="20" viewBox="0 0 512 512"><use href="/icons.svg?v=1#bunny"/></svg>'
    "</svg>"
)


def test_a_drawing_becomes_a_scaled_group_and_keeps_its_inner_sizes():
    sheet = board_picture.sheet(f"<div>{CELL}{CELL}</div>")
    # The two cells are groups, scaled from 84 units into SMALL (64): no nested viewport.
    groups = re.findall(
        r'<g transform="translate\(([\d.]+) ([\d.]+)\) scale\(([\d.]+)\)"([^>]*)>', sheet
    )
    assert [(float(x), float(y)) for x, y, _s, _a in groups] == [
        (0, 0),
        (64 + board_picture.GAP, 0),
    ]
    assert [float(scale) for _x, _y, scale, _a in groups] == [pytest.approx(64 / 84, abs=1e-4)] * 2
    assert all('class="field"' in attrs and 'color="#123456"' in attrs for *_r, attrs in groups)
    # A <use> directly in the drawing is as big as the drawing's viewBox was, as on the page;
    # the icon's own <svg> (a viewport still) keeps its size and its <use> is untouched.
    assert sheet.count('<use width="84" height="84" href="#castle"') == 2
    assert sheet.count('<svg width="20" height="20" viewBox="0 0 512 512"><use href="#bunny"') == 2


def test_a_drawing_without_a_viewbox_stays_a_viewport_at_its_place():
    sheet = board_picture.sheet(
        '<p><svg width="30" height="10"><rect width="30" height="10"/></svg></p>'
    )
    assert (
        '<svg x="0.0" y="0.0" width="30.0" height="10.0"><rect width="30" height="10"/></svg>'
        in sheet
    )


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
def test_every_game_picture_is_drawn_in_groups_with_no_text_left(key, alice, bob):
    from games import lobby

    game = registry.get(key)
    match = lobby.create_match(user=alice, game_key=key, n_seats=max(2, game.min_players))
    lobby.join_match(user=bob, match=match)
    match.refresh_from_db()
    if match.state is None:
        pytest.skip(f"{key} needs more than two players to start")
    svg = board_picture.board_svg(match, 0)
    if board_picture._outline_fonts():
        assert "<text" not in svg
    # Every drawing of the board sits on the sheet as a group; only icons inside
    # a drawing (each a small viewport of its own) remain <svg>.
    top_level = re.findall(r'<g transform="translate', svg)
    assert len(top_level) >= 1
    png = board_picture.board_png(match, 0)
    assert png.startswith(b"\x89PNG") and int.from_bytes(png[16:20], "big") == 480
