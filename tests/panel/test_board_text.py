"""The board in words: every knight, the dragon, the dice and the bunnies, for a screen reader."""

import re
from types import ModuleType

import pytest
from django.test import Client
from django.urls import reverse

from games.catalog.nogi.presenter import colour_name, face_text
from games.engine import registry
from games.panel import presenters

pytestmark = pytest.mark.django_db


def test_the_nogi_board_is_described_in_words(started_match, nogi):
    page = Client().get(reverse("match_detail", args=[started_match.pk])).content.decode()
    text = re.search(r'<details class="board-text".*?</details>', page, re.S).group(0)
    view = nogi.view(started_match.state, None)
    assert "The dragon is on its mountain, before field 1." in text
    knights = ", ".join(sorted(colour_name(c) for c in view["board"]))
    assert f"Field 10: {knights}." in text  # all seven start together
    for die, face in view["roll"].items():
        assert f"{colour_name(die)} {face_text(face)}" in text
    assert "Bunnies wait on fields 17, 21, 25, 30, 36." in text


def test_a_game_without_the_hook_draws_no_text_section():
    lacking = ModuleType("lacking")
    nogi = presenters.get("nogi").module
    for name in presenters.REQUIRED:
        setattr(lacking, name, getattr(nogi, name))
    assert presenters.Presenter(lacking).describe_board({}, []) == []


def test_the_drako_board_is_described_in_words(alice, bob):
    from games.catalog.drako import components as C
    from games.catalog.drako.presenter import dwarf_name
    from games.lobby import services as lobby

    match = lobby.create_match(user=alice, game_key="drako", n_seats=2)
    lobby.join_match(user=bob, match=match)
    page = Client().get(reverse("match_detail", args=[match.pk])).content.decode()
    text = re.search(r'<details class="board-text".*?</details>', page, re.S).group(0)
    match.refresh_from_db()
    view = registry.get("drako").view(match.state, None)
    assert f"The dragon stands on hex {C.hex_name(view['dragon']['at'])}." in text
    for dwarf in C.DWARF_IDS:
        assert dwarf_name(dwarf) in text
    assert "Net: with the dwarves. Fury: available." in text
