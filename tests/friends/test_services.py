"""Following, unfollowing, the news "X now follows you", and blocks, which
refuse a follow and remove the follows both ways."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse

from accounts import services as accounts
from accounts.models import Block, Delivery
from core.errors import NotFound, ServiceError, TooFast
from friends import selectors, services
from friends.models import Follow
from friends.news import FOLLOW_NEWS
from games.correspondence import delivery
from games.models import DeliveryStatus, Notification

pytestmark = pytest.mark.django_db


def _pairs():
    return set(Follow.objects.values_list("follower__username", "followed__username"))


def test_follow_is_one_way_and_idempotent(alice, bob):
    first = services.follow(alice, "bob")
    assert services.follow(alice, "bob").pk == first.pk
    assert _pairs() == {("alice", "bob")}
    assert selectors.is_following(alice.pk, bob.pk)
    assert not selectors.is_following(bob.pk, alice.pk)


def test_unfollow_removes_only_ones_own_follow(alice, bob):
    services.follow(alice, "bob")
    services.follow(bob, "alice")
    services.unfollow(alice, "bob")
    assert _pairs() == {("bob", "alice")}
    services.unfollow(alice, "bob")  # again: nothing to do, no error
    assert _pairs() == {("bob", "alice")}


def test_following_oneself_or_nobody_is_refused(alice, bob):
    with pytest.raises(ServiceError, match="cannot follow yourself"):
        services.follow(alice, "alice")
    with pytest.raises(NotFound):
        services.follow(alice, "nobody")
    bob.is_active = False
    bob.save()
    with pytest.raises(NotFound):
        services.follow(alice, "bob")
    assert not Follow.objects.exists()


@pytest.mark.parametrize("blocker", ["alice", "bob"])
def test_a_block_either_way_refuses_a_follow_in_the_same_words(alice, bob, blocker):
    who = {"alice": alice, "bob": bob}
    Block.objects.create(
        blocker=who[blocker], blocked=who["bob" if blocker == "alice" else "alice"]
    )
    with pytest.raises(ServiceError) as refused:
        services.follow(alice, "bob")
    assert refused.value.message == "You cannot follow this player."
    assert not Follow.objects.exists()
    assert not Notification.objects.filter(kind=FOLLOW_NEWS).exists()


@pytest.mark.parametrize("blocker", ["alice", "bob"])
def test_a_block_removes_the_follows_both_ways(alice, bob, carol, blocker):
    services.follow(alice, "bob")
    services.follow(bob, "alice")
    services.follow(carol, "alice")
    assert selectors.are_friends(alice.pk, bob.pk)
    accounts.block({"alice": alice, "bob": bob}[blocker], "bob" if blocker == "alice" else "alice")
    assert _pairs() == {("carol", "alice")}
    assert not selectors.are_friends(alice.pk, bob.pk)
    # Unblocking does not bring the follows back.
    accounts.unblock(
        {"alice": alice, "bob": bob}[blocker], "bob" if blocker == "alice" else "alice"
    )
    assert _pairs() == {("carol", "alice")}


def test_the_followed_player_is_told_once_with_a_link_to_the_friends_page(client, alice, bob):
    services.follow(alice, "bob")
    services.unfollow(alice, "bob")
    services.follow(alice, "bob")
    (row,) = Notification.objects.filter(kind=FOLLOW_NEWS)
    assert row.user == bob and row.match_id is None and row.status == DeliveryStatus.PENDING
    client.force_login(bob)
    text = client.get(reverse("notifications")).content.decode()
    assert "alice now follows you" in text
    assert f'href="{reverse("friends")}"' in text


def test_the_email_is_in_the_followed_players_language(alice, bob):
    bob.profile.language = "pl"
    bob.profile.save()
    services.follow(alice, "bob")
    row = Notification.objects.get(kind=FOLLOW_NEWS)
    mail.outbox.clear()
    assert delivery.deliver(row.pk) == DeliveryStatus.SENT
    (message,) = mail.outbox
    assert message.to == ["bob@example.com"]
    assert "alice obserwuje cię" in message.subject


def test_a_player_who_turned_it_off_is_not_told(alice, bob):
    bob.profile.tell_follows = False
    bob.profile.save()
    services.follow(alice, "bob")
    assert Follow.objects.filter(follower=alice, followed=bob).exists()
    assert not Notification.objects.filter(kind=FOLLOW_NEWS).exists()


@pytest.mark.parametrize(
    ("choice", "status"),
    [(Delivery.DIGEST, DeliveryStatus.DIGEST), (Delivery.NEVER, DeliveryStatus.SKIPPED)],
)
def test_the_email_follows_its_own_preference(alice, bob, choice, status):
    bob.profile.email_follows = choice
    bob.profile.save()
    services.follow(alice, "bob")
    assert Notification.objects.get(kind=FOLLOW_NEWS).status == status


def test_follows_are_limited_per_hour(make_user, alice):
    from tests.conftest import inside_one_window

    inside_one_window()
    others = [make_user(f"p{i}") for i in range(services.FOLLOW_LIMIT.count + 1)]
    for other in others[:-1]:
        services.follow(alice, other.username)
    with pytest.raises(TooFast):
        services.follow(alice, others[-1].username)
    assert Follow.objects.filter(follower=alice).count() == services.FOLLOW_LIMIT.count


def test_the_emails_unsubscribe_link_stops_only_these_emails(alice, bob):
    from django.test import Client

    services.follow(alice, "bob")
    mail.outbox.clear()
    delivery.deliver(Notification.objects.get(kind=FOLLOW_NEWS).pk)
    header = mail.outbox[0].extra_headers["List-Unsubscribe"]
    path = header.strip("<>").split("8000")[-1]
    assert Client().post(path, {"List-Unsubscribe": "One-Click"}).status_code == 200
    bob.profile.refresh_from_db()
    assert bob.profile.email_follows == Delivery.NEVER
    assert bob.profile.tell_follows, "still told in the bell"
    assert bob.profile.email_invitation == Delivery.IMMEDIATE
