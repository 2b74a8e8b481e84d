"""The printable record draws the board (issue 39, item 12): the final board
of a finished match (the board now of a match in play), and on request the
board every N steps; always as a spectator sees it, never a seat's secret."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.engine.rng import Rng
from games.history import replay
from games.models import Match, MatchStatus
from games.panel import presenters
from tests.conformance.kit import keys_for
from tests.conformance.test_secrets import _normalise, _play, _start, _viewers
from tests.history.test_replay import play, start

pytestmark = pytest.mark.django_db

BOARD = re.compile(r'<figure class="board\b')


def _record(client, match, **query):
    return client.get(reverse("match_print", args=[match.pk]), query)


def _boards(body: str) -> str:
    """The record's boards (its last section), as text."""
    return body[body.index('id="record-boards"') : body.index("</article>")]


def test_a_finished_matchs_record_draws_its_final_board(make_user):
    game, match, users = start("nogi", make_user, "fb")
    play(game, match, 200)
    assert match.status == MatchStatus.FINISHED
    body = _record(Client(), match).content.decode()
    assert BOARD.search(_boards(body)), "the final board is drawn"
    assert 'id="record-board-final"' in body
    assert "The board at the end" in body
    assert len(BOARD.findall(body)) == 1  # no board every N steps unless asked


def test_the_record_draws_the_board_every_n_steps_on_request(make_user):
    game, match, users = start("drakon", make_user, "ev")
    play(game, match, 23, stop_before_end=True)
    last = match.version
    response = _record(Client(), match, every="5")
    assert response.status_code == 200
    body = response.content.decode()
    steps = [b.step for b in response.context["step_boards"]]
    assert steps == list(range(5, last, 5))
    for step in steps:
        assert f'id="record-board-{step}"' in body
    assert len(BOARD.findall(body)) == len(steps) + 1  # and the board now
    assert f"The board now (step {last})" in body
    # Several boards on one page keep every id unique.
    ids = re.findall(r'\sid="([^"]+)"', body)
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    # Each is the position at its step, as the replay of that step shows it to a spectator.
    entries = list(match.moves.order_by("seq").values_list("seq", "seat", "action"))
    drawn = response.context["step_boards"][0]
    state = replay.state_at(match, game, entries, 5)
    names = [s.display_name for s in match.seats.order_by("index")]
    view = presenters.seat_view(game, state, None, names, 5)
    assert drawn.board == presenters.get("drakon").scene(view, None, names, None).board


@pytest.mark.parametrize("every", ["abc", "0", "3", "-5", "5.0", "9" * 40, ""])
def test_a_bad_interval_is_refused_clearly_and_draws_only_the_final_board(make_user, every):
    game, match, users = start("nogi", make_user, "bad")
    play(game, match, 6, stop_before_end=True)
    response = _record(Client(), match, every=every)
    body = response.content.decode()
    if every == "":
        assert response.status_code == 200 and 'role="alert"' not in body
    else:
        assert response.status_code == 400
        assert "Choose how often to draw the board: every 5, 10, 25, 50 or 100 steps." in body
    assert response.context["step_boards"] == []
    assert len(BOARD.findall(body)) == 1


def test_too_many_boards_are_refused_with_a_clear_message(make_user, monkeypatch):
    monkeypatch.setattr(replay, "MAX_RECORD_BOARDS", 2)
    game, match, users = start("nogi", make_user, "many")
    play(game, match, 16, stop_before_end=True)
    response = _record(Client(), match, every="5")
    assert response.status_code == 400
    assert "The record draws at most this many boards: 2." in response.content.decode()
    assert response.context["step_boards"] == []


@pytest.mark.parametrize("key", keys_for("secrets"))
def test_the_records_boards_hold_no_seats_secret(key, make_user, monkeypatch):
    """Every seat's record draws the boards a spectator's does, byte for byte,
    and they do not change when everything a spectator must not know changes."""
    game, match, users = _start(key, make_user)
    _play(game, match, 10)
    viewers = _viewers(match, users)
    seen = {}
    for seat_index, _user, client in viewers:
        response = _record(client, match, every="5")
        assert response.status_code == 200
        seen[seat_index] = _normalise(_boards(response.content.decode()))
    assert all(boards == seen[None] for boards in seen.values()), key
    rng = Rng.from_seed(f"record-boards-{key}")
    original_state_at = replay.state_at
    monkeypatch.setattr(
        replay,
        "state_at",
        lambda m, g, e, s: g.perturb_secrets(original_state_at(m, g, e, s), None, rng),
    )
    Match.objects.filter(pk=match.pk).update(state=game.perturb_secrets(match.state, None, rng))
    for _seat, _user, client in viewers:
        after = _normalise(_boards(_record(client, match, every="5").content.decode()))
        assert after == seen[None], f"{key}: the record's boards show a secret"
