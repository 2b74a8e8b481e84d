"""The differential secrets check over the replay's steps and the catch-up summary
(issue 26), for every game.

A match is played a few moves; at several steps (the setup, the middle, now)
each seat and a spectator load the replay page, the state at that step is
changed by ``perturb_secrets`` in all that viewer must not know, and the
page must be byte-identical. The same page through another seat's eyes
(``?as=``) is asked for too: while the match is in play it must not show
that seat's secrets either. The printable record is captured alongside.
A sanity check proves the comparison can fail: a change to the viewer's own
secrets at that step does change their page. Each player's "since your last
visit" summary on the match page is compared the same way.
"""

import re

import pytest
from django.urls import reverse

from games import replay
from games.engine.rng import Rng
from games.models import Match, Move, Seat
from tests.conformance.kit import keys_for
from tests.conformance.test_secrets import _normalise, _play, _start, _viewers

pytestmark = pytest.mark.django_db

MOVES = 10


def _steps(match) -> list[int]:
    return sorted({0, match.version // 2, match.version})


def _capture(client, match, step, seats) -> dict[str, str]:
    url = reverse("match_replay", args=[match.pk])
    pages = {"replay": client.get(url, {"at": step})}
    for index in range(seats):
        pages[f"replay as {index}"] = client.get(url, {"at": step, "as": index})
    pages["print"] = client.get(reverse("match_print", args=[match.pk]))
    for name, response in pages.items():
        assert response.status_code == 200, (name, response.status_code)
    return {name: _normalise(r.content.decode()) for name, r in pages.items()}


def _entries(match):
    return [(m.seq, m.seat, m.action) for m in Move.objects.filter(match=match).order_by("seq")]


@pytest.mark.parametrize("key", keys_for("secrets"))
def test_no_replay_step_shows_another_seats_secrets(key, make_user, monkeypatch):
    game, match, users = _start(key, make_user)
    _play(game, match, MOVES)
    rng = Rng.from_seed(f"kit-replay-{key}")
    truth = replay.state_at
    for step in _steps(match):
        original = truth(match, game, _entries(match), step)
        for seat_index, _user, client in _viewers(match, users):
            monkeypatch.setattr(replay, "state_at", truth)
            before = _capture(client, match, step, match.n_seats)
            perturbed = game.perturb_secrets(original, seat_index, rng)
            assert perturbed != original
            monkeypatch.setattr(
                replay,
                "state_at",
                lambda m, g, e, s, _p=perturbed, _s=step: _p if s == _s else None,
            )
            after = _capture(client, match, step, match.n_seats)
            for name in before:
                assert after[name] == before[name], (
                    f"{key}: step {step} of the replay, {name!r}, as served to "
                    f"{'a spectator' if seat_index is None else f'seat {seat_index}'},"
                    " changes with secrets it must not know"
                )
    monkeypatch.setattr(replay, "state_at", truth)


@pytest.mark.parametrize("key", keys_for("secrets"))
def test_a_seats_own_secrets_at_a_step_reach_its_replay(key, make_user, monkeypatch):
    """The comparison above can fail: what one seat alone knows at a step shows on its
    own replay of that step (a change made for another seat's eyes reaches it)."""
    game, match, users = _start(key, make_user)
    _play(game, match, MOVES)
    rng = Rng.from_seed(f"kit-replay-own-{key}")
    step = match.version // 2
    original = replay.state_at(match, game, _entries(match), step)
    url = reverse("match_replay", args=[match.pk])
    changed = False
    for seat_index, _user, client in _viewers(match, users):
        if seat_index is None:
            continue
        others = next(i for i in range(match.n_seats) if i != seat_index)
        before = _normalise(client.get(url, {"at": step}).content.decode())
        perturbed = game.perturb_secrets(original, others, rng)
        monkeypatch.setattr(replay, "state_at", lambda m, g, e, s, _p=perturbed: _p)
        after = _normalise(client.get(url, {"at": step}).content.decode())
        monkeypatch.undo()
        changed = changed or before != after
    assert changed, f"{key}: no seat's replay showed its own secrets at step {step}"


def _catch_up(client, match, user) -> str:
    """The match page's "since your last visit" section, as if the player had not looked."""
    Seat.objects.filter(match=match, user=user).update(last_seen_at=None)
    body = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    found = re.search(r'<section class="catch-up".*?</section>', body, re.S)
    return found.group(0) if found else ""


@pytest.mark.parametrize("key", keys_for("secrets"))
def test_the_catch_up_summary_shows_no_other_seats_secrets(key, make_user):
    game, match, users = _start(key, make_user)
    _play(game, match, MOVES)
    original = match.state
    rng = Rng.from_seed(f"kit-catch-up-{key}")
    shown = 0
    for seat_index, user, client in _viewers(match, users):
        if user is None:
            assert _catch_up(client, match, user) == ""
            continue
        before = _catch_up(client, match, user)
        shown += bool(before)
        Match.objects.filter(pk=match.pk).update(
            state=game.perturb_secrets(original, seat_index, rng)
        )
        after = _catch_up(client, match, user)
        Match.objects.filter(pk=match.pk).update(state=original)
        assert after == before, f"{key}: seat {seat_index}'s catch-up changes with others' secrets"
    assert shown, f"{key}: no player had anything to catch up on"
