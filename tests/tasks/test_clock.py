"""The correspondence clock: deadlines, banks, reminders, timeouts and vacations.

Time is moved with time-machine, never slept.
"""

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from games import services
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
from tests.conftest import play_one, user_to_move

pytestmark = pytest.mark.django_db
START = timezone.datetime(2026, 3, 2, 12, 0, tzinfo=timezone.UTC)
DAY = timedelta(days=1)
HOUR = timedelta(hours=1)


@pytest.fixture
def traveller():
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


def two_player(alice, bob, **kwargs):
    match = services.create_match(
        user=alice, game_key="nogi", n_seats=2, options={"first_player": "host"}, **kwargs
    )
    services.join_match(user=bob, match=match)
    match.refresh_from_db()
    return match


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
    assert services.sweep() == {}
    traveller.move_to(START + 2 * DAY)  # 24 h before the deadline
    assert services.sweep() == {"reminded": 1}
    assert services.sweep() == {}, "nothing is due again until the next reminder"
    assert reminders(match) == [("24h", version)]
    traveller.move_to(START + 3 * DAY - 2 * HOUR)
    services.sweep()
    services.sweep()
    assert reminders(match) == [("24h", version), ("2h", version)]
    match.refresh_from_db()
    assert match.wake_at == match.deadline


def test_a_move_voids_the_pending_reminders(traveller, alice, bob):
    match = two_player(alice, bob, time_per_move=3 * DAY)
    traveller.move_to(START + 2 * DAY + HOUR)
    services.sweep()
    play_one(match, match_game())
    traveller.move_to(START + 3 * DAY - HOUR)  # the old turn's 2 h reminder time
    services.sweep()
    assert [tag for tag, _v in reminders(match)] == ["24h"], "no 2 h reminder for a done turn"


def test_the_players_own_ladder_is_used(traveller, alice, bob):
    alice.profile.reminder_hours = "48,6"
    alice.profile.save()
    match = two_player(alice, bob, time_per_move=3 * DAY)
    traveller.move_to(START + 3 * DAY - 6 * HOUR)
    services.sweep()
    assert [tag for tag, _v in reminders(match)] == ["48h", "6h"]


def test_a_missed_deadline_lets_the_bot_move_and_gives_a_strike(traveller, alice, bob):
    match = two_player(alice, bob, time_per_move=DAY)
    traveller.move_to(START + DAY + timedelta(minutes=1))
    assert services.sweep() == {"timed out": 1}
    match.refresh_from_db()
    move = match.moves.get(seq=1)
    assert (move.seat, move.actor_kind) == (0, ActorKind.TIMEOUT)
    seat = match.seats.get(index=0)
    assert (seat.strikes, seat.status) == (1, SeatStatus.PLAYING)
    assert Notification.objects.filter(user=alice, kind=NotificationKind.TIMED_OUT).count() == 1
    assert match.deadline == START + DAY + timedelta(minutes=1) + DAY, "bob's clock runs"


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
            services.sweep()
    seat = match.seats.get(index=0)
    assert (seat.strikes, seat.status) == (3, SeatStatus.BOT)
    with pytest.raises(services.Forbidden, match="no longer yours"):
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
    traveller.move_to(START + DAY + HOUR)
    services.sweep()
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.version == 0
    assert [s.rank for s in match.seats.order_by("index")] == [2, 1]
    assert match.seats.get(index=0).status == SeatStatus.TIMED_OUT
    assert match.result["details"] == {"reason": "time", "timed_out": 0}
    kinds = set(Notification.objects.filter(match=match).values_list("kind", flat=True))
    assert {NotificationKind.TIMED_OUT, NotificationKind.MATCH_FINISHED} <= kinds


def test_loss_on_time_is_only_for_two_players(alice):
    with pytest.raises(services.ServiceError, match="two-player"):
        services.create_match(
            user=alice, game_key="nogi", n_seats=3, timeout_policy=TimeoutPolicy.LOSS
        )


def test_a_move_that_commits_first_beats_the_sweep(traveller, alice, bob):
    match = two_player(alice, bob, time_per_move=DAY)
    traveller.move_to(START + DAY + HOUR)
    play_one(match, match_game())  # late, but before the sweep came
    assert services.sweep() == {}
    match.refresh_from_db()
    assert match.version == 1 and match.moves.get(seq=1).actor_kind == ActorKind.PLAYER


def test_vacation_stops_the_clock_and_coming_back_restarts_it(traveller, alice, bob):
    match = two_player(alice, bob, time_per_move=2 * DAY)
    traveller.shift(HOUR)
    services.start_vacation(alice, 5)
    match.refresh_from_db()
    assert match.deadline == START + 2 * DAY + 5 * DAY
    traveller.move_to(START + 3 * DAY)
    assert services.sweep() == {}, "no reminder, no timeout while away"
    services.end_vacation(alice)
    match.refresh_from_db()
    # Away from START+1h to START+3d: the clock ran 1 hour before the vacation.
    assert match.deadline == START + 3 * DAY + 2 * DAY - HOUR
    assert services.vacation_days_used(alice, START.year) == 3


def test_a_turn_that_starts_during_a_vacation_waits_for_its_end(traveller, alice, bob):
    match = two_player(alice, bob, time_per_move=DAY)
    services.start_vacation(bob, 4)
    play_one(match, match_game())  # alice moves; now bob, who is away
    match.refresh_from_db()
    assert match.deadline == START + 4 * DAY + DAY


def test_vacation_allowance(traveller, alice):
    with pytest.raises(services.ServiceError, match="1 to 30"):
        services.start_vacation(alice, 31)
    services.start_vacation(alice, 20)
    with pytest.raises(services.Conflict):
        services.start_vacation(alice, 1)
    traveller.shift(21 * DAY)  # the vacation ran its course
    with pytest.raises(services.Conflict):
        services.end_vacation(alice)
    with pytest.raises(services.ServiceError, match="1 to 10"):
        services.start_vacation(alice, 11)
    services.start_vacation(alice, 4)
    traveller.shift(DAY)
    services.end_vacation(alice)  # back early: the unused days return
    assert services.vacation_days_used(alice, START.year) == 21


def test_your_turn_email_is_sent_once_and_not_to_someone_looking(
    traveller, alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = two_player(alice, bob)
    started = [m for m in mail.outbox if "has started" in m.subject]
    assert sorted(m.to[0] for m in started) == ["alice@example.com", "bob@example.com"]
    turn = [m for m in mail.outbox if "Your turn" in m.subject]
    assert [m.to for m in turn] == [["alice@example.com"]]
    mail.outbox.clear()
    services.record_visit(match, bob)  # bob is looking at the match right now
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
    assert [m.to for m in mail.outbox] == [["alice@example.com"]] * 2  # started, your turn
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        play_one(match, match_game())
    assert mail.outbox == []
    statuses = dict(Notification.objects.filter(user=bob).values_list("kind", "status"))
    assert statuses == {
        NotificationKind.MATCH_STARTED: DeliveryStatus.DIGEST,
        NotificationKind.YOUR_TURN: DeliveryStatus.SKIPPED,
    }
    from games import digests

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
    assert services.sweep() == {}
