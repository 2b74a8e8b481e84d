"""The ladder's rules through its services: joining, reach, one open
challenge each way, accepting, declining, the result of the match, leaving."""

from __future__ import annotations

import pytest
from django.core import mail

from accounts.models import Block
from core.errors import Conflict, Forbidden, NotFound, ServiceError
from games.models import Invitation, MatchStatus, Notification, NotificationKind, Visibility
from ladders import services
from ladders.models import Challenge, ChallengeStatus, Entry, Outcome
from tests.ladders.conftest import finish, order, seat_ranks

pytestmark = pytest.mark.django_db


def test_players_join_at_the_bottom_once(ladder_of):
    users = ladder_of(3)
    assert order() == ["p1", "p2", "p3"]
    with pytest.raises(Conflict):
        services.join(users[0], "drako")
    assert order() == ["p1", "p2", "p3"]


def test_every_two_player_game_has_a_ladder_and_no_other_key(alice):
    for key in ("drako", "nogi", "drakon", "seven_dragons", "drakon_classic"):
        services.join(alice, key)
    with pytest.raises(NotFound):
        services.join(alice, "chess")


def test_a_challenge_opens_a_private_match_and_invites_the_challenged(ladder_of):
    p1, p2, p3 = ladder_of(3)
    challenge = services.challenge(p3, "drako", "p1")
    match = challenge.match
    assert match.status == MatchStatus.OPEN and match.visibility == Visibility.PRIVATE
    assert match.n_seats == 2 and match.game_key == "drako" and match.rated
    assert list(match.seats.values_list("user_id", flat=True)) == [p3.pk]
    assert Invitation.objects.filter(match=match, invited_user=p1).exists()
    assert Notification.objects.filter(
        user=p1, match=match, kind=NotificationKind.INVITATION
    ).exists()
    assert challenge.accept_by > challenge.created_at


@pytest.mark.parametrize(
    "who, target, error",
    [
        ("p3", "p3", ServiceError),  # yourself
        ("p5", "p1", ServiceError),  # four places up: too far
        ("p2", "p3", ServiceError),  # below
        ("p2", "nobody", ServiceError),
        ("p2", "", ServiceError),
    ],
)
def test_bad_challenges_are_refused_and_change_nothing(ladder_of, who, target, error):
    users = {u.username: u for u in ladder_of(5)}
    with pytest.raises(error):
        services.challenge(users[who], "drako", target)
    assert not Challenge.objects.exists()
    assert order() == ["p1", "p2", "p3", "p4", "p5"]


def test_exactly_the_reach_is_allowed(ladder_of, settings):
    users = ladder_of(5)
    assert settings.SMOKI["LADDER_REACH"] == 3
    services.challenge(users[4], "drako", "p2")  # three places up


def test_not_on_the_ladder_cannot_challenge(ladder_of, make_user):
    ladder_of(2)
    outsider = make_user("out")
    with pytest.raises(Conflict):
        services.challenge(outsider, "drako", "p1")


def test_one_open_challenge_each_way(ladder_of):
    p1, p2, p3, p4 = ladder_of(4)
    services.challenge(p3, "drako", "p1")
    with pytest.raises(Conflict):
        services.challenge(p3, "drako", "p2")  # p3 has one sent already
    with pytest.raises(Conflict):
        services.challenge(p2, "drako", "p1")  # p1 has one to answer
    services.challenge(p4, "drako", "p3")  # p3 may still receive one
    assert Challenge.objects.filter(status=ChallengeStatus.OPEN).count() == 2


def test_a_blocked_player_cannot_be_challenged(ladder_of):
    p1, p2 = ladder_of(2)
    Block.objects.create(blocker=p1, blocked=p2)
    with pytest.raises(Forbidden):
        services.challenge(p2, "drako", "p1")


def test_the_daily_limit(ladder_of, monkeypatch):
    from core import limits

    monkeypatch.setattr(services, "CHALLENGES", limits.Limit("ladder-challenge", 1, 86400))
    p1, p2 = ladder_of(2)
    services.decline(p1, services.challenge(p2, "drako", "p1").pk)
    services.decline(p2, services.challenge(p1, "drako", "p2").pk)
    assert order() == ["p1", "p2"]
    with pytest.raises(ServiceError, match="today"):
        services.challenge(p2, "drako", "p1")  # p2's second today
    assert Challenge.objects.count() == 2


def test_accepting_starts_the_match_and_a_win_takes_the_place(ladder_of):
    p1, p2, p3, p4 = ladder_of(4)
    challenge = services.challenge(p4, "drako", "p1")
    services.accept(p1, challenge.pk)
    challenge.refresh_from_db()
    assert challenge.accepted_at is not None
    match = challenge.match
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    finish(match, seat_ranks(match, p4))
    challenge.refresh_from_db()
    assert challenge.status == ChallengeStatus.DONE and challenge.outcome == Outcome.WON
    assert challenge.moved
    assert order() == ["p4", "p1", "p2", "p3"]


def test_a_lost_challenge_changes_nothing(ladder_of):
    p1, p2, p3 = ladder_of(3)
    challenge = services.challenge(p3, "drako", "p2")
    services.accept(p2, challenge.pk)
    challenge.match.refresh_from_db()
    finish(challenge.match, seat_ranks(challenge.match, p2))
    challenge.refresh_from_db()
    assert challenge.outcome == Outcome.LOST and not challenge.moved
    assert order() == ["p1", "p2", "p3"]


def test_a_draw_keeps_the_places(ladder_of):
    p1, p2 = ladder_of(2)
    challenge = services.challenge(p2, "drako", "p1")
    services.accept(p1, challenge.pk)
    finish(challenge.match, [1, 1])
    challenge.refresh_from_db()
    assert challenge.outcome == Outcome.DRAWN
    assert order() == ["p1", "p2"]


def test_declining_loses_the_challenge(ladder_of):
    p1, p2, p3 = ladder_of(3)
    challenge = services.challenge(p3, "drako", "p2")
    services.decline(p2, challenge.pk)
    challenge.refresh_from_db()
    assert challenge.outcome == Outcome.DECLINED and challenge.moved
    assert order() == ["p1", "p3", "p2"]
    challenge.match.refresh_from_db()
    assert challenge.match.status == MatchStatus.ABORTED
    assert not Invitation.objects.filter(match=challenge.match).exists()


def test_only_the_challenged_answers_and_only_once(ladder_of, make_user):
    p1, p2, p3 = ladder_of(3)
    challenge = services.challenge(p3, "drako", "p2")
    for user in (p1, p3):
        with pytest.raises(NotFound):
            services.accept(user, challenge.pk)
        with pytest.raises(NotFound):
            services.decline(user, challenge.pk)
    with pytest.raises(NotFound):
        services.accept(p2, 10**6)
    services.decline(p2, challenge.pk)
    with pytest.raises(Conflict):
        services.accept(p2, challenge.pk)
    with pytest.raises(Conflict):
        services.decline(p2, challenge.pk)
    assert order() == ["p1", "p3", "p2"]


def test_an_accepted_challenge_cannot_be_declined(ladder_of):
    p1, p2 = ladder_of(2)
    challenge = services.challenge(p2, "drako", "p1")
    services.accept(p1, challenge.pk)
    with pytest.raises(Conflict):
        services.decline(p1, challenge.pk)
    assert order() == ["p1", "p2"]


def test_joining_the_match_from_its_own_page_counts_as_accepting(ladder_of):
    from games.lobby import services as lobby

    p1, p2 = ladder_of(2)
    challenge = services.challenge(p2, "drako", "p1")
    lobby.join_match(user=p1, match=challenge.match)
    challenge.match.refresh_from_db()
    finish(challenge.match, seat_ranks(challenge.match, p2))
    assert order() == ["p2", "p1"]


def test_a_match_someone_else_played_cancels_the_challenge(ladder_of, make_user):
    from games.lobby import services as lobby

    p1, p2 = ladder_of(2)
    friend = make_user("friend")
    challenge = services.challenge(p2, "drako", "p1")
    lobby.join_match(user=friend, match=challenge.match, token=challenge.match.invite_token)
    challenge.match.refresh_from_db()
    finish(challenge.match, seat_ranks(challenge.match, p2))
    challenge.refresh_from_db()
    assert challenge.outcome == Outcome.CANCELLED
    assert order() == ["p1", "p2"]


def test_leaving_closes_the_gap_and_withdraws_an_unanswered_challenge(ladder_of):
    p1, p2, p3, p4 = ladder_of(4)
    challenge = services.challenge(p4, "drako", "p2")
    services.leave(p2, "drako")
    assert order() == ["p1", "p3", "p4"]
    challenge.refresh_from_db()
    assert challenge.outcome == Outcome.CANCELLED
    # p4 is now third: two places up reaches the top
    services.challenge(p4, "drako", "p1")
    with pytest.raises(Conflict):
        services.leave(p2, "drako")


def test_leaving_during_a_ladder_match_is_refused(ladder_of):
    p1, p2 = ladder_of(2)
    challenge = services.challenge(p2, "drako", "p1")
    services.accept(p1, challenge.pk)
    with pytest.raises(Conflict):
        services.leave(p1, "drako")
    assert order() == ["p1", "p2"]


def test_the_win_moves_everyone_between_down_one(ladder_of):
    users = ladder_of(6)
    challenge = services.challenge(users[5], "drako", "p3")
    services.decline(users[2], challenge.pk)
    assert order() == ["p1", "p2", "p6", "p3", "p4", "p5"]
    rungs = list(Entry.objects.order_by("rung").values_list("rung", flat=True))
    assert len(set(rungs)) == 6 and all(r > 0 for r in rungs)


def test_the_challenged_player_is_emailed_through_the_outbox(ladder_of):
    from games.correspondence import delivery

    p1, p2 = ladder_of(2)
    challenge = services.challenge(p2, "drako", "p1")
    row = Notification.objects.get(user=p1, match=challenge.match)
    mail.outbox.clear()
    delivery.deliver(row.pk)
    (email,) = mail.outbox
    assert email.to == ["p1@example.com"]
    assert f"/m/{challenge.match_id}/" in email.body


def test_the_acceptance_window_is_seven_days(ladder_of, settings):
    """``LADDER_ACCEPT_DAYS`` is 7 by default, and a challenge's deadline is
    its creation plus that many days (a changed setting moves it)."""
    from datetime import timedelta

    from django.utils import timezone

    assert settings.SMOKI["LADDER_ACCEPT_DAYS"] == 7
    ladder_of(4)
    p3, p4 = (Entry.objects.get(user__username=n).user for n in ("p3", "p4"))
    before = timezone.now()
    challenge = services.challenge(p3, "drako", "p1")
    after = timezone.now()
    assert before + timedelta(days=7) <= challenge.accept_by <= after + timedelta(days=7)
    assert abs(challenge.accept_by - challenge.created_at - timedelta(days=7)) < timedelta(
        seconds=1
    )
    settings.SMOKI = {**settings.SMOKI, "LADDER_ACCEPT_DAYS": 2}
    shorter = services.challenge(p4, "drako", "p2")
    assert abs(shorter.accept_by - shorter.created_at - timedelta(days=2)) < timedelta(seconds=1)


def test_a_two_seat_challenge_in_nogi_played_to_its_end(ladder_of):
    """Nogi seats two to seven; a ladder challenge is its two-seat match,
    played move by move through ``games.play.services.submit_action`` (the
    heuristic bot choosing for each player) until the game ends. The result
    settles the challenge and the ladder, and the match is rated."""
    from games.engine import registry
    from games.play import services as game_services
    from players.models import Rating
    from tests.conformance.kit import bot_choice

    p1, p2 = ladder_of(2, "nogi")
    challenge = services.challenge(p2, "nogi", "p1")
    services.accept(p1, challenge.pk)
    match = challenge.match
    match.refresh_from_db()
    assert match.n_seats == 2 and match.status == MatchStatus.ACTIVE
    game = registry.get("nogi")
    for step in range(3000):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            break
        (seat, *_rest) = game.current_seats(match.state)
        action = bot_choice("nogi", match.state, seat, "heuristic", f"ladder{step}")
        user = match.seats.get(index=seat).user
        game_services.submit_action(match, user, action, match.version)
    assert match.status == MatchStatus.FINISHED
    ranks = dict(match.seats.values_list("user__username", "rank"))
    challenge.refresh_from_db()
    assert challenge.status == ChallengeStatus.DONE
    if ranks["p2"] < ranks["p1"]:
        assert challenge.outcome == Outcome.WON and order("nogi") == ["p2", "p1"]
    else:
        assert challenge.outcome != Outcome.WON and order("nogi") == ["p1", "p2"]
    assert Rating.objects.filter(game_key="nogi", user__in=[p1, p2]).count() == 2
