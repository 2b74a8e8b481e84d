"""The correspondence clock: deadlines, banks, reminders, timeouts and vacations.

Time is moved with time-machine, never slept.
"""

import json
from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core import errors
from games.dispatch import notifications
from games.lobby import services as lobby
from games.models import (
    ActorKind,
    DeliveryStatus,
    Match,
    MatchStatus,
    Notification,
    NotificationKind,
    SeatStatus,
    TimeoutPolicy,
)
from games.play import services, timeouts
from games.play import vacation as vacations
from tests.clock import DAY, START, two_player
from tests.conftest import each_seat_moves, play_one, user_to_move

pytestmark = pytest.mark.django_db
HOUR = timedelta(hours=1)


def reminders(match):
    return sorted(
        Notification.objects.filter(match=match, kind=NotificationKind.REMINDER).values_list(
            "tag", "version"
        )
    )


def test_the_deadline_is_the_time_per_move_from_the_turn_start(traveller, alice, bob):
    match = two_player(alice, bob, time_per_move=2 * DAY)
    assert match.turn_started_at == START
    assert match.deadline == START + 2 * DAY
    assert match.wake_at == START + 2 * DAY - 24 * HOUR, "the 24 h reminder comes first"
    traveller.shift(5 * HOUR)
    play_one(match, match_game())
    match.refresh_from_db()
    assert match.deadline == START + 5 * HOUR + 2 * DAY


def match_game():
    from games.engine import registry

    return registry.get("nogi")


def test_a_time_bank_pays_for_slow_moves_and_grows_by_the_increment(traveller, alice, bob):
    match = two_player(alice, bob, time_per_move=DAY, time_bank=3 * DAY, time_bank_increment=HOUR)
    first = match.seats.get(index=0)
    assert first.bank_left == 3 * DAY
    assert match.deadline == START + DAY + 3 * DAY, "the bank extends the deadline"
    traveller.shift(DAY + 10 * HOUR)  # 10 hours over the time per move
    play_one(match, match_game())
    first.refresh_from_db()
    assert first.bank_left == 3 * DAY - 10 * HOUR + HOUR
    match.refresh_from_db()
    second = match.seats.get(index=1)
    traveller.shift(HOUR)  # quick: the bank only grows
    play_one(match, match_game())
    second.refresh_from_db()
    assert second.bank_left == 3 * DAY + HOUR


def test_reminders_follow_the_ladder_once_per_turn(traveller, alice, bob):
    match = two_player(alice, bob, time_per_move=3 * DAY)
    version = match.version
    assert timeouts.sweep() == {}
    traveller.move_to(START + 2 * DAY)  # 24 h before the deadline
    assert timeouts.sweep() == {"reminded": 1}
    assert timeouts.sweep() == {}, "nothing is due again until the next reminder"
    assert reminders(match) == [("24h", version)]
    traveller.move_to(START + 3 * DAY - 2 * HOUR)
    timeouts.sweep()
    timeouts.sweep()
    # The unread 24 h reminder became the 2 h one (one unread entry per kind)...
    assert reminders(match) == [("2h", version)]
    row = Notification.objects.get(match=match, kind=NotificationKind.REMINDER)
    assert row.read_at is None and row.created_at == START + 3 * DAY - 2 * HOUR
    match.refresh_from_db()
    assert match.wake_at == match.deadline


def test_a_reminder_read_before_the_next_leaves_both_in_the_history(traveller, alice, bob):
    match = two_player(alice, bob, time_per_move=3 * DAY)
    version = match.version
    traveller.move_to(START + 2 * DAY)
    timeouts.sweep()
    Notification.objects.filter(match=match).update(read_at=START + 2 * DAY)
    traveller.move_to(START + 3 * DAY - 2 * HOUR)
    timeouts.sweep()
    timeouts.sweep()
    assert reminders(match) == [("24h", version), ("2h", version)]


def test_a_move_voids_the_pending_reminders(traveller, alice, bob):
    match = two_player(alice, bob, time_per_move=3 * DAY)
    traveller.move_to(START + 2 * DAY + HOUR)
    timeouts.sweep()
    play_one(match, match_game())
    traveller.move_to(START + 3 * DAY - HOUR)  # the old turn's 2 h reminder time
    timeouts.sweep()
    assert [tag for tag, _v in reminders(match)] == ["24h"], "no 2 h reminder for a done turn"


def test_the_players_own_ladder_is_used(traveller, alice, bob):
    alice.profile.reminder_hours = "48,6"
    alice.profile.save()
    match = two_player(alice, bob, time_per_move=3 * DAY)
    traveller.move_to(START + 3 * DAY - 6 * HOUR)
    timeouts.sweep()
    # A sweep that finds two reminders due sends only the latest: it is what is true now.
    assert [tag for tag, _v in reminders(match)] == ["6h"]
    traveller.move_to(START + 3 * DAY - 5 * HOUR)
    timeouts.sweep()
    assert [tag for tag, _v in reminders(match)] == ["6h"], "the earlier one does not come back"


def test_a_missed_deadline_lets_the_bot_move_and_gives_a_strike(traveller, alice, bob):
    match = two_player(alice, bob, time_per_move=DAY)
    traveller.move_to(START + DAY + timedelta(minutes=1))
    assert timeouts.sweep() == {"timed out": 1}
    match.refresh_from_db()
    move = match.moves.get(seq=1)
    assert (move.seat, move.actor_kind) == (0, ActorKind.TIMEOUT)
    seat = match.seats.get(index=0)
    assert (seat.strikes, seat.status) == (1, SeatStatus.PLAYING)
    assert Notification.objects.filter(user=alice, kind=NotificationKind.TIMED_OUT).count() == 1
    assert match.deadline == START + DAY + timedelta(minutes=1) + DAY, "bob's clock runs"


def test_the_sweep_never_searches_even_for_a_seat_at_the_strong_level(
    traveller, alice, bob, monkeypatch
):
    """A timed-out move is the heuristic's, made at once: a strong bot's search
    runs on the bots' queue, never inside the sweep."""
    from games.engine import search

    match = two_player(alice, bob, time_per_move=DAY)
    match.seats.filter(index=0).update(bot_level="strong")

    def no_rollouts(*args, **kwargs):
        raise AssertionError("the sweep ran a search")

    monkeypatch.setattr(search, "rollout", no_rollouts)
    traveller.move_to(START + DAY + timedelta(minutes=1))
    assert timeouts.sweep() == {"timed out": 1}
    match.refresh_from_db()
    assert match.moves.get(seq=1).actor_kind == ActorKind.TIMEOUT


def test_three_strikes_and_the_bot_keeps_the_seat_and_the_player_is_last(
    traveller, alice, bob, django_capture_on_commit_callbacks
):
    match = two_player(alice, bob, time_per_move=DAY)
    game = match_game()
    for _ in range(3):
        match.refresh_from_db()
        if user_to_move(match, game) == bob:
            play_one(match, game)
            match.refresh_from_db()
        traveller.move_to(match.deadline + timedelta(minutes=1))
        with django_capture_on_commit_callbacks(execute=True):
            timeouts.sweep()
    seat = match.seats.get(index=0)
    assert (seat.strikes, seat.status) == (3, SeatStatus.BOT)
    with pytest.raises(errors.Forbidden, match="no longer yours"):
        match.refresh_from_db()
        services.submit_action(match, alice, {"type": "use_die"}, match.version)
    # Bob plays on; the bot answers at once for alice's seat.
    for _ in range(400):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            break
        assert user_to_move(match, game) == bob
        with django_capture_on_commit_callbacks(execute=True):
            play_one(match, game)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert [s.rank for s in match.seats.order_by("index")] == [2, 1]
    assert match.result["dropped"] == [0]


def test_loss_on_time_ends_a_two_player_match(traveller, alice, bob):
    match = two_player(alice, bob, time_per_move=DAY, timeout_policy=TimeoutPolicy.LOSS)
    # Each seat moves first: a loss on time before that aborts the match
    # (tests/players/test_fair_ratings.py).
    match = each_seat_moves(match)
    moved = match.version
    late = match_game().current_seats(match.state)[0]
    traveller.move_to(match.deadline + HOUR)
    timeouts.sweep()
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.version == moved
    assert [s.rank for s in match.seats.order_by("index")] == [
        2 if i == late else 1 for i in (0, 1)
    ]
    assert match.seats.get(index=late).status == SeatStatus.TIMED_OUT
    assert match.result["details"] == {"reason": "time", "timed_out": late}
    kinds = set(Notification.objects.filter(match=match).values_list("kind", flat=True))
    assert {NotificationKind.TIMED_OUT, NotificationKind.MATCH_FINISHED} <= kinds


def test_loss_on_time_is_only_for_two_players(alice):
    with pytest.raises(errors.ServiceError, match="two-player"):
        lobby.create_match(
            user=alice, game_key="nogi", n_seats=3, timeout_policy=TimeoutPolicy.LOSS
        )


def test_a_move_in_time_that_commits_first_beats_the_sweep(traveller, alice, bob):
    match = two_player(alice, bob, time_per_move=DAY)
    traveller.move_to(START + DAY - HOUR)  # the 2 h reminder is due, not the deadline
    play_one(match, match_game())
    assert timeouts.sweep() == {}
    match.refresh_from_db()
    assert match.version == 1 and match.moves.get(seq=1).actor_kind == ActorKind.PLAYER


def test_a_late_move_is_refused_even_before_the_sweep_ran(traveller, alice, bob):
    """The move path itself never lets a move beat an expired clock."""
    match = two_player(alice, bob, time_per_move=DAY)
    traveller.move_to(START + DAY + HOUR)
    with pytest.raises(errors.TimeRanOut):
        play_one(match, match_game())
    match.refresh_from_db()
    assert match.version == 0 and not match.moves.filter(seq__gte=1).exists()


@pytest.mark.parametrize("policy", [TimeoutPolicy.LOSS, TimeoutPolicy.BOT_STRIKES])
def test_a_move_after_the_deadline_applies_the_clock_first(traveller, alice, bob, client, policy):
    """No sweep has run (the worker was down): the player's late move applies
    the timeout policy first and is then refused with the position after it."""
    match = two_player(alice, bob, time_per_move=DAY, timeout_policy=policy)
    action = match_game().legal_actions(match.state, 0)[0]
    traveller.move_to(START + DAY + HOUR)
    client.force_login(alice)
    response = client.post(
        f"/m/{match.pk}/act/", {"action": json.dumps(action), "version": match.version}
    )
    assert response.status_code == 409
    assert "deadline had passed" in response.content.decode()
    match.refresh_from_db()
    kinds = list(match.moves.filter(seq__gte=1).values_list("actor_kind", flat=True))
    assert ActorKind.PLAYER not in kinds
    if policy == TimeoutPolicy.LOSS:
        # Lost on time before each seat moved: aborted, unrated.
        assert match.status == MatchStatus.ABORTED
        assert match.seats.get(index=0).status == SeatStatus.TIMED_OUT
    else:
        assert kinds == [ActorKind.TIMEOUT] and match.seats.get(index=0).strikes == 1
    assert timeouts.sweep() == {}, "handled once"
    assert Notification.objects.filter(user=alice, kind=NotificationKind.TIMED_OUT).count() == 1


def test_a_late_sweep_sends_only_what_is_still_true(traveller, alice, bob):
    """The sweep did not run for two days: the reminders that fell due meanwhile
    are not written beside "you ran out of time"."""
    match = two_player(alice, bob, time_per_move=3 * DAY)
    traveller.move_to(START + 3 * DAY + 2 * DAY)
    assert timeouts.sweep() == {"timed out": 1}
    assert reminders(match) == []
    assert Notification.objects.filter(user=alice, kind=NotificationKind.TIMED_OUT).count() == 1


def test_vacation_stops_the_clock_and_coming_back_restarts_it(traveller, alice, bob):
    match = two_player(alice, bob, time_per_move=2 * DAY)
    traveller.shift(HOUR)
    vacations.start_vacation(alice, 5)
    match.refresh_from_db()
    assert match.deadline == START + 2 * DAY + 5 * DAY
    traveller.move_to(START + 3 * DAY)
    assert timeouts.sweep() == {}, "no reminder, no timeout while away"
    vacations.end_vacation(alice)
    match.refresh_from_db()
    # Away from START+1h to START+3d: the clock ran 1 hour before the vacation.
    assert match.deadline == START + 3 * DAY + 2 * DAY - HOUR
    alice.profile.refresh_from_db()
    # The pool: 7 days, less the 5 taken, plus 3 hours a day for the 3 days
    # less an hour that passed, plus the 2 days and 1 hour not used.
    assert alice.profile.vacation_pool == timedelta(days=4, hours=10)


def test_a_turn_that_starts_during_a_vacation_waits_for_its_end(traveller, alice, bob):
    match = two_player(alice, bob, time_per_move=DAY)
    vacations.start_vacation(bob, 4)
    play_one(match, match_game())  # alice moves; now bob, who is away
    match.refresh_from_db()
    assert match.deadline == START + 4 * DAY + DAY


def test_vacation_is_paid_from_the_pool(traveller, alice):
    """A new player's pool holds a week; a vacation takes its days when it
    starts; the pool grows by 3 hours a day; coming back early returns the
    unused time."""
    with pytest.raises(errors.ServiceError, match="1 to 7"):
        vacations.start_vacation(alice, 8)
    vacations.start_vacation(alice, 5)
    with pytest.raises(errors.Conflict):
        vacations.start_vacation(alice, 1)
    traveller.shift(6 * DAY)  # the vacation ran its course
    with pytest.raises(errors.Conflict):
        vacations.end_vacation(alice)
    # 2 days left, and 18 hours gained in 6 days.
    with pytest.raises(errors.ServiceError, match="1 to 2"):
        vacations.start_vacation(alice, 3)
    vacations.start_vacation(alice, 2)
    traveller.shift(DAY)
    vacations.end_vacation(alice)  # back early: the unused day returns
    alice.profile.refresh_from_db()
    assert alice.profile.vacation_pool == timedelta(days=1, hours=21)


def test_your_turn_email_is_sent_once_and_not_to_someone_looking(
    traveller, alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = two_player(alice, bob)
    # One email each: bob's says the match started; alice, who moves first,
    # reads it in her your-turn email.
    started = [m for m in mail.outbox if "has started" in m.subject]
    assert [m.to for m in started] == [["bob@example.com"]]
    turn = [m for m in mail.outbox if "Your turn" in m.subject]
    assert [m.to for m in turn] == [["alice@example.com"]]
    assert "has started" in turn[0].body
    mail.outbox.clear()
    notifications.record_visit(match, bob)  # bob is looking at the match right now
    with django_capture_on_commit_callbacks(execute=True):
        play_one(match, match_game())
    assert mail.outbox == []
    row = Notification.objects.get(user=bob, kind=NotificationKind.YOUR_TURN)
    assert row.status == DeliveryStatus.SKIPPED
    traveller.shift(10 * timedelta(minutes=1))
    with django_capture_on_commit_callbacks(execute=True):
        play_one(match, match_game())
    assert [m.to for m in mail.outbox] == [["alice@example.com"]]


def test_email_content_headers_and_language(
    traveller, alice, bob, django_capture_on_commit_callbacks
):
    bob.profile.language = "pl"
    bob.profile.save()
    with django_capture_on_commit_callbacks(execute=True):
        match = two_player(alice, bob)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        play_one(match, match_game())
    (message,) = mail.outbox
    assert message.to == ["bob@example.com"]
    assert f"/m/{match.pk}/" in message.body
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "/unsubscribe/" in message.extra_headers["List-Unsubscribe"]
    html, mimetype = message.alternatives[0]
    assert mimetype == "text/html" and f"/m/{match.pk}/" in html
    assert "Your turn" not in message.subject, "the subject is in Polish"


def test_preferences_never_and_digest(traveller, alice, bob, django_capture_on_commit_callbacks):
    bob.profile.email_your_turn = "never"
    bob.profile.email_match_events = "digest"
    bob.profile.save()
    with django_capture_on_commit_callbacks(execute=True):
        match = two_player(alice, bob)
    assert [m.to for m in mail.outbox] == [["alice@example.com"]]  # your turn: it started
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        play_one(match, match_game())
    assert mail.outbox == []
    statuses = dict(Notification.objects.filter(user=bob).values_list("kind", "status"))
    assert statuses == {
        NotificationKind.MATCH_STARTED: DeliveryStatus.DIGEST,
        NotificationKind.YOUR_TURN: DeliveryStatus.SKIPPED,
    }
    from games.correspondence import digests

    assert digests.send_all() == 1
    (digest,) = mail.outbox
    assert digest.to == ["bob@example.com"] and f"#{match.pk}" in digest.body
    assert "has started" in digest.body
    assert digests.send_all() == 0, "a digest is sent once"
    assert Notification.objects.get(user=bob, kind="match_started").status == "in_digest"


def test_unread_notifications_feed_the_bell(traveller, alice, bob, client):
    match = two_player(alice, bob)
    client.force_login(alice)
    page = client.get("/").content.decode()
    assert 'id="unread-count">2<' in page  # started + your turn
    listing = client.get("/notifications/").content.decode()
    assert f"#{match.pk}" in listing
    assert 'id="unread-count"' not in client.get("/").content.decode()


def test_match_is_due_only_through_wake_at(traveller, alice, bob):
    match = two_player(alice, bob, time_per_move=DAY)
    Match.objects.filter(pk=match.pk).update(wake_at=None)
    traveller.move_to(START + 5 * DAY)
    assert timeouts.sweep() == {}


def _match_locks(queries) -> list[str]:
    """The statements that select match rows by a list of ids: the multi-row lock
    (SQLite has no row locks, so Django leaves ``FOR NO KEY UPDATE`` out there)."""
    marker = 'FROM "games_match" WHERE "games_match"."id" IN'
    return [q["sql"] for q in queries if q["sql"].startswith("SELECT") and marker in q["sql"]]


@pytest.mark.parametrize("coming_back", [False, True], ids=["start", "end"])
def test_a_vacation_locks_the_profile_then_the_matches_in_primary_key_order(
    traveller, alice, bob, carol, coming_back
):
    matches = [two_player(alice, bob), two_player(alice, carol), two_player(alice, bob)]
    if coming_back:
        vacations.start_vacation(alice, 3)
    with CaptureQueriesContext(connection) as ctx:
        if coming_back:
            vacations.end_vacation(alice)
        else:
            vacations.start_vacation(alice, 3)
    sqls = [q["sql"] for q in ctx.captured_queries]
    (lock,) = _match_locks(ctx.captured_queries)
    assert 'ORDER BY "games_match"."id" ASC' in lock, lock
    profile = next(i for i, sql in enumerate(sqls) if sql.startswith('SELECT "accounts_profile"'))
    assert profile < sqls.index(lock), "the profile row is locked before any match"
    if connection.features.has_select_for_update:
        assert "FOR NO KEY UPDATE" in lock and "FOR UPDATE" in sqls[profile]
    for match in matches:
        match.refresh_from_db()
        assert (match.turn_paused > timedelta(0)) is not coming_back
