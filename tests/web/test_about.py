"""The about page credits the icons' authors and licence; the site has a real icon."""

import hashlib
import json
import re
import sys
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from games.panel import icons

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def test_every_page_links_the_about_page_from_its_footer():
    page = Client().get(reverse("lobby")).content.decode()
    footer = re.search(r"<footer.*?</footer>", page, re.S).group(0)
    assert f'href="{reverse("about")}"' in footer


@pytest.mark.parametrize(
    ("language", "heading", "licence"),
    [
        ("en", "About Smoki", "Creative Commons Attribution 3.0"),
        ("pl", "O serwisie Smoki", "Creative Commons Uznanie autorstwa 3.0"),
        ("cs", "O webu Smoki", "Creative Commons Uveďte původ 3.0"),
    ],
)
def test_the_about_page_names_every_icon_its_author_and_the_licence(language, heading, licence):
    page = Client(headers={"accept-language": language}).get(reverse("about"))
    assert page.status_code == 200
    html = page.content.decode()
    assert f"<h1>{heading}</h1>" in html and licence in html
    assert 'href="https://creativecommons.org/licenses/by/3.0/"' in html
    assert 'href="https://game-icons.net"' in html
    for author in icons.credits():
        assert f'<a href="{author["url"]}">{author["name"]}</a>' in html
        for each in author["icons"]:
            assert f'<a href="{each["url"]}" translate="no">{each["name"]}</a>' in html
    # Every vendored icon is credited, under the author it was vendored with.
    credited = {i["name"]: a["key"] for a in icons.credits() for i in a["icons"]}
    assert credited == {name: icon["author"] for name, icon in icons.collection()["icons"].items()}


def test_the_vendored_icons_are_the_ones_the_tool_lists_and_only_paths():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import vendor_icons
    finally:
        sys.path.remove(str(ROOT / "tools"))
    data = json.loads((ROOT / "games" / "panel" / "game_icons.json").read_text())
    assert {n: i["author"] for n, i in data["icons"].items()} == vendor_icons.ICONS
    assert set(vendor_icons.ICONS.values()) <= set(data["authors"])
    for name, icon in data["icons"].items():
        assert re.fullmatch(r'(<path fill="currentColor" d="[^"<>]+"/>)+', icon["body"]), name


def test_an_icon_is_drawn_inline_nested_or_not_and_hidden_from_screen_readers():
    nested = icons.svg("dragon-head", size=30, x=5, y=6, color="#8b0000")
    assert nested.startswith('<svg class="icon" viewBox="0 0 512 512" width="30" height="30"')
    assert ' x="5" y="6" color="#8b0000" aria-hidden="true"' in nested
    assert nested.endswith(f'<use href="{icons.sprite_url()}#dragon-head"/></svg>')
    assert "<path" not in icons.svg("rabbit") and ' x="' not in icons.svg("rabbit")
    with pytest.raises(KeyError):
        icons.svg("no-such-icon")


def test_the_sprite_holds_every_icon_and_its_url_changes_with_it():
    """Pages name each icon by reference; the one sprite holds the paths, is kept
    by browsers for a year, and its URL is its content's hash."""
    from xml.etree import ElementTree

    response = Client().get(icons.sprite_url())
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
    assert "max-age=31536000" in response["Cache-Control"]
    root = ElementTree.fromstring(response.content)
    symbols = {el.get("id"): el for el in root}
    data = icons.collection()
    assert set(symbols) == set(data["icons"])
    for name, symbol in symbols.items():
        body = "".join(ElementTree.tostring(p, encoding="unicode") for p in symbol)
        assert len(body) > 100 and symbol.get("viewBox") == "0 0 512 512", name
    digest = hashlib.sha256(response.content).hexdigest()[:12]
    assert icons.sprite_url() == f"/icons.svg?v={digest}"


def test_a_board_refers_to_its_icons_instead_of_copying_them(started_match, alice):
    """A Nogi page draws bunnies, the dragon and the castle: each a few hundred
    bytes of reference rather than 1 to 3.5 kB of path."""
    page = Client()
    page.force_login(alice)
    html = page.get(reverse("match_detail", args=[started_match.pk])).content.decode()
    assert html.count(f'<use href="{icons.sprite_url()}#rabbit"/>') >= 1
    for body in (icon["body"] for icon in icons.collection()["icons"].values()):
        assert body not in html


def test_the_site_icon_is_the_dragon_head_and_favicon_ico_leads_to_it():
    page = Client().get(reverse("lobby")).content.decode()
    assert '<link rel="icon" href="/static/icons/favicon.svg" type="image/svg+xml">' in page
    found = finders.find("icons/favicon.svg")
    assert found, "static/icons/favicon.svg is missing"
    drawing = Path(found).read_text()
    assert (
        drawing.startswith("<svg") and icons.collection()["icons"]["dragon-head"]["body"] in drawing
    )
    answer = Client().get("/favicon.ico")
    assert answer.status_code == 301 and answer["Location"] == "/static/icons/favicon.svg"


def test_every_drakon_chamber_of_both_editions_has_a_vendored_icon():
    from games.catalog.drakon.components import EDITIONS
    from games.catalog.drakon.presenter.board import ROOM_ICON

    for edition in EDITIONS.values():
        for room in edition.rooms:
            if room != "empty":
                assert ROOM_ICON[room] in icons.collection()["icons"], room


@pytest.mark.parametrize(
    ("key", "pictures"),
    [
        ("nogi", ["mountains", "dragon-head", "rabbit", "castle"]),
        ("drakon", ["two-coins", "grab", "magic-portal", "harp", "dungeon-gate"]),
        ("drakon_classic", ["well", "treasure-map", "vortex", "crystal-ball"]),
        ("drako", ["dragon-head", "dwarf-face"]),
    ],
)
def test_how_to_play_shows_the_pictures_the_board_uses(key, pictures):
    page = Client().get(reverse("how_to_play", args=[key])).content.decode()
    for name in pictures:
        assert f'<use href="{icons.sprite_url()}#{name}"/>' in page, (key, name)
