"""The database work of a move does not grow with the length of the game.

A move request (POST /m/<pk>/act/, as htmx and as a plain form post) is
measured at the first move of a two-player Nogi match and again after
LONG_GAME moves have been played through ``submit_action``. The counts must
be equal and stay under a fixed bound. The page a plain post redirects to
and the poll that answers 204 are measured the same way, since every move
is followed by them. No query may read the move log without a LIMIT. Run
with ``-s`` to see the counts.
"""

from __future__ import annotations

import html
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.catalog.nogi.rules import castle_knights
from games.engine import registry
from games.models import Match, MatchStatus, Move

pytestmark = pytest.mark.django_db

LONG_GAME = 64  # moves played before the second measurement (the log tail shows 30)
# Measured on SQLite and PostgreSQL alike at commit 49850a4: 18, 12, 8 and 5
# queries (17, 12, 6 and 5 before notifications, at efc3a8a). The bounds leave
# room for a few more, not for a query per move or per seat. Two of a move's
# queries are the SAVEPOINTs of its transaction inside the test's own; in
# production BEGIN and COMMIT are not counted.
MAX_QUERIES = {"move-htmx": 30, "move-plain": 24, "page": 12, "poll-204": 8}


def _patient_action(game, state, seat):
    """The legal action that brings the game nearest its end the least.

    Random two-player games end after 29 to 62 moves; this choice keeps a
    game going for hundreds, so the second measurement is mid-game.
    """
    best_key, best = None, None
    for action in game.legal_actions(state, seat):
        new, _events = game.apply(state, seat, action)
        key = (
            new["over"],
            len(castle_knights(new)),
            -len(new["board"]),
            sum(new["board"].values()),
        )
        if best_key is None or key < best_key:
            best_key, best = key, action
    return best


def _to_move(match: Match):
    (seat_index,) = registry.get(match.game_key).current_seats(match.state)
    return seat_index, match.seats.get(index=seat_index).user


@pytest.fixture
def match():
    User = get_user_model()
    ann = User.objects.create_user("counts-ann", email="ann@example.com", password=None)
    ben = User.objects.create_user("counts-ben", email="ben@example.com", password=None)
    match = services.create_match(
        user=ann, game_key="nogi", n_seats=2, options={"first_player": "host"}
    )
    services.join_match(user=ben, match=match)
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    return match


def _play(match: Match, moves: int) -> None:
    game = registry.get(match.game_key)
    for _ in range(moves):
        match.refresh_from_db()
        seat, user = _to_move(match)
        services.submit_action(match, user, _patient_action(game, match.state, seat), match.version)
    match.refresh_from_db()


def _measure(match: Match, kind: str) -> CaptureQueriesContext:
    """Run one request of ``kind`` as the player to move; return the captured queries."""
    match.refresh_from_db()
    seat, user = _to_move(match)
    client = Client()
    client.force_login(user)
    version = match.version
    action = registry.get(match.game_key).legal_actions(match.state, seat)[0]
    if kind == "poll-204":
        poll_url = _poll_url(client.get(reverse("match_detail", args=[match.pk])))
    with CaptureQueriesContext(connection) as queries:
        if kind.startswith("move"):
            headers = {"HX-Request": "true"} if kind == "move-htmx" else {}
            response = client.post(
                reverse("match_act", args=[match.pk]),
                {"action": json.dumps(action), "version": version},
                headers=headers,
            )
        elif kind == "page":
            response = client.get(reverse("match_detail", args=[match.pk]))
        else:
            response = client.get(poll_url, headers={"HX-Request": "true"})
    expected = {"move-htmx": 200, "move-plain": 302, "page": 200, "poll-204": 204}[kind]
    assert response.status_code == expected, response.content.decode()[:500]
    match.refresh_from_db()
    if kind.startswith("move"):
        assert match.version == version + 1
        assert Move.objects.get(match=match, seq=version + 1).action == action
    else:
        assert match.version == version
    return queries


def _poll_url(page) -> str:
    """The URL the match page polls (what it carries as "since" is the page's business)."""
    found = re.search(r'hx-get="(/m/\d+/panel/\?since=[^"]*)"', page.content.decode())
    assert found, "the match page has no poller"
    return html.unescape(found.group(1))


def _listing(queries: CaptureQueriesContext) -> str:
    return "\n".join(f"  {q['sql'][:160]}" for q in queries.captured_queries)


@pytest.mark.parametrize("kind", list(MAX_QUERIES))
def test_queries_per_request_do_not_grow_with_the_game(match, kind):
    early = _measure(match, kind)
    _play(match, LONG_GAME)
    assert match.status == MatchStatus.ACTIVE and match.version >= LONG_GAME
    late = _measure(match, kind)

    print(
        f"\n{kind} on {connection.vendor}: {len(early)} queries at the start,"
        f" {len(late)} after {LONG_GAME} moves (bound {MAX_QUERIES[kind]})"
    )
    assert len(late) == len(early), (
        f"early:\n{_listing(early)}\nlate ({match.version} moves):\n{_listing(late)}"
    )
    assert len(early) <= MAX_QUERIES[kind], _listing(early)
    # Equal counts could still hide a query that reads the whole log.
    for query in late.captured_queries:
        sql = query["sql"]
        if sql.startswith("SELECT") and 'FROM "games_move"' in sql:
            assert " LIMIT " in sql, f"an unbounded read of the move log: {sql}"
