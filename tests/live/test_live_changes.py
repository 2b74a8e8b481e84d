"""Every change of a match is announced on its topic after the commit
(games.live.changes): a player's move, a bot's move in the worker, a chat
message, a resignation, a timeout, a join; and nothing before the commit."""

import pytest

from games.lobby import services as lobby
from games.play import chat, safety, services
from streams import bus
from tests.conftest import each_seat_moves, play_one

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(monkeypatch):
    sent = []
    monkeypatch.setattr(bus, "publish", lambda topic, message: sent.append((topic, message)))
    return sent


def test_each_kind_of_change_is_announced_after_its_commit(
    alice, bob, nogi, published, django_capture_on_commit_callbacks
):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    topic = f"match:{match.pk}"
    with django_capture_on_commit_callbacks(execute=True):
        lobby.join_match(user=bob, match=match)
    assert (topic, "0") in published  # the table filled: the match started
    published.clear()

    with django_capture_on_commit_callbacks(execute=False) as waiting:
        move = play_one(match, nogi)
    assert published == []  # not before the commit
    for callback in waiting:
        callback()
    assert (topic, str(move.seq)) in published

    published.clear()
    with django_capture_on_commit_callbacks(execute=True):
        chat.post_message(bob, match, "hello")
    # The match's page once, and alice's event streams (she has a new line).
    assert sorted(published) == sorted([(topic, "0"), (f"user:{alice.pk}", "event")])

    each_seat_moves(match)
    match.refresh_from_db()
    published.clear()
    with django_capture_on_commit_callbacks(execute=True):
        safety.resign(user=bob, match=match)
    assert topic in [entry[0] for entry in published]


def test_a_bots_move_and_a_timeout_are_announced(
    alice, nogi, published, django_capture_on_commit_callbacks, traveller
):
    from datetime import timedelta

    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.fill_with_bots(user=alice, match=match)
    match.refresh_from_db()
    topic = f"match:{match.pk}"
    bot_seat = match.seats.get(user__isnull=True).index
    if nogi.current_seats(match.state) != [bot_seat]:
        play_one(match, nogi)  # alice first: then the bot is to move
        match.refresh_from_db()
    published.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert services.play_bot_turns(match.pk, 1) == 1
    # The match's page once, and alice's event streams (a move; her turn).
    assert sorted(t for t, _m in published) == sorted([topic, f"user:{alice.pk}"])
    match.refresh_from_db()
    assert match.deadline is not None  # alice's turn, on the clock
    published.clear()
    traveller.move_to(match.deadline + timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert services.time_out(match.pk)
    assert topic in [t for t, _m in published]
