"""The tournament pages and forms: what they show, what they refuse."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.conftest import entered, finish, new_tournament, running_matches, start_now
from tournaments.models import Entrant, EntrantStatus, Tournament


@pytest.fixture
def running(people):
    tournament = entered(new_tournament(people[0], name="Winter open"), people[1:4])
    start_now(tournament)
    return tournament


def test_the_list_shows_open_running_and_finished(client, people, running):
    open_one = new_tournament(people[5], name="Spring cup")
    response = client.get(reverse("tournament_list"))
    assert response.status_code == 200
    text = response.content.decode()
    assert "Spring cup" in text and "Winter open" in text
    assert text.index("Spring cup") < text.index("Winter open")  # open before running
    assert reverse("tournament_detail", args=[open_one.pk]) in text


def test_the_page_shows_entrants_rounds_matches_and_standings(client, people, running):
    first = running_matches(running)[0]
    finish(first, [1, 2])
    response = client.get(reverse("tournament_detail", args=[running.pk]))
    assert response.status_code == 200
    text = response.content.decode()
    assert 'id="standings"' in text and "Round 1" in text
    for match in running_matches(running) + [first]:
        assert reverse("match_detail", args=[match.pk]) in text
    assert reverse("player_page", args=["u01"]) in text


def test_a_round_robin_page_has_a_crosstable(client, people):
    tournament = entered(new_tournament(people[0], format="round_robin"), people[1:3])
    start_now(tournament)
    for match in running_matches(tournament):
        finish(match, [1, 2])
    text = client.get(reverse("tournament_detail", args=[tournament.pk])).content.decode()
    assert 'id="crosstable"' in text
    # The diagonal (a player against themselves) says so in words; its square is a picture.
    table = re.search(r'<table[^>]*id="crosstable".*?</table>', text, re.S).group(0)
    diagonal = re.findall(r'<td class="cross-self">(.*?)</td>', table)
    assert len(diagonal) == 3
    for cell in diagonal:
        assert cell == (
            '<span aria-hidden="true">■</span><span class="visually-hidden">the same player</span>'
        )
    assert "<td>■</td>" not in table


def test_join_leave_and_withdraw_through_the_page(client, people):
    tournament = new_tournament(people[0], starts_at=timezone.now() + timedelta(hours=2))
    client.force_login(people[1])
    url = reverse("tournament_action", args=[tournament.pk, "join"])
    page = client.get(reverse("tournament_detail", args=[tournament.pk])).content.decode()
    assert 'id="join-tournament"' in page
    assert client.post(url).status_code == 302
    assert Entrant.objects.filter(tournament=tournament, user=people[1]).exists()
    response = client.post(url, follow=True)  # twice: a message, nothing changes
    assert "already entered" in response.content.decode()
    assert Entrant.objects.filter(tournament=tournament).count() == 2
    client.post(reverse("tournament_action", args=[tournament.pk, "leave"]))
    assert not Entrant.objects.filter(tournament=tournament, user=people[1]).exists()
    client.post(url)
    start_now(tournament)
    page = client.get(reverse("tournament_detail", args=[tournament.pk])).content.decode()
    assert 'id="withdraw-tournament"' in page
    client.post(reverse("tournament_action", args=[tournament.pk, "withdraw"]))
    entry = Entrant.objects.get(tournament=tournament, user=people[1])
    assert entry.status == EntrantStatus.WITHDRAWN


def test_bad_requests_are_refused_without_harm(client, people, running):
    client.force_login(people[8])
    assert client.get(reverse("tournament_detail", args=[999999])).status_code == 404
    assert client.post(reverse("tournament_action", args=[999999, "join"])).status_code == 404
    assert (
        client.post(reverse("tournament_action", args=[running.pk, "explode"])).status_code == 404
    )
    assert client.get(reverse("tournament_action", args=[running.pk, "join"])).status_code == 405
    response = client.post(reverse("tournament_action", args=[running.pk, "join"]), follow=True)
    assert "not open for entry" in response.content.decode()
    response = client.post(reverse("tournament_action", args=[running.pk, "withdraw"]), follow=True)
    assert "not playing" in response.content.decode()
    assert not Entrant.objects.filter(user=people[8]).exists()


def test_signed_out_players_are_sent_to_log_in(client, running):
    response = client.post(reverse("tournament_action", args=[running.pk, "join"]))
    assert response.status_code == 302 and "login" in response["Location"]
    assert client.get(reverse("tournament_create")).status_code == 302


def _form(**changes):
    data = {
        "name": "Nogi nights",
        "game": "nogi",
        "n_seats": "2",
        "format": "swiss",
        "rounds": "3",
        "starts_at": (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"),
        "min_entrants": "4",
        "max_entrants": "16",
        "time_per_move": str(3 * 86400),
        "time_bank": "0",
        "time_bank_increment": "0",
        "timeout_policy": "bot_strikes",
        "rated": "on",
    }
    data.update(changes)
    return data


def test_creating_a_tournament_through_the_form(client, people):
    client.force_login(people[0])
    assert client.get(reverse("tournament_create") + "?game=nogi").status_code == 200
    response = client.post(reverse("tournament_create") + "?game=nogi", _form())
    tournament = Tournament.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("tournament_detail", args=[tournament.pk])
    assert tournament.rounds == 3 and tournament.created_by == people[0]
    assert tournament.entrants.filter(user=people[0]).exists()


@pytest.mark.parametrize(
    "changes",
    [
        {"game": "chess"},
        {"format": "elimination"},
        {"format": "knockout", "n_seats": "3"},
        {"starts_at": ""},
        {"rounds": "0"},
        {"rounds": ""},
        {"min_entrants": "9", "max_entrants": "4"},
        {"starts_at": "yesterday"},
        {"starts_at": "2001-01-01T10:00"},
        {"n_seats": "9"},
        {"name": ""},
        {"max_entrants": "100000000000000000000"},
        {"min_reliability": "101"},
        {"min_reliability": "-5"},
        {"min_reliability": "most"},
    ],
)
def test_bad_forms_are_refused_and_nothing_is_created(client, people, changes):
    client.force_login(people[0])
    response = client.post(reverse("tournament_create") + "?game=nogi", _form(**changes))
    assert response.status_code in (400, 409)
    assert not Tournament.objects.exists()


def test_the_form_makes_a_knockout_that_starts_when_full(client, people):
    client.force_login(people[0])
    page = client.get(reverse("tournament_create") + "?game=nogi").content.decode()
    assert 'name="start_when_full"' in page and 'value="knockout"' in page
    form = _form(format="knockout", starts_at="", start_when_full="on", max_entrants="8")
    response = client.post(reverse("tournament_create") + "?game=nogi", form)
    assert response.status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.format == "knockout" and tournament.start_when_full
    page = client.get(response["Location"]).content.decode()
    assert 'id="starts-when-full"' in page and "1 of 8 entered" in page
    listed = client.get(reverse("tournament_list")).content.decode()
    assert "starts when full" in listed


def test_a_knockout_at_tables_of_three_is_refused_with_the_reason(client, people):
    client.force_login(people[0])
    response = client.post(
        reverse("tournament_create") + "?game=nogi", _form(format="knockout", n_seats="3")
    )
    assert response.status_code == 400
    assert "A knockout is played at tables of two players." in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_player_page_lists_their_tournaments(client, people, running):
    text = client.get(reverse("player_page", args=["u02"])).content.decode()
    assert "Winter open" in text
    assert reverse("tournament_detail", args=[running.pk]) in text


def test_the_messages_speak_the_players_language(client, people):
    people[1].profile.language = "pl"
    people[1].profile.save()
    tournament = new_tournament(people[0])
    client.force_login(people[1])
    response = client.post(
        reverse("tournament_action", args=[tournament.pk, "join"]),
        follow=True,
        headers={"accept-language": "pl"},
    )
    assert "Jesteś w turnieju." in response.content.decode()


def test_the_forms_maxima_are_the_settings(client, people, settings):
    """The form's rounds and entrants stop where the services do
    (``TOURNAMENT_MAX_ROUNDS``, ``TOURNAMENT_MAX_ENTRANTS``), in its check
    and in the browser's."""
    settings.SMOKI = {**settings.SMOKI, "TOURNAMENT_MAX_ROUNDS": 4, "TOURNAMENT_MAX_ENTRANTS": 40}
    client.force_login(people[0])
    url = reverse("tournament_create") + "?game=nogi"
    page = client.get(url).content.decode()
    assert re.search(r'name="rounds"[^>]*max="4"|max="4"[^>]*name="rounds"', page)
    assert re.search(r'name="max_entrants"[^>]*max="40"|max="40"[^>]*name="max_entrants"', page)
    for changes in ({"rounds": "5"}, {"max_entrants": "41"}):
        assert client.post(url, _form(**changes)).status_code == 400
    assert not Tournament.objects.exists()
    assert client.post(url, _form(rounds="4", max_entrants="40")).status_code == 302
    assert Tournament.objects.get().rounds == 4


def test_the_chosen_takeover_bot_plays_the_tournaments_left_seats(client, people):
    """The form's "bot that takes over a seat" is the tournament's, shown on its
    page, and every match of its rounds is created with it."""
    client.force_login(people[0])
    response = client.post(
        reverse("tournament_create") + "?game=nogi", _form(takeover_level="strong")
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.takeover_level == "strong"
    page = client.get(reverse("tournament_detail", args=[tournament.pk])).content.decode()
    assert "The bot that takes over a seat: strong bot" in page
    start_now(entered(tournament, people[1:4]))
    matches = running_matches(tournament)
    assert len(matches) == 2
    assert {match.takeover_level for match in matches} == {"strong"}


def test_a_forged_takeover_bot_is_refused_and_nothing_is_created(client, people):
    client.force_login(people[0])
    response = client.post(
        reverse("tournament_create") + "?game=nogi", _form(takeover_level="grandmaster")
    )
    assert response.status_code == 400
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("language", "rated", "unrated"),
    [
        ("en", "Rated", "Unrated"),
        ("pl", "Rankingowy", "Bez rankingu"),
        ("cs", "Hodnocený", "Nehodnocený"),
    ],
)
def test_a_rated_tournament_is_said_of_a_tournament(client, people, language, rated, unrated):
    """ "Rated" on the tournament page agrees with "turniej" / "turnaj" (masculine), not
    with the match ("partia rankingowa", "hodnocená partie") that shares the English."""
    people[1].profile.language = language
    people[1].profile.save()
    client.force_login(people[1])
    for is_rated, word in [(True, rated), (False, unrated)]:
        tournament = new_tournament(people[0], rated=is_rated)
        page = client.get(reverse("tournament_detail", args=[tournament.pk])).content.decode()
        assert f"· {word} ·" in page
