"""``games.signals.match_ended`` is how competitions hear that a match ended:
sent once when a match finishes (here: a two-player resignation) and when a
moderator cancels one, inside the transaction that ends it."""

import pytest

from games import signals
from games.lobby import services as lobby
from games.models import MatchStatus
from games.moderation import actions as moderation
from games.play import safety
from tests.conftest import each_seat_moves

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard():
    calls = []

    def receiver(sender, match, seats, **kwargs):
        calls.append((match.pk, match.status, [(s.index, s.rank) for s in seats]))

    signals.match_ended.connect(receiver, weak=False)
    yield calls
    signals.match_ended.disconnect(receiver)


def test_sent_once_when_a_match_finishes(alice, bob, heard):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=match)
    match.refresh_from_db()
    assert heard == []
    match = each_seat_moves(match)  # resigning before that aborts the match
    heard.clear()
    safety.resign(user=alice, match=match)
    alice_seat = match.seats.get(user=alice).index
    ranks = [(i, 2 if i == alice_seat else 1) for i in (0, 1)]
    assert heard == [(match.pk, MatchStatus.FINISHED, ranks)]


def test_sent_when_a_moderator_aborts(started_match, heard, moderator):
    moderation.abort_match(moderator, started_match, "asked by both players")
    assert heard == [(started_match.pk, MatchStatus.ABORTED, [(0, None), (1, None), (2, None)])]
