"""The profile's API tokens page: make (shown once), list with last use, revoke."""

import pytest
from django.test import Client
from django.urls import reverse

from api import tokens
from api.models import ApiToken

pytestmark = pytest.mark.django_db


def _logged_in(user):
    client = Client()
    client.force_login(user)
    return client


def test_a_token_made_on_the_page_is_shown_once_and_works(alice):
    client = _logged_in(alice)
    response = client.post(
        reverse("api_token_create"), {"name": "bot", "scopes": ["match:read"], "days": "30"}
    )
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    token = ApiToken.objects.get(user=alice)
    raw = response.context["raw"]
    assert raw in response.content.decode() and tokens.digest(raw) == token.digest
    assert token.scopes == ["match:read"] and token.expires_at is not None
    again = client.get(reverse("api_tokens")).content.decode()
    assert raw not in again and token.prefix in again and "never used" in again
    Client(HTTP_AUTHORIZATION=f"Bearer {raw}").get("/api/v1/me")
    assert "last used" in client.get(reverse("api_tokens")).content.decode()


@pytest.mark.parametrize(
    "data",
    [
        {"name": "", "scopes": ["match:read"]},
        {"name": "x", "scopes": []},
        {"name": "x", "scopes": ["root"]},
        {"name": "x", "scopes": ["match:read"], "days": "7"},
    ],
)
def test_bad_input_makes_no_token(alice, data):
    response = _logged_in(alice).post(reverse("api_token_create"), data)
    assert response.status_code == 400
    assert not ApiToken.objects.exists()


def test_only_the_owner_revokes_a_token(alice, bob):
    token, raw = tokens.make_token(alice, "bot", ["match:read"])
    response = _logged_in(bob).post(reverse("api_token_revoke", args=[token.pk]))
    assert response.status_code == 404
    assert ApiToken.objects.get(pk=token.pk).revoked_at is None
    response = _logged_in(alice).post(reverse("api_token_revoke", args=[token.pk]))
    assert response.status_code == 302
    assert ApiToken.objects.get(pk=token.pk).revoked_at is not None
    assert Client(HTTP_AUTHORIZATION=f"Bearer {raw}").get("/api/v1/me").status_code == 401


def test_the_page_needs_a_login_and_reads_a_bounded_number_of_rows(
    alice, django_assert_max_num_queries
):
    assert Client().get(reverse("api_tokens")).status_code == 302
    for i in range(12):
        tokens.make_token(alice, f"t{i}", ["match:read"])
    client = _logged_in(alice)
    client.get(reverse("api_tokens"))
    with django_assert_max_num_queries(8):
        assert client.get(reverse("api_tokens")).status_code == 200
