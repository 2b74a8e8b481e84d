"""The weekend pause (games.play.weekends and the clock that applies it).

Scenario tests at fixed instants, one across a daylight-saving change inside
a weekend, and property tests: adding running time and measuring it again
agree, and the pause never shortens a deadline."""

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.play import clock, services, weekends
from tests.clock import DAY, START, two_player
from tests.conftest import play_one

HOUR = timedelta(hours=1)
WARSAW = weekends.zone("Europe/Warsaw")
SAT_SUN = frozenset({6, 7})


def utc(*args):
    return datetime(*args, tzinfo=UTC)


def test_a_clock_started_on_friday_skips_saturday_and_sunday():
    # Friday 2026-03-06 12:00 UTC = 13:00 in Warsaw (CET, UTC+1).
    friday = utc(2026, 3, 6, 12)
    deadline = weekends.add_running_time(friday, DAY, WARSAW, SAT_SUN)
    # Friday 13:00 to midnight is 11 h; the 13 h left run from Monday 00:00 CET.
    assert deadline == utc(2026, 3, 8, 23) + 13 * HOUR
    assert weekends.running_time(friday, deadline, WARSAW, SAT_SUN) == DAY


def test_a_weekend_with_a_daylight_saving_change_is_23_hours_long_on_sunday():
    """Warsaw moves its clocks forward on Sunday 29 March 2026 at 02:00: that
    Sunday lasts 23 hours, and the pause covers exactly the player's two
    local days (47 hours), not 48 hours of UTC."""
    friday = utc(2026, 3, 27, 22)  # Friday 23:00 CET: one hour before the weekend
    deadline = weekends.add_running_time(friday, 2 * HOUR, WARSAW, SAT_SUN)
    # Saturday 00:00 CET = Friday 23:00 UTC; Monday 00:00 CEST = Sunday 22:00 UTC.
    assert deadline == utc(2026, 3, 29, 22) + HOUR
    assert deadline - friday == 2 * HOUR + 47 * HOUR


def test_the_autumn_change_makes_the_weekend_25_hours_on_sunday():
    friday = utc(2026, 10, 23, 21)  # Friday 23:00 CEST
    deadline = weekends.add_running_time(friday, 2 * HOUR, WARSAW, SAT_SUN)
    # Saturday 00:00 CEST = Friday 22:00 UTC; Monday 00:00 CET = Sunday 23:00 UTC.
    assert deadline == utc(2026, 10, 25, 23) + HOUR
    assert deadline - friday == 2 * HOUR + 49 * HOUR


def test_weekend_ends_says_when_the_clock_runs_again():
    saturday_noon = utc(2026, 3, 7, 11)
    assert weekends.weekend_ends(saturday_noon, WARSAW, SAT_SUN) == utc(2026, 3, 8, 23)
    assert weekends.weekend_ends(utc(2026, 3, 9, 11), WARSAW, SAT_SUN) is None
    assert weekends.weekend_ends(saturday_noon, WARSAW, frozenset()) is None
    # Two days apart are two pauses: Wednesday's ends on Wednesday.
    assert weekends.weekend_ends(utc(2026, 3, 4, 11), WARSAW, frozenset({3, 5})) == utc(
        2026, 3, 4, 23
    )


ZONES = ["UTC", "Europe/Warsaw", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu"]


@given(
    start=st.datetimes(
        min_value=datetime(2026, 1, 1), max_value=datetime(2028, 12, 31), timezones=st.just(UTC)
    ),
    minutes=st.integers(min_value=0, max_value=60 * 24 * 40),
    days=st.sets(st.integers(min_value=1, max_value=7), max_size=2),
    zone_name=st.sampled_from(ZONES),
)
def test_running_time_measures_back_what_add_running_time_added(start, minutes, days, zone_name):
    tz = weekends.zone(zone_name)
    duration = timedelta(minutes=minutes)
    end = weekends.add_running_time(start, duration, tz, frozenset(days))
    assert end >= start + duration, "a pause never shortens a deadline"
    assert weekends.running_time(start, end, tz, frozenset(days)) == duration
    # At most two days in seven are paused (a local day is at most 25 h long),
    # and a start inside a weekend waits at most two days more.
    assert end - start <= duration * 7 / 5 * 25 / 24 + 3 * DAY


pytestmark = pytest.mark.django_db


def test_a_match_that_allows_the_weekend_pause_moves_the_deadline_past_the_weekend(
    traveller, alice, bob
):
    """START is Monday 2 March 2026, 12:00 UTC. Bob's weekend is Saturday and
    Sunday in Warsaw; his turn of 5 days from Monday 13:00 in Warsaw ends
    on the next Monday after the pause, not on Saturday."""
    bob.profile.weekend_days = "6,7"
    bob.profile.timezone = "Europe/Warsaw"
    bob.profile.save(update_fields=["weekend_days", "timezone"])
    match = two_player(alice, bob, time_per_move=5 * DAY, weekend_pause=True)
    from games.engine import registry

    play_one(match, registry.get("nogi"))  # alice moves; bob's turn from START
    match.refresh_from_db()
    assert match.deadline == START + 5 * DAY + 2 * DAY


def test_the_weekend_pause_is_off_unless_the_match_allows_it(traveller, alice, bob):
    bob.profile.weekend_days = "6,7"
    bob.profile.save(update_fields=["weekend_days"])
    match = two_player(alice, bob, time_per_move=5 * DAY)
    from games.engine import registry

    play_one(match, registry.get("nogi"))
    match.refresh_from_db()
    assert match.deadline == START + 5 * DAY


def test_the_bank_is_charged_only_for_running_time(traveller, alice, bob):
    """Alice's turn starts on Friday; she moves on Monday: the weekend in
    between is not taken from her bank."""
    alice.profile.weekend_days = "6,7"
    alice.profile.save(update_fields=["weekend_days"])
    traveller.move_to(utc(2026, 3, 6, 12))  # Friday noon UTC
    match = two_player(alice, bob, time_per_move=DAY, time_bank=2 * DAY, weekend_pause=True)
    seat = services.seats_of(match)[0]
    assert clock.weekend_of(match, seat) is not None
    assert match.deadline == utc(2026, 3, 9, 12) + 2 * DAY  # Monday noon + the bank
    traveller.move_to(utc(2026, 3, 9, 18))  # Monday 18:00: 12 h + 18 h of running time
    from games.engine import registry

    play_one(match, registry.get("nogi"))
    seat.refresh_from_db()
    assert seat.bank_left == 2 * DAY - 6 * HOUR
