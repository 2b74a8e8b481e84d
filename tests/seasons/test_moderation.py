"""A moderator cancels a season: its divisions' tournaments with it,
audited, nobody moving; the desk's form; what the season page then says."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from core.errors import Conflict, Forbidden, ServiceError
from games.models import Match, MatchStatus, ModerationAction
from seasons import selectors, services
from seasons.models import TOO_FEW_PLAYERS, Season, SeasonStatus
from tests.seasons.conftest import START_TIME, begin, signed_up
from tests.tournaments.conftest import running_matches
from tournaments.models import TournamentStatus

pytestmark = pytest.mark.django_db

REASON = "the rules changed under it during sign-up"


def test_a_running_season_is_cancelled_with_its_divisions_and_audited(season, many, moderator):
    begin(signed_up(season, many))
    season.refresh_from_db()
    assert season.status == SeasonStatus.RUNNING
    divisions = list(season.divisions.select_related("tournament"))
    assert len(divisions) >= 2
    in_play = [m.pk for d in divisions for m in running_matches(d.tournament)]
    assert in_play

    action = services.cancel(moderator, season, REASON)

    season.refresh_from_db()
    assert season.status == SeasonStatus.CANCELLED and season.cancel_reason == REASON
    for division in season.divisions.select_related("tournament"):
        assert division.tournament.status == TournamentStatus.CANCELLED
        assert division.tournament.cancel_reason == REASON
    # Their matches go on as ordinary matches; nobody moves up or down.
    assert set(Match.objects.filter(pk__in=in_play).values_list("status", flat=True)) == {
        MatchStatus.ACTIVE
    }
    assert not season.entries.filter(movement__in=["up", "down"]).exists()
    assert action.kind == "cancel_season" and action.details == {"season": season.pk}
    assert ModerationAction.objects.filter(kind="cancel_season").count() == 1
    # The beat leaves it be, and the next season places from an earlier one.
    assert services.sweep(START_TIME)["finished"] == 0
    later = Season(game_key="nogi", starts_at=START_TIME.replace(year=2028))
    assert services.previous_season(later) is None


def test_a_season_in_sign_up_can_be_cancelled_and_an_ended_one_cannot(season, many, moderator):
    signed_up(season, many[:3])
    services.cancel(moderator, season, REASON)
    season.refresh_from_db()
    assert season.status == SeasonStatus.CANCELLED
    with pytest.raises(Conflict):
        services.cancel(moderator, season, "again, to be sure of it")
    assert ModerationAction.objects.filter(kind="cancel_season").count() == 1


def test_only_a_moderator_cancels_and_a_reason_is_needed(season, many, moderator):
    with pytest.raises(Forbidden):
        services.cancel(many[0], season, REASON)
    with pytest.raises(ServiceError, match="reason"):
        services.cancel(moderator, season, "")
    season.refresh_from_db()
    assert season.status == SeasonStatus.SIGNUP
    assert not ModerationAction.objects.exists()


def test_the_desk_cancels_a_season_with_a_reason(client, season, many, moderator):
    begin(signed_up(season, many[:6]))
    client.force_login(moderator)
    change = client.get(reverse("admin:seasons_season_change", args=[season.pk]))
    url = reverse("admin:seasons_season_cancel", args=[season.pk])
    assert url in change.content.decode()
    assert client.get(url).status_code == 200
    client.post(url, {"reason": REASON})
    season.refresh_from_db()
    assert season.status == SeasonStatus.RUNNING  # not confirmed, nothing done
    client.post(url, {"reason": REASON, "confirm": "on"})
    season.refresh_from_db()
    assert season.status == SeasonStatus.CANCELLED
    assert client.get("/admin/seasons/season/%C2%B2/change/").status_code in (302, 404)


def test_players_cannot_use_the_desk(client, season, many):
    client.force_login(many[0])
    response = client.post(
        reverse("admin:seasons_season_cancel", args=[season.pk]),
        {"reason": REASON, "confirm": "on"},
    )
    assert response.status_code == 302 and "login" in response["Location"]
    season.refresh_from_db()
    assert season.status == SeasonStatus.SIGNUP


def test_the_season_page_says_why_it_was_cancelled_in_the_readers_words(
    client, season, many, moderator
):
    services.cancel(moderator, season, REASON)
    page = client.get(reverse("season_detail", args=[season.pk])).content.decode()
    assert REASON in page
    # Cancelled at its start for want of players: said in the page's language.
    season.cancel_reason = TOO_FEW_PLAYERS
    season.save(update_fields=["cancel_reason"])
    many[0].profile.language = "pl"
    many[0].profile.save()
    client.force_login(many[0])
    page = client.get(reverse("season_detail", args=[season.pk])).content.decode()
    assert TOO_FEW_PLAYERS not in page
    assert selectors.season_page(season.pk, many[0]).cancel_note


def test_the_desks_words_exist_in_polish_and_czech():
    from django.utils import translation

    from seasons.models import AuditKind

    with translation.override("pl"):
        assert str(AuditKind.CANCEL_SEASON.label) == "Odwołanie sezonu"
        assert (
            translation.gettext("This season has already ended.") == "Ten sezon już się zakończył."
        )
    with translation.override("cs"):
        assert translation.gettext("Cancel the season") == "Zrušit sezónu"


def _desk_page_queries(client, url: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries), response.content.decode()


def test_the_cancel_page_reads_as_much_for_a_large_season_as_for_a_small_one(
    client, season, many, moderator
):
    """The page names the season and asks for the reason: it reads neither
    its entries nor its divisions, whatever their number."""
    client.force_login(moderator)
    url = reverse("admin:seasons_season_cancel", args=[season.pk])
    signed_up(season, many[:3])
    few, _page = _desk_page_queries(client, url)
    signed_up(season, many[3:])
    after_sign_up, _page = _desk_page_queries(client, url)
    begin(season)
    season.refresh_from_db()
    assert season.status == SeasonStatus.RUNNING and season.divisions.count() >= 2
    running, page = _desk_page_queries(client, url)
    assert few == after_sign_up == running
    assert str(season) in page


@pytest.mark.parametrize(
    ("language", "title"),
    [("en", "Cancel the season"), ("pl", "Odwołaj sezon"), ("cs", "Zrušit sezónu")],
)
def test_the_cancel_page_speaks_the_moderators_language(client, season, moderator, language, title):
    from django.utils import translation

    moderator.profile.language = language
    moderator.profile.save()
    client.force_login(moderator)
    page = client.get(reverse("admin:seasons_season_cancel", args=[season.pk])).content.decode()
    assert title in page and page.count("<h1") == 1  # headed once
    english = (
        "Its divisions' tournaments are cancelled with it; matches in play go on "
        "as ordinary matches, and nobody moves up or down."
    )
    with translation.override(language):
        said = translation.gettext(english)
    assert said in page.replace("&#x27;", "'")
    if language != "en":
        assert said != english  # translated, not the English left in place
