"""The season pages: what they show, what they refuse, and their bounded
queries."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from seasons import services
from seasons.models import Season, SeasonStatus
from tests.seasons.conftest import START_TIME, begin, play_out, signed_up

pytestmark = pytest.mark.django_db

#: The session, the signed-in user, the bell, the season, the viewer's entry,
#: the divisions with their tournaments, their entrants with users and
#: profiles, and their placements (7, measured, whatever the divisions);
#: once finished, one more for who goes up or down.
SEASON_PAGE_QUERIES = 8


def test_the_list_links_every_season(client, season):
    response = client.get(reverse("season_list"))
    assert response.status_code == 200
    assert reverse("season_detail", args=[season.pk]) in response.content.decode()


def test_sign_up_and_leave_through_the_page(client, season, alice):
    Season.objects.filter(pk=season.pk).update(
        signup_opens_at=START_TIME.replace(year=2000), starts_at=START_TIME.replace(year=2100)
    )
    client.force_login(alice)
    page = client.get(reverse("season_detail", args=[season.pk])).content.decode()
    assert 'id="season-sign-up"' in page
    response = client.post(reverse("season_action", args=[season.pk, "sign-up"]), follow=True)
    assert response.status_code == 200 and season.entries.filter(user=alice).exists()
    assert 'id="season-leave"' in response.content.decode()
    client.post(reverse("season_action", args=[season.pk, "leave"]))
    assert not season.entries.exists()


def test_the_rules_are_shown_before_sign_up(client, season):
    Season.objects.filter(pk=season.pk).update(vacation_allowed=False, weekend_pause=True)
    text = client.get(reverse("season_detail", args=[season.pk])).content.decode()
    assert "no vacation" in text and "weekend pause" in text


@pytest.mark.parametrize(
    "url",
    [
        ("season_detail", [10**6]),
        ("season_action", [10**6, "sign-up"]),
    ],
)
def test_a_missing_season_is_a_404(client, alice, url):
    client.force_login(alice)
    name, args = url
    method = client.post if name == "season_action" else client.get
    assert method(reverse(name, args=args)).status_code == 404


def test_a_closed_sign_up_is_refused_with_a_message(client, season, many):
    signed_up(season, many[:4])
    begin(season)
    client.force_login(many[5])
    response = client.post(reverse("season_action", args=[season.pk, "sign-up"]), follow=True)
    assert "closed" in response.content.decode()
    assert season.entries.count() == 4
    assert client.post(reverse("season_action", args=[season.pk, "explode"])).status_code == 404


def test_the_page_shows_every_division_table_and_the_movements(client, season, many):
    signed_up(season, many[:16])
    begin(season)
    text = client.get(reverse("season_detail", args=[season.pk])).content.decode()
    assert 'id="division-1"' in text and 'id="division-2"' in text
    for user in many[:16]:
        assert reverse("player_page", args=[user.username]) in text
    # Each division links its tournament's page (no creator: the season made it).
    for division in season.divisions.all():
        url = reverse("tournament_detail", args=[division.tournament_id])
        assert url in text and client.get(url).status_code == 200
    play_out(season)
    services.finish(season.pk)
    text = client.get(reverse("season_detail", args=[season.pk])).content.decode()
    assert text.count("Promoted") == 2 and text.count("Relegated") == 2


def test_the_player_page_shows_the_division_and_history(client, season, many):
    signed_up(season, many[:8])
    begin(season)
    text = client.get(reverse("player_page", args=[many[0].username])).content.decode()
    assert 'id="season-current"' in text and "Division 1" in text
    play_out(season)
    services.finish(season.pk)
    assert Season.objects.get(pk=season.pk).status == SeasonStatus.FINISHED
    text = client.get(reverse("player_page", args=[many[0].username])).content.decode()
    assert "Division 1, place" in text


def _count(client, url) -> int:
    client.get(url)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len([q for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]])


def test_the_season_page_reads_a_fixed_number_of_queries(client, season, make_user, many):
    client.force_login(many[0])
    url = reverse("season_detail", args=[season.pk])
    signed_up(season, many[:4])
    begin(season)
    small = _count(client, url)
    others = [make_user(f"q{i:02d}") for i in range(30)]
    services.open_signups(START_TIME.replace(month=3, day=20))
    bigger = Season.objects.get(quarter=2)
    signed_up(bigger, many[:20] + others)
    begin(bigger, START_TIME.replace(month=4))
    url = reverse("season_detail", args=[bigger.pk])
    assert bigger.divisions.count() == 7
    large = _count(client, url)
    print(f"\nseason page: {small} queries with 1 division, {large} with 7")
    assert small == large <= SEASON_PAGE_QUERIES


def test_the_list_reads_a_fixed_number_of_queries(
    client, season, many, django_assert_max_num_queries
):
    signed_up(season, many[:4])
    with django_assert_max_num_queries(4):
        assert client.get(reverse("season_list")).status_code == 200


def test_the_season_pages_show_no_secrets_of_a_division_match(client, season, many):
    """The season page and the player's page stay byte-identical for each
    player when everything hidden in their division's match changes."""
    from games.engine import registry
    from games.engine.rng import Rng
    from games.models import Match, MatchStatus
    from tests.conformance.test_secrets import _normalise

    signed_up(season, many[:2])
    begin(season)
    match = Match.objects.get(status=MatchStatus.ACTIVE)
    game = registry.get(match.game_key)
    original = match.state
    urls = [
        reverse("season_detail", args=[season.pk]),
        reverse("season_list"),
        reverse("player_page", args=[many[0].username]),
    ]
    rng = Rng.from_seed("season-secrets")
    for user in (None, many[0], many[1]):
        if user is not None:
            client.force_login(user)
        seat = match.seats.get(user=user).index if user else None
        before = [_normalise(client.get(url).content.decode()) for url in urls]
        perturbed = game.perturb_secrets(original, seat, rng)
        assert perturbed != original
        Match.objects.filter(pk=match.pk).update(state=perturbed)
        after = [_normalise(client.get(url).content.decode()) for url in urls]
        Match.objects.filter(pk=match.pk).update(state=original)
        assert before == after, user


def test_the_tournaments_list_leaves_the_divisions_to_their_season(client, season, many):
    from tests.tournaments.conftest import new_tournament

    new_tournament(many[10], name="Open cup")
    signed_up(season, many[:4])
    begin(season)
    division = season.divisions.get()
    text = client.get(reverse("tournament_list")).content.decode()
    assert "Open cup" in text
    assert reverse("tournament_detail", args=[division.tournament_id]) not in text
    season_page = client.get(reverse("season_detail", args=[season.pk])).content.decode()
    assert reverse("tournament_detail", args=[division.tournament_id]) in season_page


@pytest.mark.parametrize(
    "language, quarter",
    [("en", "Q1 2027"), ("pl", "1. kwartał 2027"), ("cs", "1. čtvrtletí 2027")],
)
def test_the_quarter_is_written_in_the_pages_language(client, season, language, quarter):
    text = client.get(
        reverse("season_detail", args=[season.pk]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    assert quarter in text
