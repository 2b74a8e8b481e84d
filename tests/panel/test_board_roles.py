"""Boards say what they are without JavaScript: an SVG that holds links is a named group,
``role="img"`` only for a pure picture, and every scroll box is reachable by keyboard.

Rendered for every registered game, as the seat to move (with its clicks, and one
click down the choice tree) and as a spectator.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import registry
from games.lobby import services as lobby
from tests.conformance.kit import GAME_KEYS

pytestmark = pytest.mark.django_db
CHOICE_PATH = re.compile(r'data-path="([^"]+)"')


class BoardAudit(HTMLParser):
    """Collects, per SVG, its role and whether it holds a link or a focusable element,
    and every ``.board-scroll`` box's attributes."""

    def __init__(self):
        super().__init__()
        self.svgs: list[dict] = []
        self.open: list[dict] = []
        self.scroll_boxes: list[dict] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "board-scroll" in (attrs.get("class") or "").split():
            self.scroll_boxes.append(attrs)
        if self.open and (tag == "a" or "tabindex" in attrs):
            for svg in self.open:
                svg["clickable"] = True
        if tag == "svg":
            svg = {"role": attrs.get("role"), "attrs": attrs, "clickable": False}
            self.svgs.append(svg)
            self.open.append(svg)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag == "svg":
            self.open.pop()

    def handle_endtag(self, tag):
        if tag == "svg" and self.open:
            self.open.pop()


def audit(text: str) -> BoardAudit:
    parser = BoardAudit()
    parser.feed(text)
    return parser


def check(text: str, where: str) -> tuple[int, int]:
    parsed = audit(text)
    for svg in parsed.svgs:
        if svg["role"] == "img":
            assert not svg["clickable"], f"{where}: an SVG with role=img holds a link"
        if svg["clickable"]:
            assert svg["role"] == "group", f"{where}: an SVG with links is not a group"
            assert svg["attrs"].get("aria-label") or svg["attrs"].get("aria-labelledby"), (
                f"{where}: a group SVG has no name"
            )
    for box in parsed.scroll_boxes:
        assert box.get("tabindex") == "0", f"{where}: a .board-scroll box is not focusable"
        assert box.get("aria-label"), f"{where}: a .board-scroll box has no name"
    return sum(svg["clickable"] for svg in parsed.svgs), len(parsed.scroll_boxes)


@pytest.mark.parametrize("key", GAME_KEYS)
def test_svgs_with_links_are_groups_and_scroll_boxes_take_the_keyboard(key, make_user):
    game = registry.get(key)
    n = game.min_players
    users = [make_user(f"{key[:8]}-r{i}") for i in range(n)]
    match = lobby.create_match(user=users[0], game_key=key, n_seats=n)
    for user in users[1:]:
        lobby.join_match(user=user, match=match)
    match.refresh_from_db()
    seat = game.current_seats(match.state)[0]
    client = Client()
    client.force_login(match.seats.get(index=seat).user)
    url = reverse("match_detail", args=[match.pk])
    page = client.get(url).content.decode()
    assert "repairBoards" not in page
    check(page, f"{key} page of the seat to move")
    check(Client().get(url).content.decode(), f"{key} page of a spectator")
    panel = reverse("match_panel", args=[match.pk])
    for path in sorted(set(CHOICE_PATH.findall(page)))[:3]:
        fragment = client.get(panel, {"path": html.unescape(path)}, headers={"HX-Request": "true"})
        check(fragment.content.decode(), f"{key} after the click {path}")


def test_the_check_would_catch_a_picture_that_holds_a_link():
    bad = '<svg role="img" aria-label="x"><a href="/"><rect/></a></svg>'
    with pytest.raises(AssertionError):
        check(bad, "sample")
    with pytest.raises(AssertionError):
        check('<div class="board-scroll"><svg role="img"></svg></div>', "sample")
    assert check('<svg role="group" aria-label="x"><a href="/"><rect/></a></svg>', "ok") == (1, 0)


def test_a_board_drawing_clicks_is_a_group_and_the_same_board_for_a_spectator_a_picture(
    make_user,
):
    """Drakon draws the cells to place a room on in the labyrinth itself."""
    users = [make_user(f"drakon-g{i}") for i in range(2)]
    match = lobby.create_match(user=users[0], game_key="drakon", n_seats=2)
    lobby.join_match(user=users[1], match=match)
    match.refresh_from_db()
    game = registry.get("drakon")
    seat = game.current_seats(match.state)[0]
    client = Client()
    client.force_login(match.seats.get(index=seat).user)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    panel = reverse("match_panel", args=[match.pk])
    drawn = []
    for path in sorted(set(CHOICE_PATH.findall(page))):
        fragment = client.get(panel, {"path": html.unescape(path)}, headers={"HX-Request": "true"})
        parsed = audit(fragment.content.decode())
        labyrinth = next(svg for svg in parsed.svgs if svg["attrs"].get("class") == "labyrinth")
        if labyrinth["clickable"]:
            drawn.append(labyrinth["role"])
    assert drawn and set(drawn) == {"group"}
    spectator = audit(Client().get(reverse("match_detail", args=[match.pk])).content.decode())
    seen = next(svg for svg in spectator.svgs if svg["attrs"].get("class") == "labyrinth")
    assert seen["role"] == "img" and not seen["clickable"]
    assert spectator.scroll_boxes and spectator.scroll_boxes[0]["tabindex"] == "0"
