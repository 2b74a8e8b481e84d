"""The desk in the admin: who gets in, what it shows, and confirmed actions."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from accounts.roles import MODERATOR_PERMISSIONS
from games.models import MatchStatus, ModerationAction
from games.play import chat
from tests.conftest import play_one

pytestmark = pytest.mark.django_db


def test_the_moderator_group_has_exactly_the_desk_permissions(moderator):
    group = Group.objects.get(name="moderator")
    granted = sorted(
        (p.content_type.app_label, p.codename)
        for p in group.permissions.select_related("content_type")
    )
    assert granted == sorted(MODERATOR_PERMISSIONS)
    assert not moderator.is_superuser
    assert moderator.has_perm("games.moderate_match")
    assert not moderator.has_perm("games.change_match")
    assert not moderator.has_perm("auth.change_user")


def test_players_get_no_access_to_the_desk(started_match, alice):
    client = Client()
    client.force_login(alice)
    for url in [
        reverse("admin:games_match_changelist"),
        reverse("admin:games_match_change", args=[started_match.pk]),
        reverse("admin:games_match_moderate", args=[started_match.pk, "abort"]),
        reverse("admin:games_report_changelist"),
        reverse("admin:games_moderationaction_changelist"),
    ]:
        response = client.get(url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"], url
    response = client.post(
        reverse("admin:games_match_moderate", args=[started_match.pk, "abort"]),
        {"reason": "sneaky attempt", "confirm": "on"},
    )
    started_match.refresh_from_db()
    assert started_match.status == MatchStatus.ACTIVE


def test_staff_outside_the_group_cannot_act(started_match):
    staff = get_user_model().objects.create_user("staffer", is_staff=True)
    client = Client()
    client.force_login(staff)
    url = reverse("admin:games_match_moderate", args=[started_match.pk, "abort"])
    assert client.post(url, {"reason": "no rights here", "confirm": "on"}).status_code == 403
    started_match.refresh_from_db()
    assert started_match.status == MatchStatus.ACTIVE


def test_the_match_page_shows_everything_unredacted(started_match, nogi, mod_client, alice, bob):
    play_one(started_match, nogi)
    message = chat.post_message(alice, started_match, "hello <b>all</b>")
    chat.report(bob, started_match, "spam", message_id=message.pk)
    page = mod_client.get(reverse("admin:games_match_change", args=[started_match.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    started_match.refresh_from_db()
    assert 'id="desk"' in html
    assert "&quot;dragon_stack&quot;" in html and "&quot;shields&quot;" in html, (
        "secrets on the desk"
    )
    assert "hello &lt;b&gt;all&lt;/b&gt;" in html
    assert "spam" in html and "alice@example.com" in html
    for op in ["abort", "extend", "force_timeout", "undo", "adjudicate"]:
        assert reverse("admin:games_match_moderate", args=[started_match.pk, op]) in html


def test_list_filters_and_search(started_match, mod_client, bob, alice):
    chat.report(bob, started_match, "rude player", username="alice")
    url = reverse("admin:games_match_changelist")
    for query in ["?reported=open", "?waiting=player", "?stale=7", "?q=alice", "?game_key=nogi"]:
        assert mod_client.get(url + query).status_code == 200, query
    assert f">{started_match.pk}<" in mod_client.get(url + "?reported=open").content.decode()
    assert f">{started_match.pk}<" not in mod_client.get(url + "?stale=7").content.decode()
    assert f">{started_match.pk}<" in mod_client.get(url + "?q=alice@example.com").content.decode()


def test_an_action_needs_a_reason_and_a_confirmation(started_match, mod_client):
    url = reverse("admin:games_match_moderate", args=[started_match.pk, "abort"])
    form = mod_client.get(url)
    assert form.status_code == 200 and 'name="confirm"' in form.content.decode()
    assert mod_client.post(url, {"reason": "stuck for weeks"}).status_code == 200
    assert mod_client.post(url, {"confirm": "on"}).status_code == 200
    started_match.refresh_from_db()
    assert started_match.status == MatchStatus.ACTIVE and not ModerationAction.objects.exists()
    response = mod_client.post(url, {"reason": "stuck for weeks", "confirm": "on"})
    assert response.status_code == 302
    started_match.refresh_from_db()
    assert started_match.status == MatchStatus.ABORTED
    assert ModerationAction.objects.get().reason == "stuck for weeks"


def test_undo_through_the_desk(make_user, mod_client):
    from tests.moderation.test_undo_reveals import play_until, revealing, start

    game, match, users = start("drakon", make_user)
    play_until(game, match, users, lambda moved, last: not moved and not revealing(match, last))
    url = reverse("admin:games_match_moderate", args=[match.pk, "undo"])
    mod_client.post(url, {"reason": "misclick by a player", "confirm": "on", "count": 1})
    assert ModerationAction.objects.get().details == {"count": 1}


def test_the_desk_refuses_to_undo_a_roll_and_says_why(started_match, nogi, mod_client):
    for i in range(3):
        play_one(started_match, nogi, choose=i)
    before = started_match.moves.count()
    url = reverse("admin:games_match_moderate", args=[started_match.pk, "undo"])
    response = mod_client.post(
        url, {"reason": "misclick by a player", "confirm": "on", "count": 1}, follow=True
    )
    assert "revealed a roll, a draw or a secret" in response.content.decode()
    assert not ModerationAction.objects.exists()
    assert started_match.moves.count() == before


def test_a_refused_action_says_why(started_match, mod_client):
    url = reverse("admin:games_match_moderate", args=[started_match.pk, "undo"])
    response = mod_client.post(
        url, {"reason": "nothing to undo yet", "confirm": "on", "count": 3}, follow=True
    )
    assert "You can undo" in response.content.decode() or "1 to 0" in response.content.decode()
    assert not ModerationAction.objects.exists()


def test_audit_and_delivery_log_are_read_only_in_the_admin(started_match, mod_client, moderator):
    from games.moderation import actions as moderation

    action = moderation.extend_deadline(moderator, started_match, 5, "holiday for the player")
    detail = mod_client.get(reverse("admin:games_moderationaction_change", args=[action.pk]))
    assert detail.status_code == 200 and 'name="reason"' not in detail.content.decode()
    delete = mod_client.post(reverse("admin:games_moderationaction_delete", args=[action.pk]))
    assert delete.status_code == 403
    assert ModerationAction.objects.filter(pk=action.pk).exists()


def test_hide_from_the_report_queue_and_the_message_leaves_players_pages(
    started_match, mod_client, alice, bob
):
    message = chat.post_message(alice, started_match, "something awful")
    report = chat.report(bob, started_match, "awful", message_id=message.pk)
    queue = mod_client.get(reverse("admin:games_report_changelist") + "?state=open")
    assert "something awful" in queue.content.decode()
    mod_client.post(
        reverse("admin:games_chatmessage_hide", args=[message.pk]),
        {"reason": "abusive language", "confirm": "on"},
    )
    mod_client.post(
        reverse("admin:games_report_resolve", args=[report.pk]),
        {"resolution": "hidden, warned", "confirm": "on"},
    )
    report.refresh_from_db()
    assert not report.is_open
    for viewer in (alice, bob, None):
        client = Client()
        if viewer:
            client.force_login(viewer)
        for url in [
            reverse("match_detail", args=[started_match.pk]),
            reverse("match_panel", args=[started_match.pk]),
        ]:
            assert "something awful" not in client.get(url).content.decode()


def test_deactivate_from_the_desk(started_match, mod_client, alice):
    url = reverse("admin:games_deactivate_user", args=[alice.pk])
    mod_client.post(url, {"reason": "threats in chat", "confirm": "on"})
    alice.refresh_from_db()
    assert not alice.is_active
