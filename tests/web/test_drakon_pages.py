"""Drakon through the web layer: secrets, setup refusals, the board's clicks."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from core import errors
from games.engine import registry
from games.lobby import services as lobby
from games.models import Match, Seat
from games.play import services

pytestmark = pytest.mark.django_db
NOISE = [
    # What happened since the last visit differs between a first and a second
    # look by design; its own secrets check is tests/conformance/test_replay_secrets.py.
    re.compile(r'<section class="catch-up".*?</section>', re.S),
    re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"'),
    re.compile(r'"X-CSRFToken": "[^"]+"'),
    re.compile(r'nonce="[^"]+"'),
    # "online now" beside a player depends on whose requests came first, not
    # on any secret (accounts.presence).
    re.compile(r'<span class="presence[^"]*"[^>]*>[^<]*</span>'),
]


def normalise(html: str) -> str:
    for pattern in NOISE:
        html = pattern.sub("", html)
    return html


@pytest.fixture
def drakon_match(alice, bob, carol):
    match = lobby.create_match(user=alice, game_key="drakon", n_seats=3)
    lobby.join_match(user=bob, match=match)
    lobby.join_match(user=carol, match=match)
    match.refresh_from_db()
    game = registry.get("drakon")
    # A few turns in, so that there are coins and tiles to hide.
    for _ in range(9):
        seat = game.current_seats(match.state)[0]
        legal = game.legal_actions(match.state, seat)
        action = next((a for a in legal if a["type"] == "move"), legal[0])
        services.submit_action(match, match.seats.get(index=seat).user, action, match.version)
        match.refresh_from_db()
    return match


def pages(client, match):
    # Every look is a first look: the board highlights the same changes each time.
    Seat.objects.filter(match=match).update(last_seen_at=None)
    urls = [
        reverse("match_detail", args=[match.pk]),
        reverse("match_panel", args=[match.pk]),
        reverse("match_log", args=[match.pk]),
    ]
    return {url: normalise(client.get(url).content.decode()) for url in urls}


def test_a_seat_never_sees_another_seats_hand_coins_or_the_pile(drakon_match):
    match = drakon_match
    viewer, owner = match.seats.get(index=0), match.seats.get(index=1)
    state = match.state
    state["coins"][owner.index] = [3, 2]
    Match.objects.filter(pk=match.pk).update(state=state)
    clients = {}
    for seat in (viewer, owner):
        clients[seat.index] = Client()
        clients[seat.index].force_login(seat.user)
    spectator = Client()
    before = {i: pages(c, match) for i, c in clients.items()}
    before_spectator = pages(spectator, match)

    # Change only the owner's secrets and what nobody may see.
    match.refresh_from_db()
    state = match.state
    state["coins"][owner.index] = [1, 1]
    hand = state["hands"][owner.index]
    swap = min(len(hand), len(state["stack"]))
    state["hands"][owner.index] = state["stack"][:swap] + hand[swap:]
    state["stack"] = hand[:swap] + state["stack"][swap:]
    state["hoard"] = list(reversed(state["hoard"]))
    state["rng"] = "0123456789abcdef"
    Match.objects.filter(pk=match.pk).update(state=state)

    assert pages(clients[viewer.index], match) == before[viewer.index]
    assert pages(spectator, match) == before_spectator
    assert pages(clients[owner.index], match) != before[owner.index], "the owner sees the change"


def test_team_play_needs_four_or_six(alice):
    with pytest.raises(errors.ServiceError, match="4 or 6"):
        lobby.create_match(user=alice, game_key="drakon", n_seats=3, options={"team_play": True})
    client = Client()
    client.force_login(alice)
    response = client.post(
        reverse("match_create"),
        {
            "game": "drakon",
            "n_seats": 3,
            "visibility": "public",
            "time_per_move": 86400,
            "opt_drakon_team_play": "True",
        },
    )
    assert response.status_code == 400 and "4 or 6" in response.content.decode()
    assert not Match.objects.exists()


def test_the_board_offers_cells_and_rotations_to_click(drakon_match):
    match = drakon_match
    game = registry.get("drakon")
    # The match's seed is random: play on until the player to move can place.
    for _ in range(60):
        seat = game.current_seats(match.state)[0]
        legal = game.legal_actions(match.state, seat)
        place = next((a for a in legal if a["type"] == "place"), None)
        if place is not None:
            break
        services.submit_action(match, match.seats.get(index=seat).user, legal[0], match.version)
        match.refresh_from_db()
    assert place is not None, "no placement came up in 60 moves"
    client = Client()
    client.force_login(match.seats.get(index=seat).user)
    panel = client.get(
        reverse("match_panel", args=[match.pk]), {"path": f"tile-{place['tile']}"}
    ).content.decode()
    cells = {a["at"] for a in legal if a["type"] == "place" and a["tile"] == place["tile"]}
    spots = set(
        re.findall(r'<a [^>]*data-path="tile-\d+\.cell-([-\d,]+)"[^>]*class="[^"]*\bspot\b', panel)
    )
    assert spots == cells, "every legal cell is clickable on the board, and only those"
    panel = client.get(
        reverse("match_panel", args=[match.pk]),
        {"path": f"tile-{place['tile']}.cell-{place['at']}"},
    ).content.decode()
    rotations = {
        a["rot"]
        for a in legal
        if a["type"] == "place" and a["tile"] == place["tile"] and a["at"] == place["at"]
    }
    if len(rotations) > 1:
        assert len(re.findall(r'class="board-choice[^"]*\brotation\b', panel)) == len(rotations)
    assert 'id="room-key"' in panel
