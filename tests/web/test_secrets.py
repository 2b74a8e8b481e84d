"""No page or fragment served to one seat holds another seat's secrets.

The test is differential: change only the secrets a viewer must not see
(other seats' shields and bunny values, the bunny values still on the board,
the dragon stack, the PRNG, private log events of others) and check that
every page the viewer can load is byte-for-byte the same. A sanity check
shows the same change does reach the seat it belongs to.
"""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Match, Move, Seat
from tests.conftest import play_one

pytestmark = pytest.mark.django_db

NOISE = [
    re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"'),
    re.compile(r'"X-CSRFToken": "[^"]+"'),
    re.compile(r'nonce="[^"]+"'),
    # "Since your last visit": a first and a second look differ by design (the
    # first is a visit); tests/conformance/test_replay_secrets.py diffs it alone.
    re.compile(r'<section class="catch-up".*?</section>', re.S),
    # "online now" beside a player: whether they were seen depends on whose
    # requests came first, not on any secret (accounts.presence).
    re.compile(r'<span class="presence[^"]*"[^>]*>[^<]*</span>'),
]


def normalise(html: str) -> str:
    for pattern in NOISE:
        html = pattern.sub("", html)
    return html


def pages_for(client, match):
    # Every look is a first look: the board highlights the same changes each time.
    Seat.objects.filter(match=match).update(last_seen_at=None)
    urls = [
        reverse("match_detail", args=[match.pk]),
        reverse("match_panel", args=[match.pk]),
        reverse("match_log", args=[match.pk]),
        "/",
        # The competitions' lists; a tournament's and a ladder's own pages are
        # checked for every game in tests/conformance/test_secrets.py.
        reverse("tournament_list"),
        reverse("season_list"),
        reverse("ladder_list"),
        # Quick match: the page lists a player's seated requests with their match.
        reverse("quick_match"),
    ]
    return {url: normalise(client.get(url).content.decode()) for url in urls}


def alter_secrets_of(match, seat):
    """Give ``seat`` other shields and bunnies, and reshuffle everything hidden."""
    state = match.state
    state["shields"][seat] = [(s + 3) % 7 for s in state["shields"][seat]]
    state["collected"][seat] = [3 - value for value in state["collected"][seat]]
    state["bunnies"] = {field: 3 - value for field, value in state["bunnies"].items()}
    state["dragon_stack"] = list(reversed(state["dragon_stack"]))
    state["rng"] = "0123456789abcdef"
    Match.objects.filter(pk=match.pk).update(state=state)


def test_a_seat_never_sees_another_seats_secrets(started_match, nogi):
    match = started_match
    for i in range(6):
        play_one(match, nogi, choose=i * 5)
    match.refresh_from_db()
    seats = list(match.seats.all())
    viewer, owner = seats[0], seats[1]
    # The owner holds two bunnies already: their count is public, their values are not.
    match.state["collected"][owner.index] = [1, 2]
    Match.objects.filter(pk=match.pk).update(state=match.state)
    viewer_client = Client()
    viewer_client.force_login(viewer.user)
    owner_client = Client()
    owner_client.force_login(owner.user)
    spectator = Client()

    before_viewer = pages_for(viewer_client, match)
    before_spectator = pages_for(spectator, match)
    before_owner = pages_for(owner_client, match)

    alter_secrets_of(match, owner.index)

    after_viewer = pages_for(viewer_client, match)
    assert after_viewer == before_viewer
    assert pages_for(spectator, match) == before_spectator
    after_owner = pages_for(owner_client, match)
    changed = [url for url in after_owner if after_owner[url] != before_owner[url]]
    assert reverse("match_detail", args=[match.pk]) in changed, "the owner sees their new secrets"


def test_private_log_events_reach_only_their_seat(started_match, nogi):
    match = started_match
    play_one(match, nogi)
    match.refresh_from_db()
    Move.objects.create(
        match=match,
        seq=match.version + 1,
        seat=1,
        action={"type": "use_die"},
        events=[
            {"type": "bunny_rescued", "seat": 1, "knight": "blue", "field": 17},
            {"type": "bunny_value", "seat": 1, "field": 17, "value": 2, "private_to": 1},
        ],
        actor_kind="player",
    )
    Match.objects.filter(pk=match.pk).update(version=match.version + 1)
    for seat_index, sees_value in [(0, False), (1, True), (2, False), (None, False)]:
        client = Client()
        if seat_index is not None:
            client.force_login(match.seats.get(index=seat_index).user)
        for url in [
            reverse("match_log", args=[match.pk]),
            reverse("match_detail", args=[match.pk]),
        ]:
            page = client.get(url).content.decode()
            assert "rescued the bunny on field 17" in page
            assert ("that bunny is worth 2" in page) == sees_value


def test_my_own_secrets_are_on_my_page(started_match, nogi):
    match = started_match
    seat = match.seats.get(index=1)
    client = Client()
    client.force_login(seat.user)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    section = page[page.index('id="my-secrets"') :]
    mine = nogi.view(match.state, 1)["me"]["shields"][0]
    colours = re.findall(r'data-colour="([^"]+)"', section)
    assert colours == mine
    assert page.count('id="my-secrets"') == 1
