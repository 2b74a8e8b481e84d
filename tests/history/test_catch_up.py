"""Catching up (issue 26, item 1): the match page opens with what the others did
since the player's last visit or their own last move, whichever is later, in
the log's words as that seat may read them, with a link to replay them, and
the board highlights what those moves changed; at most 2 more queries."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.history import replay
from games.models import Seat
from tests.conftest import play_one

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _summary(client, match) -> list[int] | None:
    body = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    found = re.search(r'<section class="catch-up".*?</section>', body, re.S)
    if found is None:
        return None
    return [int(seq) for seq in re.findall(r'<li value="(\d+)"', found.group(0))]


def _seat_of(match, user) -> Seat:
    return match.seats.get(user=user)


def test_the_moves_since_ones_own_last_move_are_summed_up(started_match, nogi, alice):
    match = started_match
    moved = []
    while True:  # play until alice has moved and both others after her
        play_one(match, nogi)
        match.refresh_from_db()
        moved.append(match.moves.order_by("-seq").first())
        if len(moved) >= 3 and moved[-3].seat == 0:
            break
    mine = moved[-3].seq
    Seat.objects.filter(match=match, user=alice).update(last_seen_at=None)
    client = _client(alice)
    assert _summary(client, match) == list(range(mine + 1, match.version + 1))
    body = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert 'id="catch-up"' not in body, "looked just now: nothing to catch up on"


def test_a_later_visit_counts_from_the_visit(started_match, nogi, alice, bob, carol):
    match = started_match
    client = _client(alice)
    play_one(match, nogi)
    play_one(match, nogi)
    match.refresh_from_db()
    looked = timezone.now()
    Seat.objects.filter(match=match, user=alice).update(last_seen_at=looked)
    play_one(match, nogi)
    match.refresh_from_db()
    last = match.moves.order_by("-seq").first()
    if last.seat == 0:  # alice's own move: nothing from the others since
        assert _summary(client, match) is None
    else:
        summary = _summary(client, match)
        assert summary == [last.seq]
        body = client.get(reverse("match_detail", args=[match.pk])).content.decode()
        assert "catch-up" not in body.split('<div class="match-grid">')[0].split("</header>")[1]


def test_spectators_get_no_summary_and_the_link_replays_from_before(started_match, nogi, alice):
    match = started_match
    for _i in range(3):
        play_one(match, nogi)
    while match.moves.order_by("-seq").first().seat == 0:
        play_one(match, nogi)
    assert _summary(Client(), match) is None
    Seat.objects.filter(match=match, user=alice).update(
        last_seen_at=timezone.now() - timedelta(days=1)
    )
    body = _client(alice).get(reverse("match_detail", args=[match.pk])).content.decode()
    found = re.search(r'href="([^"]+)" id="catch-up-replay"', body)
    assert found is not None, "alice has moves to catch up on"
    first = int(re.search(r'<section class="catch-up".*?<li value="(\d+)"', body, re.S).group(1))
    assert found.group(1) == f"{reverse('match_replay', args=[match.pk])}?at={first - 1}"


def test_catching_up_adds_at_most_two_queries(started_match, nogi, alice, monkeypatch):
    match = started_match
    mine = match.seats.get(user=alice).index
    # At least four moves, the last of them another player's: there is
    # something for alice to catch up on (the seed decides who starts).
    for _i in range(4):
        play_one(match, nogi)
    while match.moves.order_by("-seq").first().seat == mine:
        play_one(match, nogi)
    client = _client(alice)
    url = reverse("match_detail", args=[match.pk])
    client.get(url)
    counts = {}
    for label, patched in (("without", True), ("with", False)):
        Seat.objects.filter(match=match, user=alice).update(last_seen_at=None)
        with monkeypatch.context() as m:
            if patched:
                m.setattr(replay, "catch_up", lambda *args: None)
            with CaptureQueriesContext(connection) as queries:
                body = client.get(url).content.decode()
        counts[label] = sum("SAVEPOINT" not in q["sql"] for q in queries.captured_queries)
        assert ('id="catch-up"' in body) == (not patched)
        assert ('data-changed="' in body) == (not patched), "the board highlights the moves"
    assert counts["with"] - counts["without"] <= 2, counts


def _highlighted(body: str) -> set[str]:
    return set(re.findall(r'data-changed="([^"]+)"', body))


def _moves_since_alice(match, nogi, mine, at_least):
    """Play ``at_least`` moves, then on until another player moved last."""
    for _i in range(at_least):
        play_one(match, nogi, choose=_i)
    while match.moves.order_by("-seq").first().seat == mine:
        play_one(match, nogi)
    match.refresh_from_db()


def test_the_board_highlights_what_the_moves_since_changed(started_match, nogi, alice):
    """The marks on the board are the presenter's ``changed`` between the position
    before the first move caught up on (rebuilt here from the whole log) and now."""
    match = started_match
    mine = match.seats.get(user=alice).index
    _moves_since_alice(match, nogi, mine, 5)
    Seat.objects.filter(match=match, user=alice).update(last_seen_at=None)
    body = _client(alice).get(reverse("match_detail", args=[match.pk])).content.decode()
    first = int(re.search(r'<section class="catch-up".*?<li value="(\d+)"', body, re.S).group(1))
    entries = [(m.seq, m.seat, m.action) for m in match.moves.order_by("seq")]
    before = replay.state_at(match, nogi, entries, first - 1)
    expected = replay.changes(match, before, match.state, mine)
    assert expected and _highlighted(body) == set(expected)
    assert 'id="changed-legend"' in body
    # A second look has nothing new: no marks, no legend.
    again = _client(alice).get(reverse("match_detail", args=[match.pk])).content.decode()
    assert _highlighted(again) == set() and 'id="changed-legend"' not in again


def test_a_highlighted_board_is_the_one_scene_built_for_the_page(
    started_match, nogi, alice, monkeypatch
):
    """The marks are known before the board is drawn, so the page builds the
    presenter's scene, and asks the game for its view and choices, once."""
    from games.panel import presenters

    match = started_match
    mine = match.seats.get(user=alice).index
    _moves_since_alice(match, nogi, mine, 5)
    Seat.objects.filter(match=match, user=alice).update(last_seen_at=None)
    cache.clear()
    built = []
    scene = presenters.Presenter.scene
    monkeypatch.setattr(
        presenters.Presenter,
        "scene",
        lambda self, *args, **kw: built.append(args) or scene(self, *args, **kw),
    )
    body = _client(alice).get(reverse("match_detail", args=[match.pk])).content.decode()
    assert 'data-changed="' in body
    assert len(built) == 1


def _page_queries(client, match, alice, monkeypatch, patched: bool):
    Seat.objects.filter(match=match, user=alice).update(last_seen_at=None)
    with monkeypatch.context() as m:
        if patched:
            m.setattr(replay, "catch_up", lambda *args: None)
        with CaptureQueriesContext(connection) as queries:
            body = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    return sum("SAVEPOINT" not in q["sql"] for q in queries.captured_queries), body


def test_highlights_start_from_a_kept_position_and_never_read_the_whole_log(
    started_match, nogi, alice, monkeypatch
):
    """A couple of dozen moves in, the position before the moves caught up on is
    the kept one before it plus a few entries: with the cache cold, no
    highlights (the summary still shows) and no query; once positions are kept,
    the highlights, and at most two more queries than without catching up, none
    of them reading the log without a limit."""
    match = started_match
    mine = match.seats.get(user=alice).index
    _moves_since_alice(match, nogi, mine, 24)
    client = _client(alice)
    cache.clear()
    without, _body = _page_queries(client, match, alice, monkeypatch, patched=True)
    cache.clear()
    cold, body = _page_queries(client, match, alice, monkeypatch, patched=False)
    assert 'id="catch-up"' in body and 'data-changed="' not in body
    assert cold - without <= 2, (cold, without)
    # The replay's rebuild keeps every tenth position (a move keeps its own on commit).
    Client().get(reverse("match_replay", args=[match.pk]), {"at": match.version - 1})
    with CaptureQueriesContext(connection) as queries:
        warm, body = _page_queries(client, match, alice, monkeypatch, patched=False)
    assert 'data-changed="' in body
    assert warm - without <= 2, (warm, without)
    for query in queries.captured_queries:
        if query["sql"].startswith("SELECT") and 'FROM "games_move"' in query["sql"]:
            assert " LIMIT " in query["sql"], query["sql"]
