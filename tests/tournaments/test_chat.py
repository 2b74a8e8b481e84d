"""A tournament's chat: who writes, who reads, its limits, blocks and the
desk's hiding of a line (audited)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from accounts.models import Block
from core.errors import Forbidden, ServiceError
from games.models import CHAT_MAX_LENGTH, ModerationAction
from tests.tournaments.conftest import entered, new_tournament
from tournaments import chat, services
from tournaments.models import AuditKind, EntrantStatus, TournamentMessage

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def _fresh_limits():
    cache.clear()


@pytest.fixture
def cup(people):
    return entered(new_tournament(people[0], name="Chat cup"), people[1:3])


def _page(client, tournament) -> str:
    return client.get(reverse("tournament_detail", args=[tournament.pk])).content.decode()


def test_an_entrant_writes_through_the_page_and_everyone_reads(client, people, cup):
    client.force_login(people[1])
    url = reverse("tournament_chat", args=[cup.pk])
    assert 'id="tournament-chat-form"' in _page(client, cup)
    response = client.post(url, {"text": "  Good   luck <b>all</b> "})
    assert response.status_code == 302
    assert TournamentMessage.objects.get().text == "Good luck <b>all</b>"
    client.logout()
    page = _page(client, cup)  # anonymous: reads, no form
    assert "Good luck &lt;b&gt;all&lt;/b&gt;" in page
    assert 'id="tournament-chat-form"' not in page


def test_htmx_gets_the_chat_section_back_with_the_refusal_and_its_status(client, people, cup):
    client.force_login(people[2])
    url = reverse("tournament_chat", args=[cup.pk])
    response = client.post(url, {"text": "Hello"}, **HTMX)
    assert response.status_code == 200
    text = response.content.decode()
    assert text.lstrip().startswith('<section class="chat" id="tournament-chat"')
    assert "Hello" in text and "<html" not in text
    response = client.post(url, {"text": "x" * (CHAT_MAX_LENGTH + 1)}, **HTMX)
    assert response.status_code == 400
    assert "at most 500 characters" in response.content.decode()
    assert TournamentMessage.objects.count() == 1


def test_strangers_and_removed_entrants_cannot_write_but_moderators_can(
    client, people, cup, moderator
):
    with pytest.raises(Forbidden):
        chat.post_message(people[5], cup, "Let me in")
    client.force_login(people[5])
    response = client.post(reverse("tournament_chat", args=[cup.pk]), {"text": "hi"}, **HTMX)
    assert response.status_code == 403
    assert 'id="tournament-chat-form"' not in _page(client, cup)
    services.start(cup.pk, now=cup.starts_at)
    services.remove_entrant(moderator, cup.entrants.get(user=people[2]), "Abusive in chat")
    assert cup.entrants.get(user=people[2]).status == EntrantStatus.REMOVED
    with pytest.raises(Forbidden):
        chat.post_message(people[2], cup, "still here")
    # A withdrawn entrant still talks; a moderator may write to the entrants.
    services.withdraw(user=people[1], tournament=cup)
    chat.post_message(people[1], cup, "Good games")
    chat.post_message(moderator, cup, "Please keep it friendly")
    assert TournamentMessage.objects.count() == 2


def test_bad_text_and_fast_writing_are_refused_and_nothing_is_kept(people, cup):
    for bad in ["", "   ", "x" * (CHAT_MAX_LENGTH + 1)]:
        with pytest.raises(ServiceError):
            chat.post_message(people[1], cup, bad)
    for i in range(chat.CHAT_LIMIT.count):
        chat.post_message(people[1], cup, f"line {i}")
    with pytest.raises(ServiceError) as refused:
        chat.post_message(people[1], cup, "one too many")
    assert refused.value.status == 429
    assert TournamentMessage.objects.count() == chat.CHAT_LIMIT.count
    chat.post_message(people[2], cup, "others may still write")


def test_a_viewer_does_not_read_whom_they_blocked_and_the_organisers_block_silences(
    client, people, cup
):
    chat.post_message(people[1], cup, "from one")
    chat.post_message(people[2], cup, "from two")
    Block.objects.create(blocker=people[2], blocked=people[1])
    client.force_login(people[2])
    page = _page(client, cup)
    assert "from two" in page and "from one" not in page
    client.force_login(people[0])
    assert "from one" in _page(client, cup)
    Block.objects.create(blocker=people[0], blocked=people[1])  # the organiser
    with pytest.raises(Forbidden):
        chat.post_message(people[1], cup, "again")


def test_the_desk_hides_a_line_audited_and_not_in_a_tournament_the_moderator_plays(
    client, people, cup, moderator
):
    line = chat.post_message(people[1], cup, "rude words")
    client.force_login(moderator)
    url = reverse("admin:tournaments_tournamentmessage_hide", args=[line.pk])
    listing = client.get(reverse("admin:tournaments_tournamentmessage_changelist"))
    assert listing.status_code == 200 and url in listing.content.decode()
    assert client.get(url).status_code == 200
    response = client.post(url, {"reason": "Insults in chat", "confirm": "on"})
    assert response.status_code == 302
    line.refresh_from_db()
    assert line.hidden_at is not None and line.hidden_by == moderator
    action = ModerationAction.objects.get(kind=AuditKind.HIDE_CHAT)
    assert action.user == people[1] and action.details["text"] == "rude words"
    assert "rude words" not in _page(client, cup)
    with pytest.raises(ServiceError):  # twice: refused, one audit row
        chat.hide_message(moderator, line, "Insults again")
    assert ModerationAction.objects.filter(kind=AuditKind.HIDE_CHAT).count() == 1
    # Without a reason: refused, nothing hidden.
    other = chat.post_message(people[2], cup, "more")
    with pytest.raises(ServiceError):
        chat.hide_message(moderator, other, "")
    # A moderator who entered leaves the chat to another moderator.
    services.join(user=moderator, tournament=cup)
    with pytest.raises(Forbidden):
        chat.hide_message(moderator, other, "Spam in the chat")
    other.refresh_from_db()
    assert other.hidden_at is None
    with pytest.raises(Forbidden):  # and a player is no moderator
        chat.hide_message(people[0], other, "Spam in the chat")
