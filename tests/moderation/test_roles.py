"""Roles: who may deactivate whom, who may read private matches, who may
start a match, and what an invitation grants (the same on every page)."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from core import errors
from games.lobby import services as lobby
from games.models import MatchStatus, Visibility
from games.moderation import actions as moderation

pytestmark = pytest.mark.django_db
REASON = "abusive in chat, repeatedly"


def staff(username, *, moderator=False, superuser=False):
    user = get_user_model().objects.create_user(
        username, email=f"{username}@example.com", password="pw", is_staff=True
    )
    if superuser:
        user.is_superuser = True
        user.save()
    if moderator:
        user.groups.add(Group.objects.get(name="moderator"))
    return user


def client_for(user):
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("target_kind", ["moderator", "staff"])
def test_only_a_superuser_deactivates_moderators_and_staff(target_kind):
    acting = staff("mod1", moderator=True)
    target = staff("target", moderator=target_kind == "moderator")
    with pytest.raises(errors.Forbidden, match="Only a superuser"):
        moderation.deactivate_user(acting, target, REASON)
    target.refresh_from_db()
    assert target.is_active
    boss = staff("boss", superuser=True)
    moderation.deactivate_user(boss, target, REASON)
    target.refresh_from_db()
    assert not target.is_active


def test_a_moderator_still_deactivates_a_player(alice):
    moderation.deactivate_user(staff("mod1", moderator=True), alice, REASON)
    alice.refresh_from_db()
    assert not alice.is_active


@pytest.fixture
def private_started(alice, bob):
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, visibility=Visibility.PRIVATE
    )
    lobby.join_match(user=bob, match=match, token=match.invite_token)
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    return match


PAGES = ["match_detail", "match_panel", "match_log", "match_verify", "match_log_json"]


@pytest.mark.parametrize("page", PAGES)
def test_staff_outside_the_moderator_group_cannot_read_private_matches(private_started, page):
    url = reverse(page, args=[private_started.pk])
    assert client_for(staff("helpdesk")).get(url).status_code == 404
    assert client_for(staff("mod1", moderator=True)).get(url).status_code == 200
    assert client_for(staff("root", superuser=True)).get(url).status_code == 200


def test_a_creator_who_left_cannot_fill_or_start(alice, bob):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=3)
    lobby.join_match(user=bob, match=match)
    lobby.leave_match(user=alice, match=match)
    response = client_for(alice).post(reverse("match_fill_bots", args=[match.pk]))
    assert response.status_code == 403
    assert "You left this match" in response.content.decode()
    match.refresh_from_db()
    assert match.status == MatchStatus.OPEN and match.seats.count() == 1
    assert "Fill empty seats" not in client_for(alice).get(f"/m/{match.pk}/").content.decode()


@pytest.mark.parametrize("page", PAGES)
def test_an_invite_link_opens_every_page_while_the_match_gathers_players(alice, make_user, page):
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=3, visibility=Visibility.PRIVATE
    )
    url = reverse(page, args=[match.pk])
    outsider = client_for(make_user("dave"))
    assert outsider.get(url).status_code == 404
    assert outsider.get(url, {"token": match.invite_token}).status_code == 200
    assert outsider.get(url, {"token": "wrong"}).status_code == 404


@pytest.mark.parametrize("page", PAGES)
def test_after_the_start_an_invitation_grants_nothing_on_any_page(private_started, make_user, page):
    invited = make_user("dave")
    private_started.invitations.create(invited_user=invited, invited_by=private_started.created_by)
    url = reverse(page, args=[private_started.pk])
    token = {"token": private_started.invite_token}
    assert client_for(make_user("erin")).get(url, token).status_code == 404
    assert client_for(invited).get(url).status_code == 404
    assert client_for(invited).get(url, token).status_code == 404
