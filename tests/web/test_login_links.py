"""Every login link returns to the page it was clicked on, and a match the
visitor may play in asks them to log in to play."""

import re
from urllib.parse import quote

import pytest
from allauth.account.models import EmailAddress
from django.test import Client
from django.urls import reverse

from games.lobby import services as lobby
from games.play import safety

pytestmark = pytest.mark.django_db
LOGIN = reverse("account_login")


def header_login(html: str) -> str:
    header = re.search(r'<header class="topbar">.*?</header>', html, re.S).group(0)
    return re.search(r'<a href="([^"]*)">Log in</a>', header).group(1).replace("&amp;", "&")


def play_link(html: str) -> str | None:
    found = re.search(
        r'<a class="button" id="login-to-play" href="([^"]*)">Log in to play</a>', html
    )
    return found.group(1).replace("&amp;", "&") if found else None


def two_player(alice, bob):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=match)
    return match


@pytest.mark.parametrize(
    "path", ["/watch/", "/about/", "/games/nogi/how-to-play/", "/watch/?page=2"]
)
def test_the_headers_login_link_returns_to_the_page(db, path):
    html = Client().get(path).content.decode()
    assert header_login(html) == f"{LOGIN}?next={quote(path, safe='')}"


def test_a_your_turn_link_opened_logged_out_asks_to_log_in_to_play(alice, bob):
    match = two_player(alice, bob)
    url = reverse("match_detail", args=[match.pk])
    html = Client().get(url).content.decode()
    assert play_link(html) == f"{LOGIN}?next={quote(url, safe='')}"
    assert header_login(html) == f"{LOGIN}?next={quote(url, safe='')}"
    # Logging in through it brings the player back to the match.
    EmailAddress.objects.create(user=bob, email=bob.email, verified=True, primary=True)
    client = Client()
    response = client.post(play_link(html), {"login": "bob", "password": "pw-bobbob"})
    assert response.status_code == 302 and response.url == url


def test_an_open_match_with_a_free_seat_asks_to_log_in_to_play(alice):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=3)
    url = reverse("match_detail", args=[match.pk])
    assert play_link(Client().get(url).content.decode()) == f"{LOGIN}?next={quote(url, safe='')}"


def test_no_login_to_play_where_nobody_could_play(alice, bob):
    match = two_player(alice, bob)
    url = reverse("match_detail", args=[match.pk])
    signed_in = Client()
    signed_in.force_login(alice)
    assert play_link(signed_in.get(url).content.decode()) is None
    safety.resign(user=bob, match=match)
    assert play_link(Client().get(url).content.decode()) is None


def test_the_polled_panel_links_back_to_the_page_not_the_fragment(alice, bob):
    match = two_player(alice, bob)
    page = reverse("match_detail", args=[match.pk])
    html = (
        Client()
        .get(
            reverse("match_panel", args=[match.pk]),
            headers={"hx-request": "true", "hx-current-url": f"http://testserver{page}?path=1"},
        )
        .content.decode()
    )
    assert play_link(html) == f"{LOGIN}?next={quote(page + '?path=1', safe='')}"
    # A current URL on another site is not followed.
    html = (
        Client()
        .get(
            reverse("match_panel", args=[match.pk]),
            headers={"hx-request": "true", "hx-current-url": "https://evil.example/m/1/"},
        )
        .content.decode()
    )
    assert play_link(html) == LOGIN


def test_the_login_page_passes_its_own_next_on(db):
    html = Client().get(f"{LOGIN}?next=/watch/").content.decode()
    assert header_login(html) == f"{LOGIN}?next={quote('/watch/', safe='')}"
    html = Client().get(f"{LOGIN}?next=//evil.example/").content.decode()
    assert header_login(html) == LOGIN
