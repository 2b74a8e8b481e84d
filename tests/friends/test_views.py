"""The Follow button on a player's page, its POST, and the friends page:
in three languages, nothing for a visitor, a clear message for bad input,
and bounded queries."""

from __future__ import annotations

import html

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts import presence
from accounts.models import Block
from friends import services
from friends.models import Follow
from games.lobby import services as lobby
from tests.players.test_query_counts import counted

pytestmark = pytest.mark.django_db


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _text(response) -> str:
    return html.unescape(response.content.decode())


def test_the_player_page_offers_follow_then_unfollow(alice, bob):
    client = _client(alice)
    page = _text(client.get(reverse("player_page", args=["bob"])))
    assert 'id="follow-form"' in page and ">Follow</button>" in page
    response = client.post(reverse("player_follow", args=["bob"]), {"do": "follow"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("player_page", args=["bob"])
    page = _text(response)
    assert "You follow this player." in page and ">Unfollow</button>" in page
    assert "1 follower" in page
    assert Follow.objects.filter(follower=alice, followed=bob).exists()
    page = _text(
        client.post(reverse("player_follow", args=["bob"]), {"do": "unfollow"}, follow=True)
    )
    assert "You no longer follow this player." in page
    assert not Follow.objects.exists()


def test_a_follower_is_offered_to_follow_back_and_friends_are_marked(alice, bob):
    services.follow(bob, "alice")
    page = _text(_client(alice).get(reverse("player_page", args=["bob"])))
    assert "Follows you" in page and "Follow back" in page
    services.follow(alice, "bob")
    page = _text(_client(alice).get(reverse("player_page", args=["bob"])))
    assert 'id="friends-badge"' in page


def test_no_button_for_a_visitor_oneself_or_across_a_block(alice, bob):
    url = reverse("player_page", args=["bob"])
    assert 'id="follow-form"' not in _text(_client().get(url))
    assert 'id="follow-form"' not in _text(_client(bob).get(url))
    Block.objects.create(blocker=bob, blocked=alice)
    page = _text(_client(alice).get(url))
    assert 'id="follow-form"' not in page and 'id="follow"' in page


def test_a_refused_follow_says_why_and_changes_nothing(alice, bob):
    Block.objects.create(blocker=bob, blocked=alice)
    response = _client(alice).post(reverse("player_follow", args=["bob"]), follow=True)
    assert response.status_code == 200
    assert "You cannot follow this player." in _text(response)
    assert not Follow.objects.exists()
    page = _text(_client(alice).post(reverse("player_follow", args=["alice"]), follow=True))
    assert "You cannot follow yourself." in page


def test_bad_requests_are_refused_plainly(alice):
    client = _client(alice)
    assert client.post(reverse("player_follow", args=["nobody"])).status_code == 404
    assert client.get(reverse("player_follow", args=["alice"])).status_code == 405
    response = _client().post(reverse("player_follow", args=["alice"]))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    response = _client().get(reverse("friends"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Follow.objects.exists()


def test_the_friends_page_lists_friends_following_and_followers(
    make_user, alice, bob, carol, befriend
):
    dave = make_user("dave")
    befriend(alice, bob)
    services.follow(alice, "carol")
    services.follow(dave, "alice")
    presence.forget_memo()
    presence.touch(bob.pk)
    page = _text(_client(alice).get(reverse("friends")))
    friends = page[page.index('id="friends-list"') : page.index('id="following-list"')]
    following = page[page.index('id="following-list"') : page.index('id="followers-list"')]
    followers = page[page.index('id="followers-list"') :]
    assert 'id="person-bob"' in friends and "online now" in friends
    assert 'id="person-carol"' in following and 'id="person-bob"' not in following
    assert 'id="person-dave"' in followers and "Follow back" in followers
    assert "2 players follow you." in followers


def test_unfollowing_from_the_friends_page_comes_back_to_it(alice, bob):
    services.follow(alice, "bob")
    response = _client(alice).post(
        reverse("player_follow", args=["bob"]), {"do": "unfollow", "next": "friends"}
    )
    assert response.status_code == 302 and response["Location"] == reverse("friends")
    # Any other "next" goes to the player's page, never elsewhere.
    response = _client(alice).post(
        reverse("player_follow", args=["bob"]), {"do": "follow", "next": "https://evil.example/"}
    )
    assert response["Location"] == reverse("player_page", args=["bob"])


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("pl", ["Znajomi", "Obserwujesz", "Obserwujący", "Przestań obserwować"]),
        ("cs", ["Přátelé", "Sleduješ", "Sledující", "Zrušit sledování"]),
    ],
)
def test_the_friends_page_speaks_the_players_language(alice, bob, befriend, language, words):
    befriend(alice, bob)
    alice.profile.language = language
    alice.profile.save()
    page = _text(_client(alice).get(reverse("friends"), headers={"accept-language": language}))
    for word in words:
        assert word in page


def _measure(client, url) -> list[str]:
    client.get(url)
    with CaptureQueriesContext(connection) as seen:
        assert client.get(url).status_code == 200
    return counted(seen)


def test_the_friends_page_reads_a_bounded_number_of_queries(
    make_user, alice, django_assert_max_num_queries
):
    client = _client(alice)
    url = reverse("friends")

    def grow(start, n):
        for i in range(start, start + n):
            other = make_user(f"p{i}")
            services.follow(other, "alice")
            if i % 3:
                Follow.objects.create(follower=alice, followed=other)

    grow(0, 2)
    few = _measure(client, url)
    grow(2, 25)
    many = _measure(client, url)
    assert len(few) == len(many), many
    # The four reads of friends.selectors.friends_page, and the bell's count.
    with django_assert_max_num_queries(8):
        client.get(url)


def test_the_lobby_and_watch_cost_no_more_with_many_friends(make_user, alice, befriend):
    """Friends' matches first and Watch's friends' games read the friends in
    one query and the matches in the same statements, whatever their number."""
    client = _client(alice)

    def grow(start, n):
        for i in range(start, start + n):
            other = make_user(f"f{i}")
            befriend(alice, other)
            lobby.create_match(user=other, game_key="nogi", n_seats=3)
            live = lobby.create_match(user=other, game_key="nogi", n_seats=2)
            lobby.join_match(user=make_user(f"g{i}"), match=live)

    grow(0, 1)
    few = [_measure(client, reverse("lobby")), _measure(client, reverse("watch"))]
    grow(1, 8)
    many = [_measure(client, reverse("lobby")), _measure(client, reverse("watch"))]
    assert [len(q) for q in few] == [len(q) for q in many], many
    assert sum('"friends_follow"' in sql for sql in many[1]) == 1
