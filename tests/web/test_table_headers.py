"""Every table header says what its column or row holds: no empty ``<th>``
(issue 31, item 16: the lobby's open matches and Drako's card counts had one)."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from games.lobby import services as lobby

pytestmark = pytest.mark.django_db


class Headers(HTMLParser):
    """The text of every ``<th>`` (nested tags' text included)."""

    def __init__(self):
        super().__init__()
        self.headers: list[str] = []
        self.depth = 0

    def handle_starttag(self, tag, attrs):
        if tag == "th":
            self.headers.append("")
            self.depth += 1

    def handle_endtag(self, tag):
        if tag == "th":
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.headers[-1] += data


def headers(page: str) -> list[str]:
    parser = Headers()
    parser.feed(page)
    return [text.strip() for text in parser.headers]


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_lobby_tables_have_no_empty_header(alice, bob, carol):
    mine = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=mine)
    lobby.create_match(user=carol, game_key="nogi", n_seats=3)  # an open match to join
    for client in (client_for(alice), Client()):
        page = client.get(reverse("lobby")).content.decode()
        assert 'id="open-matches"' in page
        found = headers(page)
        assert found and all(found), found


def test_drako_pages_have_no_empty_header(alice, bob):
    match = lobby.create_match(user=alice, game_key="drako", n_seats=2)
    lobby.join_match(user=bob, match=match)
    for client in (client_for(alice), client_for(bob), Client()):
        page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
        assert "drako-counts" in page
        found = headers(page)
        assert found and all(found), found
