"""Nogi's presenter words each die face and colour in the reader's language,
once per use: the words come from the catalogues, whichever language was
asked for before in the same process."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.catalog.nogi import components as C
from games.catalog.nogi.presenter import colour_name, face_sentence


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
