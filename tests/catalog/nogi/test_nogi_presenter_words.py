"""Nogi's presenter words each die face and colour in the reader's language,
once per use: the words come from the catalogues, whichever language was
asked for before in the same process."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.catalog.nogi import components as C
from games.catalog.nogi.presenter import colour_name, face_sentence, face_text


@pytest.mark.parametrize("language", ["en", "pl", "cs"])
def test_every_face_is_worded_in_the_active_language(language):
    with translation.override(language):
        for kind, english in [
            (C.NUM, "forward %(n)s"),
            (C.NUM_KEEP, "forward %(n)s, die returns"),
            (C.NUM_ANY, "any knight forward %(n)s"),
            (C.MINUS, "back to the nearest knight"),
            (C.PLUS, "forward to the nearest knight"),
            (C.ONE_PLUS_ONE, "two knights forward 1, die returns"),
        ]:
            expected = translation.gettext(english) % {"n": 4}
            assert face_sentence({"kind": kind, "n": 4}) == expected
            assert "%" not in expected
            if language != "en":
                assert expected != english % {"n": 4}


def test_colour_names_follow_the_language_asked_for_in_turn():
    seen = {}
    for language in ["en", "pl", "cs", "en", "cs", "pl"]:
        with translation.override(language):
            assert colour_name("yellow") == translation.gettext("yellow")
            assert colour_name("no-such-colour") == "no-such-colour"
            seen.setdefault(language, set()).add(colour_name("yellow"))
    assert seen["en"] == {"yellow"}
    assert len(set().union(*seen.values())) == 3  # one word per language, never mixed


def _any_knight_roll():
    from django.template import engines

    from games.catalog.nogi.builders import build_state
    from games.catalog.nogi.presenter import board_context
    from games.catalog.nogi.rules import GAME

    state = build_state(3, roll={"green": ("NUM_ANY", 3), "pink": ("NUM", 2)})
    view = GAME.view(state, 0)
    context = board_context(view, 0, ["ala", "ola", "ela"])
    html = engines["jinja2"].env.get_template("games/nogi/board.jinja").render({"board": context})
    return context, html


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "3 on white"), ("pl", "3 na białym tle"), ("cs", "3 na bílém pozadí")],
)
def test_the_any_knight_face_is_shown_as_the_die_shows_it(language, words):
    """The printed die shows the number on a white background (the rulebook's "Cyfra na
    białym tle"), never a star: the board draws a white square behind the number, and the
    log and buttons call it a number on white."""
    with translation.override(language):
        assert face_text({"kind": C.NUM_ANY, "n": 3}) == words
        context, html = _any_knight_roll()
    dice = {die.colour: die for die in context["dice"]}
    assert dice["green"].any_knight and dice["green"].text == "3"
    assert not dice["pink"].any_knight and dice["pink"].text == "2"
    assert "*" not in html.split("<figcaption")[0]
    green = html.split('data-die="green"')[1].split("</g>")[0]
    assert 'class="any-knight"' in green and 'fill="#ffffff"' in green
    pink = html.split('data-die="pink"')[1].split("</g>")[0]
    assert "any-knight" not in pink
