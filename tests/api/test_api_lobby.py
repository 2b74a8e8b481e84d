"""The API's lobby and ladders: creating a match or a challenge, invitations
sent and received with accept and decline, ladders (list, table, join,
leave, challenge a rung, accept, decline). Each refusal is a 4xx JSON error
and changes nothing."""

from datetime import timedelta

import pytest
from django.test import Client

from accounts import services as accounts
from api import tokens
from games.models import Invitation, Match, MatchStatus, Seat, Visibility
from ladders.models import Challenge, Entry

pytestmark = pytest.mark.django_db

ALL = list(tokens.HUMAN_SCOPES)


def _client(user, scopes=ALL):
    _token, raw = tokens.make_token(user, "test", scopes)
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}")


def _post(client, url, body=None):
    return client.post(url, body or {}, content_type="application/json")


def _error(response, status, code):
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["error"]["code"] == code
    assert response.json()["error"]["message"]
    return response.json()["error"]


def test_a_new_open_match_with_its_options_and_clock(alice):
    answer = _post(
        _client(alice),
        "/api/v1/matches",
        {
            "game": "drakon",
            "players": 4,
            "options": {"heroes": True, "escape": False},
            "time_per_move": 86400,
            "time_bank": 0,
        },
    )
    assert answer.status_code == 201, answer.content
    data = answer.json()
    match = Match.objects.get(pk=data["id"])
    assert (match.game_key, match.n_seats, match.status) == ("drakon", 4, MatchStatus.OPEN)
    assert match.options["heroes"] is True and match.options["escape"] is False
    assert match.time_per_move == timedelta(days=1)
    assert match.visibility == Visibility.PUBLIC and match.rated
    assert data["my_seat"] == 0 and data["seats"][0]["player"] == "alice"
    assert data["invited"] is None


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "chess", "players": 2}, "game"),
        ({"game": "nogi", "players": 9}, "players"),
        ({"game": "nogi", "players": 3, "options": {"first_player": "me"}}, "options"),
        ({"game": "nogi", "players": 3, "options": {"speed": "fast"}}, "options"),
        ({"game": "nogi", "players": 3, "time_per_move": 61}, "time_per_move"),
        ({"game": "nogi", "players": 3, "visibility": "secret"}, "visibility"),
        ({"game": "nogi", "players": 3, "visibility": "private", "rated": True}, "rated"),
        ({"game": "nogi", "players": 3, "min_rating": 2000, "max_rating": 1000}, "max_rating"),
        # Refused by the service rather than the form: the same message as the page's.
        ({"game": "nogi", "players": 3, "timeout_policy": "loss"}, None),
    ],
)
def test_a_bad_new_match_says_why_and_creates_nothing(alice, body, field):
    code = "bad_input" if field else "refused"
    error = _error(_post(_client(alice), "/api/v1/matches", body), 400, code)
    if field:
        assert field in error["fields"], error
    assert not Match.objects.exists()


def test_a_challenge_to_a_player_and_its_answer(alice, bob, carol):
    answer = _post(
        _client(alice),
        "/api/v1/matches",
        {"game": "drako", "players": 2, "visibility": "private", "invite": "bob"},
    )
    assert answer.status_code == 201, answer.content
    match = Match.objects.get(pk=answer.json()["id"])
    assert match.visibility == Visibility.PRIVATE and not match.rated
    assert answer.json()["invited"] == "bob"
    bob_api = _client(bob)
    received = bob_api.get("/api/v1/invitations").json()["received"]
    assert [(row["id"], row["from"]) for row in received] == [(match.pk, "alice")]
    sent = _client(alice).get("/api/v1/invitations").json()["sent"]
    assert [(row["id"], row["to"]) for row in sent] == [(match.pk, "bob")]
    # Carol was not invited: she may not accept, and sees nothing.
    carol_api = _client(carol)
    assert carol_api.get("/api/v1/invitations").json() == {"received": [], "sent": []}
    _error(_post(carol_api, f"/api/v1/matches/{match.pk}/accept"), 404, "not_found")
    accepted = _post(bob_api, f"/api/v1/matches/{match.pk}/accept")
    assert accepted.status_code == 200, accepted.content
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    assert bob_api.get("/api/v1/invitations").json()["received"] == []
    _error(_post(bob_api, f"/api/v1/matches/{match.pk}/accept"), 409, "conflict")


def test_a_declined_challenge_leaves_the_lists(alice, bob):
    answer = _post(
        _client(alice), "/api/v1/matches", {"game": "nogi", "players": 2, "invite": "Bob"}
    )
    match_id = answer.json()["id"]
    bob_api = _client(bob)
    assert _post(bob_api, f"/api/v1/matches/{match_id}/decline").status_code == 200
    assert bob_api.get("/api/v1/invitations").json()["received"] == []
    assert _client(alice).get("/api/v1/invitations").json()["sent"] == []
    assert not Invitation.objects.exists()
    _error(_post(bob_api, f"/api/v1/matches/{match_id}/accept"), 404, "not_found")


@pytest.mark.parametrize(
    ("invite", "status", "code"),
    [("nobody", 400, "refused"), ("alice", 400, "refused"), ("bob", 403, "forbidden")],
)
def test_a_refused_challenge_creates_nothing(alice, bob, invite, status, code):
    accounts.block(bob, "alice")
    body = {"game": "drako", "players": 2, "visibility": "private", "invite": invite}
    _error(_post(_client(alice), "/api/v1/matches", body), status, code)
    assert not Match.objects.exists() and not Invitation.objects.exists()


def test_accepting_needs_an_invitation(alice, bob):
    answer = _post(_client(alice), "/api/v1/matches", {"game": "nogi", "players": 3})
    _error(_post(_client(bob), f"/api/v1/matches/{answer.json()['id']}/accept"), 409, "conflict")
    assert not Seat.objects.filter(user=bob).exists()


def test_new_matches_are_limited_as_on_the_page(alice, monkeypatch):
    from core import limits

    monkeypatch.setattr(limits, "MATCH", limits.Limit("match", 1, 3600))
    client = _client(alice)
    assert _post(client, "/api/v1/matches", {"game": "nogi", "players": 3}).status_code == 201
    _error(_post(client, "/api/v1/matches", {"game": "nogi", "players": 3}), 429, "rate_limited")
    assert Match.objects.count() == 1


def test_ladders_join_table_challenge_accept_and_leave(alice, bob, carol):
    alice_api, bob_api, carol_api = _client(alice), _client(bob), _client(carol)
    assert _post(alice_api, "/api/v1/ladders/drako/join").json()["rung"] == 1
    assert _post(bob_api, "/api/v1/ladders/drako/join").status_code == 200
    _error(_post(bob_api, "/api/v1/ladders/drako/join"), 409, "conflict")
    listed = {row["game"]: row for row in bob_api.get("/api/v1/ladders").json()}
    assert listed["drako"]["players"] == 2 and listed["drako"]["mine"]
    assert not listed["nogi"]["mine"]
    table = bob_api.get("/api/v1/ladders/drako").json()
    assert [(r["place"], r["username"]) for r in table["rows"]] == [(1, "alice"), (2, "bob")]
    assert table["my_place"] == 2 and table["rows"][0]["can_challenge"]
    # Only players above, on the ladder, within reach.
    _error(
        _post(carol_api, "/api/v1/ladders/drako/challenge", {"opponent": "alice"}), 409, "conflict"
    )
    _error(_post(alice_api, "/api/v1/ladders/drako/challenge", {"opponent": "bob"}), 400, "refused")
    made = _post(bob_api, "/api/v1/ladders/drako/challenge", {"opponent": "alice"})
    assert made.status_code == 200, made.content
    challenge = Challenge.objects.get(pk=made.json()["id"])
    assert challenge.match_id == made.json()["match"]
    open_ones = alice_api.get("/api/v1/ladders/drako").json()["open_challenges"]
    assert [(c["id"], c["mine_to_answer"]) for c in open_ones] == [(challenge.pk, True)]
    # Only the challenged player answers.
    _error(_post(carol_api, f"/api/v1/ladders/challenges/{challenge.pk}/accept"), 404, "not_found")
    _error(_post(alice_api, f"/api/v1/ladders/challenges/{challenge.pk}/maybe"), 404, "not_found")
    accepted = _post(alice_api, f"/api/v1/ladders/challenges/{challenge.pk}/accept")
    assert accepted.status_code == 200, accepted.content
    challenge.match.refresh_from_db()
    assert challenge.match.status == MatchStatus.ACTIVE
    _error(_post(alice_api, f"/api/v1/ladders/challenges/{challenge.pk}/decline"), 409, "conflict")
    assert _post(carol_api, "/api/v1/ladders/drako/join").status_code == 200
    assert _post(carol_api, "/api/v1/ladders/drako/leave").json() == {"game": "drako", "left": True}
    assert not Entry.objects.filter(user=carol).exists()


def test_a_declined_ladder_challenge_swaps_the_places(alice, bob):
    alice_api, bob_api = _client(alice), _client(bob)
    _post(alice_api, "/api/v1/ladders/nogi/join")
    _post(bob_api, "/api/v1/ladders/nogi/join")
    made = _post(bob_api, "/api/v1/ladders/nogi/challenge", {"opponent": "alice"}).json()
    answer = _post(alice_api, f"/api/v1/ladders/challenges/{made['id']}/decline")
    assert answer.status_code == 200, answer.content
    rows = alice_api.get("/api/v1/ladders/nogi").json()["rows"]
    assert [r["username"] for r in rows] == ["bob", "alice"]


def test_no_ladder_for_an_unknown_game(alice):
    client = _client(alice)
    _error(client.get("/api/v1/ladders/chess"), 404, "not_found")
    _error(_post(client, "/api/v1/ladders/chess/join"), 404, "not_found")
    assert not Entry.objects.exists()


@pytest.mark.parametrize(
    ("method", "url", "body", "scope"),
    [
        ("post", "/api/v1/matches", {"game": "nogi", "players": 3}, "challenge:write"),
        ("get", "/api/v1/invitations", None, "challenge:read"),
        ("post", "/api/v1/ladders/drako/join", None, "tournament:write"),
        ("post", "/api/v1/ladders/drako/leave", None, "tournament:write"),
        ("post", "/api/v1/ladders/drako/challenge", {"opponent": "bob"}, "challenge:write"),
        ("post", "/api/v1/ladders/challenges/1/accept", None, "challenge:write"),
        ("post", "/api/v1/matches/1/accept", None, "challenge:write"),
    ],
)
def test_each_endpoint_needs_its_scope(alice, method, url, body, scope):
    client = _client(alice, [s for s in ALL if s != scope])
    response = client.get(url) if method == "get" else _post(client, url, body)
    assert _error(response, 403, "missing_scope")["scope"] == scope
    assert not Match.objects.exists() and not Entry.objects.exists()
