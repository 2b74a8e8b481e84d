"""The API's keys and limits: an ``Idempotency-Key`` is honoured for a day, then
its answer is pruned; the pages without a token are counted per address."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from api import tokens
from api.models import IdempotentAnswer
from api.tasks import prune_idempotent_answers
from tests.conftest import user_to_move

pytestmark = pytest.mark.django_db


def _post(client, match, body, key):
    return client.post(
        f"/api/v1/matches/{match.pk}/actions",
        body,
        content_type="application/json",
        headers={"Idempotency-Key": key},
    )


def _client(user):
    _token, raw = tokens.make_token(user, "test", ["match:read", "match:play"])
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}")


def test_a_key_older_than_a_day_is_no_longer_an_answer(started_match, nogi):
    client = _client(user_to_move(started_match, nogi))
    data = client.get(f"/api/v1/matches/{started_match.pk}").json()
    body = {"action_id": data["legal_actions"][-1]["id"], "version": data["version"]}
    first = _post(client, started_match, body, "k1")
    assert first.status_code == 200
    assert _post(client, started_match, body, "k1").json() == first.json()  # within the day
    kept = IdempotentAnswer.objects.get(key="k1")
    IdempotentAnswer.objects.filter(pk=kept.pk).update(
        created_at=timezone.now() - IdempotentAnswer.KEPT_FOR - timedelta(seconds=1)
    )
    # The same key a day later is a new request: its version is stale now.
    again = _post(client, started_match, body, "k1")
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "stale_version"


def test_the_beat_prunes_only_expired_answers(started_match, nogi, alice):
    token, _raw = tokens.make_token(alice, "test", ["match:play"])
    old = IdempotentAnswer.objects.create(token=token, key="old", status=200, body={})
    fresh = IdempotentAnswer.objects.create(token=token, key="fresh", status=200, body={})
    IdempotentAnswer.objects.filter(pk=old.pk).update(
        created_at=timezone.now() - timedelta(days=1, minutes=1)
    )
    assert prune_idempotent_answers() == 1
    assert list(IdempotentAnswer.objects.values_list("pk", flat=True)) == [fresh.pk]


@pytest.mark.parametrize("path", ["/api/v1/", "/api/v1/openapi.json", "/api/v1/docs"])
def test_the_pages_without_a_token_are_counted_per_address(path, monkeypatch):
    """The schema, its page and the index need no token; they are still limited
    per address like every other endpoint (they were not)."""
    from core import limits
    from tests.conftest import inside_one_window

    inside_one_window(margin=5, window=limits.API_ADDRESS.seconds)
    monkeypatch.setattr(limits, "API_ADDRESS", limits.Limit("api-address", 2, 60))
    client = Client(REMOTE_ADDR="192.0.2.60")
    assert [client.get(path).status_code for _ in range(2)] == [200, 200]
    refused = client.get(path)
    assert refused.status_code == 429
    assert refused.json()["error"]["limit"] == "api-address"
    assert int(refused["Retry-After"]) >= 1
    assert Client(REMOTE_ADDR="192.0.2.61").get(path).status_code == 200
