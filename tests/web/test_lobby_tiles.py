"""The lobby's games (issue 31, item 9): a tile per registered game with its icon,
the player counts, one sentence of what it is about, in the viewer's language,
and its actions (How to play; New match for a signed-in player)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from accounts.models import Profile
from games.engine import registry
from games.panel import icons, presenters
from tests.conformance.kit import GAME_KEYS

pytestmark = pytest.mark.django_db

PLAYERS = {
    "en": {"range": "{min}–{max} players", "one": "{n} players"},
    "pl": {"range": "{min}–{max} graczy", "one": "{n} gracze"},
    "cs": {"range": "{min}–{max} hráčů", "one": "{n} hráči"},
}


def tiles(page: str) -> dict[str, str]:
    found = dict(re.findall(r'<li class="game-tile" id="game-([\w-]+)">(.*?)</li>', page, re.S))
    assert found, "no game tiles in the lobby"
    return found


def client_in(language: str, user=None) -> Client:
    client = Client()
    if user is not None:
        Profile.objects.filter(user=user).update(language=language)
        client.force_login(user)
    else:
        client.cookies["django_language"] = language
    return client


@pytest.mark.parametrize("language", ["en", "pl", "cs"])
def test_every_game_has_a_tile_with_icon_players_summary_and_actions(language, alice):
    page = client_in(language, alice).get("/").content.decode()
    found = tiles(page)
    assert sorted(found) == sorted(GAME_KEYS)
    for key, tile in found.items():
        game = registry.get(key)
        presenter = presenters.get(key)
        # The icon, from the sprite of the cards' icons.
        assert f'#{presenter.ICON}"/></svg>' in tile, key
        counts = PLAYERS[language]
        if game.min_players == game.max_players:
            players = counts["one"].format(n=game.min_players)
        else:
            players = counts["range"].format(min=game.min_players, max=game.max_players)
        assert f'<p class="game-players muted">{players}</p>' in tile, (key, tile)
        with translation.override(language):
            summary = str(presenter.SUMMARY)
        assert summary and f'<p class="game-summary">{summary}</p>' in tile.replace(
            "&#x27;", "'"
        ), key
        assert f'href="/games/{key}/how-to-play/"' in tile
        assert f'href="/matches/new/?game={key}"' in tile


def test_a_visitor_sees_the_tiles_without_new_match(client):
    for key, tile in tiles(client.get("/").content.decode()).items():
        assert f'href="/games/{key}/how-to-play/"' in tile
        assert "/matches/new/" not in tile


@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_game_names_a_vendored_icon_and_a_translated_summary(key):
    presenter = presenters.get(key)
    assert presenter.ICON in icons.names()
    english = str(presenter.SUMMARY)
    assert english.endswith("."), english  # one sentence
    for language in ("pl", "cs"):
        with translation.override(language):
            assert str(presenter.SUMMARY) != english, (key, language)
