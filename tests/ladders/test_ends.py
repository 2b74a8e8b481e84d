"""How challenges end without a result on the board: the 7-day deadline (the
beat's task), a moderator's abort, a deactivated or deleted player, and the
moderators' ladder actions with their audit."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from core.errors import Conflict, Forbidden, NotFound, ServiceError
from games.models import MatchStatus, ModerationAction
from games.moderation import actions as moderation
from ladders import services, tasks
from ladders.models import AuditKind, Challenge, ChallengeStatus, Entry, Outcome
from tests.ladders.conftest import finish, order, seat_ranks

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(make_user):
    user = make_user("mod")
    user.is_staff = True
    user.save()
    user.groups.add(Group.objects.get(name="moderator"))
    return user


def _overdue(challenge):
    Challenge.objects.filter(pk=challenge.pk).update(
        accept_by=timezone.now() - timedelta(seconds=1)
    )


def test_an_unanswered_challenge_expires_and_the_challenger_moves_up(ladder_of):
    p1, p2, p3 = ladder_of(3)
    challenge = services.challenge(p3, "drako", "p1")
    assert tasks.expire_challenges() == {}  # not due yet
    _overdue(challenge)
    assert tasks.expire_challenges() == {"expired": 1}
    challenge.refresh_from_db()
    assert challenge.outcome == Outcome.EXPIRED and challenge.moved
    assert order() == ["p3", "p1", "p2"]
    challenge.match.refresh_from_db()
    assert challenge.match.status == MatchStatus.ABORTED
    # Run again (a second worker, a retried task): nothing more happens.
    assert tasks.expire_challenges() == {}
    assert services.expire(challenge.pk) == "skipped"
    assert order() == ["p3", "p1", "p2"]


def test_the_challenge_cannot_be_accepted_after_its_deadline(ladder_of):
    p1, p2 = ladder_of(2)
    challenge = services.challenge(p2, "drako", "p1")
    _overdue(challenge)
    with pytest.raises(Conflict):
        services.accept(p1, challenge.pk)
    challenge.match.refresh_from_db()
    assert challenge.match.status == MatchStatus.OPEN
    assert order() == ["p1", "p2"]


def test_an_accepted_challenge_never_expires(ladder_of):
    p1, p2 = ladder_of(2)
    challenge = services.challenge(p2, "drako", "p1")
    services.accept(p1, challenge.pk)
    _overdue(challenge)
    assert tasks.expire_challenges() == {}
    challenge.refresh_from_db()
    assert challenge.is_open


def test_a_match_started_from_its_page_is_marked_accepted_by_the_sweep(ladder_of):
    from games.lobby import services as lobby

    p1, p2 = ladder_of(2)
    challenge = services.challenge(p2, "drako", "p1")
    lobby.join_match(user=p1, match=challenge.match)
    _overdue(challenge)
    assert tasks.expire_challenges() == {"accepted": 1}
    challenge.refresh_from_db()
    assert challenge.is_open and challenge.accepted_at is not None
    assert order() == ["p1", "p2"]


def test_a_moderator_abort_cancels_the_challenge_without_moving_anyone(ladder_of, moderator):
    p1, p2 = ladder_of(2)
    challenge = services.challenge(p2, "drako", "p1")
    services.accept(p1, challenge.pk)
    moderation.abort_match(moderator, challenge.match, "a broken match, sorry")
    challenge.refresh_from_db()
    assert challenge.status == ChallengeStatus.DONE and challenge.outcome == Outcome.CANCELLED
    assert not challenge.moved
    assert order() == ["p1", "p2"]
    services.challenge(p2, "drako", "p1")  # free to challenge again


def test_a_deactivated_player_leaves_every_ladder(ladder_of, moderator):
    p1, p2, p3 = ladder_of(3)
    services.join(p2, "nogi")
    pending = services.challenge(p3, "drako", "p2")
    moderation.deactivate_user(moderator, p2, "spam in every chat")
    assert order() == ["p1", "p3"]
    assert not Entry.objects.filter(user=p2).exists()
    pending.refresh_from_db()
    assert pending.outcome == Outcome.CANCELLED
    pending.match.refresh_from_db()
    assert pending.match.status == MatchStatus.ABORTED


def test_a_deactivated_player_mid_match_loses_it_and_moves_nobody(ladder_of, moderator):
    p1, p2, p3 = ladder_of(3)
    playing = services.challenge(p3, "drako", "p1")
    services.accept(p1, playing.pk)
    moderation.deactivate_user(moderator, p3, "spam in every chat")
    playing.refresh_from_db()
    playing.match.refresh_from_db()
    # The deactivated challenger lost on time before each seat moved: the
    # match is aborted (unrated), and on the ladder it is their loss: no
    # change for the others.
    assert playing.match.status == MatchStatus.ABORTED
    assert playing.match.ended_early_by == 0
    assert playing.outcome == Outcome.LOST and not playing.moved
    assert order() == ["p1", "p2"]


def test_a_deactivated_defender_loses_but_the_winner_takes_no_vanished_place(ladder_of, moderator):
    p1, p2, p3 = ladder_of(3)
    playing = services.challenge(p3, "drako", "p1")
    services.accept(p1, playing.pk)
    moderation.deactivate_user(moderator, p1, "spam in every chat")
    playing.refresh_from_db()
    assert playing.outcome == Outcome.WON and not playing.moved
    assert order() == ["p2", "p3"]


def test_a_deleted_player_leaves_and_their_open_challenge_goes(ladder_of):
    p1, p2, p3 = ladder_of(3)
    challenge = services.challenge(p3, "drako", "p2")
    match = challenge.match
    p2.delete()
    assert order() == ["p1", "p3"]
    assert not Challenge.objects.filter(pk=challenge.pk).exists()
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED


def test_a_moderator_removes_a_player_with_an_audit_entry(ladder_of, moderator):
    p1, p2, p3 = ladder_of(3)
    challenge = services.challenge(p3, "drako", "p2")
    entry = Entry.objects.get(user=p2)
    with pytest.raises(ServiceError):
        services.remove_entry(moderator, entry.pk, "no")
    audit = services.remove_entry(moderator, entry.pk, "a cheat, see report 12")
    assert audit.kind == AuditKind.REMOVE_PLAYER and audit.user == p2
    assert order() == ["p1", "p3"]
    challenge.refresh_from_db()
    assert challenge.outcome == Outcome.CANCELLED
    with pytest.raises(NotFound):
        services.remove_entry(moderator, entry.pk, "a cheat, see report 12")
    assert ModerationAction.objects.count() == 1


def test_a_moderator_cancels_a_challenge_with_an_audit_entry(ladder_of, moderator):
    p1, p2 = ladder_of(2)
    challenge = services.challenge(p2, "drako", "p1")
    audit = services.cancel_challenge(moderator, challenge.pk, "they agreed to call it off")
    assert (
        audit.kind == AuditKind.CANCEL_CHALLENGE
        and audit.details["challenge"] == challenge.pk
        and audit.match_id == challenge.match_id
    )
    challenge.refresh_from_db()
    assert challenge.outcome == Outcome.CANCELLED and not challenge.moved
    assert order() == ["p1", "p2"]
    with pytest.raises(Conflict):
        services.cancel_challenge(moderator, challenge.pk, "they agreed to call it off")
    with pytest.raises(NotFound):
        services.cancel_challenge(moderator, 10**6, "they agreed to call it off")


def test_players_are_not_moderators(ladder_of):
    p1, p2 = ladder_of(2)
    challenge = services.challenge(p2, "drako", "p1")
    with pytest.raises(Forbidden):
        services.cancel_challenge(p1, challenge.pk, "I do not like it")
    with pytest.raises(Forbidden):
        services.remove_entry(p1, Entry.objects.get(user=p2).pk, "I do not like it")
    assert not ModerationAction.objects.exists()


def test_a_finished_challenge_match_is_recorded_once(ladder_of):
    p1, p2 = ladder_of(2)
    challenge = services.challenge(p2, "drako", "p1")
    services.accept(p1, challenge.pk)
    match = finish(challenge.match, seat_ranks(challenge.match, p2))
    services.match_ended(match, list(match.seats.all()))  # told twice
    assert order() == ["p2", "p1"]


def test_the_expiry_runs_on_the_beat_and_is_a_registered_task():
    from django.conf import settings

    from config.celery import app

    beat = {entry["task"]: entry["schedule"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert beat["ladders.tasks.expire_challenges"] <= 15 * 60
    app.loader.import_default_modules()
    assert "ladders.tasks.expire_challenges" in app.tasks


def test_a_seat_filled_with_a_bot_cancels_the_challenge(ladder_of):
    from games.lobby import services as lobby

    p1, p2 = ladder_of(2)
    challenge = services.challenge(p2, "drako", "p1")
    lobby.fill_with_bots(user=p2, match=challenge.match)
    challenge.match.refresh_from_db()
    finish(challenge.match, [1, 2])
    challenge.refresh_from_db()
    assert challenge.outcome == Outcome.CANCELLED and not challenge.moved
    assert order() == ["p1", "p2"]
