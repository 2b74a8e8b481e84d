"""The move log scrolls inside its own box: the box is a named region that the
keyboard reaches (tabindex 0), wherever the log is shown (issue 31, item 15)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from games.models import MatchStatus
from tests.conftest import play_one

pytestmark = pytest.mark.django_db


class LogAudit(HTMLParser):
    """The attributes of every element around each ``ol.move-log``, innermost first."""

    VOID = {"input", "br", "img", "meta", "link", "hr", "use", "path", "circle", "rect"}

    def __init__(self):
        super().__init__()
        self.stack: list[tuple[str, dict]] = []
        self.logs: list[list[dict]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "ol" and "move-log" in (attrs.get("class") or "").split():
            self.logs.append([attrs] + [a for _t, a in reversed(self.stack)])
        if tag not in self.VOID:
            self.stack.append((tag, attrs))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return


def scroll_boxes(page: str) -> list[dict]:
    """For each move log on the page, the box that scrolls it."""
    parser = LogAudit()
    parser.feed(page)
    assert parser.logs, "no move log on the page"
    boxes = []
    for chain in parser.logs:
        box = next((a for a in chain if "log-scroll" in (a.get("class") or "").split()), None)
        assert box is not None, f"the move log has no scroll box around it: {chain[:2]}"
        boxes.append(box)
    return boxes


def assert_reachable(page: str) -> None:
    for box in scroll_boxes(page):
        assert box.get("tabindex") == "0", box
        assert box.get("role") == "region", box
        assert (box.get("aria-label") or "").strip(), box


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_match_page_log_is_a_named_region_the_keyboard_reaches(started_match, alice, nogi):
    play_one(started_match, nogi)
    for client in (client_for(alice), Client()):
        page = client.get(reverse("match_detail", args=[started_match.pk])).content.decode()
        assert_reachable(page)


def test_the_log_under_the_end_banner_and_the_full_log_are_reachable(started_match, alice, nogi):
    for i in range(2000):
        started_match.refresh_from_db()
        if started_match.status != MatchStatus.ACTIVE:
            break
        play_one(started_match, nogi, choose=i * 3)
    assert started_match.status == MatchStatus.FINISHED
    page = client_for(alice).get(reverse("match_detail", args=[started_match.pk])).content.decode()
    assert 'class="final-banner"' in page
    assert_reachable(page)
    full = client_for(alice).get(reverse("match_log", args=[started_match.pk])).content.decode()
    assert_reachable(full)


def test_the_stylesheet_scrolls_the_box_not_the_list():
    """The box carrying tabindex is the one that scrolls, so the keyboard can scroll it."""
    css = (Path(__file__).resolve().parents[2] / "static/css/smoki.css").read_text()
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    rules = {
        selector.strip(): body
        for selector, body in (
            part.split("{", 1) for part in css.replace("\n", " ").split("}") if "{" in part
        )
    }
    assert "overflow-y: auto" in rules.get(".log-scroll", "")
    assert "overflow" not in rules.get(".move-log", "")
