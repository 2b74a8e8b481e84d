"""@name in a match chat: the mentioned player of the match is notified with
the line alone; nobody else is, nor anyone on either side of a block."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client

from accounts.models import Block
from games.correspondence import compose
from games.models import ChatMessage, Notification, NotificationKind
from games.moderation import actions
from games.play import chat

pytestmark = pytest.mark.django_db


def mention_rows(user=None):
    rows = Notification.objects.filter(kind=NotificationKind.MENTION)
    return rows.filter(user=user) if user else rows


def test_a_mention_by_username_notifies_that_player_with_the_line(
    started_match, alice, bob, carol, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        message = chat.post_message(alice, started_match, "@bob your move, please")
    row = mention_rows().get()
    assert row.user == bob
    assert row.about == {"message": message.pk, "who": "alice", "text": message.text}
    context = compose.message_context(row)
    assert context["subject"] == f"alice mentions you in Nogi za pas! #{started_match.pk}"
    assert any("@bob your move, please" in line for line in context["lines"])
    sent = [m for m in mail.outbox if m.to == ["bob@example.com"] and "mentions" in m.subject]
    assert len(sent) == 1
    assert "@bob your move, please" in sent[0].body
    assert not mention_rows(carol).exists()


def test_a_mention_email_quotes_the_line_and_nothing_of_the_match(
    started_match, alice, bob, django_capture_on_commit_callbacks
):
    """The secrets check: no board, no log, no choices, no picture; the line
    and the link to the match alone."""
    with django_capture_on_commit_callbacks(execute=True):
        chat.post_message(alice, started_match, "@bob look at the castle")
    email = next(m for m in mail.outbox if m.to == ["bob@example.com"] and "mentions" in m.subject)
    body = email.body.split("--")[0]
    assert "The board:" not in body and "Since your last move:" not in body
    assert "straight from this email" not in body
    assert not email.attachments
    lines = [line for line in body.splitlines() if line.strip()]
    assert lines[:2] == [
        "Hello bob,",
        f"alice writes in the chat of Nogi za pas! #{started_match.pk}: @bob look at the castle",
    ]
    assert len(lines) == 3 and lines[2].endswith(f"/m/{started_match.pk}/")


def test_a_display_name_with_a_space_is_a_mention_and_the_longest_name_wins(
    started_match, alice, bob, carol
):
    bob.profile.display_name = "Bob Stone"
    bob.profile.save()
    carol.profile.display_name = "Bob"  # a different player whose name is a prefix
    carol.profile.save()
    chat.post_message(alice, started_match, "thanks @bob stone!")
    assert [row.user for row in mention_rows()] == [bob]


def test_a_name_must_end_where_the_word_ends_and_the_writer_is_not_told(started_match, alice, bob):
    chat.post_message(alice, started_match, "mail me at x@bobby.example or @alice")
    assert not mention_rows().exists()


def test_only_players_of_the_match_are_mentioned(started_match, alice, make_user):
    make_user("dave")
    chat.post_message(alice, started_match, "@dave come and watch")
    assert not mention_rows().exists()


def test_nobody_blocked_either_way_is_notified(started_match, alice, bob, carol):
    Block.objects.create(blocker=alice, blocked=bob)  # the writer blocked bob
    chat.post_message(alice, started_match, "@bob @carol hello")
    assert [row.user for row in mention_rows()] == [carol]


def test_a_player_who_blocked_the_writer_closes_the_chat_to_them(started_match, alice, bob):
    Block.objects.create(blocker=bob, blocked=alice)
    with pytest.raises(Exception, match="closed"):
        chat.post_message(alice, started_match, "@bob hello")
    assert not mention_rows().exists()


def test_hiding_the_line_stops_quoting_it(started_match, alice, bob):
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    chat.post_message(alice, started_match, "@bob something rude")
    moderator = get_user_model().objects.create_user("mod", password="pw", is_staff=True)
    moderator.groups.add(Group.objects.get(name="moderator"))
    actions.hide_message(moderator, ChatMessage.objects.get(), "An insult to a player.")
    row = mention_rows(bob).get()
    assert row.about["who"] == "alice"
    assert all("rude" not in line for line in compose.message_context(row)["lines"])


def test_the_chat_shows_a_mention_as_a_link_to_the_players_page(started_match, alice, bob):
    chat.post_message(alice, started_match, "hi @bob <b>x</b>")
    client = Client()
    client.force_login(alice)
    html = client.get(f"/m/{started_match.pk}/").content.decode()
    assert '<a class="mention" href="/players/bob/">@bob</a>' in html
    assert "&lt;b&gt;x&lt;/b&gt;" in html, "the rest of the line is still escaped"


def test_the_bell_lists_the_mention_with_its_writer(started_match, alice, bob):
    chat.post_message(alice, started_match, "@bob hello")
    client = Client()
    client.force_login(bob)
    page = client.get("/notifications/").content.decode()
    assert f"alice mentions you in Nogi za pas! #{started_match.pk}" in page
