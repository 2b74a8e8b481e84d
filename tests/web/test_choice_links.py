"""Every choice link of every game reaches its choice when a browser follows it.

A browser cuts an address at its first ``#`` (the rest is a fragment, never
sent) and splits the query at ``&``. Seven Dragons' card ids hold ``#``
(``card-ACT-TRADEGOALS#3``): a link written without encoding sent the server
``path=card-ACT-TRADEGOALS`` and the button did nothing. For every game,
random matches are played through their pages: at every step each element
that carries a choice path (the "Your move" list and the board alike) has
every address it offers (``href``, ``hx-get``, ``hx-push-url``) taken apart
as a browser would, fragment dropped, and the path the server would receive
must be the element's own. Then one of them is followed exactly so, and the
page it opens must show that choice as taken.
"""

from __future__ import annotations

import json
import random
from html.parser import HTMLParser
from urllib.parse import parse_qs, urldefrag, urlsplit

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import registry
from games.lobby import services as lobby
from games.models import MatchStatus

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
ADDRESSES = ("href", "hx-get", "hx-push-url")
STEPS = 40


class ChoiceLinks(HTMLParser):
    """Every element with a ``data-path`` and its addresses; every final action."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[str, dict[str, str]]] = []
        self.finals: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = {name: value or "" for name, value in attrs}
        if tag == "input" and attributes.get("name") == "action":
            self.finals.append(attributes["value"])
        addresses = {name: attributes[name] for name in ADDRESSES if name in attributes}
        if "data-path" in attributes and addresses:
            self.links.append((attributes["data-path"], addresses))

    handle_startendtag = handle_starttag


def sent_path(address: str) -> str | None:
    """The ``path`` parameter a browser sends for ``address``."""
    without_fragment, _fragment = urldefrag(address)
    values = parse_qs(urlsplit(without_fragment).query, keep_blank_values=True).get("path")
    return values[0] if values else None


def read(html: str) -> ChoiceLinks:
    parser = ChoiceLinks()
    parser.feed(html)
    return parser


@pytest.mark.parametrize("game_key", [g.key for g in registry.all()])
def test_every_choice_link_sends_its_own_path(game_key, make_user):
    game = registry.get(game_key)
    rng = random.Random(game_key)
    n = game.min_players
    users = [make_user(f"{game_key[:5]}L{i}") for i in range(n)]
    match = lobby.create_match(user=users[0], game_key=game_key, n_seats=n)
    for user in users[1:]:
        lobby.join_match(user=user, match=match)
    clients = {}
    for user in users:
        clients[user.pk] = Client()
        clients[user.pk].force_login(user)
    checked, with_hash = 0, 0
    for _step in range(STEPS):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            break
        seat = game.current_seats(match.state)[0]
        client = clients[match.seats.get(index=seat).user_id]
        html = client.get(reverse("match_detail", args=[match.pk])).content.decode()
        for _depth in range(8):
            page = read(html)
            for path, addresses in page.links:
                for name, address in addresses.items():
                    assert sent_path(address) == path, (
                        f"{name}={address!r} sends {sent_path(address)!r}, not {path!r}"
                    )
                checked += 1
                with_hash += "#" in path
            if page.finals and (not page.links or rng.random() < 0.5):
                response = client.post(
                    reverse("match_act", args=[match.pk]),
                    {"action": rng.choice(page.finals), "version": match.version},
                    **HTMX,
                )
                assert response.status_code == 200
                break
            path, addresses = rng.choice(page.links)
            # Followed as a browser follows it: the address, fragment dropped.
            address, _fragment = urldefrag(addresses["href"])
            response = client.get(address)
            assert response.status_code == 200
            html = response.content.decode()
            assert read(html).links or read(html).finals, f"{address} offers nothing"
            assert f'data-path="{path}' in html or json.dumps(path)[1:-1] in html
    assert checked > 0
    if game_key == "seven_dragons":
        assert with_hash > 0, "no card id with '#' was met: the check proved nothing"
