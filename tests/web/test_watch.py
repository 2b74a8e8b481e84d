"""Watch: live public matches, the most recently active first."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.lobby import services as lobby
from games.models import Match, Visibility
from tests.conftest import play_one

pytestmark = pytest.mark.django_db


def test_live_public_matches_most_recently_active_first(alice, bob, carol, nogi):
    older = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=older)
    newer = lobby.create_match(user=carol, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=newer)
    private = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, visibility=Visibility.PRIVATE
    )
    lobby.join_match(user=carol, match=private, token=private.invite_token)
    waiting = lobby.create_match(user=carol, game_key="nogi", n_seats=3)
    play_one(Match.objects.get(pk=older.pk), nogi)  # the older match moved last
    page = Client().get(reverse("watch")).content.decode()
    listed = [int(pk) for pk in re.findall(r'<a href="/m/(\d+)/">#', page)]
    assert listed == [older.pk, newer.pk]
    assert private.pk not in listed and waiting.pk not in listed


def test_every_page_links_to_watch():
    assert f'href="{reverse("watch")}"' in Client().get("/").content.decode()
