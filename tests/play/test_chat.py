"""Match chat as a service (games.play.chat): what a message may be, the first
message marking the match, and the limit per player and match. What the pages
answer (the 429, the escaping, who may write) is in tests/moderation/test_chat.py."""

from __future__ import annotations

import pytest

from core import errors, limits
from games.models import ChatMessage
from games.play import chat
from tests.conftest import inside_one_window

pytestmark = pytest.mark.django_db


def test_a_message_is_some_text_of_at_most_500_characters(started_match, alice):
    with pytest.raises(errors.ServiceError, match="at most 500"):
        chat.post_message(alice, started_match, "x" * 501)
    with pytest.raises(errors.ServiceError, match="Write something"):
        chat.post_message(alice, started_match, "   ")
    assert chat.post_message(alice, started_match, "  two   words ").text == "two words"
    assert ChatMessage.objects.count() == 1


def test_the_first_message_marks_the_match_as_having_chat(
    started_match, alice, django_assert_num_queries
):
    """A match nobody wrote in answers ``visible_messages`` without a query; a
    refused message marks nothing, the first accepted one marks the match."""
    with django_assert_num_queries(0):
        assert chat.visible_messages(started_match) == []
    with pytest.raises(errors.ServiceError):
        chat.post_message(alice, started_match, "   ")
    started_match.refresh_from_db()
    assert not started_match.has_chat
    chat.post_message(alice, started_match, "hello")
    started_match.refresh_from_db()
    assert started_match.has_chat
    assert [m.text for m in chat.visible_messages(started_match)] == ["hello"]


def test_chat_is_limited_per_player_and_match_in_the_cache(started_match, alice, bob):
    inside_one_window(margin=10, window=limits.CHAT.seconds)
    for i in range(limits.CHAT.count):
        chat.post_message(alice, started_match, f"line {i}")
    with pytest.raises(errors.TooFast):
        chat.post_message(alice, started_match, "one too many")
    chat.post_message(bob, started_match, "bob may still write")
    assert ChatMessage.objects.filter(user=alice).count() == limits.CHAT.count
