"""The sentences a reading against the rulebooks found ungrammatical or machine-like
(issues "The printed game's words on the site" and "The words, second pass"), and the
Drako refusals and prompts that show a number of steps, which take the language's plural
forms."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.catalog.drako import presenter as drako_presenter
from games.catalog.drako.builders import position
from games.catalog.drako.rules import GAME, seat_of
from games.engine.base import IllegalAction
from games.i18n import refusal_text
from tests.catalog.drako.helpers import DWARVES, act, play
from tests.catalog.test_glossary import catalogue

#: (package, language, the wrong wording, the wording now used)
FIXED = [
    ("nogi", "pl", "Wszyscy siedmiu rycerzy", "Wszystkich siedmiu rycerzy"),
    ("nogi", "pl", "wykonujesz jej ściankę", "wykonujesz to, co pokazuje jej wyrzucona ścianka"),
    ("nogi", "pl", "Przy remisie wygrywa więcej punktów", "Przy remisie wygrywa gracz z większą"),
    ("nogi", "cs", "provedeš její stěnu", "provedeš to, co ukazuje její padlá stěna"),
    ("nogi", "cs", "Při remíze vyhrává víc bodů", "Při remíze vyhrává hráč s více body"),
    ("drakon", "pl", "dzieje się efekt komnaty", "rozpatrujesz efekt komnaty"),
    ("drakon", "pl", "dość dużą ilością złota", "z wystarczającą ilością złota"),
    ("drakon", "pl", "wygrało najwięcej złota", "wygrał gracz z monetami o najwyższej"),
    ("drakon", "cs", "nastane účinek komnaty", "vyhodnotíš účinek komnaty"),
    ("drakon", "cs", "vyhrálo nejvíc zlata", "vyhrál hráč s mincemi v nejvyšší"),
    ("drako", "pl", "Ogień smoka jest zraniony", "Pola ziania ogniem są zapełnione"),
    ("drako", "pl", "o maksymalnie %(n)s pola", "o najwyżej %(n)s pól"),
    ("drako", "cs", "stopu", "vyber řadu na jeho desce"),
    ("seven_dragons", "pl", "równe grupy dzielą zwycięstwo", "dzielą się zwycięstwem"),
    ("seven_dragons", "cs", "stejné skupiny se o výhru dělí", "se stejně velkými skupinami"),
    ("seven_dragons", "cs", "passuje", "hlásí pas"),
    ("seven_dragons", "cs", "passovat", "hlásit pas"),
    # issue "The words, second pass": coins do not win, and "monety o łącznej wartości"
    # is what one collects, not a label for a sum
    ("drakon", "pl", "Wygrywają monety o łącznej wartości",
     "Wygrywa gracz z monetami o łącznej wartości 7"),
    ("drakon", "pl", "czyli monety o łącznej wartości", "łączna wartość: %(gold)s"),
    ("drakon", "pl", "z monetami o wystarczającej łącznej wartości",
     "z wystarczającą ilością złota"),
    ("drakon", "cs", "Vyhrávají mince v celkové hodnotě",
     "Vyhrává hráč s mincemi v celkové hodnotě 7"),
    ("drakon", "cs", "tedy mince v celkové hodnotě", "celková hodnota: %(gold)s"),
    # the first edition's lobby tile counts its coins as its rulebook does
    ("drakon", "pl", "zbierz monety o łącznej wartości 5", "zbierz pięć złotych monet"),
    ("drakon", "cs", "posbírej mince v celkové hodnotě 5", "nasbírej pět zlatých mincí"),
    # a list or a colour after a colon, not in the nominative after a verb or a noun
    ("drakon", "pl", "dobierasz %(rooms)s", "dobrane płytki to %(rooms)s"),
    ("drakon", "cs", "líznul sis", "dobrané dílky jsou %(rooms)s"),
    ("seven_dragons", "pl", "w kolorze %(colour)s", "(kolor: %(colour)s)"),
    ("seven_dragons", "cs", "barvy %(colour)s", "(barva: %(colour)s)"),
    # Drako's starting hand in the language's plural forms
    ("drako", "pl", "rękę początkową: kart", "kart na rękę początkową"),
    ("drako", "cs", "počáteční ruku: karet", "do počáteční ruky lízl %(n)s karet"),
    # a turn is "Tah", not a round; Nogi's number face is the rulebook's "Cyfra"
    ("drakon", "cs", "Kolo %(n)s", "Tah %(n)s"),
    ("nogi", "cs", "Kolo %(n)s", "Tah %(n)s"),
    ("nogi", "pl", "Liczba:", "Cyfra:"),
    # the tournament form's error, no longer the
    # English word for word
    ("site", "pl", "najmniejsza liczba nie większa od największej",
     "a najmniejsza nie może być większa od największej"),
    ("site", "cs", "nejmenší počet ne vyšší než největší",
     "a nejmenší nesmí být vyšší než největší"),
]  # fmt: skip


@pytest.mark.parametrize(("package", "language", "wrong", "right"), FIXED)
def test_the_catalogue_says_it_as_a_person_would(package, language, wrong, right):
    texts = [entry.text for entry in catalogue(package, language)]
    assert not [text for text in texts if wrong in text]
    assert [text for text in texts if right in text]


STEP = {
    "pl": {1: "o najwyżej 1 pole,", 2: "o najwyżej 2 pola,", 5: "o najwyżej 5 pól,"},
    "cs": {1: "nejvýše o 1 pole,", 2: "nejvýše o 2 pole,", 5: "nejvýše o 5 polí,"},
    "en": {1: "at most 1 step,", 2: "at most 2 steps,", 5: "at most 5 steps,"},
}


@pytest.mark.parametrize("language", ["en", "pl", "cs"])
@pytest.mark.parametrize("n", [1, 2, 5])
def test_a_refused_move_counts_its_steps_in_the_languages_plural(language, n):
    """Moving a dwarf farther than its card allows: the refusal shows the card's number of
    steps with the word's form for that number."""
    state = position(
        to_move=DWARVES,
        dragon_at="1,-1",
        dwarves={"net": "1,-2", "xbow": "2,-2"},
        hands={DWARVES: ["W02"]},
    )
    with pytest.raises(IllegalAction) as refused:
        act(state, DWARVES, play(DWARVES, "W02", "MOVE1:2", dwarf="xbow", to="0,-1"))
    error = IllegalAction(refused.value.template, **{**refused.value.params, "n": n})
    with translation.override(language):
        assert STEP[language][n] in refusal_text(error)


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "each up to 1 step."), ("pl", "o najwyżej 1 pole."), ("cs", "nejvýše o 1 pole.")],
)
def test_the_two_dwarf_prompt_counts_its_steps_in_the_languages_plural(language, words):
    state = position(to_move=DWARVES, hands={DWARVES: ["W03"]})
    state, _events = act(state, DWARVES, play(DWARVES, "W03", "MOVE2:1"))
    view = GAME.view(state, seat_of(state, DWARVES))
    with translation.override(language):
        context = drako_presenter.board_context(view, seat_of(state, DWARVES), ["ala", "ola"])
        assert context["pending"]["text"].endswith(words)
        many = translation.ngettext(
            "The dwarves move up to two dwarves, each up to %(n)s step.",
            "The dwarves move up to two dwarves, each up to %(n)s steps.",
            5,
        ) % {"n": 5}
    assert many.endswith({"en": "5 steps.", "pl": "5 pól.", "cs": "5 polí."}[language])
