"""The public API: tokens, scopes, reading and playing a match, errors, limits."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import Profile
from accounts.selectors import forget_preferences
from api import tokens
from api.auth import TokenAuth
from api.models import ApiToken
from api.payloads import action_id
from core import limits
from core.errors import NotFound, ServiceError
from games.engine import registry
from games.lobby import invitations
from games.lobby import services as lobby
from games.models import ChatMessage, Move, Note, Visibility
from games.panel import presenters
from games.play import safety
from tests.conftest import each_seat_moves, inside_one_window, play_one, user_to_move
from tests.web.test_safe_moves import _hatchlings_at_an_undoable_move

pytestmark = pytest.mark.django_db

ALL = list(tokens.HUMAN_SCOPES)


def _client(user, scopes=ALL, **extra):
    _token, raw = tokens.make_token(user, "test", scopes)
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}", **extra), raw


def _error(response, status, code):
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["error"]["code"] == code
    assert response.json()["error"]["message"]


def test_a_token_is_shown_once_and_kept_only_as_a_digest(alice):
    token, raw = tokens.make_token(alice, "my bot", ["match:read"])
    assert raw.startswith("smk_") and len(raw) > 40
    stored = ApiToken.objects.get(pk=token.pk)
    assert raw not in (stored.digest, stored.prefix) and stored.digest == tokens.digest(raw)
    assert stored.last_used_at is None
    Client(HTTP_AUTHORIZATION=f"Bearer {raw}").get("/api/v1/me")
    assert ApiToken.objects.get(pk=token.pk).last_used_at is not None


def test_a_tokens_last_use_is_written_once_an_hour_and_kept_with_its_copy(alice, api_cache):
    """The first use writes the token's last use before its copy is kept,
    so the next requests read neither the token nor write its use; an hour
    later (the copy long gone) the use is written again. A refused token's
    use is never written."""
    import time_machine
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    token, raw = tokens.make_token(alice, "bot", ["match:read"])
    client = Client(HTTP_AUTHORIZATION=f"Bearer {raw}")
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        assert client.get("/api/v1/me").status_code == 200
        first = ApiToken.objects.get(pk=token.pk).last_used_at
        assert first == start
    with time_machine.travel(start + timedelta(minutes=5), tick=False):
        with CaptureQueriesContext(connection) as later:
            assert client.get("/api/v1/me").status_code == 200
        assert not [q for q in later.captured_queries if "api_apitoken" in q["sql"]]
    with time_machine.travel(start + timedelta(minutes=59), tick=False):
        assert client.get("/api/v1/me").status_code == 200
        assert ApiToken.objects.get(pk=token.pk).last_used_at == first
    with time_machine.travel(start + timedelta(hours=1, minutes=1), tick=False):
        assert client.get("/api/v1/me").status_code == 200
        assert ApiToken.objects.get(pk=token.pk).last_used_at == start + timedelta(
            hours=1, minutes=1
        )
    expired, expired_raw = tokens.make_token(alice, "old", ["match:read"], days=1)
    with time_machine.travel(start + timedelta(days=2), tick=False):
        response = Client(HTTP_AUTHORIZATION=f"Bearer {expired_raw}").get("/api/v1/me")
        _error(response, 401, "bad_token")
    assert ApiToken.objects.get(pk=expired.pk).last_used_at is None


@pytest.mark.parametrize("scopes", [[], ["match:kill"], ["match:read", "nope"]])
def test_a_token_needs_known_scopes(alice, scopes):
    with pytest.raises(ServiceError, match="scopes"):
        tokens.make_token(alice, "x", scopes)
    assert not ApiToken.objects.exists()


def test_revoked_expired_unknown_and_missing_tokens_are_refused_in_json(alice, bob):
    client, raw = _client(alice)
    assert client.get("/api/v1/me").json()["username"] == "alice"
    token = ApiToken.objects.get(user=alice)
    with pytest.raises(NotFound):
        tokens.revoke_token(bob, token.pk)  # not bob's
    tokens.revoke_token(alice, token.pk)
    _error(client.get("/api/v1/me"), 401, "bad_token")
    _error(Client(HTTP_AUTHORIZATION="Bearer smk_nothing").get("/api/v1/me"), 401, "bad_token")
    _error(Client().get("/api/v1/me"), 401, "no_token")
    expired, raw = tokens.make_token(alice, "old", ["match:read"], days=1)
    ApiToken.objects.filter(pk=expired.pk).update(expires_at="2000-01-01T00:00Z")
    _error(Client(HTTP_AUTHORIZATION=f"Bearer {raw}").get("/api/v1/me"), 401, "bad_token")


def test_the_raw_token_appears_in_no_answer(alice):
    client, raw = _client(alice)
    for url in ("/api/v1/me", "/api/v1/matches", "/api/v1/matches/999999"):
        assert raw not in client.get(url).content.decode()


def test_each_match_read_endpoint_needs_match_read(started_match, alice):
    client, _raw = _client(alice, ["challenge:read"])
    for url in (
        "/api/v1/matches",
        "/api/v1/matches/finished",
        f"/api/v1/matches/{started_match.pk}",
        f"/api/v1/matches/{started_match.pk}/log",
    ):
        _error(client.get(url), 403, "missing_scope")


def test_playing_needs_match_play_and_changes_nothing_without_it(started_match, nogi):
    user = user_to_move(started_match, nogi)
    client, _raw = _client(user, ["match:read"])
    data = client.get(f"/api/v1/matches/{started_match.pk}").json()
    chosen = data["legal_actions"][0]["id"]
    for url, body in (
        ("actions", {"action_id": chosen, "version": data["version"]}),
        ("resign", {}),
        ("chat", {"text": "hello"}),
    ):
        response = client.post(
            f"/api/v1/matches/{started_match.pk}/{url}", body, content_type="application/json"
        )
        _error(response, 403, "missing_scope")
    started_match.refresh_from_db()
    assert started_match.version == data["version"]
    assert not ChatMessage.objects.filter(match=started_match).exists()
    assert started_match.seats.get(user=user).status == "playing"


def test_the_match_shows_my_seats_view_as_the_page_sees_it(started_match, nogi):
    user = user_to_move(started_match, nogi)
    seat = started_match.seats.get(user=user)
    client, _raw = _client(user, ["match:read"])
    data = client.get(f"/api/v1/matches/{started_match.pk}").json()
    names = [s.player_name for s in started_match.seats.order_by("index")]
    expected = presenters.seat_view(
        nogi, started_match.state, seat.index, names, started_match.version
    )
    assert data["view"] == expected
    legal = nogi.legal_actions(started_match.state, seat.index)
    assert [item["action"] for item in data["legal_actions"]] == legal
    assert [item["id"] for item in data["legal_actions"]] == [action_id(a) for a in legal]
    assert data["seed"] is None and data["result"] is None


def test_only_the_seat_to_move_gets_legal_actions(started_match, nogi, alice, bob, carol):
    to_move = user_to_move(started_match, nogi)
    for user in (alice, bob, carol):
        client, _raw = _client(user, ["match:read"])
        data = client.get(f"/api/v1/matches/{started_match.pk}").json()
        assert bool(data["legal_actions"]) == (user == to_move)


def _act(client, match, chosen, version, **headers):
    return client.post(
        f"/api/v1/matches/{match.pk}/actions",
        {"action_id": chosen, "version": version},
        content_type="application/json",
        headers=headers,
    )


def test_playing_an_action_by_id_stale_versions_and_a_safe_retry(started_match, nogi):
    user = user_to_move(started_match, nogi)
    client, _raw = _client(user, ["match:read", "match:play"])
    data = client.get(f"/api/v1/matches/{started_match.pk}").json()
    chosen = data["legal_actions"][-1]
    first = _act(client, started_match, chosen["id"], data["version"], **{"Idempotency-Key": "k1"})
    assert first.status_code == 200, first.content
    assert first.json()["version"] == data["version"] + 1
    started_match.refresh_from_db()
    assert started_match.version == data["version"] + 1
    assert (
        Move.objects.get(match=started_match, seq=started_match.version).action == chosen["action"]
    )
    again = _act(client, started_match, chosen["id"], data["version"], **{"Idempotency-Key": "k1"})
    assert again.status_code == 200 and again.json() == first.json()
    started_match.refresh_from_db()
    assert started_match.version == data["version"] + 1  # no second move
    stale = _act(client, started_match, chosen["id"], data["version"])
    _error(stale, 409, "stale_version")
    assert stale.json()["error"]["version"] == started_match.version


def test_bad_input_is_a_json_4xx_and_changes_nothing(started_match, nogi, make_user):
    user = user_to_move(started_match, nogi)
    client, _raw = _client(user)
    version = started_match.version
    url = f"/api/v1/matches/{started_match.pk}/actions"
    _error(client.post(url, "{not json", content_type="application/json"), 400, "bad_input")
    _error(client.post(url, {"version": "x"}, content_type="application/json"), 400, "bad_input")
    _error(_act(client, started_match, "0" * 16, version), 400, "unknown_action")
    _error(client.get("/api/v1/matches/finished?page=0"), 400, "bad_input")
    stranger, _raw = _client(make_user("stranger"))
    _error(_act(stranger, started_match, "0" * 16, version), 403, "not_a_player")
    # A seated player whose turn it is not: 403 forbidden, whatever the id.
    waiting = next(s.user for s in started_match.seats.all() if s.user != user)
    other, _raw = _client(waiting)
    _error(_act(other, started_match, "0" * 16, version), 403, "forbidden")
    started_match.refresh_from_db()
    assert started_match.version == version


def test_another_players_private_match_is_not_admitted_to_exist(alice, bob, make_user):
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, visibility=Visibility.PRIVATE
    )
    client, _raw = _client(make_user("nosy"))
    _error(client.get(f"/api/v1/matches/{match.pk}"), 404, "not_found")
    _error(client.get(f"/api/v1/matches/{match.pk}/log"), 404, "not_found")
    _error(_act(client, match, "0" * 16, match.version), 404, "not_found")


def test_errors_speak_the_token_owners_language(started_match, nogi):
    user = user_to_move(started_match, nogi)
    user.profile.language = "pl"
    user.profile.save()
    client, _raw = _client(user, ["match:read"])
    response = client.post(
        f"/api/v1/matches/{started_match.pk}/resign", {}, content_type="application/json"
    )
    _error(response, 403, "missing_scope")
    assert "zakresu" in response.json()["error"]["message"]


def test_the_api_speaks_its_token_owners_language_never_a_sessions(alice, bob):
    """A browser's session rides along with an API request: the answer still
    speaks the token owner's language (with no token, the request's own),
    never the signed-in session's profile language."""
    alice.profile.language = "pl"
    alice.profile.save()
    bob.profile.language = "cs"
    bob.profile.save()
    _client(bob)  # bob's token is not used: he has one, like a bot's author
    client, _raw = _client(alice, ["match:read"], HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(bob)
    response = client.post("/api/v1/matches/1/resign", {}, content_type="application/json")
    _error(response, 403, "missing_scope")
    assert "zakresu" in response.json()["error"]["message"]  # alice's Polish
    anonymous = Client(HTTP_ACCEPT_LANGUAGE="en")
    anonymous.force_login(bob)
    answer = anonymous.get("/api/v1/no-such-thing")
    _error(answer, 404, "not_found")
    assert answer.json()["error"]["message"] == "There is no such address in the API."


def test_a_token_past_its_limit_gets_429_with_retry_after(alice, monkeypatch):
    inside_one_window(margin=5, window=limits.API_TOKEN.seconds)
    monkeypatch.setattr(limits, "API_TOKEN", limits.Limit("api-token", 3, 60))
    client, _raw = _client(alice)
    for _ in range(3):
        assert client.get("/api/v1/me").status_code == 200
    response = client.get("/api/v1/me")
    _error(response, 429, "rate_limited")
    assert 1 <= int(response["Retry-After"]) <= 61
    assert response.json()["error"]["limit"] == "api-token"


def test_an_address_past_its_limit_gets_429_whatever_the_token(alice, bob, monkeypatch):
    inside_one_window(margin=5, window=limits.API_ADDRESS.seconds)
    monkeypatch.setattr(limits, "API_ADDRESS", limits.Limit("api-address", 2, 60))
    first, _raw = _client(alice, REMOTE_ADDR="192.0.2.50")
    second, _raw = _client(bob, REMOTE_ADDR="192.0.2.50")
    assert first.get("/api/v1/me").status_code == 200
    assert second.get("/api/v1/me").status_code == 200
    _error(second.get("/api/v1/me"), 429, "rate_limited")
    _error(
        Client(REMOTE_ADDR="192.0.2.50", HTTP_AUTHORIZATION="Bearer smk_x").get("/api/v1/me"),
        429,
        "rate_limited",
    )
    _error(Client(REMOTE_ADDR="192.0.2.50").get("/api/v1/games"), 429, "rate_limited")
    assert Client(REMOTE_ADDR="192.0.2.51").get("/api/v1/games").status_code == 200


def test_my_matches_and_the_log(started_match, nogi, alice):
    client, _raw = _client(alice, ["match:read"])
    rows = client.get("/api/v1/matches").json()
    assert [row["id"] for row in rows] == [started_match.pk]
    assert rows[0]["my_seat"] == 0
    log = client.get(f"/api/v1/matches/{started_match.pk}/log").json()
    assert log["page"] == 1 and not log["more"]
    assert [entry["seq"] for entry in log["entries"]] == list(
        Move.objects.filter(match=started_match).values_list("seq", flat=True)
    )


def test_games_lists_every_game_with_its_options():
    data = Client().get("/api/v1/games").json()
    assert {game["key"] for game in data} == {game.key for game in registry.all()}


def test_the_openapi_schema_is_served():
    response = Client().get("/api/v1/openapi.json")
    assert response.status_code == 200
    assert "/api/v1/matches/{pk}/actions" in response.json()["paths"]


def test_resigning_and_chatting_through_the_api(started_match, nogi, alice):
    client, _raw = _client(alice, ["match:play"])
    response = client.post(
        f"/api/v1/matches/{started_match.pk}/chat", {"text": "gg"}, content_type="application/json"
    )
    assert response.status_code == 200, response.content
    assert ChatMessage.objects.get(match=started_match).text == "gg"
    response = client.post(
        f"/api/v1/matches/{started_match.pk}/resign", {}, content_type="application/json"
    )
    assert response.status_code == 200, response.content
    assert started_match.seats.get(user=alice).status == "resigned"
    again = client.post(
        f"/api/v1/matches/{started_match.pk}/resign", {}, content_type="application/json"
    )
    assert 400 <= again.status_code < 500 and again.json()["error"]["code"]


@pytest.mark.parametrize(
    ("scope", "method", "path"),
    [
        ("match:read", "get", "/api/v1/matches/{pk}"),
        ("match:play", "post", "/api/v1/matches/{pk}/notes"),
        ("challenge:read", "get", "/api/v1/challenges"),
        ("challenge:write", "post", "/api/v1/matches/{pk}/join"),
    ],
)
def test_each_scope_is_needed_and_enough(started_match, alice, scope, method, path):
    """Every other scope is refused with 403 and a JSON error; the scope itself passes."""
    url = path.format(pk=started_match.pk)
    kwargs = {"data": {"text": "n"}, "content_type": "application/json"} if method == "post" else {}
    for other in ALL:
        if other == scope or (other == "bot:play" and scope.startswith("match:")):
            continue
        client, _raw = _client(alice, [other])
        _error(getattr(client, method)(url, **kwargs), 403, "missing_scope")
    client, _raw = _client(alice, [scope])
    response = getattr(client, method)(url, **kwargs)
    assert response.json().get("error", {}).get("code") != "missing_scope"


def test_bot_play_reads_and_plays_like_match_read_and_play(started_match, nogi):
    """A bot account's token with bot:play reads and plays (the player is
    marked a bot account directly: conversion needs an account with no match)."""
    user = user_to_move(started_match, nogi)
    Profile.objects.filter(user=user).update(is_bot_account=True)
    forget_preferences(user.pk)
    user = type(user).objects.select_related("profile").get(pk=user.pk)
    client, _raw = _client(user, ["bot:play"])
    data = client.get(f"/api/v1/matches/{started_match.pk}").json()
    response = _act(client, started_match, data["legal_actions"][0]["id"], data["version"])
    assert response.status_code == 200, response.content


def test_invitations_join_and_decline(alice, bob, carol):
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=3, visibility=Visibility.PRIVATE
    )
    invitations.invite_user(user=alice, match=match, username="bob")
    invitations.invite_user(user=alice, match=match, username="carol")
    bob_client, _raw = _client(bob, ["challenge:read", "challenge:write"])
    listed = bob_client.get("/api/v1/challenges").json()
    assert [m["id"] for m in listed["invitations"]] == [match.pk]
    joined = bob_client.post(f"/api/v1/matches/{match.pk}/join")
    assert joined.status_code == 200 and joined.json()["seat"] is not None
    carol_client, _raw = _client(carol, ["challenge:read", "challenge:write"])
    assert carol_client.post(f"/api/v1/matches/{match.pk}/decline").status_code == 200
    assert carol_client.get("/api/v1/challenges").json()["invitations"] == []
    assert match.seats.filter(user=bob).exists() and not match.seats.filter(user=carol).exists()


def test_notes_players_and_leaderboards(started_match, alice):
    client, _raw = _client(alice, ["match:play"])
    response = client.post(
        f"/api/v1/matches/{started_match.pk}/notes",
        {"text": "watch the red"},
        content_type="application/json",
    )
    assert response.status_code == 200
    assert Note.objects.get(match=started_match, user=alice).text == "watch the red"
    page = client.get("/api/v1/players/bob").json()
    assert page["username"] == "bob" and started_match.pk in page["in_play"]
    _error(client.get("/api/v1/players/nobody-here"), 404, "not_found")
    board = client.get("/api/v1/leaderboards/nogi").json()
    assert board["game"] == "nogi" and board["rows"] == []
    _error(client.get("/api/v1/leaderboards/chess"), 404, "not_found")


def test_undo_asked_and_agreed_through_the_api(alice, bob):
    match, _game = _hatchlings_at_an_undoable_move(alice, bob)
    mover = match.seats.get(index=match.moves.order_by("-seq").first().seat).user
    other = bob if mover == alice else alice
    version = match.version
    url = f"/api/v1/matches/{match.pk}/undo"
    asker, _raw = _client(mover, ["match:play"])
    answerer, _raw = _client(other, ["match:play"])
    _error(
        asker.post(url, {"answer": "perhaps"}, content_type="application/json"), 400, "bad_input"
    )
    assert asker.post(url, {"answer": "ask"}, content_type="application/json").status_code == 200
    match.refresh_from_db()
    assert match.undo_request
    response = answerer.post(url, {"answer": "agree"}, content_type="application/json")
    assert response.status_code == 200, response.content
    match.refresh_from_db()
    assert match.undo_request is None and match.version == version + 1


def _failing_lookup(request):
    """The exception of a token lookup that fails (the database gone), as a
    500's report sees it: every frame from the view down, with its locals."""
    import sys

    try:
        TokenAuth()(request)
    except TypeError:
        return sys.exc_info()
    raise AssertionError("the lookup did not fail")


def test_the_token_never_shows_in_an_error_report(alice, rf, monkeypatch):
    """Django's error pages and emails hide the Authorization header, and the
    frames that hold the raw token hide it (``sensitive_variables``)."""
    from django.views.debug import ExceptionReporter

    _token, raw = tokens.make_token(alice, "t", ["match:read"])
    request = rf.get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {raw}")

    monkeypatch.setattr(tokens.hashlib, "sha256", None)  # fails inside the lookup
    reporter = ExceptionReporter(request, *_failing_lookup(request))
    assert raw not in reporter.get_traceback_html()
    assert raw not in reporter.get_traceback_text()
    assert raw[:20] not in reporter.get_traceback_html()


def test_tournaments_listed_and_joined_with_tournament_write(alice, bob):
    from tests.tournaments.conftest import new_tournament

    cup = new_tournament(alice)
    reader, _raw = _client(bob, ["match:read"])
    listed = reader.get("/api/v1/tournaments").json()
    assert [t["id"] for t in listed["open"]] == [cup.pk]
    entrants = listed["open"][0]["entrants"]
    _error(reader.post(f"/api/v1/tournaments/{cup.pk}/join"), 403, "missing_scope")
    assert not cup.entrants.filter(user=bob).exists()
    writer, _raw = _client(bob, ["tournament:write"])
    _error(writer.post(f"/api/v1/tournaments/{cup.pk}/dance"), 404, "not_found")
    assert writer.post(f"/api/v1/tournaments/{cup.pk}/join").status_code == 200
    assert cup.entrants.filter(user=bob).exists()
    assert writer.get("/api/v1/tournaments").json()["open"][0]["entrants"] == entrants + 1
    assert writer.post(f"/api/v1/tournaments/{cup.pk}/leave").status_code == 200
    assert not cup.entrants.filter(user=bob, status="active").exists()


@pytest.mark.parametrize("path", ["/api/", "/api/v1/nothing", "/api/v2/me", "/api/v1/matches/x"])
def test_an_unknown_address_under_the_api_is_a_json_404(alice, path):
    client, _raw = _client(alice)
    _error(client.get(path), 404, "not_found")
    _error(client.post(path, "{}", content_type="application/json"), 404, "not_found")


def test_acting_on_a_finished_match_is_a_conflict_and_changes_nothing(alice, bob):
    match = lobby.create_match(user=alice, game_key="drako", n_seats=2)
    lobby.join_match(user=bob, match=match)
    match = each_seat_moves(match)
    safety.resign(user=alice, match=match)
    match.refresh_from_db()
    version = match.version
    client, _raw = _client(bob)
    response = _act(client, match, "0" * 16, version)
    _error(response, 409, "conflict")
    detail = client.get(f"/api/v1/matches/{match.pk}").json()
    assert detail["legal_actions"] == [] and detail["seed"] == match.seed
    assert detail["result"] is not None
    match.refresh_from_db()
    assert match.version == version


def test_since_answers_unchanged_cheaply_until_the_match_changes(started_match, nogi, alice):
    client, _raw = _client(alice, ["match:read"])
    url = f"/api/v1/matches/{started_match.pk}"
    first = client.get(url).json()
    assert first["changed"] is True
    again = client.get(url, {"since": first["stamp"]}).json()
    assert again == {"id": started_match.pk, "stamp": first["stamp"], "changed": False}
    assert client.get(url, {"since": "forged"}).json()["changed"] is True
    play_one(started_match, nogi)
    moved = client.get(url, {"since": first["stamp"]}).json()
    assert moved["changed"] is True and moved["version"] == first["version"] + 1


@pytest.fixture(params=["local memory", pytest.param("redis", marks=pytest.mark.redis)])
def api_cache(request):
    """Each cache production or a fresh clone gives the API (Redis skipped,
    with its reason, when the machine has none)."""
    if request.param == "local memory":
        yield None
        return
    from django.test import override_settings

    from tests.core.test_limits import REDIS_URL, _redis_is_up, redis_caches

    if not _redis_is_up():
        pytest.skip(f"needs Redis at {REDIS_URL}")
    with override_settings(CACHES=redis_caches()):
        yield request.param


@pytest.mark.redis
def test_a_known_token_costs_one_round_trip_to_redis(alice, started_match):
    """Once this process has found a token, a request counts its two limits
    and reads the token's kept copy with its owner's stamp in one command:
    no query for the token, one round trip in all."""
    from django.test import override_settings

    from tests.core.test_limits import REDIS_URL, _redis_is_up, count_redis_trips, redis_caches

    if not _redis_is_up():
        pytest.skip(f"needs Redis at {REDIS_URL}")
    with override_settings(CACHES=redis_caches()):
        client, _raw = _client(alice, ["match:read"])
        url = f"/api/v1/matches/{started_match.pk}"
        stamp = client.get(url).json()["stamp"]
        assert client.get(url, {"since": stamp}).json()["changed"] is False
        with pytest.MonkeyPatch.context() as patch:
            trips = count_redis_trips(patch)
            assert client.get(url, {"since": stamp}).json()["changed"] is False
    assert trips == ["EVALSHA"]


def test_a_kept_token_still_answers_to_revocation_and_its_owners_changes(alice, bob, api_cache):
    """The lookup keeps a token it found in the cache for ten minutes; revoking
    it, deleting it, deactivating its owner or changing the owner's profile
    (language, bot account) still take effect on the very next request."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client, _raw = _client(alice)
    assert client.get("/api/v1/me").json()["username"] == "alice"
    with CaptureQueriesContext(connection) as kept:
        assert client.get("/api/v1/me").status_code == 200
    token = ApiToken.objects.get(user=alice)
    assert not [q for q in kept.captured_queries if "api_apitoken" in q["sql"]]
    # The owner's language: the next answer speaks it.
    from accounts import services as account_services

    account_services.set_language(alice, "pl")
    assert client.get("/api/v1/me").json()["language"] == "pl"
    # Revoked: refused at once, though a copy was kept a moment ago.
    tokens.revoke_token(alice, token.pk)
    _error(client.get("/api/v1/me"), 401, "bad_token")
    # Another token kept, its owner deactivated (a save of the user): refused.
    client, _raw = _client(bob)
    assert client.get("/api/v1/me").status_code == 200
    bob.is_active = False
    bob.save(update_fields=["is_active"])
    _error(client.get("/api/v1/me"), 401, "bad_token")
    # Deleted (with its owner's account, or by hand): refused.
    client, _raw = _client(alice)
    assert client.get("/api/v1/me").status_code == 200
    ApiToken.objects.filter(user=alice, revoked_at=None).delete()
    _error(client.get("/api/v1/me"), 401, "bad_token")
