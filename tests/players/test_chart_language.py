"""The rating chart's SVG in Polish and Czech: its lengths are numbers with a
point ("10.0"), never the language's decimal comma, which a browser refuses."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.players.conftest import finish, start_match

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language", ["en", "pl", "cs"])
def test_the_chart_draws_with_points_in_every_language(alice, bob, language):
    finish(start_match([alice, bob]), [1, 2])
    alice.profile.language = language
    alice.profile.save()
    client = Client()
    client.force_login(alice)
    page = client.get(reverse("player_page", args=["bob"])).content.decode()
    svg = page.split('<figure class="rating-chart">', 1)[1].split("</svg>", 1)[0]
    lengths = re.findall(r'\b(?:x1|x2|y1|y2|cx|cy|x|y)="([^"]*)"', svg)
    assert lengths, svg
    assert all(re.fullmatch(r"-?\d+(\.\d+)?", value) for value in lengths), lengths
    points = re.search(r'points="([^"]*)"', svg).group(1)
    assert re.fullmatch(r"[\d.\-]+,[\d.\-]+( [\d.\-]+,[\d.\-]+)*", points), points
