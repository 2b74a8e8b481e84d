"""A tournament's moments are one email each per player: its start (the
match started, the player's turn, the tournament and its first round
started) and each later round say all of it in one email, the rest stays in
the bell; its end names the winner, the player's place and the final table,
and its page shows the winner's banner."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from games.correspondence import delivery
from games.models import DeliveryStatus, Notification
from tests.tournaments.conftest import (
    entered,
    finish,
    new_tournament,
    play_round,
    running_matches,
    start_now,
)
from tournaments.models import Tournament, TournamentStatus

pytestmark = pytest.mark.django_db


def _send_pending() -> Counter:
    """Deliver every row waiting to be emailed; the emails per address."""
    mail.outbox.clear()
    for pk in Notification.objects.filter(status=DeliveryStatus.PENDING).values_list(
        "pk", flat=True
    ):
        delivery.deliver(pk)
    return Counter(message.to[0] for message in mail.outbox)


def _mail_to(user) -> list:
    return [m for m in mail.outbox if m.to[0] == user.email]


def test_the_start_is_one_email_per_player_that_says_all_of_it(people):
    tournament = entered(new_tournament(people[0], name="Jesień", rounds=2), people[1:2])
    start_now(tournament)
    (match,) = running_matches(tournament)
    sent = _send_pending()
    assert sent == {people[0].email: 1, people[1].email: 1}
    texts = {m.to[0]: m.subject + "\n" + m.body for m in mail.outbox}
    for text in texts.values():
        assert "The tournament Jesień has started: this is your match of round 1." in text
        assert f"Nogi za pas! #{match.pk} has started" in text
        assert reverse("tournament_detail", args=[tournament.pk]) in text
    assert any("Your turn in" in text.split("\n", 1)[0] for text in texts.values())
    # The bell still lists each piece.
    client = Client()
    client.force_login(people[1])
    bell = client.get(reverse("notifications")).content.decode()
    assert "The tournament Jesień has started" in bell
    assert f"#{match.pk}" in bell


def test_a_player_with_a_bye_gets_the_start_alone(people):
    tournament = entered(new_tournament(people[0], rounds=2), people[1:3])
    start_now(tournament)
    sent = _send_pending()
    assert set(sent.values()) == {1} and len(sent) == 3
    (bye,) = [
        m for m in mail.outbox if "you sit out round 1 with a bye" in m.body
    ]  # the one without a match
    assert "has started" in bye.subject


def test_a_later_round_is_one_email_per_player(people):
    tournament = entered(new_tournament(people[0], rounds=2), people[1:4])
    start_now(tournament)
    _send_pending()
    play_round(tournament, random.Random(1))
    assert Tournament.objects.get(pk=tournament.pk).current_round == 2
    _send_pending()
    # Beside each match's own "is over", one email tells round 2.
    starts = [m for m in mail.outbox if "is over" not in m.subject]
    assert sorted(m.to[0] for m in starts) == sorted(p.email for p in people[:4])
    for message in starts:
        assert "Round 2 of the tournament Autumn cup has started: this is your match." in (
            message.body
        )


def test_the_end_names_the_winner_the_place_and_the_final_table(people):
    tournament = entered(new_tournament(people[0], rounds=1), people[1:2])
    start_now(tournament)
    (match,) = running_matches(tournament)
    winner = match.seats.get(index=1).user
    finish(match, [2, 1])
    from tournaments import services

    services.advance(tournament.pk)
    assert Tournament.objects.get(pk=tournament.pk).status == TournamentStatus.FINISHED
    _send_pending()
    (news,) = [m for m in _mail_to(people[0]) if "The tournament" in m.subject]
    assert f"The tournament Autumn cup is over: the winner is {winner.username}" in news.subject
    loser_place = "2" if winner != people[0] else "1"
    assert f"Your place: {loser_place} of 2." in news.body
    assert f"1. {winner.username} (1)" in news.body

    page = Client().get(reverse("tournament_detail", args=[tournament.pk])).content.decode()
    banner = page.split('id="winner-banner"', 1)[1].split("</section>", 1)[0]
    assert "Winner: <a" in banner and f">{winner.username}</a>" in banner
