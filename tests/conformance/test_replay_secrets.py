"""The differential secrets check over the replay's steps, the catch-up summary and
the board's highlights of what changed (issue 26), for every game.

A match is played a few moves; at several steps (the setup, the middle, now)
each seat and a spectator load the replay page, the states at that step and
the step before (whose difference the board highlights) are changed by
``perturb_secrets`` in all that viewer must not know, and the page must be
byte-identical. The same page through another seat's eyes
(``?as=``) is asked for too: while the match is in play it must not show
that seat's secrets either. The log's private events are varied as well:
each carries a probe its sentence shows, and the probes of every event the
viewer must not read at that step (another seat's, or their own told after
the step) change between the two captures. The printable record of the
match in play is diffed the same way, with the state and every other
seat's private events varied. Sanity checks prove the comparisons can fail:
a change to the viewer's own secrets at that step does change their page,
and the probes of their own private events reach it. Each player's "since your last
visit" summary and the match page with its highlighted board are compared the
same way, at several points of the match, with the position before the moves
caught up on and the current one both perturbed.
"""

import re

import pytest
from django.core.cache import cache
from django.db.models import QuerySet
from django.test import Client
from django.urls import reverse

from games.engine.rng import Rng
from games.history import replay
from games.models import Match, Move, Seat
from games.panel import presenters
from tests.conformance.kit import keys_for
from tests.conformance.test_secrets import _normalise, _play, _start, _viewers

pytestmark = pytest.mark.django_db

MOVES = 10


def _steps(match) -> list[int]:
    return sorted({0, match.version // 2, match.version})


def _a_step_that_changes_something(match, game) -> int:
    """The first step whose board a spectator sees change (a draw or a reaction may
    change nothing a spectator sees), so the highlights are always diffed too."""
    entries = _entries(match)
    for step in range(1, match.version + 1):
        previous, state = replay.step_states(match, game, entries, step)
        if replay.changes(match, previous, state, None):
            return step
    raise AssertionError(f"{match.game_key}: no step changed anything on the board")


PROBE = "[probe "


def _show_probes(monkeypatch, key):
    """Each private event's sentence ends with its probe, when it carries one."""
    presenter = presenters.get(key)
    describe = presenter.describe_event

    def probed(event, *args, **kwargs):
        plain = {name: value for name, value in event.items() if name != "_probe"}
        sentence = str(describe(plain, *args, **kwargs))
        return f"{sentence} {PROBE}{event['_probe']}]" if "_probe" in event else sentence

    monkeypatch.setattr(presenter, "describe_event", probed)


def _probe(match, mark) -> int:
    """Give every private event of the log the probe ``mark(seq, event)``; how many."""
    count = 0
    for move in Move.objects.filter(match=match):
        events = []
        for event in move.events:
            if event.get("private_to") is not None:
                event = {**event, "_probe": mark(move.seq, event)}
                count += 1
            events.append(event)
        # The site never rewrites its log (Move.objects refuses to); the probe does.
        QuerySet(Move).filter(pk=move.pk).update(events=events)
    cache.clear()  # the log's words are kept per move and viewer
    return count


def _capture(client, match, step, seats) -> dict[str, str]:
    url = reverse("match_replay", args=[match.pk])
    pages = {"replay": client.get(url, {"at": step})}
    for index in range(seats):
        pages[f"replay as {index}"] = client.get(url, {"at": step, "as": index})
    for name, response in pages.items():
        assert response.status_code == 200, (name, response.status_code)
    return {name: _normalise(r.content.decode()) for name, r in pages.items()}


def _entries(match):
    return [(m.seq, m.seat, m.action) for m in Move.objects.filter(match=match).order_by("seq")]


@pytest.mark.parametrize("key", keys_for("secrets"))
def test_no_replay_step_shows_another_seats_secrets(key, make_user, monkeypatch):
    game, match, users = _start(key, make_user)
    _play(game, match, MOVES)
    _show_probes(monkeypatch, key)
    rng = Rng.from_seed(f"kit-replay-{key}")
    truth = replay.step_states
    highlighted = probes_seen = 0
    for step in sorted({*_steps(match), _a_step_that_changes_something(match, game)}):
        previous, original = truth(match, game, _entries(match), step)
        for seat_index, _user, client in _viewers(match, users):
            monkeypatch.setattr(replay, "step_states", truth)
            _probe(match, lambda seq, event: 1)
            before = _capture(client, match, step, match.n_seats)
            highlighted += 'data-changed="' in before["replay"]
            probes_seen += PROBE in before["replay"]
            # What this viewer may read: their own private events up to this step.
            _probe(
                match,
                lambda seq, event, _v=seat_index, _s=step: (
                    1 if event["private_to"] == _v and seq <= _s else 2
                ),
            )
            perturbed = game.perturb_secrets(original, seat_index, rng)
            assert perturbed != original
            hidden_previous = (
                game.perturb_secrets(previous, seat_index, rng) if previous is not None else None
            )
            monkeypatch.setattr(
                replay,
                "step_states",
                lambda m, g, e, s, _p=perturbed, _b=hidden_previous: (_b, _p),
            )
            after = _capture(client, match, step, match.n_seats)
            for name in before:
                assert after[name] == before[name], (
                    f"{key}: step {step} of the replay, {name!r}, as served to "
                    f"{'a spectator' if seat_index is None else f'seat {seat_index}'},"
                    " changes with secrets it must not know"
                )
    monkeypatch.setattr(replay, "step_states", truth)
    assert highlighted, f"{key}: no replay step highlighted a change: the check proves nothing"
    if _probe(match, lambda seq, event: 1):
        assert probes_seen, f"{key}: no seat read its own private lines: the probes prove nothing"


@pytest.mark.parametrize("key", keys_for("secrets"))
def test_the_printable_record_of_a_match_in_play_shows_no_other_seats_secrets(
    key, make_user, monkeypatch
):
    """The record shows the log as the viewer reads it now: their own private
    lines, never another seat's, and nothing of the position's secrets."""
    game, match, users = _start(key, make_user)
    _play(game, match, MOVES)
    _show_probes(monkeypatch, key)
    rng = Rng.from_seed(f"kit-print-{key}")
    original = match.state
    url = reverse("match_print", args=[match.pk])
    probes_seen = 0
    for seat_index, _user, client in _viewers(match, users):
        private = _probe(match, lambda seq, event: 1)
        before = client.get(url)
        assert before.status_code == 200
        before = _normalise(before.content.decode())
        probes_seen += PROBE in before
        _probe(match, lambda seq, event, _v=seat_index: 1 if event["private_to"] == _v else 2)
        Match.objects.filter(pk=match.pk).update(
            state=game.perturb_secrets(original, seat_index, rng)
        )
        after = _normalise(client.get(url).content.decode())
        Match.objects.filter(pk=match.pk).update(state=original)
        assert after == before, (
            f"{key}: the printable record served to "
            f"{'a spectator' if seat_index is None else f'seat {seat_index}'}"
            " changes with secrets it must not know"
        )
    if private:
        assert probes_seen, f"{key}: no seat's record showed its own private lines"


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
        monkeypatch.setattr(replay, "step_states", lambda m, g, e, s, _p=perturbed: (None, _p))
        after = _normalise(client.get(url, {"at": step}).content.decode())
        monkeypatch.undo()
        changed = changed or before != after
    assert changed, f"{key}: no seat's replay showed its own secrets at step {step}"


def _perturbed(game, state, seat, rng):
    return None if state is None else game.perturb_secrets(state, seat, rng)


def _match_page(client, match, user) -> tuple[str, str]:
    """The match page as if the player had not looked: its "since your last visit"
    section, and the rest of the page with the board and its highlights."""
    Seat.objects.filter(match=match, user=user).update(last_seen_at=None)
    body = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    found = re.search(r'<section class="catch-up".*?</section>', body, re.S)
    return (found.group(0) if found else ""), _normalise(body)


@pytest.mark.parametrize("key", keys_for("secrets"))
def test_the_catch_up_and_its_highlights_show_no_other_seats_secrets(key, make_user, monkeypatch):
    game, match, users = _start(key, make_user)
    rng = Rng.from_seed(f"kit-catch-up-{key}")
    truth = replay.state_after
    shown = highlighted = 0
    # Several points of the match: three, or more until a board has highlighted
    # a change (some deals give a stretch of moves that change only what a seat
    # may not see, such as Drako's draws).
    for point in range(8):
        if point >= 3 and shown and highlighted:
            break
        _play(game, match, MOVES // 2)
        # Keep the positions a long-open site would have kept (moves keep theirs
        # on commit, which a test's transaction never reaches): the replay's rebuild.
        Client().get(reverse("match_replay", args=[match.pk]), {"at": match.version - 1})
        original = match.state
        for seat_index, user, client in _viewers(match, users):
            if user is None:
                assert _match_page(client, match, user)[0] == ""
                continue
            monkeypatch.setattr(replay, "state_after", truth)
            summary, page = _match_page(client, match, user)
            shown += bool(summary)
            highlighted += 'data-changed="' in page
            # The position before the moves caught up on, and now, both perturbed.
            monkeypatch.setattr(
                replay,
                "state_after",
                lambda m, g, step, known=(), _i=seat_index: _perturbed(
                    game, truth(m, g, step, known), _i, rng
                ),
            )
            Match.objects.filter(pk=match.pk).update(
                state=game.perturb_secrets(original, seat_index, rng)
            )
            after_summary, after_page = _match_page(client, match, user)
            Match.objects.filter(pk=match.pk).update(state=original)
            where = f"{key}: seat {seat_index}'s match page"
            assert after_summary == summary, f"{where}: the catch-up changes with others' secrets"
            assert after_page == page, f"{where}: the board changes with others' secrets"
    monkeypatch.setattr(replay, "state_after", truth)
    assert shown, f"{key}: no player had anything to catch up on"
    assert highlighted, f"{key}: no board highlighted a change: the check proves nothing"
