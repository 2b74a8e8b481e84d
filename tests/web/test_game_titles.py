"""Game titles are shown in the reader's language, as each language publishes the game.

The rules mark their titles (``engine.i18n._``) and the site translates them wherever
they are shown (``games.i18n.translate_titles``): a Czech page says "Sedm draků",
never "Seven Dragons", in the How to play heading, the match page, the lobby and the
new-match form, and an email's subject names the game the same way.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.engine import registry
from games.lobby import services as lobby

pytestmark = pytest.mark.django_db

TITLES = {
    "nogi": {"en": "Nogi za pas!", "pl": "Nogi za pas!", "cs": "Nogi za pas!"},
    "drakon": {
        "en": "Drakon (fourth edition)",
        "pl": "Drakon (czwarta edycja)",
        "cs": "Drakon (čtvrté vydání)",
    },
    "drakon_classic": {
        "en": "Drakon (first edition)",
        "pl": "Drakon (pierwsza edycja)",
        "cs": "Drakon (první vydání)",
    },
    "seven_dragons": {"en": "Seven Dragons", "pl": "Siedem smoków", "cs": "Sedm draků"},
    "drako": {
        "en": "Drako: Dragon & Dwarves",
        "pl": "Drako: Smok i krasnoludy",
        "cs": "Drako: Drak a trpaslíci",
    },
}


def _client(make_user, language: str) -> tuple[Client, object]:
    user = make_user(f"title-{language}")
    user.profile.language = language
    user.profile.save()
    client = Client()
    client.force_login(user)
    return client, user


def _heading(page: str) -> str:
    """The page's first heading (its attributes aside)."""
    return re.search(r"<h1[^>]*>(.*?)</h1>", page, re.S).group(1)


@pytest.mark.parametrize("language", ["en", "pl", "cs"])
@pytest.mark.parametrize("key", sorted(TITLES))
def test_how_to_play_and_the_match_page_name_the_game_in_the_readers_language(
    key, language, make_user
):
    client, user = _client(make_user, language)
    title = TITLES[key][language]
    with translation.override(language):
        assert str(registry.get(key).title) == title
    page = client.get(reverse("how_to_play", args=[key])).content.decode()
    heading = _heading(page)
    assert title.replace("&", "&amp;") in heading, heading
    game = registry.get(key)
    match = lobby.create_match(user=user, game_key=key, n_seats=game.min_players)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    heading = _heading(page)
    assert title.replace("&", "&amp;") in heading, heading
    lobby_page = client.get("/").content.decode()
    assert title.replace("&", "&amp;") in lobby_page
    if title != TITLES[key]["en"]:
        assert TITLES[key]["en"].replace("&", "&amp;") not in heading


def test_a_czech_email_subject_names_sedm_draku(make_user):
    from games.correspondence.compose import message_context
    from games.models import Notification, NotificationKind

    client, user = _client(make_user, "cs")
    match = lobby.create_match(user=user, game_key="seven_dragons", n_seats=2)
    row = Notification(user=user, match=match, kind=NotificationKind.YOUR_TURN)
    with translation.override("cs"):
        subject = message_context(row)["subject"]
    assert "Sedm draků" in subject and "Seven Dragons" not in subject, subject
