"""A tournament's news: outbox rows, delivered by email in the player's
language, listed in the bell, and the desk's two forms."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse

from games.correspondence import delivery
from games.models import ModerationAction, Notification
from tests.tournaments.conftest import entered, new_tournament, start_now
from tournaments import notify
from tournaments.models import EntrantStatus


def test_news_is_emailed_in_each_players_language(people):
    people[1].profile.language = "pl"
    people[1].profile.save()
    people[2].profile.language = "cs"
    people[2].profile.save()
    tournament = entered(new_tournament(people[0], name="Jesień"), people[1:3])
    start_now(tournament)
    rows = Notification.objects.filter(kind="tournament", about__event="started")
    assert rows.count() == 3 and all(r.match_id is None for r in rows)
    # Those whose match emails them read it there (tests/tournaments/
    # test_one_email.py); sent here on their own, for their words.
    rows.update(status="pending")
    for row in rows:
        assert delivery.deliver(row.pk) == "sent"
    subjects = {m.to[0]: m.subject for m in mail.outbox}
    assert "The tournament Jesień has started" in subjects["u00@example.com"]
    assert "Turniej Jesień się rozpoczął" in subjects["u01@example.com"]
    assert "Turnaj Jesień začal" in subjects["u02@example.com"]
    body = mail.outbox[0].body
    assert reverse("tournament_detail", args=[tournament.pk]) in body


def test_news_exists_once_per_event(people):
    tournament = entered(new_tournament(people[0]), people[1:2])
    start_now(tournament)
    first = notify.queue_tournament(
        people[0], tournament_id=tournament.pk, name="x", event="started"
    )
    assert first is None  # already queued by the start
    # One piece of news: the start says round 1 started.
    assert Notification.objects.filter(user=people[0], kind="tournament").count() == 1


def test_the_bell_lists_news_with_a_link_to_the_tournament(client, people):
    tournament = entered(new_tournament(people[0], name="Zima"), people[1:2])
    start_now(tournament)
    client.force_login(people[1])
    text = client.get(reverse("notifications")).content.decode()
    assert "The tournament Zima has started" in text
    assert f'href="{reverse("tournament_detail", args=[tournament.pk])}"' in text


@pytest.fixture
def desk(client, moderator):
    client.force_login(moderator)
    return client


def test_the_desk_cancels_a_tournament_with_a_reason(desk, people):
    tournament = entered(new_tournament(people[0]), people[1:3])
    url = reverse("admin:tournaments_tournament_cancel", args=[tournament.pk])
    assert desk.get(url).status_code == 200
    assert (
        desk.get(reverse("admin:tournaments_tournament_change", args=[tournament.pk])).status_code
        == 200
    )
    desk.post(url, {"reason": ""})
    tournament.refresh_from_db()
    assert tournament.status == "open"  # no reason, nothing done
    desk.post(url, {"reason": "a duplicate of another tournament"})
    tournament.refresh_from_db()
    assert tournament.status == "open"  # not confirmed, nothing done
    desk.post(url, {"reason": "a duplicate of another tournament", "confirm": "on"})
    tournament.refresh_from_db()
    assert tournament.status == "cancelled"
    assert ModerationAction.objects.filter(kind="cancel_tournament").count() == 1


def test_the_desk_removes_an_entrant(desk, people):
    tournament = entered(new_tournament(people[0]), people[1:4])
    start_now(tournament)
    entrant = tournament.entrants.get(user=people[2])
    url = reverse("admin:tournaments_entrant_remove", args=[entrant.pk])
    desk.post(url, {"reason": "abusive messages in every chat", "confirm": "on"})
    entrant.refresh_from_db()
    assert entrant.status == EntrantStatus.REMOVED
    action = ModerationAction.objects.get(kind="remove_entrant")
    assert action.user == people[2] and action.details["tournament"] == tournament.pk


def test_players_cannot_use_the_desk(client, people):
    tournament = new_tournament(people[0])
    client.force_login(people[0])
    response = client.post(
        reverse("admin:tournaments_tournament_cancel", args=[tournament.pk]),
        {"reason": "I changed my mind about it", "confirm": "on"},
    )
    assert response.status_code == 302 and "login" in response["Location"]
    tournament.refresh_from_db()
    assert tournament.status == "open"


def test_a_forged_id_on_the_desk_is_no_error(desk):
    response = desk.get("/admin/tournaments/tournament/%C2%B2/change/")
    assert response.status_code in (302, 404)


def test_a_player_who_chose_the_digest_gets_the_news_in_it(people):
    from accounts.models import Delivery
    from games.correspondence import digests
    from games.models import DeliveryStatus

    people[1].profile.email_match_events = Delivery.DIGEST
    # A tournament's news has its own row of the preferences grid.
    people[1].profile.email_tournaments = Delivery.DIGEST
    people[1].profile.email_your_turn = Delivery.DIGEST  # no match email tells it at once
    people[1].profile.save()
    tournament = entered(new_tournament(people[0], name="Wiosna"), people[1:2])
    start_now(tournament)
    rows = Notification.objects.filter(kind="tournament", user=people[1])
    assert rows.exists()
    assert set(rows.values_list("status", flat=True)) == {DeliveryStatus.DIGEST}
    mail.outbox.clear()
    assert digests.send_for_user(people[1].pk)
    (digest,) = mail.outbox
    assert "The tournament Wiosna has started" in digest.body
    assert set(rows.values_list("status", flat=True)) == {DeliveryStatus.IN_DIGEST}


def test_the_start_tells_a_player_with_a_bye_in_round_1_so(people):
    """Three entrants: two play round 1, one sits it out. The start's news
    says "your first match is waiting" only to those who have one; the one
    with the bye is told so, in their language."""
    from django.utils import translation

    from tournaments.models import Placement

    people[2].profile.language = "pl"
    people[2].profile.save()
    tournament = entered(new_tournament(people[0], name="Wiosna"), people[1:3])
    start_now(tournament)
    bye = Placement.objects.get(round__tournament=tournament, is_bye=True).entrant.user
    rows = Notification.objects.filter(kind="tournament", about__event="started")
    assert rows.count() == 3
    for row in rows:
        line = notify.tournament_words(row)["lines"][0]
        if row.user == bye:
            assert row.about["bye"] is True
            assert (
                line == "The tournament Wiosna has started; you sit out round 1 with a bye (a win)."
            )
        else:
            assert "bye" not in row.about
            assert line == "The tournament Wiosna has started; your first match is waiting."
    row = rows.get(user=bye)
    for language, words in [
        ("pl", "w 1. rundzie masz wolny los"),
        ("cs", "v 1. kole máš volný los"),
    ]:
        with translation.override(language):
            assert words in notify.tournament_words(row)["lines"][0]
    # The start says round 1 started: no news of round 1 apart.
    order = list(
        Notification.objects.filter(user=bye, kind="tournament")
        .order_by("pk")
        .values_list("about__event", flat=True)
    )
    assert order == ["started"]
