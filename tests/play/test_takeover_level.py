"""The bot that takes over a seat plays at the level the match was created with.

A seat left to the bots (out of time too often, resigned, replaced by a
moderator or its player's account closed) is played by a bot of
``Match.takeover_level``: the heuristic by default, the strong search bot
when the creator chose it (docs/bots.md).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from core.errors import ServiceError
from games.engine import registry
from games.lobby import services as lobby
from games.models import Match, MatchStatus, SeatStatus, TakeoverLevel
from games.moderation import actions as moderation
from games.play import safety, services, timeouts
from tests.conftest import each_seat_moves

pytestmark = pytest.mark.django_db


def _started(make_user, tag: str, n: int = 3, **create) -> tuple[Match, list]:
    users = [make_user(f"{tag}{i}") for i in range(n)]
    match = lobby.create_match(
        user=users[0], game_key="nogi", n_seats=n, time_per_move=timedelta(hours=1), **create
    )
    for user in users[1:]:
        lobby.join_match(user=user, match=match)
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    return match, users


def test_the_create_form_offers_the_level_and_the_match_keeps_it(make_user):
    client = Client()
    client.force_login(make_user("maker"))
    data = {
        "game": "nogi",
        "n_seats": 2,
        "visibility": "public",
        "time_per_move": 86400,
        "timeout_policy": "bot_strikes",
        "takeover_level": "strong",
    }
    page = client.get(reverse("match_create"), {"game": "nogi"}).content.decode()
    assert 'name="takeover_level"' in page and 'value="strong"' in page
    response = client.post(reverse("match_create"), data)
    assert response.status_code == 302
    match = Match.objects.get()
    assert match.takeover_level == TakeoverLevel.STRONG
    lobby.join_match(user=make_user("joiner"), match=match)  # in play: the options line
    body = client.get(response["Location"]).content.decode()
    assert "The bot that takes over a seat: strong bot" in body


def test_without_a_level_the_heuristic_takes_over(make_user):
    client = Client()
    client.force_login(make_user("maker"))
    data = {"game": "nogi", "n_seats": 2, "visibility": "public", "time_per_move": 86400}
    assert client.post(reverse("match_create"), data).status_code == 302
    assert Match.objects.get().takeover_level == TakeoverLevel.HEURISTIC


@pytest.mark.parametrize("level", ["random", "grandmaster", "strong ", ""])
def test_a_level_not_offered_is_refused_and_nothing_is_made(make_user, level):
    client = Client()
    client.force_login(make_user("maker"))
    data = {"game": "nogi", "n_seats": 2, "visibility": "public", "time_per_move": 86400}
    response = client.post(reverse("match_create"), {**data, "takeover_level": level})
    if level == "":
        assert response.status_code == 302  # left empty: the default
        return
    assert response.status_code == 400
    assert not Match.objects.exists()
    with pytest.raises(ServiceError):
        lobby.create_match(
            user=make_user("direct"), game_key="nogi", n_seats=2, takeover_level=level
        )


def test_a_seat_the_clock_hands_to_the_bots_plays_at_the_matchs_level(make_user):
    match, users = _started(make_user, "late", takeover_level=TakeoverLevel.STRONG)
    game = registry.get("nogi")
    late = match.seats.get(user=users[2])
    assert late.bot_level == "heuristic"  # the field's default, until it is taken over
    while match.seats.get(user=users[2]).status != SeatStatus.BOT:
        (seat,) = game.current_seats(match.state)
        if seat == 2:
            timeouts.wake_match(match.pk, now=match.deadline + timedelta(seconds=1))
        else:
            action = game.legal_actions(match.state, seat)[0]
            services.submit_action(match, users[seat], action, match.version)
        match.refresh_from_db()
        assert match.status == MatchStatus.ACTIVE
    assert match.seats.get(user=users[2]).bot_level == TakeoverLevel.STRONG


def test_a_resigned_seat_is_played_on_at_the_matchs_level(make_user):
    match, users = _started(make_user, "quit", takeover_level=TakeoverLevel.STRONG)
    safety.resign(user=users[1], match=match)
    seat = match.seats.get(user=users[1])
    assert (seat.status, seat.bot_level) == (SeatStatus.RESIGNED, TakeoverLevel.STRONG)


def test_a_moderators_replacement_plays_at_the_matchs_level(make_user):
    match, users = _started(make_user, "mod", n=2, takeover_level=TakeoverLevel.STRONG)
    moderator = make_user("desk")
    moderator.is_staff = True
    moderator.save()
    moderator.groups.add(Group.objects.get(name="moderator"))
    moderation.replace_with_bot(moderator, match, 1, "Away for good, said so in the chat.")
    seat = match.seats.get(index=1)
    assert (seat.status, seat.bot_level) == (SeatStatus.BOT, TakeoverLevel.STRONG)


def test_the_heuristic_match_keeps_the_heuristic(make_user):
    match, users = _started(make_user, "plain")
    safety.resign(user=users[2], match=match)
    assert match.seats.get(user=users[2]).bot_level == TakeoverLevel.HEURISTIC


def test_a_rematch_keeps_the_level(make_user):
    match, users = _started(make_user, "again", n=2, takeover_level=TakeoverLevel.STRONG)
    match = each_seat_moves(match)  # else resigning aborts the match
    safety.resign(user=users[1], match=match)  # two players: the match ends
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    again = lobby.rematch(user=users[0], match=match)
    assert again.takeover_level == TakeoverLevel.STRONG
