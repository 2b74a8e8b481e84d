"""A challenge does not pass for a plain invitation: its email, its entry in
the bell and its row in the lobby say it is a ladder's challenge, by when it
must be answered and what accepting, declining and not answering do, in the
reader's language; Accept and Decline there answer the challenge itself."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from games.correspondence import delivery
from games.lobby import services as lobby
from games.lobby.invitations import invite_user
from games.models import DeliveryStatus, MatchStatus, Notification, NotificationKind
from ladders import services
from ladders.models import Challenge, ChallengeStatus, Outcome
from tests.ladders.conftest import order

pytestmark = pytest.mark.django_db

DRAKO = "Drako: Dragon & Dwarves"
# 18:00 in UTC: English writes it "6 p.m.", which a sentence must not follow
# with a second full stop.
DEADLINE = datetime(2026, 12, 5, 18, 0, tzinfo=UTC)


def _challenge(challenger, opponent: str) -> Challenge:
    challenge = services.challenge(challenger, "drako", opponent)
    Challenge.objects.filter(pk=challenge.pk).update(accept_by=DEADLINE)
    challenge.refresh_from_db()
    return challenge


def _speaks(user, language: str) -> None:
    user.profile.language = language
    user.profile.save()


def _invitation_email(user) -> mail.EmailMessage:
    row = Notification.objects.get(kind=NotificationKind.INVITATION, user=user)
    mail.outbox.clear()
    assert delivery.deliver(row.pk) == DeliveryStatus.SENT
    (message,) = mail.outbox
    return message


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_email_says_it_is_a_challenge_by_when_and_what_each_answer_does(ladder_of):
    p1, p2, p3 = ladder_of(3)
    challenge = _challenge(p3, "p2")
    message = _invitation_email(p2)
    assert message.subject.endswith(
        f"p3 challenges you on the {DRAKO} ladder: answer by Dec. 5, 2026, 6 p.m."
    )
    body = message.body
    assert (
        f"This is a challenge on the {DRAKO} ladder: p3, below you, wants your place (2)." in body
    )
    assert "Answer by Dec. 5, 2026, 6 p.m.\n" in body  # one full stop
    assert f"Accept: the rated match #{challenge.match_id} starts at once, 3 days a move" in body
    assert "Decline, or no answer by then: p3 takes your place at once" in body
    assert reverse("ladder_detail", args=["drako"]) in body
    assert "invites you" not in message.subject + body
    html = message.alternatives[0][0]
    assert "takes your place at once" in html


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("pl", ["wyzywa cię na drabince", "Odpowiedz do", "zajmuje twoje miejsce"]),
        ("cs", ["tě vyzývá v žebříčku", "Odpověz do", "zaujme tvé místo"]),
    ],
)
def test_the_email_speaks_the_readers_language(ladder_of, language, words):
    p1, p2 = ladder_of(2)
    _speaks(p1, language)
    _challenge(p2, "p1")
    message = _invitation_email(p1)
    text = message.subject + message.body
    for word in words:
        assert word in text, (word, text)


def test_the_bell_says_it_is_a_challenge_and_answers_it(ladder_of):
    p1, p2 = ladder_of(2)
    challenge = _challenge(p2, "p1")
    page = _client(p1).get(reverse("notifications")).content.decode()
    assert escape(f"p2 challenges you on the {DRAKO} ladder: answer by") in page
    assert "takes your place at once" in page
    assert f'action="{reverse("ladder_accept", args=[challenge.pk])}"' in page
    assert f'action="{reverse("ladder_decline", args=[challenge.pk])}"' in page
    assert f'action="{reverse("match_decline", args=[challenge.match_id])}"' not in page


def test_declining_in_the_lobby_declines_the_challenge(ladder_of):
    p1, p2 = ladder_of(2)
    challenge = _challenge(p2, "p1")
    client = _client(p1)
    page = client.get(reverse("lobby")).content.decode()
    assert escape(f"p2 challenges you on the {DRAKO} ladder: answer by") in page
    assert "Decline (lose your place)" in page
    assert f'action="{reverse("match_join", args=[challenge.match_id])}"' not in page
    client.post(reverse("ladder_decline", args=[challenge.pk]))
    challenge.refresh_from_db()
    assert challenge.status == ChallengeStatus.DONE and challenge.outcome == Outcome.DECLINED
    assert order() == ["p2", "p1"]


def test_accepting_in_the_lobby_accepts_the_challenge(ladder_of):
    p1, p2 = ladder_of(2)
    challenge = _challenge(p2, "p1")
    response = _client(p1).post(reverse("ladder_accept", args=[challenge.pk]))
    assert response.url == reverse("match_detail", args=[challenge.match_id])
    challenge.refresh_from_db()
    assert challenge.accepted_at is not None
    assert challenge.match.status == MatchStatus.ACTIVE


def test_a_plain_invitation_is_still_one(alice, bob):
    match = lobby.create_match(user=alice, game_key="drako", n_seats=2)
    invite_user(user=alice, match=match, username="bob")
    message = _invitation_email(bob)
    assert "invites you to" in message.subject and "challenge" not in message.body
    page = _client(bob).get(reverse("lobby")).content.decode()
    assert f'action="{reverse("match_join", args=[match.pk])}"' in page
