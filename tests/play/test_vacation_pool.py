"""Automatic vacation, matches and tournaments that forbid vacation, and what
the pages say about them (docs/correspondence.md, "Vacation")."""

from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import translation

from accounts.models import VacationPeriod
from core import errors
from games.engine import registry
from games.models import MatchStatus, Notification, SeatStatus
from games.play import timeouts
from games.play import vacation as vacations
from games.play.vacation_notice import VACATION_NEWS, vacation_words
from tests.clock import DAY, START, two_player

pytestmark = pytest.mark.django_db
HOUR = timedelta(hours=1)


def auto(user, on=True):
    user.profile.auto_vacation = on
    user.profile.save(update_fields=["auto_vacation"])


def test_automatic_vacation_replaces_the_timeout_and_tells_the_player(
    traveller, alice, bob, django_capture_on_commit_callbacks
):
    auto(alice)
    match = two_player(alice, bob, time_per_move=DAY)
    traveller.move_to(START + DAY)
    with django_capture_on_commit_callbacks(execute=True):
        assert timeouts.sweep() == {"automatic vacation": 1}
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    assert match.seats.get(index=0).status == SeatStatus.PLAYING, "no strike, no bot"
    assert match.deadline == START + DAY + DAY, "a day of vacation from the pool"
    alice.profile.refresh_from_db()
    assert alice.profile.vacation_until == START + 2 * DAY
    assert alice.profile.vacation_pool == timedelta(days=6, hours=3)
    period = VacationPeriod.objects.get(user=alice)
    assert period.automatic
    notice = Notification.objects.get(user=alice, kind=VACATION_NEWS)
    assert notice.about["hours"] == 24 and notice.about["left"] == 147
    # By every channel: the bell has the row, and the email went out.
    assert [m.to for m in mail.outbox if "automatic vacation" in m.subject] == [
        ["alice@example.com"]
    ]
    # The next sweep finds nothing due: the vacation moved the deadline.
    assert timeouts.sweep() == {}


def test_without_automatic_vacation_the_timeout_applies(traveller, alice, bob):
    match = two_player(alice, bob, time_per_move=DAY)
    traveller.move_to(START + DAY)
    assert timeouts.sweep() == {"timed out": 1}
    assert not VacationPeriod.objects.filter(user=alice).exists()
    match.refresh_from_db()
    assert match.seats.get(index=0).strikes == 1


def test_an_empty_pool_means_the_timeout_applies(traveller, alice, bob):
    auto(alice)
    alice.profile.vacation_pool = timedelta(minutes=50)
    alice.profile.save(update_fields=["vacation_pool"])
    two_player(alice, bob, time_per_move=HOUR)
    traveller.move_to(START + HOUR)
    assert timeouts.sweep() == {"timed out": 1}


def test_automatic_vacation_takes_what_the_pool_holds_when_less_than_a_day(traveller, alice):
    auto(alice)
    alice.profile.vacation_pool = timedelta(hours=5, minutes=40)
    alice.profile.save(update_fields=["vacation_pool"])
    assert vacations.start_automatic(alice)
    alice.profile.refresh_from_db()
    assert alice.profile.vacation_until == START + 5 * HOUR
    assert alice.profile.vacation_pool == timedelta(minutes=40)
    assert not vacations.start_automatic(alice), "already away: nothing twice"


def test_a_match_that_forbids_vacation_keeps_its_clock_running(traveller, alice, bob):
    forbidding = two_player(alice, bob, time_per_move=2 * DAY, vacation_allowed=False)
    allowing = two_player(alice, bob, time_per_move=2 * DAY)
    vacations.start_vacation(alice, 3)
    forbidding.refresh_from_db()
    allowing.refresh_from_db()
    assert forbidding.deadline == START + 2 * DAY
    assert allowing.deadline == START + 2 * DAY + 3 * DAY
    auto(alice)
    traveller.move_to(START + 2 * DAY)
    # Away, yet the forbidding match times out: no automatic vacation there.
    assert timeouts.sweep() == {"timed out": 1}


def test_a_vacation_with_nothing_left_is_refused_and_changes_nothing(traveller, alice, bob):
    alice.profile.vacation_pool = timedelta(hours=20)
    alice.profile.save(update_fields=["vacation_pool"])
    match = two_player(alice, bob, time_per_move=DAY)
    with pytest.raises(errors.ServiceError, match="20 hours, less than a day"):
        vacations.start_vacation(alice, 1)
    alice.profile.refresh_from_db()
    match.refresh_from_db()
    assert alice.profile.vacation_until is None
    assert alice.profile.vacation_pool == timedelta(hours=20)
    assert match.deadline == START + DAY


def test_the_pool_is_capped_at_thirty_days(traveller, alice):
    traveller.shift(400 * DAY)
    from django.utils import timezone

    assert alice.profile.vacation_pool_now(timezone.now()) == 30 * DAY


def test_the_notice_is_worded_in_each_language(traveller, alice):
    auto(alice)
    vacations.start_automatic(alice)
    row = Notification.objects.get(user=alice, kind=VACATION_NEWS)
    words = {}
    for language in ("en", "pl", "cs"):
        with translation.override(language):
            words[language] = vacation_words(row)
    assert words["en"]["subject"] == "Your automatic vacation has started"
    assert len({w["subject"] for w in words.values()}) == 3
    assert all("24" in " ".join(w["lines"]) for w in words.values())


def test_the_match_page_and_the_lobby_say_what_the_clock_allows(
    traveller, client, alice, bob, carol
):
    bob.profile.weekend_days = "6,7"
    bob.profile.save(update_fields=["weekend_days"])
    from games.lobby import services as lobby

    open_match = lobby.create_match(
        user=alice,
        game_key="nogi",
        n_seats=2,
        vacation_allowed=False,
        weekend_pause=True,
    )
    client.force_login(carol)
    lobby_page = client.get(reverse("lobby")).content.decode()
    assert "no vacation: the clock runs while a player is away" in lobby_page
    assert "weekend pause" in lobby_page
    page = client.get(reverse("match_detail", args=[open_match.pk])).content.decode()
    assert "no vacation: the clock runs while a player is away" in page
    # Bob's clock, on a Saturday, waits for Monday; the page says until when.
    match = two_player(alice, bob, time_per_move=DAY, weekend_pause=True)
    registry.get("nogi")
    from tests.conftest import play_one

    play_one(match, registry.get("nogi"))
    traveller.move_to(START + 5 * DAY)  # Saturday 7 March
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert "weekend: the clock waits until" in page
    vacations.start_vacation(alice, 2)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert "on vacation until" in page


def test_the_profile_refuses_three_weekend_days(client, alice):
    client.force_login(alice)
    form = client.get(reverse("profile")).context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None}
    data["weekend_days"] = ["5", "6", "7"]
    response = client.post(reverse("profile"), data)
    assert response.status_code == 400
    assert "Choose at most 2 weekend days." in response.content.decode()
    alice.profile.refresh_from_db()
    assert alice.profile.weekend_days == ""
    data["weekend_days"] = ["7", "6"]
    data["auto_vacation"] = "on"
    assert client.post(reverse("profile"), data).status_code == 302
    alice.profile.refresh_from_db()
    assert alice.profile.weekend_days == "6,7"
    assert alice.profile.auto_vacation
