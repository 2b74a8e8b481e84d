"""Moderators send failed emails again from the desk, each resend in the audit."""

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from games.lobby import services as lobby
from games.models import DeliveryStatus, ModerationAction, Notification

pytestmark = pytest.mark.django_db


@pytest.fixture
def failed(alice, bob):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=match)
    rows = Notification.objects.filter(match=match)
    rows.update(status=DeliveryStatus.FAILED, attempts=30, last_error="OSError: no route")
    mail.outbox.clear()
    return list(rows)


def _resend(client, rows, reason="checked the mail server, it is back"):
    ids = ",".join(str(row.pk) for row in rows)
    url = reverse("admin:games_notification_resend") + "?ids=" + ids
    return client.post(url, {"reason": reason, "confirm": "on"})


def test_the_admin_action_leads_to_the_confirmation_form(failed, mod_client):
    response = mod_client.post(
        reverse("admin:games_notification_changelist"),
        {"action": "resend_failed", "_selected_action": [row.pk for row in failed]},
    )
    assert response.status_code == 302
    page = mod_client.get(response["Location"])
    assert page.status_code == 200 and "no route" in page.content.decode()
    assert set(Notification.objects.values_list("status", flat=True)) == {DeliveryStatus.FAILED}


def test_a_moderator_resends_failed_emails_with_a_reason(
    failed, mod_client, moderator, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = _resend(mod_client, failed)
    assert response.status_code == 302
    for row in failed:
        row.refresh_from_db()
        assert (row.status, row.attempts, row.last_error) == (DeliveryStatus.SENT, 1, "")
    assert len(mail.outbox) == len(failed)
    audit = ModerationAction.objects.filter(kind=ModerationAction.Kind.RESEND_EMAIL)
    assert audit.count() == len(failed)
    assert {a.details["notification"] for a in audit} == {row.pk for row in failed}
    assert all(a.moderator == moderator and "mail server" in a.reason for a in audit)


def test_only_failed_emails_are_resent_and_a_reason_is_needed(failed, mod_client):
    sent = failed[0]
    Notification.objects.filter(pk=sent.pk).update(status=DeliveryStatus.SENT)
    response = _resend(mod_client, [sent])
    assert response.status_code == 200 and "None of the selected" in response.content.decode()
    response = _resend(mod_client, failed[1:], reason="")
    assert response.status_code == 200
    assert Notification.objects.get(pk=failed[1].pk).status == DeliveryStatus.FAILED
    assert not ModerationAction.objects.exists()
    assert mail.outbox == []


def test_players_and_other_staff_cannot_resend(failed, alice):
    from django.contrib.auth import get_user_model

    staff = get_user_model().objects.create_user("staffer", is_staff=True)
    for user, expected in [(alice, 302), (staff, 403)]:
        client = Client()
        client.force_login(user)
        assert _resend(client, failed).status_code == expected
    assert set(Notification.objects.values_list("status", flat=True)) == {DeliveryStatus.FAILED}
    assert not ModerationAction.objects.exists()
