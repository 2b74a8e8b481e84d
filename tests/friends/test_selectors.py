"""Friends are mutual follows without a block; the friends page's lists,
their presence, and the reads' bounded queries."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts import presence
from accounts.models import Block
from friends import selectors, services
from friends.models import Follow

pytestmark = pytest.mark.django_db


def test_friends_follow_each_other(alice, bob, carol, befriend):
    befriend(alice, bob)
    services.follow(alice, "carol")  # one way: not a friend
    assert selectors.friend_ids(alice.pk) == {bob.pk}
    assert selectors.friend_ids(bob.pk) == {alice.pk}
    assert selectors.friend_ids(carol.pk) == set()
    assert selectors.are_friends(alice.pk, bob.pk) and selectors.are_friends(bob.pk, alice.pk)
    assert not selectors.are_friends(alice.pk, carol.pk)
    assert not selectors.are_friends(alice.pk, alice.pk)
    assert selectors.friend_ids(None) == set()


def test_a_block_made_behind_the_services_back_still_undoes_a_friendship(alice, bob, befriend):
    befriend(alice, bob)
    # bulk_create sends no signal: the follows stay, the block must still win.
    Block.objects.bulk_create([Block(blocker=bob, blocked=alice)])
    assert Follow.objects.count() == 2
    assert selectors.friend_ids(alice.pk) == set()
    assert not selectors.are_friends(alice.pk, bob.pk)
    page = selectors.friends_page(alice)
    assert page.friends == page.following == page.followers == []


def test_a_deactivated_player_is_nobodys_friend(alice, bob, befriend):
    befriend(alice, bob)
    bob.is_active = False
    bob.save()
    assert selectors.friend_ids(alice.pk) == set()
    assert selectors.friends_page(alice).friends == []


def test_the_friends_page_lists_each_player_once_with_their_presence(
    make_user, alice, bob, carol, befriend
):
    dave = make_user("dave")
    befriend(alice, bob)
    services.follow(alice, "carol")
    services.follow(dave, "alice")
    presence.forget_memo()
    presence.touch(bob.pk)
    carol.profile.show_presence = False
    carol.profile.save()
    presence.forget_memo()
    presence.touch(carol.pk, shown=lambda: False)
    page = selectors.friends_page(alice)
    assert [p.username for p in page.friends] == ["bob"]
    assert page.friends[0].presence.online
    assert [p.username for p in page.following] == ["carol"]
    assert page.following[0].presence is None  # she hides it
    assert [p.username for p in page.followers] == ["dave"]
    assert page.followers_total == 2  # bob and dave


def _count(fn) -> int:
    with CaptureQueriesContext(connection) as seen:
        fn()
    return len(seen.captured_queries)


def test_the_reads_cost_the_same_few_queries_whatever_the_number_of_follows(make_user, alice):
    def grow(start, n):
        for i in range(start, start + n):
            other = make_user(f"p{i}")
            Follow.objects.create(follower=alice, followed=other)
            if i % 2:
                Follow.objects.create(follower=other, followed=alice)
            else:
                Follow.objects.create(follower=make_user(f"q{i}"), followed=alice)

    grow(0, 2)
    few = [
        _count(lambda: selectors.friends_page(alice)),
        _count(lambda: selectors.friend_ids(alice.pk)),
    ]
    grow(2, 30)
    many = [
        _count(lambda: selectors.friends_page(alice)),
        _count(lambda: selectors.friend_ids(alice.pk)),
    ]
    assert few == many
    assert many[0] <= 4 and many[1] == 1
    page = selectors.friends_page(alice)
    assert len(page.friends) == 16 and len(page.following) == 16 and len(page.followers) == 16


def test_the_player_section_says_who_follows_whom(alice, bob, carol, befriend):
    services.follow(carol, "bob")
    section = selectors.player_section(bob, alice)
    assert section["followers"] == 1 and section["can_act"] and not section["following"]
    befriend(alice, bob)
    section = selectors.player_section(bob, alice)
    assert section["followers"] == 2 and section["friends"]
    # Their own page, or a visitor: the count only, no button.
    assert not selectors.player_section(bob, bob)["can_act"]
    from django.contrib.auth.models import AnonymousUser

    assert not selectors.player_section(bob, AnonymousUser())["can_act"]


def test_a_block_either_way_takes_the_follow_button_away(alice, bob):
    Block.objects.create(blocker=bob, blocked=alice)
    section = selectors.player_section(bob, alice)
    assert not section["can_act"] and not section["following"]
    assert not selectors.player_section(alice, bob)["can_act"]
