"""How to play: one click from the lobby, the new-match form and the match page."""

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import registry

pytestmark = pytest.mark.django_db


def _how_to_play_links(html: str) -> set[str]:
    return {
        key
        for key in (entry.key for entry in registry.registrations())
        if f'href="{reverse("how_to_play", args=[key])}"' in html
    }


def test_the_lobby_links_every_game_s_page():
    keys = {entry.key for entry in registry.registrations()}
    assert _how_to_play_links(Client().get("/").content.decode()) == keys


def test_the_new_match_form_links_every_game_s_page_and_preselects_one(alice):
    client = Client()
    client.force_login(alice)
    keys = {entry.key for entry in registry.registrations()}
    page = client.get(reverse("match_create")).content.decode()
    assert _how_to_play_links(page) == keys
    chosen = client.get(reverse("match_create") + "?game=drako").content.decode()
    assert '<input type="hidden" name="game" value="drako"' in chosen
    assert _how_to_play_links(chosen) == {"drako"}


def test_the_match_page_links_its_own_game(started_match):
    page = Client().get(reverse("match_detail", args=[started_match.pk])).content.decode()
    assert _how_to_play_links(page) == {"nogi"}


def test_an_unknown_game_is_a_clear_404():
    response = Client().get(reverse("how_to_play", args=["no-such-game"]))
    assert response.status_code == 404


def test_a_game_without_its_page_says_so_with_a_404(monkeypatch):
    entry = registry.registration("hatchlings")
    monkeypatch.setattr(
        type(entry), "how_to_play_template", property(lambda self: "games/x/missing.html")
    )
    response = Client().get(reverse("how_to_play", args=["hatchlings"]))
    assert response.status_code == 404
    assert "have not been written up yet" in response.content.decode()


def test_the_page_follows_the_player_s_language(alice):
    alice.profile.language = "cs"
    alice.profile.save()
    client = Client()
    client.force_login(alice)
    page = client.get(reverse("how_to_play", args=["nogi"])).content.decode()
    assert "Jak hrát: Nogi" in page
    assert "rytíř" in page
