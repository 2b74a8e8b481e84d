"""The new-match form in two steps (a game, then only its options and player counts)
and the time zone picker of real places grouped by region."""

import re

import pytest
from django import forms
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.forms import ProfileForm, grouped_zones
from games.engine import registry
from games.models import Match

pytestmark = pytest.mark.django_db


def client_for(user):
    client = Client()
    client.force_login(user)
    return client


def test_the_first_step_offers_the_games_and_nothing_else(alice):
    page = client_for(alice).get(reverse("match_create")).content.decode()
    for entry in registry.registrations():
        assert f'href="{reverse("match_create")}?game={entry.key}"' in page
    assert 'name="n_seats"' not in page and "opt_" not in page


@pytest.mark.parametrize("key", [entry.key for entry in registry.registrations()])
def test_the_second_step_shows_only_the_chosen_game(alice, key):
    game = registry.get(key)
    page = client_for(alice).get(reverse("match_create") + f"?game={key}").content.decode()
    seats = re.search(r'<select name="n_seats".*?</select>', page, re.S).group(0)
    offered = [int(n) for n in re.findall(r'<option value="(\d+)"', seats)]
    assert offered == list(range(game.min_players, game.max_players + 1))
    names = set(re.findall(r'name="(opt_[^"]+)"', page))
    assert names == {f"opt_{key}_{option.key}" for option in game.options}


def test_the_chosen_game_s_match_is_created(alice):
    client = client_for(alice)
    data = {"game": "drako", "n_seats": 2, "visibility": "public", "time_per_move": 86400}
    response = client.post(reverse("match_create") + "?game=drako", data)
    assert response.status_code == 302 and Match.objects.get().game_key == "drako"
    # Another game's option or a seat count outside the game's range is refused.
    bad = client.post(reverse("match_create"), {**data, "n_seats": 3})
    assert bad.status_code == 400 and Match.objects.count() == 1


def test_time_zones_are_real_places_grouped_by_region(alice):
    groups = dict((label, zones) for label, zones in grouped_zones()[1:])
    assert ("Europe/Warsaw", "Warsaw") in groups["Europe"]
    assert ("America/Argentina/Buenos_Aires", "Argentina / Buenos Aires") in groups["America"]
    offered = {name for zones in groups.values() for name, _label in zones}
    assert not {"Factory", "localtime", "US/Eastern", "Etc/GMT+5"} & offered
    page = client_for(alice).get(reverse("profile")).content.decode()
    assert '<optgroup label="Europe">' in page
    # An old profile's odd zone stays valid, under "Other".
    alice.profile.timezone = "US/Eastern"
    alice.profile.save()
    assert '<optgroup label="Other">' in client_for(alice).get(reverse("profile")).content.decode()


@pytest.mark.parametrize("zone", ["Europe/Warsaw", "UTC", "US/Eastern"])
def test_the_time_zone_menu_is_the_stock_select_s_markup(alice, zone):
    """The menu is drawn in Python for speed; it must read exactly as Django's own."""
    alice.profile.timezone = zone
    with translation.override("pl"):
        form = ProfileForm(instance=alice.profile)
        fast = str(form["timezone"])
        form.fields["timezone"].widget = forms.Select(choices=form.fields["timezone"].choices)
        stock = str(form["timezone"])

    def tidy(html: str) -> str:
        return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", html)).strip()

    assert tidy(fast) == tidy(stock)
    assert f'<option value="{zone}" selected>' in fast
    assert fast.count("<option") > 400
