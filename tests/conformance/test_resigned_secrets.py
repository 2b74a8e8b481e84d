"""A player who resigned sees what a spectator sees, on every channel.

In a match of three or more a resignation does not end the match: a bot
plays the seat on. The seat's secrets (its goal, its hand, the bot's later
draws) are then no longer the player's to see, since they could pass them
on to someone still at the table. Differential, for every game that seats
three: a match is played a few moves, one player resigns, the bot draws on,
and everything that player can be served about the match (the page, the
panel and its poll, the log, the JSON log, the verify page, the replay at
the current step, the printable record, the notifications page, every email
built for them and the picture it carries) is captured; everything a
spectator must not know is changed (``perturb_secrets`` for no seat) and all
of it is captured again. It must be byte-identical. A sanity check shows the
same change reaches the player's page while they still play the seat, so
the comparison can fail.
"""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.correspondence import compose
from games.dispatch import notifications
from games.engine import registry
from games.engine.rng import Rng
from games.models import Match, MatchStatus, Notification, NotificationKind, Seat, SeatStatus
from games.play import safety, services
from tests.conformance.kit import GAME_KEYS
from tests.conformance.test_replay_secrets import _probe, _show_probes
from tests.conformance.test_secrets import _normalise, _play, _start

pytestmark = pytest.mark.django_db

MOVES = 8
THREE_SEATS = [key for key in GAME_KEYS if registry.get(key).max_players >= 3]


def _capture(client, match, user) -> dict[str, str]:
    Notification.objects.filter(user=user, read_at__isnull=True).update(read_at=timezone.now())
    Seat.objects.filter(match=match, user=user).update(last_seen_at=None)
    match.refresh_from_db()
    panel = reverse("match_panel", args=[match.pk])
    pages = {
        "page": client.get(reverse("match_detail", args=[match.pk])),
        "panel": client.get(panel, headers={"HX-Request": "true"}),
        "poll": client.get(panel, {"since": "0"}, headers={"HX-Request": "true"}),
        "log": client.get(reverse("match_log", args=[match.pk])),
        "log.json": client.get(reverse("match_log_json", args=[match.pk])),
        "verify": client.get(reverse("match_verify", args=[match.pk])),
        "replay": client.get(reverse("match_replay", args=[match.pk]), {"at": match.version}),
        "print": client.get(reverse("match_print", args=[match.pk])),
        "notifications": client.get(reverse("notifications")),
    }
    captured = {}
    for name, response in pages.items():
        assert response.status_code == 200, (name, response.status_code)
        captured[name] = _normalise(response.content.decode())
    for row in Notification.objects.filter(user=user, match=match).order_by("pk"):
        message = compose.build_email(row)
        body = message.body + "".join(content for content, _mime in message.alternatives)
        captured[f"email {row.pk}"] = _normalise(message.subject + body)
        captured[f"email {row.pk} picture"] = repr(compose.board_picture_of(row))
    return captured


def _differs(client, match, user, game, rng, probes=False) -> list[str]:
    """What ``user`` is served that changes with what a spectator may not know:
    the position's secrets and, with ``probes``, every private line of the log."""
    original = Match.objects.get(pk=match.pk).state
    if probes:
        _probe(match, lambda seq, event: 1)
    before = _capture(client, match, user)
    for attempt in range(4):
        perturbed = game.perturb_secrets(original, None, rng)
        Match.objects.filter(pk=match.pk).update(state=perturbed)
        if probes:
            _probe(match, lambda seq, event, _a=attempt: 2 + _a)
        after = _capture(client, match, user)
        Match.objects.filter(pk=match.pk).update(state=original)
        changed = [name for name in before if after[name] != before[name]]
        if changed:
            return changed
    return []


def _bots_play_on(game, match, moves: int) -> None:
    """A few more moves: the players' through the service layer, the bot's for
    the resigned seat as the worker plays it (its draws among them)."""
    for _step in range(moves):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            return
        seat_index = game.current_seats(match.state)[0]
        seat = match.seats.get(index=seat_index)
        if seat.played_by_bot:
            services.play_bot_turns(match.pk, 1)
            continue
        _play(game, match, 1)


@pytest.mark.parametrize("key", THREE_SEATS)
def test_a_resigned_player_sees_what_a_spectator_sees(key, make_user, monkeypatch):
    game, match, users = _start(key, make_user)
    assert match.n_seats >= 3
    _play(game, match, MOVES)
    assert match.status == MatchStatus.ACTIVE
    # The player who resigns is one whose turn it is not (a "your turn" row of
    # theirs may still wait to be sent: it is queued below).
    to_move = set(game.current_seats(match.state))
    seat = next(s for s in match.seats.order_by("index") if s.index not in to_move)
    user = seat.user
    client = Client()
    client.force_login(user)
    rng = Rng.from_seed(f"kit-resigned-{key}")
    assert _differs(client, match, user, game, rng), (
        f"{key}: the player's own secrets never show on their pages: the check proves nothing"
    )
    notifications.queue(user, match, NotificationKind.YOUR_TURN, seat=seat)
    safety.resign(user=user, match=match)
    seat.refresh_from_db()
    assert seat.status == SeatStatus.RESIGNED
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    _bots_play_on(game, match, 2 * match.n_seats)
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    assert Notification.objects.filter(user=user, match=match).exists()
    _show_probes(monkeypatch, key)
    changed = _differs(client, match, user, game, rng, probes=True)
    assert not changed, (
        f"{key}: after resigning, what the player is served as {changed} changes with"
        " secrets a spectator must not know"
    )
