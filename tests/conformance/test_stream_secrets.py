"""Nothing a seat must not know reaches it through the API's event stream.

The secrets differential of ``test_api_secrets.py`` over the stream's
events, for every game: a match is played a few moves through the service
layer (which writes each seated player's events), and each seat's events
are read as its stream sends them (``api.stream.read``, from the first).
Then everything that seat must not know is changed: the match's state by
the game's ``perturb_secrets``, and the log's private events of every other
seat by a probe their sentence would show (the replay check's probes). The
bytes read again must be the same. A sanity check shows the comparison can
fail: a change of the seat's own private events does reach its stream.
"""

import pytest

from api import events as kinds
from api import stream
from games.engine.rng import Rng
from games.models import Match
from tests.conformance.kit import keys_for
from tests.conformance.test_replay_secrets import _probe, _show_probes
from tests.conformance.test_secrets import MOVES, _play, _start

pytestmark = pytest.mark.django_db


def _read(user) -> list[bytes]:
    opened = stream.Opened(
        user.pk, 0, "en", kinds.MATCH_KINDS + kinds.CHALLENGE_KINDS, since=0, nonce=""
    )
    lines, _last = stream.read(opened, 0)
    return lines


@pytest.mark.parametrize("key", keys_for("secrets"))
def test_the_stream_shows_no_seat_another_seats_secrets(key, make_user, monkeypatch):
    game, match, users = _start(key, make_user)
    _play(game, match, MOVES)
    _show_probes(monkeypatch, key)
    original = match.state
    rng = Rng.from_seed(f"kit-stream-secrets-{key}")
    own_lines_change = False
    for seat in match.seats.order_by("index"):
        _probe(match, lambda seq, event: 1)
        before = _read(seat.user)
        assert any(b'"type": "move"' in line for line in before), key
        _probe(match, lambda seq, event, _v=seat.index: 1 if event["private_to"] == _v else 2)
        Match.objects.filter(pk=match.pk).update(
            state=game.perturb_secrets(original, seat.index, rng)
        )
        after = _read(seat.user)
        Match.objects.filter(pk=match.pk).update(state=original)
        assert after == before, (
            f"{key}: the events streamed to seat {seat.index} change with secrets it must not know"
        )
        # Its own private lines do reach it: the comparison can fail.
        _probe(match, lambda seq, event, _v=seat.index: 3 if event["private_to"] == _v else 1)
        own_lines_change = own_lines_change or _read(seat.user) != before
    # The opening's private events (the first deal) are no move's: streamed
    # are the moves' own.
    streamed = []
    _probe(match, lambda seq, event: streamed.append(seq) or 1)
    if any(seq > 0 for seq in streamed):
        assert own_lines_change, f"{key}: no seat's stream showed its own private lines"
