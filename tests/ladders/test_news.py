"""What the players are told when a challenge ends: outbox rows of kind
``ladder`` (no match), each for the right person, once, emailed in their
language by their preference, and listed in the bell."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.core import mail
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from accounts.models import Delivery
from games.correspondence import delivery
from games.models import DeliveryStatus, Notification
from games.moderation import actions as moderation
from ladders import services, tasks
from ladders.models import Challenge, Entry
from tests.ladders.conftest import finish, order, seat_ranks

pytestmark = pytest.mark.django_db

DRAKO = "Drako: Dragon & Dwarves"  # the game's title, as the news names the ladder


@pytest.fixture
def moderator(make_user):
    user = make_user("mod")
    user.is_staff = True
    user.save()
    user.groups.add(Group.objects.get(name="moderator"))
    return user


def _speaks(user, language: str) -> None:
    user.profile.language = language
    user.profile.save()


def _overdue(challenge) -> None:
    Challenge.objects.filter(pk=challenge.pk).update(
        accept_by=timezone.now() - timedelta(seconds=1)
    )


def news() -> list[tuple[str, str, str]]:
    """Every ladder news row as (username, event, reason or place)."""
    return sorted(
        (
            row.user.username,
            row.about["event"],
            str(row.about.get("reason", row.about.get("place"))),
        )
        for row in Notification.objects.filter(kind="ladder").select_related("user")
    )


def _email_of(user) -> mail.EmailMessage:
    row = Notification.objects.get(kind="ladder", user=user)
    assert row.match_id is None and row.status == DeliveryStatus.PENDING
    mail.outbox.clear()
    assert delivery.deliver(row.pk) == DeliveryStatus.SENT
    (message,) = mail.outbox
    return message


def test_a_decline_tells_the_challenger_their_new_place_in_their_language(ladder_of):
    p1, p2, p3 = ladder_of(3)
    _speaks(p3, "pl")
    challenge = services.challenge(p3, "drako", "p1")
    services.decline(p1, challenge.pk)
    assert order() == ["p3", "p1", "p2"]
    assert news() == [("p3", "declined", "1")]
    message = _email_of(p3)
    assert "odrzuca twoje wyzwanie na drabince Drako: Smok i krasnoludy" in message.subject
    assert "jesteś teraz na miejscu 1" in message.body
    assert reverse("ladder_detail", args=["drako"]) in message.body


def test_an_expiry_tells_both_players_once_however_often_the_task_runs(ladder_of):
    p1, p2, p3 = ladder_of(3)
    _speaks(p1, "cs")
    challenge = services.challenge(p3, "drako", "p1")
    _overdue(challenge)
    assert tasks.expire_challenges() == {"expired": 1}
    assert tasks.expire_challenges() == {}
    assert services.expire(challenge.pk) == "skipped"
    assert news() == [("p1", "expired_against", "2"), ("p3", "expired", "1")]
    assert f"Your challenge on the {DRAKO} ladder was not answered" in _email_of(p3).subject
    message = _email_of(p1)
    assert "Výzva v žebříčku Drako: Drak a trpaslíci zůstala bez tvé odpovědi" in message.subject
    assert "teď jsi na místě 2" in message.body


def test_a_won_challenge_tells_the_challenger_and_a_lost_one_nothing(ladder_of):
    p1, p2, p3 = ladder_of(3)
    won = services.challenge(p3, "drako", "p2")
    services.accept(p2, won.pk)
    finish(won.match, seat_ranks(won.match, p3))
    assert order() == ["p1", "p3", "p2"]
    assert news() == [("p3", "won", "2")]
    lost = services.challenge(p3, "drako", "p1")
    services.accept(p1, lost.pk)
    finish(lost.match, seat_ranks(lost.match, p1))
    assert news() == [("p3", "won", "2")]
    assert f"You climbed the {DRAKO} ladder" in _email_of(p3).subject


def test_a_moderators_cancellation_tells_both_players(ladder_of, moderator):
    p1, p2 = ladder_of(2)
    challenge = services.challenge(p2, "drako", "p1")
    services.cancel_challenge(moderator, challenge.pk, "they agreed to call it off")
    assert news() == [("p1", "cancelled", "moderator"), ("p2", "cancelled", "moderator")]
    assert "(by a moderator); nobody moved" in _email_of(p2).body


def test_a_moderator_removing_the_challenged_player_tells_the_challenger(ladder_of, moderator):
    p1, p2, p3 = ladder_of(3)
    services.challenge(p3, "drako", "p2")
    entry = Entry.objects.get(user=p2)
    services.remove_entry(moderator, entry.pk, "a cheat, see report 12")
    assert news() == [("p3", "cancelled", "moderator")]


def test_an_aborted_match_tells_the_challenger(ladder_of, moderator):
    p1, p2 = ladder_of(2)
    challenge = services.challenge(p2, "drako", "p1")
    services.accept(p1, challenge.pk)
    moderation.abort_match(moderator, challenge.match, "a broken match, sorry")
    assert news() == [("p2", "cancelled", "match")]
    assert "(its match was not played)" in _email_of(p2).body


def test_a_deactivated_challenged_player_cancels_with_news_for_the_challenger_only(
    ladder_of, moderator
):
    p1, p2, p3 = ladder_of(3)
    services.challenge(p3, "drako", "p2")
    moderation.deactivate_user(moderator, p2, "spam in every chat")
    assert news() == [("p3", "cancelled", "player_left")]


def test_a_deactivated_challenger_is_not_told(ladder_of, moderator):
    p1, p2, p3 = ladder_of(3)
    services.challenge(p3, "drako", "p2")
    moderation.deactivate_user(moderator, p3, "spam in every chat")
    assert news() == []


def test_leaving_tells_the_challenger_but_not_the_one_who_leaves(ladder_of):
    p1, p2, p3 = ladder_of(3)
    services.challenge(p3, "drako", "p2")
    services.leave(p3, "drako")  # the challenger withdraws: nobody is told
    assert news() == []
    services.challenge(p2, "drako", "p1")
    services.leave(p1, "drako")  # the challenged player leaves: the challenger is told
    assert news() == [("p2", "cancelled", "player_left")]


def test_news_follows_the_email_preference(ladder_of):
    """The competitions' row of the grid (with a tournament's news), not
    the match events'."""
    p1, p2, p3, p4 = ladder_of(4)
    p3.profile.email_tournaments = Delivery.DIGEST
    p3.profile.email_match_events = Delivery.NEVER
    p3.profile.save()
    p4.profile.email_tournaments = Delivery.NEVER
    p4.profile.email_match_events = Delivery.IMMEDIATE
    p4.profile.save()
    services.decline(p1, services.challenge(p3, "drako", "p1").pk)
    services.decline(p2, services.challenge(p4, "drako", "p2").pk)
    statuses = dict(
        Notification.objects.filter(kind="ladder").values_list("user__username", "status")
    )
    assert statuses == {"p3": DeliveryStatus.DIGEST, "p4": DeliveryStatus.SKIPPED}


def test_the_bell_lists_ladder_news_with_a_link_to_the_ladder(client, ladder_of):
    p1, p2 = ladder_of(2)
    services.decline(p1, services.challenge(p2, "drako", "p1").pk)
    client.force_login(p2)
    text = client.get(reverse("notifications")).content.decode()
    assert f"p1 declined your challenge on the {escape(DRAKO)} ladder" in text
    assert f'href="{reverse("ladder_detail", args=["drako"])}"' in text


def test_the_bell_counts_each_piece_of_news(ladder_of, moderator):
    from games.correspondence import inbox

    p1, p2, p3 = ladder_of(3)
    services.decline(p2, services.challenge(p3, "drako", "p2").pk)  # p3 takes place 2
    services.cancel_challenge(
        moderator, services.challenge(p3, "drako", "p1").pk, "they agreed to call it off"
    )
    assert len(inbox.recent_notifications(p3)) == 2
    assert inbox.unread_count(p3) == 2
