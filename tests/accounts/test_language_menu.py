"""The header's language menu (issue 31, item 6): a visitor's choice is kept in the
language cookie, a player's in the profile, and either way the page it was chosen
on comes back in it. A language Smoki does not speak changes nothing."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.models import Profile

pytestmark = pytest.mark.django_db


def test_a_player_s_choice_becomes_the_profile_s_language(alice):
    client = Client()
    client.force_login(alice)
    assert 'lang="en"' in client.get("/watch/").content.decode()
    response = client.post(reverse("set_language"), {"language": "cs", "next": "/watch/"})
    assert response.status_code == 302 and response["Location"] == "/watch/"
    assert Profile.objects.get(user=alice).language == "cs"
    page = client.get("/watch/").content.decode()
    assert 'lang="cs"' in page
    assert 'value="cs" lang="cs" selected' in page  # the menu shows the language in use


def test_a_visitor_s_choice_is_kept_in_the_cookie():
    client = Client()
    response = client.post(reverse("set_language"), {"language": "pl", "next": "/about/"})
    assert response["Location"] == "/about/"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "pl"
    assert 'lang="pl"' in client.get("/about/").content.decode()


def test_an_unknown_language_changes_nothing_and_says_so(alice):
    client = Client()
    client.force_login(alice)
    response = client.post(
        reverse("set_language"), {"language": "xx", "next": "/watch/"}, follow=True
    )
    assert response.status_code == 200
    assert "Smoki does not speak that language." in response.content.decode()
    assert Profile.objects.get(user=alice).language == "en"
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies


def test_the_menu_holds_the_profile_notifications_language_and_log_out(alice):
    client = Client()
    client.force_login(alice)
    page = client.get("/").content.decode()
    menu = page[page.index('<details class="menu" id="account-menu">') :]
    menu = menu[: menu.index("</details>")]
    for needle in [
        'href="/profile/"',
        'href="/notifications/"',
        'name="language"',
        'action="/accounts/logout/"',
    ]:
        assert needle in menu, needle
