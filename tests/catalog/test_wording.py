"""games.catalog.wording: a wording is worked out once per language and
arguments, and never answered in another language than the active one."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext

from games.catalog.drakon.presenter.texts import place_name
from games.catalog.wording import per_language


def test_worked_out_once_per_language_and_arguments():
    calls = []

    @per_language
    def named(word: str) -> str:
        calls.append((translation.get_language(), word))
        return gettext(word)

    for language in ["en", "pl", "cs", "pl", "en", "cs"]:
        with translation.override(language):
            assert named("yellow") == gettext("yellow")
            assert named("yellow") == gettext("yellow")
            assert named("green") == gettext("green")
    assert sorted(calls) == sorted(
        (language, word) for language in ["en", "pl", "cs"] for word in ["yellow", "green"]
    )
    with translation.override("pl"):
        assert named("yellow") != "yellow"  # a Polish word, not the English one kept


def test_a_game_wording_follows_the_language():
    names = {}
    for language in ["cs", "en", "pl", "cs"]:
        with translation.override(language):
            names.setdefault(language, set()).add(place_name("1,-2", "entrance"))
            assert place_name("0,0", "start") == gettext("the Start")
    assert names["en"] == {"2 south, 1 east of the Entrance"}
    assert len(names["cs"]) == 1 and names["cs"] != names["en"] != names["pl"]
