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

from games.catalog.nogi.rules import castle_knights
from games.engine import registry
from games.lobby import services as lobby
from games.models import Match, MatchStatus, Move
from games.play import chat, services

pytestmark = pytest.mark.django_db

LONG_GAME = 64  # moves played before the second measurement (the log tail shows 30)
# Measured on SQLite and PostgreSQL alike, in a match with chat: 7, 5, 6 and 1
# queries today (one fewer for a move or a page of a match nobody wrote in),
# under issue 15's targets of 8, 6, 6 and 2 (18, 12, 10 and 1 before the move
# stopped re-reading the match and its seats, sessions and preferences came
# from the cache, the page read its match, seats, next match and unread count
# in one query, and the move wrote its "your turn" rows in one upsert); a
# move writes one statement more since the API's event stream (its rows for
# every seated player, ``api.events.on_move``): 8 and 6, the targets.
# The SAVEPOINT statements of a move's transaction exist only inside the
# test's own transaction, so they are left out; in production they are the
# transaction's BEGIN and COMMIT (PostgreSQL logs them too), which carry no
# data and are not counted either.
MAX_QUERIES = {"move-htmx": 8, "move-plain": 6, "page": 6, "poll-204": 2}
OTHER_MATCHES = 6  # matches the player has elsewhere, for the second measurement


def counted(queries: CaptureQueriesContext) -> list[dict]:
    """The statements a request sends in production (no test SAVEPOINTs)."""
    return [q for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]


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
    match = lobby.create_match(
        user=ann, game_key="nogi", n_seats=2, options={"first_player": "host"}
    )
    lobby.join_match(user=ben, match=match)
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
    return "\n".join(f"  {q['sql'][:160]}" for q in counted(queries))


def _more_matches(match: Match, count: int) -> None:
    """Give both players ``count`` more matches in play, some waiting on each."""
    users = [seat.user for seat in match.seats.order_by("index")]
    for i in range(count):
        host, guest = users[i % 2], users[(i + 1) % 2]
        other = lobby.create_match(
            user=host, game_key="nogi", n_seats=2, options={"first_player": "host"}
        )
        lobby.join_match(user=guest, match=other)


@pytest.mark.parametrize("kind", list(MAX_QUERIES))
def test_queries_per_request_do_not_grow_with_the_game(match, kind):
    early = counted(_measure(match, kind))
    _play(match, LONG_GAME)
    _more_matches(match, OTHER_MATCHES)
    assert match.status == MatchStatus.ACTIVE and match.version >= LONG_GAME
    late_queries = _measure(match, kind)
    late = counted(late_queries)

    print(
        f"\n{kind} on {connection.vendor}: {len(early)} queries at the start,"
        f" {len(late)} after {LONG_GAME} moves and {OTHER_MATCHES} more matches"
        f" (bound {MAX_QUERIES[kind]})"
    )
    assert len(late) == len(early), f"late ({match.version} moves):\n{_listing(late_queries)}"
    assert len(early) <= MAX_QUERIES[kind], _listing(late_queries)
    # Equal counts could still hide a query that reads the whole log.
    for query in late:
        sql = query["sql"]
        if sql.startswith("SELECT") and 'FROM "games_move"' in sql:
            assert " LIMIT " in sql, f"an unbounded read of the move log: {sql}"


@pytest.mark.parametrize("kind", ["move-htmx", "page"])
def test_a_match_nobody_wrote_in_draws_its_panel_without_reading_chat(match, kind):
    """Most matches have no chat: their panel costs one query fewer. The first
    message turns the query on, and the message shows."""
    quiet = counted(_measure(match, kind))
    assert not any('"games_chatmessage"' in q["sql"] for q in quiet), kind
    chat.post_message(match.seats.get(index=0).user, match, "Good luck!")
    match.refresh_from_db()
    assert match.has_chat
    queries = _measure(match, kind)
    talking = counted(queries)
    assert len(talking) == len(quiet) + 1, _listing(queries)
    assert sum('"games_chatmessage"' in q["sql"] for q in talking) == 1, kind
    client = Client()
    client.force_login(match.seats.get(index=1).user)
    assert "Good luck!" in client.get(reverse("match_detail", args=[match.pk])).content.decode()
