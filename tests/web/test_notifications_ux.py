"""The bell: one entry per match and kind; invitations answered where they are listed."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.correspondence import inbox
from games.engine import registry
from games.lobby import invitations
from games.lobby import services as lobby
from games.models import (
    Invitation,
    MatchStatus,
    Notification,
    NotificationKind,
)
from tests.conftest import play_one, user_to_move

pytestmark = pytest.mark.django_db


def client_for(user):
    client = Client()
    client.force_login(user)
    return client


def test_thirty_opponent_moves_leave_one_unread_your_turn_row(alice, bob):
    match = lobby.create_match(user=alice, game_key="drakon", n_seats=2)
    lobby.join_match(user=bob, match=match)
    game = registry.get("drakon")
    opponent_moves = 0
    stamps = []
    for step in range(200):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE or opponent_moves == 30:
            break
        mover = user_to_move(match, game)
        play_one(match, game, choose=step)
        match.refresh_from_db()
        # An opponent's move that hands Bob the turn (a Drakon turn may take
        # several decisions by the same seat, which notify nobody).
        handed_over = match.status == MatchStatus.ACTIVE and user_to_move(match, game) == bob
        if mover == alice and handed_over:
            opponent_moves += 1
            row = Notification.objects.get(user=bob, match=match, kind=NotificationKind.YOUR_TURN)
            stamps.append(row.created_at)
    assert opponent_moves == 30
    rows = Notification.objects.filter(user=bob, match=match, kind=NotificationKind.YOUR_TURN)
    assert rows.count() == 1, "updated, not added"
    row = rows.get()
    assert row.read_at is None
    assert stamps == sorted(stamps) and stamps[0] < stamps[-1], "its time moves on"
    match.refresh_from_db()
    assert row.version <= match.version and row.version > 30
    assert inbox.unread_count(bob) == 2  # one "your turn" and one "started"
    page = client_for(bob).get(reverse("notifications")).content.decode()
    assert len(re.findall(r'<li class="unread">', page)) == 2
    assert inbox.unread_count(bob) == 0  # looking marks them read
    # Once read, the next turn starts a new unread row; the read one is history.
    for step in range(20):
        play_one(match, game, choose=step)
        if rows.filter(read_at__isnull=True).exists():
            break
    assert rows.count() == 2 and rows.filter(read_at__isnull=True).count() == 1


def test_invitations_are_answered_in_the_lobby_and_the_bell(alice, bob, carol):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=3, visibility="private")
    invitations.invite_user(user=alice, match=match, username="bob")
    invitations.invite_user(user=alice, match=match, username="carol")
    lobby_page = client_for(bob).get("/").content.decode()
    assert 'class="accept-invitation"' in lobby_page and 'class="secondary decline-invitation"' in (
        lobby_page
    )
    bell = client_for(carol).get(reverse("notifications")).content.decode()
    assert f'action="{reverse("match_decline", args=[match.pk])}"' in bell
    # Bob accepts from the lobby (joining), Carol declines from the bell.
    client_for(bob).post(reverse("match_join", args=[match.pk]))
    response = client_for(carol).post(
        reverse("match_decline", args=[match.pk]), {"next": "notifications"}
    )
    assert response.status_code == 302 and response.url == reverse("notifications")
    assert match.seats.filter(user=bob).exists()
    assert not Invitation.objects.filter(match=match, invited_user=carol).exists()
    assert "accept-invitation" not in client_for(carol).get("/").content.decode()
    again = client_for(carol).post(reverse("match_decline", args=[match.pk]))
    assert again.status_code in (404, 409)
