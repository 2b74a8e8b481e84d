"""One name per thing: every catalogue held to the glossaries (tests/catalog/glossary.py).

The site's catalogue (``locale/``) and each game's (``games/catalog/<pkg>/locale/``)
use the words of the site's glossary (``docs/translating.md``) and, for a game, of
its own (``docs/rules/<key>.md``); each glossary row cites the rulebook line that
prints its term, and that line holds it. The words a native reader found wrong are
kept as regression cases: each, put into a copy of the catalogues, is reported.
"""

from __future__ import annotations

import re
import shutil

import polib
import pytest

from tests.catalog.glossary import (
    CATALOGUES,
    GAMES,
    GLOSSARIES,
    LANGUAGES,
    NO_LINE,
    Entry,
    catalogue,
    catalogue_mismatches,
    mismatches,
    po_path,
    read_glossary,
    read_po,
    rulebook_lines,
    rulebook_names,
    rulebooks_folder,
    word_pattern,
)

__all__ = ["catalogue"]  # tests/catalog/test_wording_fixes.py reads catalogues through here


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", list(CATALOGUES))
def test_every_catalogue_uses_the_glossarys_words(key, language):
    found = catalogue_mismatches(key, language)
    assert not found, f"{key} ({language}), {len(found)} off the glossary:\n" + "\n".join(
        found[:40]
    )


@pytest.mark.parametrize("key", list(GLOSSARIES))
def test_every_glossary_row_is_complete(key):
    terms = read_glossary(key)
    assert len(terms) >= 5
    for term in terms:
        assert term.english and all(term.words.values()), term
        if key != "site":
            assert term.rulebook, term
            assert term.line == NO_LINE or re.fullmatch(r"\d{3}:\d+", term.line), term


@pytest.mark.parametrize("key", GAMES)
def test_every_cited_rulebook_line_holds_its_term(key):
    """A row's "line" is where the rulebook prints the term (in an inflected form)."""
    folder = rulebooks_folder()
    if folder is None:
        pytest.skip("the rulebooks' folder (shared/seeds) is not on this machine")
    wrong = []
    for term in read_glossary(key):
        if term.line == NO_LINE:
            continue
        number, line = term.line.split(":")
        printed = rulebook_lines(folder, number)[int(line) - 1]
        if not any(word_pattern(name).search(printed) for name in rulebook_names(term)):
            wrong.append(f"{term.line} does not print {term.rulebook!r}: {printed.strip()!r}")
    assert not wrong, "\n".join(wrong)


def test_the_site_glossary_covers_the_words_a_reader_found_doubled():
    """Leaderboard and ladder, rating, and the board each have one row."""
    english = {term.english.split(" / ")[0] for term in read_glossary("site")}
    assert {"leaderboard", "ladder", "rating", "board"} <= english


def test_each_game_names_its_pieces_places_and_options():
    """The terms a reader found without a row have one now."""
    wanted = {
        "drakon": {
            "Knight", "Warrior", "Ranger", "Sorceress", "Druid", "Thief", "Dwarf",
            "Barbarian", "Wizard", "Amazon", "hoard", "lair", "pile", "Short game",
            "Team play", "Heroes!", "Escape from Drakon's lair", "gold coin",
        },
        "nogi": {"number", "Minus", "Plus", "1+1", "return arrow", "dragon token"},
        "drako": {"mat", "deck", "draw pile", "battlefield"},
        "seven_dragons": {"action pile", "deck", "Zap a Card", "Trade Goals"},
    }  # fmt: skip
    for key, terms in wanted.items():
        english = {form for term in read_glossary(key) for form in term.english.split(" / ")}
        assert terms <= english, f"{key}: no row for {sorted(terms - english)}"


# --- the words a native reader found wrong, put back into a copy of the catalogues ----

#: (catalogue, language, the entry's English, the word the site uses, the wrong word);
#: the first eleven are the ones issue 46 lists
WRONG_WORDS = [
    ("seven_dragons", "pl", "Trade goals with %(who)s", "Zamień się celem z", "Wymień cel z"),
    ("seven_dragons", "pl", "%(who)s zapped %(card)s from %(cell)s into their hand.",
     "zabiera", "zgarnia"),
    ("drako", "pl", "The battlefield: 19 hexes; the dragon and the dwarves", "pól",
     "sześciokątów"),
    ("drako", "pl", "Wound on %(t)s", "Obrażenie", "Uraz"),
    ("drakon", "pl", "Prevent the loss (Knight)", "Rycerz", "Paladyn"),
    ("drakon", "pl", "Short game", "Krótka rozgrywka", "Szybka gra"),
    ("drakon", "pl", "Drakon is not in the lair yet.", "legowisku", "jaskini"),
    ("nogi", "pl", "Dragon tokens so far", "żetony smoka", "kafelki smoka"),
    ("seven_dragons", "cs", "Action pile", "Balíček akcí", "Hromádka akcí"),
    ("site", "cs", "Leaderboard: %(game)s", "Tabulka", "Žebříček"),
    ("drakon", "pl", "%(p)s escaped from Drakon's lair!", "legowiska", "leża"),
    # the other doubled names of the issue
    ("drakon", "pl", "Team play needs 4 or 6 players.", "Rozgrywka drużynowa", "Gra drużynowa"),
    ("drakon", "cs", "Tiles in the pile: %(n)s.", "na hromádce", "v balíčku"),
    ("site", "cs", "The board in words", "Herní plán", "Deska"),
    ("site", "pl", "Leaderboard: %(game)s", "Tabela", "Ranking"),
    ("drako", "cs", "A board of 19 hexes. The dragon starts in the centre; the dwarves start "
     "away from it, never next to it.", "Herní plán", "Deska"),
    ("drakon", "cs", "Drakon moved: %(a)s → %(b)s.", "Dračice Drakon", "Drak Drakon"),
    ("nogi", "pl", "A number: the knight of the die's colour moves that many fields forward. "
     "The die is set aside.", "Cyfra", "Liczba"),
    ("drakon", "pl", "The first edition: walk the dragon's labyrinth and be the first hero to "
     "collect 5 gold coins.", "pięć złotych monet", "monety o łącznej wartości 5"),
]  # fmt: skip


def _inject(path, english: str, right: str, wrong: str) -> None:
    """Put ``wrong`` for ``right`` into the translation lines of the entry ``english``."""
    lines = path.read_text(encoding="utf-8").split("\n")
    start = lines.index(f'msgid "{english}"') if f'msgid "{english}"' in lines else None
    if start is None:  # a long msgid is wrapped: find it by polib's line number
        item = next(item for item in polib.pofile(str(path)) if item.msgid == english)
        start = item.linenum - 1
    index = next(i for i in range(start, len(lines)) if lines[i].startswith("msgstr"))
    while right not in lines[index]:
        index += 1
        assert lines[index].startswith(("msgstr", '"')), f"{right!r} is not in {english!r}"
    lines[index] = lines[index].replace(right, wrong, 1)
    path.write_text("\n".join(lines), encoding="utf-8")


def _entry(entries: list[Entry], english: str) -> Entry:
    matching = [entry for entry in entries if entry.msgid == english]
    assert len(matching) == 1, f"no single entry {english!r}"
    return matching[0]


@pytest.mark.parametrize(("key", "language", "english", "right", "wrong"), WRONG_WORDS)
def test_a_wrong_word_put_into_a_copy_of_the_catalogues_is_reported(
    key, language, english, right, wrong, tmp_path
):
    for name in CATALOGUES:
        shutil.copytree(CATALOGUES[name], tmp_path / name)
    path = po_path(key, language, tmp_path)
    entry = _entry(read_po(path, key), english)
    assert right in entry.text, f"the catalogue no longer says {right!r}: {entry.text!r}"
    assert not catalogue_mismatches(key, language, tmp_path), "the copy is off already"
    _inject(path, english, right, wrong)

    assert wrong in _entry(read_po(path, key), english).text
    found = catalogue_mismatches(key, language, tmp_path)
    assert any(repr(english) in report or wrong in report for report in found), found


def test_two_entries_without_a_blank_line_between_them_are_read_apart(tmp_path):
    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Trade Goals"\nmsgstr "Zamień cele"\n'
        'msgid "Trade goals with %(who)s"\nmsgstr "Wymień cel z: %(who)s"\n',
        encoding="utf-8",
    )
    entries = read_po(po, "seven_dragons")
    assert [entry.msgid for entry in entries] == ["Trade Goals", "Trade goals with %(who)s"]
    found = mismatches(entries, "pl", read_glossary("seven_dragons"))
    assert any("Wymień cel z" in report for report in found), found


@pytest.mark.parametrize(
    ("english", "right", "wrong"),
    [
        ("Wounds and fury", "Obrażenia i furia", "Urazy i furia"),
        ("%(n)s of %(boxes)s wounds", "obrażenia: %(n)s z %(boxes)s", "urazy: %(n)s z %(boxes)s"),
    ],
)
def test_a_term_at_the_start_of_a_sentence_is_checked_too(english, right, wrong):
    entry = Entry(msgid=english, forms=[right], catalogue="drako")
    terms = read_glossary("drako")
    assert not mismatches([entry], "pl", terms)
    entry.forms = [wrong]
    assert mismatches([entry], "pl", terms)


def test_each_plural_form_names_the_term():
    """One right form does not cover a wrong one: "płytki" in one form, not in another."""
    entry = Entry(
        msgid="%(n)s tile",
        msgid_plural="%(n)s tiles",
        forms=["%(n)s płytka", "%(n)s płytki", "%(n)s kafelków", "%(n)s płytki"],
        catalogue="drakon",
    )
    found = mismatches([entry], "pl", read_glossary("drakon"))
    assert any("kafelków" in report for report in found), found


def test_the_term_counts_as_often_as_the_english_names_it():
    """The right word once does not cover the term named twice."""
    entry = Entry(
        msgid="Take a tile from the pile and put a tile back.",
        forms=["Weź płytkę ze stosu i odłóż kafelek."],
        catalogue="drakon",
    )
    found = mismatches([entry], "pl", read_glossary("drakon"))
    assert any("tile" in report for report in found), found


def test_a_first_edition_entry_follows_its_own_rulebook():
    """The first edition's lobby tile is only the first edition's: its coins are "pięć
    złotych monet" (004), not the later edition's "monety o łącznej wartości"."""
    entry = _entry(
        catalogue("drakon", "pl"),
        "The first edition: walk the dragon's labyrinth and be the first hero to collect "
        "5 gold coins.",
    )
    assert entry.editions() == {"drakon_classic"}
    assert "pięć złotych monet" in entry.text
