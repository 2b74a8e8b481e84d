"""Match chat and reports from the players' side."""

import pytest
from django.test import Client
from django.urls import reverse

from games.lobby import services as lobby
from games.models import ChatMessage, Report
from games.play import chat

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def client_for(user):
    client = Client()
    client.force_login(user)
    return client


def test_players_chat_and_output_is_escaped(started_match, alice, bob):
    url = reverse("match_chat", args=[started_match.pk])
    response = client_for(alice).post(url, {"text": "<script>alert(1)</script> hi"}, **HTMX)
    assert response.status_code == 200
    assert (
        'id="chat-form"' in response.content.decode() and "hx-swap-oob" in response.content.decode()
    )
    page = client_for(bob).get(reverse("match_detail", args=[started_match.pk])).content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt; hi" in page
    assert "<script>alert(1)" not in page


def test_spectators_read_but_cannot_write(started_match, alice, make_user):
    chat.post_message(alice, started_match, "good luck")
    spectator = make_user("sam")
    page = client_for(spectator).get(reverse("match_detail", args=[started_match.pk]))
    assert "good luck" in page.content.decode() and 'id="chat-form"' not in page.content.decode()
    response = client_for(spectator).post(
        reverse("match_chat", args=[started_match.pk]), {"text": "hello"}
    )
    assert response.status_code == 403
    assert (
        Client().post(reverse("match_chat", args=[started_match.pk]), {"text": "x"}).status_code
        == 403
    )
    assert ChatMessage.objects.count() == 1


def test_a_message_over_the_limit_is_answered_429(started_match, alice):
    """The limit itself (per player and match) is the service's: tests/play/test_chat.py."""
    for i in range(chat.RATE_LIMIT):
        chat.post_message(alice, started_match, f"line {i}")
    response = client_for(alice).post(
        reverse("match_chat", args=[started_match.pk]), {"text": "one too many"}
    )
    assert response.status_code == 429
    assert ChatMessage.objects.count() == chat.RATE_LIMIT


def test_reports_of_a_message_a_player_and_the_match(started_match, alice, bob):
    message = chat.post_message(alice, started_match, "meh")
    url = reverse("match_report", args=[started_match.pk])
    client = client_for(bob)
    assert client.post(url, {"message": message.pk, "reason": "insult"}).status_code == 302
    assert client.post(url, {"player": "alice", "reason": "stalling"}).status_code == 302
    assert client.post(url, {"reason": "the game is stuck"}).status_code == 302
    reports = list(
        Report.objects.order_by("created_at").values_list(
            "message_id", "reported_user__username", "reason"
        )
    )
    assert reports == [
        (message.pk, "alice", "insult"),
        (None, "alice", "stalling"),
        (None, None, "the game is stuck"),
    ]
    assert client.post(url, {"reason": "x"}).status_code == 400
    assert client.post(url, {"player": "bob", "reason": "me myself"}).status_code == 400
    assert client.post(url, {"message": "abc", "reason": "forged"}).status_code == 400
    assert client.post(url, {"player": "nobody", "reason": "who is it"}).status_code == 400
    assert Report.objects.count() == 3


def test_players_can_chat_while_the_match_gathers(alice, bob):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=3)
    lobby.join_match(user=bob, match=match)
    chat.post_message(bob, match, "waiting for one more")
    page = client_for(alice).get(reverse("match_detail", args=[match.pk])).content.decode()
    assert 'id="chat-form"' in page and "waiting for one more" in page


def test_the_migration_marks_the_matches_that_already_have_chat(started_match, alice, bob):
    """Matches with messages from before ``has_chat`` existed keep showing them."""
    from importlib import import_module

    from django.apps import apps

    from games.models import Match

    chat.post_message(alice, started_match, "from before")
    other = lobby.create_match(user=bob, game_key="nogi", n_seats=2)
    Match.objects.update(has_chat=False)
    import_module("games.migrations.0013_match_has_chat").mark_matches_with_chat(apps, None)
    assert set(Match.objects.filter(has_chat=True).values_list("pk", flat=True)) == {
        started_match.pk
    }
    assert not Match.objects.get(pk=other.pk).has_chat
