"""The critical path of a page on a slow phone (issue 40, item 6): nothing in
the head holds the first paint back on the network, and a list's first
thumbnail, the lobby's largest content, is fetched at once (named in the
head) while the rest wait for layout (docs/performance.md, "Critical path")."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from games.lobby import services as lobby

pytestmark = pytest.mark.django_db

STYLE_SHEET = Path(settings.BASE_DIR) / "static" / "css" / "smoki.css"


def sheet_without_comments(css: str) -> str:
    """The sheet as pages carry it: no comments, no blank lines (our sheet
    quotes no "/*", so a plain pattern does)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    return "\n".join(line.rstrip() for line in css.splitlines() if line.strip()) + "\n"


def head_of(page: str) -> str:
    return re.search(r"<head>(.*?)</head>", page, re.S).group(1)


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/watch/", "/about/"])
def test_the_head_loads_nothing_that_blocks_the_first_paint(client, path):
    response = client.get(path)
    head = head_of(response.content.decode())
    assert 'rel="stylesheet"' not in head
    assert "<script" not in head
    # The style sheet is inside the page, whole, under the answer's CSP nonce.
    nonce = re.search(r"style-src 'self' 'nonce-([^']+)'", response["Content-Security-Policy"])
    inline = sheet_without_comments(STYLE_SHEET.read_text())
    assert f'<style nonce="{nonce.group(1)}">{inline}</style>' in head
    assert "/*" not in inline and ".thumb {" in inline


def test_the_scripts_come_after_the_content_and_are_deferred(client):
    page = client.get("/").content.decode()
    body = page.split("</head>", 1)[1]
    scripts = re.findall(r"<script[^>]*>", body)
    assert len(scripts) == 2, scripts
    assert all(" defer" in tag and 'src="' in tag for tag in scripts)
    assert body.index("<script") > body.index("</main>")


def test_only_the_first_thumbnail_of_my_matches_is_fetched_at_once(alice):
    for key in ("nogi", "drako", "seven_dragons"):
        lobby.fill_with_bots(
            user=alice, match=lobby.create_match(user=alice, game_key=key, n_seats=2)
        )
    client = Client()
    client.force_login(alice)
    table = re.search(r'id="my-matches".*?</table>', client.get("/").content.decode(), re.S)
    thumbs = re.findall(r'<img class="thumb"[^>]*>', table.group(0))
    assert len(thumbs) == 3
    assert 'fetchpriority="high"' in thumbs[0] and "loading=" not in thumbs[0]
    for later in thumbs[1:]:
        assert 'loading="lazy"' in later and "fetchpriority" not in later
    # Every one keeps its size, so nothing moves when the pictures arrive.
    assert all('width="160" height="120"' in thumb for thumb in thumbs)
    # The first is named in the head, so it is fetched from the page's first
    # bytes on, before the scripts and the other pictures are found.
    first = re.search(r'src="([^"]+)"', thumbs[0]).group(1)
    head = head_of(client.get("/").content.decode())
    preloads = re.findall(r'<link rel="preload"[^>]*>', head)
    assert preloads == [f'<link rel="preload" as="image" href="{first}" fetchpriority="high">']


def test_a_page_without_a_board_picture_preloads_nothing(client, alice):
    signed_in = Client()
    signed_in.force_login(alice)  # no match yet
    for page in (client.get("/"), signed_in.get("/"), client.get("/watch/")):
        assert 'rel="preload"' not in head_of(page.content.decode())


def test_an_htmx_request_for_a_whole_page_gets_the_link_not_the_inline_sheet(client):
    """htmx parses a whole-page answer against the current page's CSP, which
    would refuse the answer's own nonce; it swaps in a part of the body only."""
    head = head_of(client.get("/about/", headers={"HX-Request": "true"}).content.decode())
    assert re.search(r'<link rel="stylesheet" href="/static/css/smoki\.css">', head)
    assert "<style" not in head


def test_the_lobby_refers_to_a_sprite_of_its_game_icons_only(alice):
    """The game cards' icons come from a sprite of those five icons, kept by the
    browser for a year: drawn in the page they cost every lobby about 3.7 kB,
    which a phone fetched ahead of the board picture it paints first; the
    whole sprite's first fetch is 17 kB gzipped (docs/performance.md, "The signed-in
    lobby within 0.6 s")."""
    from games.lobby.listings import game_tiles
    from games.panel import icons

    wanted = tuple(tile.icon for tile in game_tiles())
    assert len(wanted) >= 5
    small = icons.sprite_url(wanted)
    for signed_in in (False, True):
        client = Client()
        if signed_in:
            client.force_login(alice)
        page = client.get("/").content.decode()
        uses = re.findall(r'<svg class="icon game-icon"[^>]*><use href="([^"]+)"/></svg>', page)
        assert [html.unescape(use) for use in uses] == [f"{small}#{name}" for name in wanted]
        assert icons.sprite_url() not in page
        for body in (icon["body"] for icon in icons.collection()["icons"].values()):
            assert body not in page
    response = Client().get(small)
    assert response.status_code == 200 and "max-age=31536000" in response["Cache-Control"]
    held = re.findall(r'<symbol id="([^"]+)"', response.content.decode())
    assert held == list(wanted)
    assert len(response.content) < len(icons.sprite()) / 3


def test_a_sprite_of_an_unknown_icon_or_of_one_named_twice_is_not_found(client):
    assert client.get("/icons.svg?icons=castle,no-such-icon").status_code == 404
    assert client.get("/icons.svg?icons=" + ",".join(["castle"] * 500)).status_code == 404
    assert client.get("/icons.svg?icons=").status_code == 200  # the whole sprite


def test_a_board_still_refers_to_the_sprite():
    from games.panel import icons

    drawn = icons.svg("key", size=20, x=1, y=2)
    assert f'<use href="{icons.sprite_url()}#key"/>' in drawn
    assert icons.collection()["icons"]["key"]["body"] not in drawn
