"""The ladder pages read a fixed number of queries whatever the number of
players and challenges (beyond the session and the signed-in user, as in
tests/players/test_query_counts.py). Run with ``-s`` to see the counts."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ladders import services
from tests.players.test_query_counts import counted

pytestmark = pytest.mark.django_db

LADDER_PAGE_QUERIES = 4  # the bell (signed in), the entries, open challenges, latest results
LIST_QUERIES = 2  # the bell (signed in), the counts


def _measure(client: Client, url: str) -> list[str]:
    client.get(url)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return counted(queries)


def _grow(make_user, start: int, count: int) -> list:
    users = [make_user(f"q{i}") for i in range(start, start + count)]
    for user in users:
        services.join(user, "drako")
    return users


@pytest.mark.parametrize("signed_in", [False, True])
def test_the_ladder_page_reads_a_fixed_number_of_queries(make_user, signed_in):
    viewer = make_user("viewer")
    services.join(viewer, "drako")
    client = Client()
    if signed_in:
        client.force_login(viewer)
    url = reverse("ladder_detail", args=["drako"])
    small = _grow(make_user, 0, 3)
    services.challenge(small[1], "drako", "q0")
    few = _measure(client, url)

    many = _grow(make_user, 3, 40)
    for i in range(3, 40, 4):  # open challenges, answered and finished ones
        challenge = services.challenge(many[i], "drako", many[i - 2].username)
        if i % 8 == 3:
            services.decline(many[i - 2], challenge.pk)
    lots = _measure(client, url)
    print(f"\nladder page ({'signed in' if signed_in else 'anonymous'}): {len(few)}, {len(lots)}")
    assert len(few) == len(lots), "\n".join(lots)
    assert len(lots) <= LADDER_PAGE_QUERIES, "\n".join(lots)


def test_the_ladder_list_reads_a_fixed_number_of_queries(make_user):
    viewer = make_user("viewer")
    client = Client()
    client.force_login(viewer)
    url = reverse("ladder_list")
    _grow(make_user, 0, 2)
    few = _measure(client, url)
    _grow(make_user, 2, 30)
    services.join(viewer, "nogi")
    lots = _measure(client, url)
    print(f"\nladder list: {len(few)}, {len(lots)}")
    assert len(few) == len(lots) <= LIST_QUERIES, "\n".join(lots)
