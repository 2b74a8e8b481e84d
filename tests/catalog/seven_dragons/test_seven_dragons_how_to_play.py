"""Seven Dragons' How to play page tells the bonus rule whole: the extra cards for
connected colours, and none for a colour touched on the rainbow dragon or on the silver
dragon while it still counts as every colour (the rulebook's "Pozor" under "Bonus za více
navazujících barev"), as ``rules.bonus`` plays it."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.catalog.seven_dragons import components as C
from games.catalog.seven_dragons.rules import bonus

NO_BONUS = {
    "en": (
        "A colour touched on the rainbow dragon earns no extra card, nor does one touched on "
        "the silver dragon while it still counts as every colour"
    ),
    "pl": "Kolor dotknięty na tęczowym smoku nie daje dodatkowej karty",
    "cs": "Barva navázaná na duhového draka nepřinese žádnou kartu navíc",
}


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "pl", "cs"])
def test_the_page_says_the_rainbow_and_the_wild_silver_dragon_earn_no_bonus(language):
    url = reverse("how_to_play", args=["seven_dragons"])
    html = Client(headers={"accept-language": language}).get(url).content.decode()
    turn = re.search(r'<section id="turn">(.*?)</section>', html, re.S).group(1)
    assert NO_BONUS[language] in " ".join(turn.split())


def test_the_rules_give_no_bonus_for_the_rainbow_nor_a_wild_silver_dragon():
    """What the page says is what the game does: red touching red on one side and the
    rainbow or the still-wild silver dragon on another earns nothing; two real colours do."""
    red_blue = (C.RED, C.BLUE, C.RED, C.BLUE)  # left column red, right column blue
    wild = (C.WILD,) * 4
    blue = (C.BLUE,) * 4
    red = (C.RED,) * 4
    assert bonus({(-1, 0): red, (1, 0): wild}, (0, 0), red_blue) == 0
    assert bonus({(-1, 0): red, (1, 0): blue}, (0, 0), red_blue) == 1
