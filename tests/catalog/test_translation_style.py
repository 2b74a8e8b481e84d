"""What docs/translating.md asks of every catalogue that a test can check.

- Czech speaks to the player as "ty" everywhere: no "vy" pronoun nor verb form
  ("Vaše", "vás", "jste", "můžete"), no plural imperative ("připojte se").
- Polish does not tell the player's own acts in the impersonal form ("Opuszczono
  turniej", "Wycofano cię") where the English speaks to the player.
- "ty" and its forms are written small in both languages, emails included.
- Drakon is a she-dragon in Czech too ("dračice Drakon", never "drak Drakon").
"""

from __future__ import annotations

import re

import pytest

from tests.catalog.glossary import CATALOGUES, catalogue

#: Czech words of the polite or plural "vy" (any case)
CZECH_VY = re.compile(
    r"(?<!\w)(?:vy|vás|vám|vámi|váš|vaše|vašeho|vašemu|vaši|vaší|vašich|vašim|vašimi|vašem"
    r"|jste|nejste|máte|nemáte|můžete|nemůžete|musíte|nemusíte|chcete|nechcete|budete"
    r"|nebudete|víte|abyste|byste)(?!\w)",
    re.I,
)
#: a second person plural verb or imperative ends in -te ("počkejte", "hrajete")
CZECH_TE = re.compile(r"(?<!\w)\w+te(?!\w)", re.I)
#: Czech words ending in -te that are not "vy": a genitive, two third persons
CZECH_TE_ALLOWED = {"doupěte", "přečte", "sečte"}
#: the one "vy" the site keeps: the Czech name of the CC BY licence
CZECH_NAMES = ("Uveďte původ",)

#: a Polish impersonal past form ("opuszczono", "wysłano", "podjęto", "użyto")
POLISH_IMPERSONAL = re.compile(r"(?<!\w)\w+(?:ano|ono|ęto|yto|ito|uto|ato)(?!\w)", re.I)
POLISH_NOT_IMPERSONAL = {"ono", "rano", "jako", "tato"}
#: the English speaks to the player
ADDRESSED = re.compile(r"(?<!\w)(?:you|your|yours|yourself)(?!\w)", re.I)

#: "ty" and its forms, capitalised in the middle of a sentence
CAPITAL_TY = {
    "pl": re.compile(
        r"(?<=[\w,;)]\s)(?:Ty|Ciebie|Cię|Ci|Tobie|Tobą|Twój|Twoja|Twoje|Twojego|Twojej|Twojemu"
        r"|Twoim|Twoją|Twoich|Twoimi|Twego|Twej|Twym)(?!\w)"
    ),
    "cs": re.compile(
        r"(?<=[\w,;)]\s)(?:Ty|Tebe|Tobě|Tebou|Ti|Tě|Tvůj|Tvoje|Tvá|Tvé|Tvého|Tvému|Tvým|Tvou"
        r"|Tvoji|Tvých|Tvými|Tvoji)(?!\w)"
    ),
}


#: a placeholder ("%(rate)d", "{name}"): a name for the code, not a word of the language
PLACEHOLDER = re.compile(r"%\(\w+\)[sdif]|\{\w+\}")


def _texts(key: str, language: str):
    """Each form of each message, its placeholders taken out."""
    for entry in catalogue(key, language):
        for form in entry.forms:
            yield entry, PLACEHOLDER.sub(" ", form)


@pytest.mark.parametrize("key", list(CATALOGUES))
def test_czech_says_ty_to_the_player(key):
    found = []
    for entry, text in _texts(key, "cs"):
        for name in CZECH_NAMES:
            text = text.replace(name, "")
        words = [match.group(0) for match in CZECH_VY.finditer(text)]
        words += [
            match.group(0)
            for match in CZECH_TE.finditer(text)
            if match.group(0).lower() not in CZECH_TE_ALLOWED
        ]
        if words:
            found.append(f"{words}: {entry.msgid!r} -> {text!r}")
    assert not found, f"{len(found)} Czech messages say 'vy':\n" + "\n".join(found)


@pytest.mark.parametrize("key", list(CATALOGUES))
def test_polish_tells_the_players_own_acts_in_the_second_person(key):
    found = []
    for entry, text in _texts(key, "pl"):
        if not ADDRESSED.search(entry.msgid + " " + entry.msgid_plural):
            continue
        words = [
            match.group(0)
            for match in POLISH_IMPERSONAL.finditer(text)
            if match.group(0).lower() not in POLISH_NOT_IMPERSONAL
        ]
        if words:
            found.append(f"{words}: {entry.msgid!r} -> {text!r}")
    assert not found, f"{len(found)} Polish messages are impersonal:\n" + "\n".join(found)


@pytest.mark.parametrize("language", ["pl", "cs"])
@pytest.mark.parametrize("key", list(CATALOGUES))
def test_ty_is_written_small(key, language):
    found = [
        f"{entry.msgid!r} -> {text!r}"
        for entry, text in _texts(key, language)
        if CAPITAL_TY[language].search(text)
    ]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    ("key", "language", "wrong"),
    [
        # the forms of address a native reader found (issue 46, items 6 and 7)
        ("site", "cs", "Vaše místo"),
        ("site", "cs", "Připojili jste se"),
        ("site", "cs", "Přihlaste se"),
        ("site", "cs", "vaší poslední návštěvy"),
        ("site", "pl", "Wycofano cię"),
        ("site", "pl", "Opuszczono turniej"),
        ("site", "pl", "Drabinka opuszczona"),
        ("site", "pl", "Nie odpowiedziano na czas"),
        ("site", "pl", "Opuszczono partię"),
        ("site", "pl", "Dołączono do partii"),
        ("site", "pl", "Zapisano cię"),
        ("site", "pl", "Twoje wyzwanie"),
        ("site", "pl", "między Tobą"),
        ("drakon", "cs", "draka Drakon"),
        ("drakon", "cs", "Drak Drakon"),
    ],
)
def test_the_forms_a_reader_found_are_gone(key, language, wrong):
    assert not [text for _entry, text in _texts(key, language) if wrong in text]


def test_the_checks_catch_what_they_are_for():
    """Each check reports the forms it is written against."""
    assert CZECH_VY.search("Vaše partie o žebříček se hraje")
    assert CZECH_TE.search("připojte se dole")
    assert CZECH_TE.search("z doupěte").group(0) in CZECH_TE_ALLOWED  # a genitive, not "vy"
    assert POLISH_IMPERSONAL.search("Opuszczono turniej.")
    assert POLISH_IMPERSONAL.search("Wycofano cię: pozostałe partie są przegrane.")
    assert CAPITAL_TY["pl"].search("%(who)s odrzuca Twoje wyzwanie")
    assert not CAPITAL_TY["pl"].search("Twoje miejsce: 3")
    assert CAPITAL_TY["cs"].search("odmítá Tvou výzvu")
