"""A moderator's own matches are moderated by another moderator.

A moderator who holds a seat in a match plays it as any player does: the
desk shows them neither its raw state nor its seed nor its private log
lines (the other seats' hands, the order of the decks), offers no action on
it, and every action on it is refused by the services, with the reason. The
same match is moderated by another moderator as ever, audited as ever.
"""

import json

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from core import errors
from games.lobby import services as lobby
from games.models import MatchStatus, ModerationAction, Move
from games.moderation import actions as moderation
from games.play import chat
from tests.conftest import play_one

pytestmark = pytest.mark.django_db
REASON = "the match is stuck"
OWN = "You play in this match"


def _moderator(username):
    user = get_user_model().objects.create_user(
        username, email=f"{username}@example.com", password="pw", is_staff=True
    )
    user.groups.add(Group.objects.get(name="moderator"))
    return user


@pytest.fixture
def seated(alice, bob, nogi):
    """A Nogi match of three in play where the moderator "mia" holds seat 2."""
    mia = _moderator("mia")
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=3)
    lobby.join_match(user=bob, match=match)
    lobby.join_match(user=mia, match=match)
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    for _ in range(3):
        play_one(match, nogi)
    match.refresh_from_db()
    return match, mia


def _secrets_of(match) -> list[str]:
    """Texts that only the raw state, the seed or private log lines hold."""
    found = [match.seed, json.dumps(match.state["dragon_stack"])]
    for move in Move.objects.filter(match=match):
        for event in move.events:
            if event.get("private_to") is not None:
                found.append(str(event))
    return found


def test_the_desk_hides_a_moderators_own_match_and_offers_no_action(seated):
    match, mia = seated
    client = Client()
    client.force_login(mia)
    page = client.get(reverse("admin:games_match_change", args=[match.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert OWN in html
    assert "State (unredacted)" not in html and 'id="state-json"' not in html
    assert match.seed not in html and match.seed_hash in html
    assert "dragon_stack" not in html and "shields" not in html
    for op in ["abort", "extend", "force_timeout", "undo", "adjudicate"]:
        assert reverse("admin:games_match_moderate", args=[match.pk, op]) not in html
    # The moves' own pages are not a way round it.
    moves = client.get(reverse("admin:games_move_changelist"))
    assert moves.status_code == 200
    for move in match.moves.all():
        assert reverse("admin:games_move_change", args=[move.pk]) not in moves.content.decode()
        assert client.get(reverse("admin:games_move_change", args=[move.pk])).status_code in (
            302,
            404,
        )
    # Another moderator sees all of it.
    other = Client()
    other.force_login(_moderator("otto"))
    html = other.get(reverse("admin:games_match_change", args=[match.pk])).content.decode()
    assert "State (unredacted)" in html and "dragon_stack" in html and match.seed in html
    assert OWN not in html


def test_every_action_on_a_moderators_own_match_is_refused(seated, alice, bob):
    match, mia = seated
    version = match.version
    client = Client()
    client.force_login(mia)
    for op in ["abort", "extend", "force_timeout", "undo", "adjudicate", "replace_with_bot"]:
        url = reverse("admin:games_match_moderate", args=[match.pk, op])
        data = {"reason": REASON, "confirm": "on", "hours": 2, "count": 1, "ranks": "2,3,1"}
        data["seat"] = 1
        response = client.post(url, data, follow=True)
        assert response.status_code in (200, 403)
        if response.status_code == 200:
            assert OWN in response.content.decode(), op
    calls = [
        lambda: moderation.abort_match(mia, match, REASON),
        lambda: moderation.extend_deadline(mia, match, 2, REASON),
        lambda: moderation.force_timeout(mia, match, REASON),
        lambda: moderation.replace_with_bot(mia, match, 0, REASON),
        lambda: moderation.reinstate(mia, match, 0, REASON),
        lambda: moderation.adjudicate(mia, match, [2, 3, 1], REASON),
        lambda: moderation.undo_moves(mia, match, 1, REASON),
    ]
    message = chat.post_message(bob, match, "hello")
    calls.append(lambda: moderation.hide_message(mia, message, REASON))
    report = chat.report(alice, match, "rude words", message_id=message.pk)
    calls.append(lambda: moderation.resolve_report(mia, report, REASON))
    for call in calls:
        with pytest.raises(errors.Forbidden, match=OWN):
            call()
    match.refresh_from_db()
    assert match.version == version and match.status == MatchStatus.ACTIVE
    assert not ModerationAction.objects.filter(match=match).exists()


def test_another_moderator_moderates_it_audited_as_ever(seated):
    match, mia = seated
    otto = _moderator("otto")
    moderation.extend_deadline(otto, match, 2, REASON)
    moderation.abort_match(otto, match, REASON)
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED
    kinds = list(
        ModerationAction.objects.filter(match=match)
        .order_by("pk")
        .values_list("moderator__username", "kind")
    )
    assert kinds == [("otto", "extend"), ("otto", "abort")]
    # Once it is over it is still theirs: its result is corrected by someone else.
    with pytest.raises(errors.Forbidden, match=OWN):
        moderation.correct_result(mia, match, [1, 2, 3], REASON)


def test_a_report_about_a_moderator_is_resolved_by_another(started_match, alice):
    """Not their match, but a report that names them: someone else resolves it."""
    from games.models import Report

    mia = _moderator("mia")
    report = Report.objects.create(
        reporter=alice, match=started_match, reported_user=mia, reason="rude player"
    )
    with pytest.raises(errors.Forbidden, match="This report is about you"):
        moderation.resolve_report(mia, report, REASON)
    moderation.resolve_report(_moderator("otto"), report, REASON)
    report.refresh_from_db()
    assert report.resolved_at is not None
