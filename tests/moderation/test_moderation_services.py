"""Every moderator action through the service layer, and its audit."""

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from core import errors
from games.engine.replay import replay
from games.history.verification import verify_match
from games.lobby import services as lobby
from games.models import (
    ActorKind,
    ChatMessage,
    Match,
    MatchStatus,
    ModerationAction,
    Notification,
    NotificationKind,
    Report,
    SeatStatus,
)
from games.moderation import actions as moderation
from games.play import services
from tests.conftest import each_seat_moves, play_one

pytestmark = pytest.mark.django_db
REASON = "player asked for help"


def snapshot(match):
    match.refresh_from_db()
    return match.version, match.state, match.status


def audit(kind):
    return ModerationAction.objects.filter(kind=kind).get()


def test_undo_reproduces_the_earlier_state_exactly(make_user, moderator):
    """A move that revealed nothing (a Drakon step: no roll, no draw, no secret)
    is taken back by replaying the log without it; moves that revealed
    something are refused (tests/moderation/test_undo_reveals.py)."""
    from tests.moderation.test_undo_reveals import play_until, revealing, start

    game, match, users = start("drakon", make_user)
    play_until(game, match, users, lambda moved, last: not moved and not revealing(match, last))
    match.refresh_from_db()
    moves = match.version
    log = list(match.moves.order_by("seq").values_list("seat", "action"))
    earlier = replay(game, match.n_seats, match.options, match.seed, log[:-1])
    moderation.undo_moves(moderator, match, 1, REASON)
    match.refresh_from_db()
    assert match.state == earlier, "the state before the last move, exactly"
    assert match.version == moves + 1, "the moves, then the moderator's entry"
    entry = match.moves.get(seq=moves + 1)
    assert entry.actor_kind == ActorKind.MODERATOR and entry.seat is None
    assert entry.action == {"type": "_moderation", "op": "undo", "count": 1}
    log = [(m.seat, m.action) for m in match.moves.order_by("seq")]
    assert replay(game, match.n_seats, match.options, match.seed, log) == match.state
    action = audit(ModerationAction.Kind.UNDO)
    assert (action.version_before, action.version_after, action.reason) == (
        moves,
        moves + 1,
        REASON,
    )
    # Play goes on from there, and the whole log still verifies.
    seat = game.current_seats(match.state)[0]
    action = game.legal_actions(match.state, seat)[0]
    services.submit_action(match, users[seat], action, match.version)
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED)
    match.refresh_from_db()
    assert verify_match(match).ok
    kinds = Notification.objects.filter(match=match, kind=NotificationKind.MODERATION)
    assert kinds.count() == match.n_seats, "every player is told"


def test_undo_refuses_a_finished_match_whose_seed_is_public(started_match, nogi, moderator):
    match = started_match
    for i in range(500):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            break
        play_one(match, nogi, choose=i)
    assert match.seed_revealed
    before = snapshot(match)
    with pytest.raises(errors.Conflict, match="seed is public"):
        moderation.undo_moves(moderator, match, 1, REASON)
    assert snapshot(match) == before
    assert match.status == MatchStatus.FINISHED and match.result is not None
    assert not ModerationAction.objects.filter(kind=ModerationAction.Kind.UNDO).exists()


def test_undo_refuses_too_many(started_match, nogi, moderator):
    play_one(started_match, nogi)
    before = snapshot(started_match)
    with pytest.raises(errors.ServiceError, match="1 to 1"):
        moderation.undo_moves(moderator, started_match, 2, REASON)
    assert snapshot(started_match) == before
    assert not ModerationAction.objects.exists()


def test_a_reason_is_required(started_match, moderator):
    before = snapshot(started_match)
    with pytest.raises(errors.ServiceError, match="reason"):
        moderation.abort_match(moderator, started_match, "  ")
    assert snapshot(started_match) == before


def test_abort(started_match, moderator):
    # A bot was due (a seat left to it): the aborted match no longer says so.
    Match.objects.filter(pk=started_match.pk).update(bots_due_at=timezone.now())
    moderation.abort_match(moderator, started_match, REASON)
    started_match.refresh_from_db()
    assert started_match.status == MatchStatus.ABORTED and started_match.deadline is None
    assert started_match.bots_due_at is None
    assert audit("abort").version_after == started_match.version == 1


def test_extend_deadline(started_match, moderator):
    deadline = started_match.deadline
    moderation.extend_deadline(moderator, started_match, 48, REASON)
    started_match.refresh_from_db()
    assert (started_match.deadline - deadline).total_seconds() == pytest.approx(48 * 3600, abs=5)
    assert audit("extend").details == {"hours": 48}


def test_force_timeout_applies_the_policy_now(started_match, nogi, moderator):
    seat_index = nogi.current_seats(started_match.state)[0]
    moderation.force_timeout(moderator, started_match, REASON)
    started_match.refresh_from_db()
    move = started_match.moves.get(seq=1)
    assert (move.seat, move.actor_kind) == (seat_index, ActorKind.TIMEOUT)
    assert started_match.seats.get(index=seat_index).strikes == 1
    assert audit("force_timeout").details == {"seat": seat_index}


def test_replace_with_bot_and_reinstate(
    started_match, nogi, moderator, django_capture_on_commit_callbacks
):
    match = started_match
    seat_index = nogi.current_seats(match.state)[0]
    with django_capture_on_commit_callbacks(execute=True):
        moderation.replace_with_bot(moderator, match, seat_index, REASON)
    match.refresh_from_db()
    assert match.seats.get(index=seat_index).status == SeatStatus.BOT
    bot_moves = match.moves.filter(actor_kind=ActorKind.BOT)
    assert bot_moves.count() == 1 and bot_moves.get().seat == seat_index, "the bot moved at once"
    with pytest.raises(errors.Conflict):
        moderation.replace_with_bot(moderator, match, seat_index, REASON)
    moderation.reinstate(moderator, match, seat_index, REASON)
    seat = match.seats.get(index=seat_index)
    assert (seat.status, seat.strikes) == (SeatStatus.PLAYING, 0)
    with pytest.raises(errors.Conflict):
        moderation.reinstate(moderator, match, seat_index, REASON)


def test_adjudicate(started_match, moderator):
    with pytest.raises(errors.ServiceError):
        moderation.adjudicate(moderator, started_match, [1, 2], REASON)
    with pytest.raises(errors.ServiceError):
        moderation.adjudicate(moderator, started_match, [2, 2, 3], REASON)
    moderation.adjudicate(moderator, started_match, [2, 1, 3], REASON)
    started_match.refresh_from_db()
    assert started_match.status == MatchStatus.FINISHED
    assert [s.rank for s in started_match.seats.order_by("index")] == [2, 1, 3]
    assert started_match.result["details"] == {"adjudicated": True}


def test_hide_message_and_resolve_report(started_match, alice, bob, moderator):
    from games.play import chat

    message = chat.post_message(alice, started_match, "rude words")
    report = chat.report(bob, started_match, "insulting", message_id=message.pk)
    assert report.reported_user == alice
    moderation.hide_message(moderator, message, REASON)
    message.refresh_from_db()
    assert message.hidden_by == moderator
    assert chat.visible_messages(started_match) == []
    assert ChatMessage.objects.filter(pk=message.pk).exists(), "kept for the audit"
    assert audit("hide_message").details["text"] == "rude words"
    moderation.resolve_report(moderator, report, "message hidden")
    report.refresh_from_db()
    assert not report.is_open and report.resolution == "message hidden"
    with pytest.raises(errors.Conflict):
        moderation.resolve_report(moderator, Report.objects.get(), "again please")


def test_deactivate_user(started_match, nogi, alice, moderator, client):
    client.login(username="alice", password="pw-alicealice")
    assert "_auth_user_id" in client.session
    moderation.deactivate_user(moderator, alice, "abusive in chat")
    alice.refresh_from_db()
    assert not alice.is_active
    assert client.get("/profile/").status_code == 302, "their session is gone"
    assert not client.login(username="alice", password="pw-alicealice")
    seat = started_match.seats.get(user=alice)
    assert seat.status == SeatStatus.BOT
    assert audit("deactivate_user").details == {"matches": [started_match.pk]}


def test_deactivated_player_loses_a_two_player_match_on_time(alice, bob, moderator):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2, timeout_policy="loss")
    lobby.join_match(user=bob, match=match)
    each_seat_moves(match)  # before that, the match would be aborted (below)
    moderation.deactivate_user(moderator, bob, "cheating with a second account")
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert [s.rank for s in match.seats.order_by("index")] == [1, 2]


def test_deactivating_a_player_before_each_seat_moved_aborts_the_match(alice, bob, moderator):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2, timeout_policy="loss")
    lobby.join_match(user=bob, match=match)
    moderation.deactivate_user(moderator, bob, "cheating with a second account")
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED and match.ended_early_by == 1
    assert match.moves.order_by("-seq").first().action["ended"] == "deactivated"


def test_players_and_plain_staff_may_not_moderate(started_match, alice):
    staff = get_user_model().objects.create_user("staffer", is_staff=True)
    for user in (alice, staff):
        with pytest.raises(errors.Forbidden):
            moderation.abort_match(user, started_match, REASON)
        with pytest.raises(errors.Forbidden):
            moderation.deactivate_user(user, alice, REASON)
    started_match.refresh_from_db()
    assert started_match.status == MatchStatus.ACTIVE and alice.is_active


def test_the_audit_is_append_only(started_match, moderator):
    action = moderation.abort_match(moderator, started_match, REASON)
    with pytest.raises(PermissionError):
        action.save()
    with pytest.raises(PermissionError):
        action.delete()
    with pytest.raises(PermissionError):
        ModerationAction.objects.update(reason="x")
    with pytest.raises(PermissionError):
        ModerationAction.objects.all().delete()


def test_deactivating_locks_the_players_matches_in_primary_key_order(alice, bob, carol, moderator):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    matches = []
    for other in (bob, carol, bob):
        match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
        lobby.join_match(user=other, match=match)
        matches.append(match)
    with CaptureQueriesContext(connection) as ctx:
        moderation.deactivate_user(moderator, alice, "cheating with a second account")
    marker = 'FROM "games_match" WHERE "games_match"."id" IN'
    (lock,) = [q["sql"] for q in ctx.captured_queries if marker in q["sql"]]
    assert 'ORDER BY "games_match"."id" ASC' in lock, lock
    if connection.features.has_select_for_update:
        assert "FOR NO KEY UPDATE" in lock
    assert audit("deactivate_user").details == {"matches": sorted(m.pk for m in matches)}
    assert all(m.seats.get(user=alice).status == SeatStatus.BOT for m in matches)
