"""The yearly vacation allowance becomes a pool
(``accounts/migrations/0011_vacation_pool.py``): every player starts the
pool with what the old allowance, 30 days a year, still left them this year,
so nobody loses or gains by the change."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.migrations import migrate_to

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("latest_migrations_afterwards"),
]

BEFORE = [("accounts", "0010_profile_show_presence")]
AFTER = [("accounts", "0011_vacation_pool")]


def test_each_player_keeps_what_this_years_allowance_left():
    old = migrate_to(BEFORE)
    User = old.get_model("auth", "User")
    Profile = old.get_model("accounts", "Profile")
    VacationPeriod = old.get_model("accounts", "VacationPeriod")
    now = timezone.now()
    rested = User.objects.create(username="rested")
    away = User.objects.create(username="away")
    Profile.objects.create(user=rested)
    Profile.objects.create(user=away)
    start_of_year = now.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
    # Up to 12 days this year (less in the year's first days), and a
    # vacation of last year that does not count.
    began = max(start_of_year, now - timedelta(days=12))
    VacationPeriod.objects.create(user=away, starts_at=began, ends_at=now)
    VacationPeriod.objects.create(
        user=rested,
        starts_at=start_of_year - timedelta(days=20),
        ends_at=start_of_year - timedelta(days=10),
    )

    new = migrate_to(AFTER)
    pools = dict(
        new.get_model("accounts", "Profile").objects.values_list("user__username", "vacation_pool")
    )
    assert pools["rested"] == timedelta(days=30)
    left = timedelta(days=30) - (now - began)
    assert left <= pools["away"] < left + timedelta(minutes=1)
