"""Comments on a finished match's replay (issue 42, item 9): its players, and
anyone signed in when they allow it on a public match, comment on any step;
a comment shows beside its step and in the list of all, linking to it. A
match in play refuses, bad input is refused with a message and changes
nothing, blocks close the comments, a moderator hides one (audited)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts import roles
from accounts import services as accounts
from core import limits
from games.history import comments
from games.lobby import services as lobby
from games.models import MatchStatus, ModerationAction, ReplayComment, Visibility
from games.moderation import actions as moderation
from games.play import safety
from tests.conftest import each_seat_moves, inside_one_window

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(alice, bob):
    """A public two-player Nogi match alice won: bob resigned after each seat moved."""
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=match)
    match = each_seat_moves(match)
    safety.resign(user=bob, match=match)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    return match


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def post_comment(client, match, step, text):
    url = reverse("match_replay_comment", args=[match.pk])
    return client.post(url, {"step": str(step), "text": text})


def test_a_player_comments_on_a_step_and_it_shows_beside_it_and_in_the_list(finished, alice):
    client = client_of(alice)
    response = post_comment(client, finished, 1, "  A <b>bold</b>   opening ")
    assert response.status_code == 302
    assert response["Location"].endswith("?at=1#step-comments")
    comment = ReplayComment.objects.get()
    assert (comment.step, comment.user, comment.text) == (1, alice, "A <b>bold</b> opening")
    page = client.get(reverse("match_replay", args=[finished.pk]) + "?at=1").content.decode()
    beside = re.search(r'id="this-step-comments">(.*?)</ul>', page, re.S).group(1)
    assert "A &lt;b&gt;bold&lt;/b&gt; opening" in beside  # escaped, never markup
    assert "<b>bold</b>" not in page
    every = re.search(r'id="all-comments">(.*?)</section>', page, re.S).group(1)
    assert f'href="/m/{finished.pk}/replay/?at=1#step-comments"' in every
    # On another step it is only in the list, not beside the board.
    other = client.get(reverse("match_replay", args=[finished.pk]) + "?at=0").content.decode()
    assert 'id="this-step-comments"' not in other
    assert "A &lt;b&gt;bold&lt;/b&gt; opening" in other


def test_a_match_in_play_refuses_comments_with_a_message(alice, bob):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=match)
    response = post_comment(client_of(alice), match, 0, "too early")
    assert response.status_code == 403
    assert "Comments open once the match is finished." in response.content.decode()
    assert not ReplayComment.objects.exists()
    page = client_of(alice).get(reverse("match_replay", args=[match.pk])).content.decode()
    assert 'id="comment-form"' not in page


@pytest.mark.parametrize(
    ("step", "text", "status", "message"),
    [
        ("1", "   ", 400, "Write something first."),
        ("1", "x" * 501, 400, "Comments are at most 500 characters."),
        ("99999", "late", 400, "There is no such step in this match."),
        ("-1", "negative", 400, "There is no such step in this match."),
        ("one", "words", 400, "There is no such step in this match."),
    ],
)
def test_bad_input_is_refused_with_a_message_and_changes_nothing(
    finished, alice, step, text, status, message
):
    response = post_comment(client_of(alice), finished, step, text)
    assert response.status_code == status
    assert message in response.content.decode()
    assert not ReplayComment.objects.exists()


def test_strangers_comment_only_on_a_public_match_its_players_opened(finished, alice, carol):
    stranger = client_of(carol)
    assert post_comment(stranger, finished, 1, "nice").status_code == 403
    assert post_comment(Client(), finished, 1, "anonymous").status_code == 403
    # Only a player opens it.
    url = reverse("match_replay_comments_public", args=[finished.pk])
    assert stranger.post(url, {"allow": "1", "step": "1"}).status_code == 403
    assert client_of(alice).post(url, {"allow": "1", "step": "1"}).status_code == 302
    finished.refresh_from_db()
    assert finished.public_replay_comments
    assert post_comment(stranger, finished, 1, "nice").status_code == 302
    assert post_comment(Client(), finished, 1, "anonymous").status_code == 403
    assert list(ReplayComment.objects.values_list("user__username", flat=True)) == ["carol"]


def test_a_private_match_stays_to_its_players(finished, alice, carol):
    finished.visibility = Visibility.PRIVATE
    finished.public_replay_comments = True
    finished.save()
    assert post_comment(client_of(carol), finished, 1, "let me in").status_code == 404
    url = reverse("match_replay_comments_public", args=[finished.pk])
    response = client_of(alice).post(url, {"allow": "1", "step": "1"})
    assert response.status_code == 400
    assert not ReplayComment.objects.exists()


def test_blocked_users_do_not_comment_on_each_other_s_matches(finished, alice, carol):
    comments.set_public_comments(alice, finished, True)
    accounts.block(alice, carol.username)
    response = post_comment(client_of(carol), finished, 1, "hello")
    assert response.status_code == 403
    assert "Comments on this replay are closed to you." in response.content.decode()
    # Either way: the one who blocked does not comment on the blocked one's match either.
    accounts.unblock(alice, carol.username)
    accounts.block(carol, "bob")
    assert post_comment(client_of(carol), finished, 1, "hello").status_code == 403
    assert not ReplayComment.objects.exists()


def test_comments_are_rate_limited_per_user_and_match(finished, alice):
    inside_one_window(margin=20, window=limits.REPLAY_COMMENT.seconds)
    client = client_of(alice)
    for n in range(limits.REPLAY_COMMENT.count):
        assert post_comment(client, finished, 1, f"note {n}").status_code == 302
    response = post_comment(client, finished, 1, "one more")
    assert response.status_code == 429
    assert ReplayComment.objects.count() == limits.REPLAY_COMMENT.count


def test_a_moderator_hides_a_comment_audited_and_it_leaves_the_replay(finished, alice, make_user):
    comment = comments.post_comment(alice, finished, 1, "rude words")
    moderator = make_user("mod")
    moderator.is_staff = True
    moderator.save()
    moderator.groups.add(Group.objects.get(name=roles.MODERATOR_GROUP))
    moderation.hide_replay_comment(moderator, comment, "Insulting the opponent")
    action = ModerationAction.objects.get(kind=ModerationAction.Kind.HIDE_COMMENT)
    assert action.details["text"] == "rude words" and action.user == alice
    assert action.match_id == finished.pk
    page = client_of(alice).get(reverse("match_replay", args=[finished.pk]) + "?at=1")
    assert "rude words" not in page.content.decode()
    with pytest.raises(Exception, match="already hidden"):
        moderation.hide_replay_comment(moderator, comment, "Insulting the opponent")


def test_the_replay_with_comments_costs_a_bounded_number_of_queries(
    finished, alice, django_assert_max_num_queries
):
    """The comments cost the same few queries however many there are."""
    client = client_of(alice)
    url = reverse("match_replay", args=[finished.pk]) + "?at=1"
    client.get(url)
    counts = []
    for many in (1, 6):
        while ReplayComment.objects.count() < many:
            ReplayComment.objects.create(match=finished, step=1, user=alice, text="note")
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.content.decode().count('class="comment-text"') == 2 * many
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1], counts
    with django_assert_max_num_queries(20):
        client.get(url)


@pytest.mark.parametrize(
    ("language", "title", "label"),
    [
        ("en", "Comments on step 1", "Your comment on step 1"),
        ("pl", "Komentarze do kroku 1", "Skomentuj krok 1"),
        ("cs", "Komentáře ke kroku 1", "Okomentuj krok 1"),
    ],
)
def test_the_comments_speak_the_player_s_language(finished, alice, language, title, label):
    from accounts.models import Profile

    Profile.objects.filter(user=alice).update(language=language)
    page = client_of(alice).get(reverse("match_replay", args=[finished.pk]) + "?at=1")
    text = page.content.decode()
    assert title in text and label in text


def _without_comments(page: str) -> str:
    """The page less its comment sections, with the per-answer tokens made equal."""
    page = re.sub(r'<section class="replay-(all-)?comments".*?</section>', "", page, flags=re.S)
    page = re.sub(r'nonce="[^"]+"', 'nonce=""', page)
    page = re.sub(r'"X-CSRFToken": "[^"]+"', "", page)
    page = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", page)
    return "\n".join(line for line in page.splitlines() if line.strip())


def test_comments_add_nothing_hidden_to_the_replay(finished, alice, carol):
    """Secrets: a stranger's replay at a step with comments is the same page as
    without them, but for the comment sections, which hold only each comment's
    step, author and text."""
    comments.set_public_comments(alice, finished, True)
    stranger = client_of(carol)
    url = reverse("match_replay", args=[finished.pk]) + "?at=1"
    before = stranger.get(url).content.decode()
    comments.post_comment(alice, finished, 1, "my plan was the corner")
    comments.post_comment(carol, finished, 0, "a quiet start")
    after = stranger.get(url).content.decode()
    assert _without_comments(after) == _without_comments(before)
    listed = re.search(r'id="all-comments">(.*?)</section>', after, re.S).group(1)
    words = " ".join(re.sub(r"<[^>]+>", " ", listed).split())
    assert words == (
        "All comments Step 0 · carol: a quiet start Step 1 · alice: my plan was the corner"
    )


def test_only_a_moderator_not_playing_in_the_match_hides_a_comment(finished, alice, bob):
    from core.errors import Forbidden

    comment = comments.post_comment(alice, finished, 1, "a comment")
    with pytest.raises(Forbidden):
        moderation.hide_replay_comment(bob, comment, "I do not like it")
    bob.is_staff = True
    bob.save()
    bob.groups.add(Group.objects.get(name=roles.MODERATOR_GROUP))
    with pytest.raises(Forbidden):  # bob plays in this match
        moderation.hide_replay_comment(bob, comment, "I do not like it")
    comment.refresh_from_db()
    assert comment.hidden_at is None
    assert not ModerationAction.objects.filter(kind=ModerationAction.Kind.HIDE_COMMENT).exists()
