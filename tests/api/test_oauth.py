"""OAuth2 for third-party apps: the authorization code flow with PKCE, the
consent page, OAuth tokens on the API exactly as personal tokens with their
scopes, revocation, expiry, and no token in an error report."""

import base64
import hashlib
import re
import secrets
import sys
import types
from datetime import timedelta
from urllib.parse import parse_qs, urlencode, urlparse

import pytest
import time_machine
from django.contrib.auth.models import AnonymousUser
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation
from django.views.debug import ExceptionReporter
from oauth2_provider.models import AccessToken, Application, Grant, RefreshToken

from api import oauth, tokens
from api.auth import TokenAuth
from api.oauth_urls import urlpatterns as oauth_urlpatterns
from games.models import Match, Note
from ladders.models import Entry
from tests.conftest import user_to_move

pytestmark = pytest.mark.django_db

REDIRECT = "https://app.example/callback"


@pytest.fixture
def app(make_user):
    staff = make_user("staff")
    return Application.objects.create(
        name="Board Buddy",
        user=staff,
        client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris=REDIRECT,
    )


def _pkce():
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode()).digest()
    return verifier, base64.urlsafe_b64encode(digest).decode().rstrip("=")


def _authorize_query(app, scope, challenge, **extra):
    query = {
        "response_type": "code",
        "client_id": app.client_id,
        "redirect_uri": REDIRECT,
        "scope": scope,
        "state": "s-1",
        "code_challenge": challenge,
        "code_challenge_method": "S256",
        **extra,
    }
    return "/oauth/authorize/?" + urlencode({k: v for k, v in query.items() if v is not None})


def _consent(browser, app, scope, challenge, allow=True):
    """The consent page, then its form posted back: the redirect's query."""
    page = browser.get(_authorize_query(app, scope, challenge))
    assert page.status_code == 200, page.content
    form = page.context["form"]
    data = {name: value for name, value in form.initial.items() if value is not None}
    if allow:
        data["allow"] = "Authorize"
    answer = browser.post("/oauth/authorize/", data)
    assert answer.status_code == 302, answer.content
    location = urlparse(answer["Location"])
    assert f"{location.scheme}://{location.netloc}{location.path}" == REDIRECT
    return {key: values[0] for key, values in parse_qs(location.query).items()}


def _exchange(app, code, verifier):
    return Client().post(
        "/oauth/token/",
        {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": REDIRECT,
            "client_id": app.client_id,
            "code_verifier": verifier,
        },
    )


def _browser(user):
    client = Client()
    client.force_login(user)
    return client


def _granted(user, app, scope):
    """The whole flow: an access token for ``scope``."""
    verifier, challenge = _pkce()
    code = _consent(_browser(user), app, scope, challenge)["code"]
    answer = _exchange(app, code, verifier)
    assert answer.status_code == 200, answer.content
    return answer.json()


def _bearer(raw):
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}")


def _error(response, status, code):
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["error"]["code"] == code
    assert response.json()["error"]["message"]


def test_the_whole_flow_authorize_consent_code_token_and_a_move(app, started_match, nogi):
    user = user_to_move(started_match, nogi)
    verifier, challenge = _pkce()
    browser = _browser(user)
    page = browser.get(_authorize_query(app, "match:read match:play", challenge))
    text = page.content.decode()
    assert "Board Buddy" in text
    assert str(tokens.SCOPES["match:read"]) in text and str(tokens.SCOPES["match:play"]) in text
    assert str(tokens.SCOPES["challenge:write"]) not in text
    back = _consent(browser, app, "match:read match:play", challenge)
    assert back["state"] == "s-1" and back["code"]
    assert back["iss"] == "http://testserver"  # RFC 9207: who answered
    answer = _exchange(app, back["code"], verifier)
    assert answer.status_code == 200, answer.content
    granted = answer.json()
    assert granted["access_token"].startswith("smo_")
    assert granted["refresh_token"].startswith("smr_")
    assert set(granted["scope"].split()) == {"match:read", "match:play"}
    # Only checksums are kept: neither token is in the database.
    stored = AccessToken.objects.get(user=user, application=app)
    assert granted["access_token"] not in stored.token
    assert stored.token_checksum == hashlib.sha256(granted["access_token"].encode()).hexdigest()
    # The token acts on the API as a personal token with those scopes.
    api = _bearer(granted["access_token"])
    me = api.get("/api/v1/me").json()
    assert me["username"] == user.username
    assert sorted(me["scopes"]) == ["match:play", "match:read"]
    data = api.get(f"/api/v1/matches/{started_match.pk}").json()
    chosen = data["legal_actions"][0]["id"]
    body = {"action_id": chosen, "version": data["version"]}
    moved = api.post(
        f"/api/v1/matches/{started_match.pk}/actions",
        body,
        content_type="application/json",
        headers={"Idempotency-Key": "once"},
    )
    assert moved.status_code == 200, moved.content
    again = api.post(
        f"/api/v1/matches/{started_match.pk}/actions",
        body,
        content_type="application/json",
        headers={"Idempotency-Key": "once"},
    )
    assert again.json() == moved.json()
    started_match.refresh_from_db()
    assert started_match.version == data["version"] + 1
    # The code is spent: a second exchange gets nothing.
    assert _exchange(app, back["code"], verifier).status_code == 400


def test_pkce_is_required_and_the_verifier_must_match(app, alice):
    browser = _browser(alice)
    answer = browser.get(_authorize_query(app, "match:read", None, code_challenge_method=None))
    assert answer.status_code == 302
    assert parse_qs(urlparse(answer["Location"]).query)["error"] == ["invalid_request"]
    plain = browser.get(
        _authorize_query(app, "match:read", "x" * 50, code_challenge_method="plain")
    )
    assert "code=" not in plain.get("Location", "")
    verifier, challenge = _pkce()
    code = _consent(browser, app, "match:read", challenge)["code"]
    wrong = _exchange(app, code, secrets.token_urlsafe(48))
    assert wrong.status_code == 400 and wrong.json()["error"] == "invalid_grant"
    assert not AccessToken.objects.exists()


def test_refusing_consent_gives_no_code_and_no_token(app, alice):
    _verifier, challenge = _pkce()
    back = _consent(_browser(alice), app, "match:read", challenge, allow=False)
    assert back["error"] == "access_denied" and "code" not in back
    assert not Grant.objects.exists() and not AccessToken.objects.exists()


def test_an_unknown_app_or_scope_is_refused_on_the_sites_page(app, alice):
    browser = _browser(alice)
    _verifier, challenge = _pkce()
    page = browser.get(
        _authorize_query(app, "match:read", challenge, client_id="nobody", redirect_uri=REDIRECT)
    )
    assert page.status_code == 400
    assert "The app's request was refused" in page.content.decode()
    bad_scope = browser.get(_authorize_query(app, "root", challenge))
    assert parse_qs(urlparse(bad_scope["Location"]).query)["error"] == ["invalid_scope"]


def test_a_forged_consent_form_is_refused_on_the_sites_page(app, alice):
    """The consent form posted back with an app that does not exist (the
    form fuzzer's finding: a 500) is a 400 on the site's page, nothing granted."""
    _verifier, challenge = _pkce()
    browser = _browser(alice)
    page = browser.get(_authorize_query(app, "match:read", challenge))
    data = {k: v for k, v in page.context["form"].initial.items() if v is not None}
    data.update(client_id="forged", allow="Authorize")
    answer = browser.post("/oauth/authorize/", data)
    assert answer.status_code == 400
    assert "The app's request was refused" in answer.content.decode()
    assert not Grant.objects.exists()


def test_the_consent_page_asks_for_a_login_first(app):
    _verifier, challenge = _pkce()
    answer = Client().get(_authorize_query(app, "match:read", challenge))
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]


@pytest.mark.parametrize("language", ["pl", "cs"])
def test_the_consent_page_speaks_the_players_language(app, alice, language):
    alice.profile.language = language
    alice.profile.save()
    _verifier, challenge = _pkce()
    browser = _browser(alice)
    text = browser.get(_authorize_query(app, "match:read", challenge)).content.decode()
    text = re.sub(r"<(style|script)[^>]*>.*?</\1>", "", text, flags=re.S)
    assert "Let Board Buddy use your account" not in text and "Read my matches" not in text
    assert "Board Buddy" in text
    with translation.override(language):
        assert str(tokens.SCOPES["match:read"]) in text
        assert translation.gettext("Allow") in text


# Each scope: an endpoint it allows (with the answer it gets) and, for a
# token granted every other scope, the 403 it gets instead.
def _scope_cases(match, user):
    return {
        "match:read": ("get", "/api/v1/matches", None),
        "match:play": ("post", f"/api/v1/matches/{match.pk}/notes", {"text": "mine"}),
        "challenge:read": ("get", "/api/v1/challenges", None),
        "challenge:write": ("post", "/api/v1/matches", {"game": "drako", "players": 2}),
        "bot:play": ("get", f"/api/v1/matches/{match.pk}", None),
        "tournament:write": ("post", "/api/v1/ladders/drako/join", {}),
    }


def _call(client, method, url, body):
    if method == "get":
        return client.get(url)
    return client.post(url, body or {}, content_type="application/json")


@pytest.mark.parametrize("scope", list(tokens.HUMAN_SCOPES))  # bot:play: a bot account's
def test_each_scope_allows_its_endpoints_and_nothing_is_allowed_without_it(
    app, started_match, alice, scope
):
    match = started_match
    method, url, body = _scope_cases(match, alice)[scope]
    others = " ".join(s for s in tokens.SCOPES if s != scope and not _covers(s, scope))
    refused = _bearer(_granted(alice, app, others)["access_token"])
    _error(_call(refused, method, url, body), 403, "missing_scope")
    allowed = _bearer(_granted(alice, app, scope)["access_token"])
    answer = _call(allowed, method, url, body)
    assert answer.status_code == (201 if scope == "challenge:write" else 200), answer.content
    if scope == "match:play":
        assert Note.objects.get(match=match, user=alice).text == "mine"
    if scope == "challenge:write":
        assert Match.objects.get(pk=answer.json()["id"]).game_key == "drako"
    if scope == "tournament:write":
        assert Entry.objects.filter(user=alice, ladder__game_key="drako").exists()


def _covers(other: str, scope: str) -> bool:
    """``bot:play`` stands in for the match scopes, and they for it."""
    return {other, scope} in ({"match:read", "bot:play"}, {"match:play", "bot:play"})


def test_an_expired_or_revoked_oauth_token_is_a_401_json_error(app, alice):
    granted = _granted(alice, app, "match:read")
    api = _bearer(granted["access_token"])
    assert api.get("/api/v1/me").status_code == 200
    # A second past its expiry, the copy of it kept a moment ago is refused too.
    expires = AccessToken.objects.get(user=alice).expires
    with time_machine.travel(expires + timedelta(seconds=1), tick=False):
        _error(api.get("/api/v1/me"), 401, "bad_token")
    # The refresh token gives a new access token (and is then spent).
    refreshed = Client().post(
        "/oauth/token/",
        {
            "grant_type": "refresh_token",
            "refresh_token": granted["refresh_token"],
            "client_id": app.client_id,
        },
    )
    assert refreshed.status_code == 200, refreshed.content
    fresh = refreshed.json()["access_token"]
    assert _bearer(fresh).get("/api/v1/me").status_code == 200
    # The old value (still within its expiry now, and kept in the cache) is refused.
    _error(api.get("/api/v1/me"), 401, "bad_token")
    # The app revokes its own token (RFC 7009).
    revoked = Client().post("/oauth/revoke_token/", {"token": fresh, "client_id": app.client_id})
    assert revoked.status_code == 200
    _error(_bearer(fresh).get("/api/v1/me"), 401, "bad_token")
    _error(_bearer("smo_" + "x" * 43).get("/api/v1/me"), 401, "bad_token")


def test_an_oauth_token_is_kept_like_a_personal_one_and_revoking_it_ends_the_copy(app, alice):
    """Found once, an OAuth token is read from the cache with its owner (no
    query for it); the owner's revocation on the tokens page still refuses
    the very next request."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    api = _bearer(_granted(alice, app, "match:read")["access_token"])
    assert api.get("/api/v1/me").status_code == 200
    with CaptureQueriesContext(connection) as kept:
        assert api.get("/api/v1/me").json()["username"] == "alice"
    assert not [q for q in kept.captured_queries if "oauth2_provider_accesstoken" in q["sql"]]
    oauth.revoke_app(alice, app.pk)
    _error(api.get("/api/v1/me"), 401, "bad_token")


def test_an_oauth_token_given_a_new_value_in_place_ends_its_kept_copy(
    app, alice, django_capture_on_commit_callbacks
):
    """django-oauth-toolkit refreshes without rotating by giving the row a
    new value: the old value, kept in the cache a moment before, is refused
    once that is committed, and the new one works."""
    from oauth2_provider.models import set_token_value

    api = _bearer(_granted(alice, app, "match:read")["access_token"])
    assert api.get("/api/v1/me").status_code == 200
    token = AccessToken.objects.get(user=alice)
    fresh = "smo_" + secrets.token_urlsafe(32)
    with django_capture_on_commit_callbacks(execute=True):
        set_token_value(token, fresh)
        token.save()
    _error(api.get("/api/v1/me"), 401, "bad_token")
    assert _bearer(fresh).get("/api/v1/me").json()["username"] == "alice"


def test_the_tokens_page_lists_authorized_apps_and_revokes_one(app, alice, bob):
    granted = _granted(alice, app, "match:read challenge:read")
    browser = _browser(alice)
    page = browser.get(reverse("api_tokens")).content.decode()
    assert "Board Buddy" in page and "challenge:read" in page
    assert "Board Buddy" not in _browser(bob).get(reverse("api_tokens")).content.decode()
    # Another player cannot revoke it.
    assert _browser(bob).post(reverse("api_app_revoke", args=[app.pk])).status_code == 404
    assert _bearer(granted["access_token"]).get("/api/v1/me").status_code == 200
    answer = browser.post(reverse("api_app_revoke", args=[app.pk]))
    assert answer.status_code == 302
    _error(_bearer(granted["access_token"]).get("/api/v1/me"), 401, "bad_token")
    refresh = Client().post(
        "/oauth/token/",
        {
            "grant_type": "refresh_token",
            "refresh_token": granted["refresh_token"],
            "client_id": app.client_id,
        },
    )
    assert refresh.status_code == 400
    assert not RefreshToken.objects.filter(user=alice, revoked=None).exists()
    assert "Board Buddy" not in browser.get(reverse("api_tokens")).content.decode()
    assert browser.post(reverse("api_app_revoke", args=[app.pk])).status_code == 404


def test_the_tokens_page_reads_a_bounded_number_of_rows(app, alice, django_assert_max_num_queries):
    for _ in range(5):
        _granted(alice, app, "match:read")
    browser = _browser(alice)
    browser.get(reverse("api_tokens"))
    with django_assert_max_num_queries(9):
        assert browser.get(reverse("api_tokens")).status_code == 200
    assert len(oauth.authorized_apps(alice)) == 1


def _report(request) -> str:
    """The error report of a failure while ``request`` is being answered (a
    frame that holds no secret of its own)."""
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        return ExceptionReporter(request, *sys.exc_info()).get_traceback_html()


def test_every_oauth_post_hides_its_parameters_from_error_reports(app):
    """A failure inside an OAuth endpoint is reported without the code, the
    verifier, the client's secret or a token (the toolkit's token view hid
    only the secret and a password)."""
    secret_values = {
        "code": "code-XYZ",
        "code_verifier": "verifier-XYZ",
        "client_secret": "secret-XYZ",
        "refresh_token": "smr_refresh-XYZ",
        "token": "smo_token-XYZ",
    }
    for pattern in oauth_urlpatterns:
        request = RequestFactory().post(f"/oauth/{pattern.pattern}", secret_values)
        request.user = AnonymousUser()
        request.session = {}
        pattern.callback(request)
        report = _report(request)
        assert "boom" in report
        for value in secret_values.values():
            assert value not in report, (pattern.name, value)


def _failing_lookup(request):
    """The exception of an OAuth token lookup that fails (the database gone),
    as a 500's report sees it: every frame from the view down, with its locals."""
    try:
        TokenAuth()(request)
    except TypeError:
        return sys.exc_info()
    raise AssertionError("the lookup did not fail")


def test_an_oauth_token_never_appears_in_an_api_answer_or_error_report(app, alice, monkeypatch):
    raw = _granted(alice, app, "match:read")["access_token"]
    for url in ("/api/v1/me", "/api/v1/matches/999999", "/api/v1/nothing"):
        assert raw not in _bearer(raw).get(url).content.decode()
    request = RequestFactory().get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {raw}")
    # Fails inside the OAuth lookup (the request's counting hashes the token too).
    monkeypatch.setattr(oauth, "hashlib", types.SimpleNamespace(sha256=None))
    reporter = ExceptionReporter(request, *_failing_lookup(request))
    assert "caller_for" in reporter.get_traceback_text()
    assert raw not in reporter.get_traceback_html()
    assert raw[:20] not in reporter.get_traceback_text()
