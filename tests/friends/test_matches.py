"""What friendship does to matches: friends' open matches first in the
lobby, matches for friends only (listed to, seen by and joined by the
creator's friends), invitations from friends only, Watch's friends' games;
and in each place a block overrides the friendship."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts import services as accounts
from accounts.models import InvitationsFrom
from core.errors import Forbidden, ServiceError
from games.lobby import invitations, listings
from games.lobby import services as lobby
from games.models import Match, MatchStatus, Visibility
from games.play import access

pytestmark = pytest.mark.django_db

NOT_ACCEPTING = "This player is not accepting invitations from you right now."


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _friends_only(user, n_seats=3):
    return lobby.create_match(
        user=user, game_key="nogi", n_seats=n_seats, visibility=Visibility.FRIENDS
    )


# -- The lobby: friends' open matches first ------------------------------------------


def test_a_friends_open_match_comes_first_whatever_its_age(alice, bob, carol, befriend):
    friends_match = lobby.create_match(user=alice, game_key="nogi", n_seats=3)
    newer = lobby.create_match(user=carol, game_key="nogi", n_seats=3)
    befriend(alice, bob)
    rows = listings.open_public_matches(bob)
    assert [r.match.pk for r in rows] == [friends_match.pk, newer.pk]
    assert [r.with_friends for r in rows] == [True, False]
    # Someone without friends sees the newest first, as before.
    assert [r.match.pk for r in listings.open_public_matches(carol)] == [friends_match.pk]
    assert [r.match.pk for r in listings.open_public_matches(None)] == [newer.pk, friends_match.pk]
    text = _client(bob).get(reverse("lobby")).content.decode()
    assert text.index(f"#{friends_match.pk} ") < text.index(f"#{newer.pk} ")
    assert "with friends" in text


def test_a_blocked_friend_is_a_friend_no_more_in_the_lobby(alice, bob, carol, befriend):
    friends_match = lobby.create_match(user=alice, game_key="nogi", n_seats=3)
    newer = lobby.create_match(user=carol, game_key="nogi", n_seats=3)
    only = _friends_only(alice)
    befriend(alice, bob)
    accounts.block(bob, "alice")
    rows = listings.open_public_matches(bob)
    assert [r.match.pk for r in rows] == [newer.pk, friends_match.pk]
    assert only.pk not in [r.match.pk for r in rows]


# -- Matches for friends only ---------------------------------------------------------


def test_a_match_for_friends_only_is_listed_to_the_creators_friends_only(
    alice, bob, carol, befriend
):
    only = _friends_only(alice)
    assert not only.rated
    befriend(alice, bob)
    assert only.pk in [r.match.pk for r in listings.open_public_matches(bob)]
    assert only.pk not in [r.match.pk for r in listings.open_public_matches(carol)]
    assert only.pk not in [r.match.pk for r in listings.open_public_matches(None)]
    assert "friends only" in _client(bob).get(reverse("lobby")).content.decode()


def test_the_creators_friend_sees_and_joins_it_a_stranger_does_not(
    make_user, alice, bob, carol, befriend
):
    only = _friends_only(alice)
    befriend(alice, bob)
    url = reverse("match_detail", args=[only.pk])
    assert _client(bob).get(url).status_code == 200
    assert _client(carol).get(url).status_code == 404
    assert _client().get(url).status_code == 302  # to the login, as for a private match
    with pytest.raises(Forbidden, match="Only the friends of this match's creator may join it."):
        lobby.join_match(user=carol, match=only)
    assert lobby.join_match(user=bob, match=only).index == 1
    # An invitation or the link still lets a stranger in.
    lobby.join_match(user=carol, match=only, token=only.invite_token)
    only.refresh_from_db()
    assert only.status == MatchStatus.ACTIVE
    # Once it is played it is private: a friend who is not seated sees nothing.
    dave = make_user("dave")
    befriend(alice, dave)
    assert not access.can_view(only, dave)
    assert _client(dave).get(url).status_code == 404


def test_the_poll_admits_the_creators_friend_while_it_gathers_players(alice, bob, carol, befriend):
    only = _friends_only(alice)
    befriend(alice, bob)
    assert access.stamp_for(only.pk, bob, user_id=bob.pk) is not None
    assert access.stamp_for(only.pk, carol, user_id=carol.pk) is None


def test_a_block_refuses_a_friend_the_match_for_friends_only(alice, bob, befriend):
    only = _friends_only(alice)
    befriend(alice, bob)
    accounts.block(alice, "bob")
    with pytest.raises(Forbidden):
        lobby.join_match(user=bob, match=only)
    assert not access.can_view(only, bob)
    assert only.seats.count() == 1


def test_a_seated_players_block_still_refuses_the_creators_friend(alice, bob, carol, befriend):
    only = _friends_only(alice)
    befriend(alice, bob)
    befriend(alice, carol)
    lobby.join_match(user=carol, match=only)
    accounts.block(carol, "bob")
    with pytest.raises(Forbidden, match="This match is not open to you."):
        lobby.join_match(user=bob, match=only)


def test_a_match_for_friends_only_cannot_be_rated(alice):
    with pytest.raises(ServiceError, match="A match for friends only cannot be rated"):
        lobby.create_match(
            user=alice, game_key="nogi", n_seats=2, visibility=Visibility.FRIENDS, rated=True
        )
    response = _client(alice).post(
        reverse("match_create"),
        {
            "game": "nogi",
            "n_seats": "2",
            "visibility": "friends",
            "time_per_move": "86400",
            "rated": "on",
        },
    )
    assert response.status_code == 400
    assert "A match for friends only cannot be rated" in response.content.decode()
    assert not Match.objects.exists()


def test_an_unknown_visibility_is_refused_by_the_service(alice):
    with pytest.raises(ServiceError, match="Unknown visibility."):
        lobby.create_match(user=alice, game_key="nogi", n_seats=2, visibility="secret")
    assert not Match.objects.exists()


# -- Invitations from friends only ----------------------------------------------------


def _takes_only_friends(user):
    user.profile.invitations_from = InvitationsFrom.FRIENDS
    user.profile.save()


def test_invitations_from_friends_only(alice, bob, carol, befriend):
    _takes_only_friends(bob)
    befriend(alice, bob)
    carols = lobby.create_match(user=carol, game_key="nogi", n_seats=3)
    with pytest.raises(Forbidden, match=NOT_ACCEPTING):
        invitations.invite_user(user=carol, match=carols, username="bob")
    alices = lobby.create_match(user=alice, game_key="nogi", n_seats=3)
    assert invitations.invite_user(user=alice, match=alices, username="bob").invited_user == bob


def test_a_follow_one_way_is_not_enough(alice, bob):
    from friends import services as friends

    _takes_only_friends(bob)
    friends.follow(alice, "bob")
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=3)
    with pytest.raises(Forbidden, match=NOT_ACCEPTING):
        invitations.invite_user(user=alice, match=match, username="bob")


def test_a_block_overrides_the_friends_invitation(alice, bob, befriend):
    _takes_only_friends(bob)
    befriend(alice, bob)
    accounts.block(bob, "alice")
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=3)
    with pytest.raises(Forbidden, match=NOT_ACCEPTING):
        invitations.invite_user(user=alice, match=match, username="bob")
    assert not match.invitations.exists()


def test_the_profile_offers_friends_only(alice):
    client = _client(alice)
    text = client.get(reverse("profile")).content.decode()
    assert 'value="friends"' in text and "Only my friends" in text


# -- Watch: friends' games ------------------------------------------------------------


def _live(a, b, **kwargs):
    match = lobby.create_match(user=a, game_key="nogi", n_seats=2, **kwargs)
    lobby.join_match(user=b, match=match, token=match.invite_token)
    match.refresh_from_db()
    return match


def test_watch_shows_the_public_matches_friends_play(make_user, alice, bob, carol, befriend):
    dave = make_user("dave")
    befriend(alice, bob)
    theirs = _live(alice, carol)
    private = _live(alice, dave, visibility=Visibility.PRIVATE)
    others = _live(carol, dave)
    assert [r.match.pk for r in listings.friends_live_matches(bob)] == [theirs.pk]
    assert {r.match.pk for r in listings.live_public_matches()} == {theirs.pk, others.pk}
    assert private.status == MatchStatus.ACTIVE
    text = _client(bob).get(reverse("watch")).content.decode()
    section = text[text.index('id="friends-games"') : text.index('id="live-matches"')]
    # Only the friend's public match: not their private one, not strangers'.
    assert set(re.findall(r'href="/m/(\d+)/"', section)) == {str(theirs.pk)}
    # Nobody else gets the section.
    assert 'id="friends-games"' not in _client(carol).get(reverse("watch")).content.decode()
    assert 'id="friends-games"' not in _client().get(reverse("watch")).content.decode()


def test_a_block_takes_a_friends_games_off_watch(alice, bob, carol, befriend):
    befriend(alice, bob)
    _live(alice, carol)
    accounts.block(alice, "bob")
    assert listings.friends_live_matches(bob) == []
