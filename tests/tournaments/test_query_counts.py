"""The tournament page's queries do not grow with its rounds or entrants."""

from __future__ import annotations

import random

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournaments.conftest import entered, new_tournament, play_round, start_now

PAGE_QUERIES = 8  # the page's own reads plus the session, the user and the bell


def _queries(client, tournament) -> int:
    url = reverse("tournament_detail", args=[tournament.pk])
    client.get(url)  # warm caches (the game registry, translations)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries.captured_queries)


def test_the_tournament_page_reads_the_same_queries_whatever_its_size(client, people):
    rng = random.Random(3)
    small = entered(new_tournament(people[0], rounds=1, name="small"), people[1:2])
    start_now(small)
    big = entered(new_tournament(people[2], rounds=4, name="big"), people[3:12])
    start_now(big)
    for _ in range(3):
        play_round(big, rng)
    client.force_login(people[1])
    few, many = _queries(client, small), _queries(client, big)
    assert few == many, (few, many)
    assert many <= PAGE_QUERIES
    round_robin = entered(new_tournament(people[1], format="round_robin"), people[5:10])
    start_now(round_robin)
    for _ in range(2):
        play_round(round_robin, rng)
    assert _queries(client, round_robin) == many


def test_the_list_reads_a_fixed_number_of_queries(client, people):
    url = reverse("tournament_list")
    client.get(url)
    with CaptureQueriesContext(connection) as before:
        client.get(url)
    for i in range(6):
        new_tournament(people[i], name=f"t{i}")
    with CaptureQueriesContext(connection) as after:
        client.get(url)
    assert len(before.captured_queries) == len(after.captured_queries) <= 4


NEW_PAGE_QUERIES = 2  # the user and the bell (the session is in the cache)


def test_the_new_tournament_form_reads_a_fixed_number_of_queries(client, people):
    """The form (/tournaments/new/) reads the same few queries however many
    tournaments, matches and games there are, for each game's form."""
    client.force_login(people[0])
    counts = {}
    for game in ("nogi", "drakon", "drako"):
        url = reverse("tournament_create") + f"?game={game}"
        client.get(url)  # warm caches (the game registry, translations)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200
        counts[game] = len(queries.captured_queries)
    for i in range(6):
        start_now(entered(new_tournament(people[i], name=f"t{i}"), people[i + 6 : i + 7]))
    with CaptureQueriesContext(connection) as after:
        client.get(reverse("tournament_create") + "?game=nogi")
    assert len(after.captured_queries) == counts["nogi"]
    assert set(counts.values()) == {counts["nogi"]}
    assert counts["nogi"] == NEW_PAGE_QUERIES, counts


def test_a_knockout_page_with_its_chat_reads_no_more_queries(client, people):
    """The bracket is replayed from the placements already read, and the
    chat is one more query however many lines, writers or blocks."""
    from accounts.models import Block
    from tournaments import chat

    rng = random.Random(4)
    small = entered(new_tournament(people[0], format="knockout", name="small"), people[1:2])
    start_now(small)
    client.force_login(people[1])
    quiet = _queries(client, small)
    big = entered(new_tournament(people[2], format="knockout", name="big"), people[3:12])
    start_now(big)
    for _ in range(2):
        play_round(big, rng)
    for i, user in enumerate(people[2:12]):
        chat.post_message(user, big, f"line {i}")
    Block.objects.create(blocker=people[1], blocked=people[3])
    Block.objects.create(blocker=people[1], blocked=people[4])
    busy = _queries(client, big)
    assert quiet == busy <= PAGE_QUERIES, (quiet, busy)
