"""A board drawn without choices is drawn once per version and reused by every viewer.

``build.board_cache_key`` names everything the drawing depends on; the
board is shared by every seat without choices, every spectator and every poll
of the version; a seat's private part (and the board in words) is kept under
``build.viewer_cache_key``, for that seat's user alone; and the panel
drawn from the cache is the panel drawn afresh.
"""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.engine import registry
from games.lobby import services as lobby
from games.panel import build, presenters
from games.play import access

pytestmark = pytest.mark.django_db


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _unmasked(html: str) -> str:
    """``html`` without the CSRF field's value, masked anew on every answer."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)


def _panel(client, match) -> str:
    return client.get(reverse("match_panel", args=[match.pk])).content.decode()


@pytest.fixture
def hatchlings_match(make_user):
    """Two players of the test suite's small game, whose hands are secret."""
    owner, other = make_user("hatch-owner"), make_user("hatch-other")
    match = lobby.create_match(user=owner, game_key="hatchlings", n_seats=2)
    lobby.join_match(user=other, match=match)
    match.refresh_from_db()
    return match, owner, other


def test_a_second_spectator_gets_the_board_without_it_being_built_again(
    hatchlings_match, make_user, monkeypatch
):
    match, _owner, _other = hatchlings_match
    first = _panel(_client(make_user("watcher-1")), match)
    presenter = presenters.get(match.game_key)

    def refuse(*args, **kwargs):
        raise AssertionError("the board was built again")

    monkeypatch.setattr(presenter, "board_context", refuse)
    monkeypatch.setattr(presenter, "describe_board", refuse)
    again = _panel(_client(make_user("watcher-2")), match)
    anonymous = _panel(_client(), match)
    assert first.replace("watcher-1", "") == again.replace("watcher-2", "")
    assert 'class="board' in again and 'id="board-text"' in again
    assert "my-secrets" not in again and "my-secrets" not in anonymous


def test_a_seat_and_a_spectator_share_the_board_and_each_private_part_stays_with_its_seat(
    hatchlings_match, make_user, monkeypatch
):
    """The waiting seat draws the board once for the version; a spectator then
    gets that drawing without the board being built again, and without the
    seat's hand; the seat's private part is kept under a key naming its user."""
    match, owner, other = hatchlings_match
    game = registry.get(match.game_key)
    waiting = owner if 0 not in game.current_seats(match.state) else other
    mine = _panel(_client(waiting), match)
    assert "my-secrets" in mine  # the waiting seat's own hand, drawn and kept
    seat = access.seat_of(match, waiting).index
    names = [s.display_name for s in sorted(match.seats.all(), key=lambda s: s.index)]
    with translation.override("en"):
        board_key = build.board_cache_key(match, waiting, names)
    seat_key = build.viewer_cache_key(board_key, seat, waiting)
    spectators_key = build.viewer_cache_key(board_key, None, make_user("nobody"))
    assert cache.get(board_key) is not None and "my-secrets" in cache.get(seat_key)["private"]
    assert f"u{waiting.pk}" in seat_key and seat_key != spectators_key
    assert cache.get(spectators_key) is None

    presenter = presenters.get(match.game_key)

    def refuse(*args, **kwargs):
        raise AssertionError("the board was built again")

    monkeypatch.setattr(presenter, "board_context", refuse)
    spectator = _panel(_client(make_user("watcher-3")), match)
    assert "my-secrets" not in spectator and 'class="board' in spectator
    watched = cache.get(spectators_key)  # the spectator's own words, and no private part
    assert watched["private"] == "" and watched["words"] != cache.get(seat_key)["words"]
    again = _panel(_client(waiting), match)  # both parts now from the cache
    assert _unmasked(again) == _unmasked(mine)


def test_the_key_names_the_language_the_version_the_position_and_a_viewers_layer(
    hatchlings_match,
):
    match, owner, _other = hatchlings_match
    names = ["a", "b"]
    with translation.override("en"):
        english = build.board_cache_key(match, owner, names)
        layered = build.board_cache_key(match, owner, names, layer="since-3")
        seen_from = build.board_cache_key(match, owner, names, viewpoint="seat1")
    with translation.override("pl"):
        polish = build.board_cache_key(match, owner, names)
    renamed = build.board_cache_key(match, owner, ["a", "c"])
    match.version += 1
    newer = build.board_cache_key(match, owner, names)
    match.version -= 1
    match.state = {**match.state, "changed": True}
    moved = build.board_cache_key(match, owner, names)
    assert len({english, layered, seen_from, polish, renamed, newer, moved}) == 7


def test_a_board_marked_for_one_look_never_takes_the_place_of_the_shared_drawing(
    started_match, nogi
):
    """The highlights since a player's last look are drawn for that look alone:
    the plain board kept for the version (here by a poll) does not hide them,
    and the marked board is not what the next poll or another viewer gets."""

    from games.models import Seat
    from tests.conftest import play_one

    match = started_match
    for choose in range(6):
        play_one(match, nogi, choose=choose)
    match.refresh_from_db()
    to_move = set(nogi.current_seats(match.state))
    waiting = next(
        seat
        for seat in match.seats.order_by("index")
        if seat.index not in to_move and match.moves.order_by("-seq").first().seat != seat.index
    )
    client = _client(waiting.user)
    marks = re.compile(r'data-changed="([^"]+)"')
    assert not marks.findall(_panel(client, match))  # the plain board, now kept
    spectator = _panel(_client(), match)
    Seat.objects.filter(pk=waiting.pk).update(last_seen_at=None)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert marks.findall(page), "the look after others moved shows what changed"
    assert 'id="changed-legend"' in page
    assert not marks.findall(_panel(client, match))
    assert _panel(_client(), match) == spectator
