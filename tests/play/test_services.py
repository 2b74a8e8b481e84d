"""The service layer: creating, joining, starting and playing matches."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from core import errors
from games.engine.replay import replay
from games.engine.rng import seed_hash
from games.history.verification import verify_match
from games.lobby import invitations
from games.lobby import services as lobby
from games.models import ActorKind, Match, MatchStatus, Move, Seat, Visibility
from games.play import services
from tests.conftest import play_one, user_to_move

pytestmark = pytest.mark.django_db


def test_create_match_puts_the_creator_in_seat_zero_and_commits_to_the_seed(alice):
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=4, time_per_move=timedelta(days=2)
    )
    assert match.status == MatchStatus.OPEN
    assert list(match.seats.values_list("index", "user__username")) == [(0, "alice")]
    assert match.seed_hash == seed_hash(match.seed)
    assert match.rules_version == 2  # Nogi's current rules (trails since version 2)
    assert match.options == {"first_player": "random"}
    assert match.state is None and match.version == 0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game_key": "chess", "n_seats": 2}, "no such game"),
        ({"game_key": "nogi", "n_seats": 1}, "2 to 7 players"),
        ({"game_key": "nogi", "n_seats": 8}, "2 to 7 players"),
        ({"game_key": "nogi", "n_seats": 3, "options": {"speed": "fast"}}, "Unknown option"),
        ({"game_key": "nogi", "n_seats": 3, "options": {"first_player": "x"}}, "not one of"),
    ],
)
def test_create_match_refuses_bad_settings(alice, kwargs, message):
    with pytest.raises(errors.ServiceError, match=message):
        lobby.create_match(user=alice, **kwargs)
    assert Match.objects.count() == 0


def test_match_starts_when_the_last_seat_is_taken(alice, bob, carol, nogi):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=3)
    lobby.join_match(user=bob, match=match)
    match.refresh_from_db()
    assert match.status == MatchStatus.OPEN and match.state is None
    lobby.join_match(user=carol, match=match)
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    assert match.state == nogi.setup(3, match.options, match.seed)
    assert match.deadline is not None and match.started_at is not None
    assert list(match.seats.values_list("user__username", flat=True)) == ["alice", "bob", "carol"]


def test_join_refusals_change_nothing(started_match, alice, make_user):
    with pytest.raises(errors.Conflict, match="already started"):
        lobby.join_match(user=make_user("dave"), match=started_match)
    with pytest.raises(errors.Conflict):
        lobby.join_match(user=alice, match=started_match)
    assert started_match.seats.count() == 3


def test_private_match_needs_an_invitation_or_the_link(alice, bob, carol, make_user):
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=4, visibility=Visibility.PRIVATE
    )
    with pytest.raises(errors.Forbidden, match="private"):
        lobby.join_match(user=bob, match=match)
    with pytest.raises(errors.Forbidden):
        lobby.join_match(user=bob, match=match, token="wrong")
    invitations.invite_user(user=alice, match=match, username="Bob")
    lobby.join_match(user=bob, match=match)
    lobby.join_match(user=carol, match=match, token=match.invite_token)
    assert match.seats.count() == 3


def test_invite_refusals(alice, bob, make_user):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=3)
    with pytest.raises(errors.ServiceError, match="No player"):
        invitations.invite_user(user=alice, match=match, username="nobody")
    with pytest.raises(errors.Forbidden):
        invitations.invite_user(user=bob, match=match, username="alice")
    with pytest.raises(errors.Conflict):
        invitations.invite_user(user=alice, match=match, username="alice")


def test_leave_before_start_reindexes_and_the_last_human_aborts(alice, bob, carol):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=4)
    lobby.join_match(user=bob, match=match)
    lobby.join_match(user=carol, match=match)
    lobby.leave_match(user=bob, match=match)
    assert list(match.seats.values_list("index", "user__username")) == [
        (0, "alice"),
        (1, "carol"),
    ]
    lobby.leave_match(user=alice, match=match)
    lobby.leave_match(user=carol, match=match)
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED


def test_cannot_leave_a_started_match(started_match, bob):
    with pytest.raises(errors.Conflict):
        lobby.leave_match(user=bob, match=started_match)


def test_submit_action_applies_logs_and_bumps_the_version(started_match, nogi):
    match = started_match
    mover = user_to_move(match, nogi)
    seat_index = nogi.current_seats(match.state)[0]
    action = nogi.legal_actions(match.state, seat_index)[0]
    expected_state, expected_events = nogi.apply(match.state, seat_index, action)
    move = services.submit_action(match, mover, action, 0)
    match.refresh_from_db()
    assert match.version == 1
    assert match.state == expected_state
    assert (move.seq, move.seat, move.action, move.events) == (
        1,
        seat_index,
        action,
        expected_events,
    )
    assert move.actor_kind == ActorKind.PLAYER and move.actor == mover


def _snapshot(match):
    match.refresh_from_db()
    return (match.version, match.state, match.status, Move.objects.filter(match=match).count())


def test_refusals_change_nothing(started_match, nogi, make_user):
    match = started_match
    mover = user_to_move(match, nogi)
    seat_index = nogi.current_seats(match.state)[0]
    waiting = match.seats.exclude(index=seat_index).first().user
    legal = nogi.legal_actions(match.state, seat_index)
    before = _snapshot(match)
    cases = [
        (waiting, legal[0], 0, errors.Forbidden, "not your turn"),
        (make_user("eve"), legal[0], 0, errors.Forbidden, "no seat"),
        (mover, legal[0], 7, errors.StaleVersion, "moved on"),
        (
            mover,
            {"type": "use_die", "die": "red", "knight": "blue"},
            0,
            errors.ServiceError,
            None,
        ),
        (mover, {**legal[0], "extra": 1}, 0, errors.ServiceError, None),
        (mover, "roll", 0, errors.ServiceError, None),
    ]
    for user, action, version, error, message in cases:
        with pytest.raises(error, match=message):
            services.submit_action(match, user, action, version)
        assert _snapshot(match) == before


def test_stale_version_is_409(started_match, nogi):
    assert errors.StaleVersion("x").status == 409
    assert errors.Forbidden("x").status == 403
    assert errors.ServiceError("x").status == 400


def test_move_log_is_append_only(started_match, nogi):
    move = play_one(started_match, nogi)
    with pytest.raises(PermissionError):
        move.save()
    with pytest.raises(PermissionError):
        move.delete()
    with pytest.raises(PermissionError):
        Move.objects.filter(pk=move.pk).update(seat=2)
    with pytest.raises(PermissionError):
        Move.objects.all().delete()
    assert Move.objects.get(pk=move.pk).seat == move.seat


def test_a_whole_game_through_the_service_ends_ranks_and_verifies(started_match, nogi):
    match = started_match
    for i in range(500):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            break
        play_one(match, nogi, choose=i * 7)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.deadline is None and match.finished_at is not None
    outcome = nogi.result(match.state)
    assert match.result == outcome.to_json()
    assert [s.rank for s in match.seats.all()] == outcome.ranks
    assert [s.score for s in match.seats.all()] == outcome.scores
    moves = list(match.moves.order_by("seq"))
    # The opening entry (seq 0) holds the first roll; then one row per move.
    assert [m.seq for m in moves] == list(range(0, match.version + 1))
    assert moves[0].action == {"type": "_opening"} and moves[0].seat is None
    assert moves[0].events == nogi.opening_events(nogi.setup(3, match.options, match.seed))
    assert moves[0].events[-1]["type"] == "dice_rolled"
    assert (
        replay(nogi, 3, match.options, match.seed, [(m.seat, m.action) for m in moves])
        == match.state
    )
    report = verify_match(match)
    assert report.ok and report.moves_checked == match.version
    with pytest.raises(errors.Conflict, match="over"):
        services.submit_action(match, match.seats.first().user, {"type": "use_die"}, match.version)


def test_verification_detects_a_wrong_seed(started_match, nogi):
    match = started_match
    for i in range(200):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            break
        play_one(match, nogi, choose=i)
    match.refresh_from_db()
    Match.objects.filter(pk=match.pk).update(seed="0" * 32)
    match.refresh_from_db()
    report = verify_match(match)
    assert not report.ok
    assert not report.seed_matches_hash


def test_bots_fill_seats_and_play_until_a_human_must_move(
    alice, bob, nogi, django_capture_on_commit_callbacks
):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=4)
    lobby.join_match(user=bob, match=match)
    with pytest.raises(errors.Forbidden):
        lobby.fill_with_bots(user=bob, match=match)
    with django_capture_on_commit_callbacks(execute=True):
        lobby.fill_with_bots(user=alice, match=match)
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    assert list(match.seats.values_list("is_bot", flat=True)) == [False, False, True, True]
    to_move = nogi.current_seats(match.state)
    assert to_move and to_move[0] in (0, 1), "bots moved until a human's turn"
    bot_moves = match.moves.filter(actor_kind=ActorKind.BOT)
    assert all(m.seat in (2, 3) for m in bot_moves)
    first = match.state["first_seat"]
    assert bot_moves.count() == {0: 0, 1: 0, 2: 2, 3: 1}[first]


def test_an_all_bot_game_plays_to_the_end(alice, nogi, django_capture_on_commit_callbacks):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    Seat.objects.filter(match=match).delete()
    Seat.objects.create(match=match, index=0, is_bot=True, bot_level="random")
    # No human is left to press "fill with bots" (a creator who left may not),
    # so the second bot sits down and the match starts as a full match would.
    Seat.objects.create(match=match, index=1, is_bot=True, bot_level="heuristic")
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        lobby._start(services.lock_match(match))
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert verify_match(match).ok


def test_a_bots_move_that_ends_the_match_clears_bots_due_at(alice, nogi):
    """Alice against a bot: once a bot's move finishes the match, the row no
    longer says a bot is due (before, ``bots_due_at`` was cleared only while
    the match was active, so a finished match kept it for ever)."""
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, options={"first_player": "host"}
    )
    lobby.fill_with_bots(user=alice, match=match, level="random")
    match.refresh_from_db()
    # Alice's seat too is played by a bot, so a bot's move ends the match.
    Seat.objects.filter(match=match, index=0).update(is_bot=True, bot_level="random")
    Match.objects.filter(pk=match.pk).update(bots_due_at=timezone.now())
    for _turns in range(50):
        if not Match.objects.filter(pk=match.pk, status=MatchStatus.ACTIVE).exists():
            break
        services.play_bot_turns(match.pk, 500)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.moves.last().actor_kind == ActorKind.BOT, "a bot's move ended it"
    assert match.bots_due_at is None, "nothing is due on a finished match"


# -- The strong bot ---------------------------------------------------------------------


def _strong_match(alice, nogi):
    """Alice against a strong bot, after alice's first moves: the bot is to move."""
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, options={"first_player": "host"}
    )
    lobby.fill_with_bots(user=alice, match=match, level="strong")
    match.refresh_from_db()
    while match.status == MatchStatus.ACTIVE and nogi.current_seats(match.state) == [0]:
        play_one(match, nogi)
        match.refresh_from_db()
    return match


def test_a_strong_bot_moves_with_the_settings_budget(alice, nogi, settings):
    settings.SMOKI = {**settings.SMOKI, "BOT_STRONG_ITERATIONS": 4, "BOT_STRONG_SECONDS": 30}
    match = _strong_match(alice, nogi)
    assert match.seats.get(index=1).bot_level == "strong"
    version = match.version
    assert services.play_bot_turns(match.pk, 1) == 1
    match.refresh_from_db()
    assert match.version > version
    assert match.moves.filter(actor_kind=ActorKind.BOT).count() == 1


def test_a_worker_killed_during_a_search_loses_nothing(alice, nogi, settings, monkeypatch):
    """Nothing is written until the move is submitted: the task's retry (or the
    relay) plays the same move from the stored position."""
    settings.SMOKI = {**settings.SMOKI, "BOT_STRONG_ITERATIONS": 12, "BOT_STRONG_SECONDS": 60}
    match = _strong_match(alice, nogi)
    Match.objects.filter(pk=match.pk).update(bots_due_at=timezone.now())
    before = (match.version, match.state, match.moves.count())
    real_sample = type(nogi).sample_secrets
    calls = []

    def killed(self, *args):
        calls.append(1)
        if len(calls) == 2:  # the second sample: rollouts were played
            raise SystemExit("the worker was killed")  # mid-search
        return real_sample(self, *args)

    monkeypatch.setattr(type(nogi), "sample_secrets", killed)
    with pytest.raises(SystemExit):
        services.play_bot_turns(match.pk, 1)
    match.refresh_from_db()
    assert (match.version, match.state, match.moves.count()) == before
    assert match.bots_due_at is not None, "the relay still knows the bot must move"
    monkeypatch.setattr(type(nogi), "sample_secrets", real_sample)
    assert services.play_bot_turns(match.pk, 1) == 1
    retried = match.moves.get(seq=before[2])
    # The same move an uninterrupted search makes from that position.
    match.refresh_from_db()
    assert retried.actor_kind == ActorKind.BOT
    assert retried.action == _strong_choice(before, match)


def _strong_choice(before, match):
    from games.engine import bots
    from games.engine.rng import Rng
    from games.play.services import strong_budget

    version, state, _count = before
    rng = Rng.from_seed(f"bot:{match.seed}:{version}:1")
    return bots.choose("nogi", state, 1, rng, "strong", strong_budget())
