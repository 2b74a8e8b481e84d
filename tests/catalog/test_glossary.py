"""Each game's printed words, as its glossary in ``docs/rules/<key>.md`` fixes them.

The glossary is the table under "## Glossary": the rulebook's term and its line
in the rulebook, then the English, Polish and Czech words the site uses for
it, and the words the site must not use for it any more. For every game
catalogue (the board, the buttons, the log and the How to play page all
translate through it):

- an entry whose English names the term (the English word, case-sensitive)
  must use the glossary's Polish and Czech word for it, in any inflected form
  (each word is matched by its stem: all but its last two letters, at least
  four; a four-letter word all but its last; shorter words whole);
- no entry may use one of the avoided words (exact, case-insensitive).

Drakon's glossary covers both editions: its "edition" column scopes a row to
the entries of that edition (``drakon`` or ``drakon_classic``); an entry
belongs to the first edition when it carries the "drakon first edition"
context or is only used by the first edition's How to play page (an entry
without the context whose msgid also has it is the later edition's).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: glossary (docs/rules/<key>.md) -> the package whose catalogue it governs
GAMES = {
    "drakon": "drakon",
    "drako": "drako",
    "nogi": "nogi",
    "seven_dragons": "seven_dragons",
}
LANGUAGES = ("pl", "cs")
CLASSIC_CONTEXT = "drakon first edition"


@dataclass
class Entry:
    msgid: str = ""
    msgstr: list[str] = field(default_factory=list)
    context: str | None = None
    references: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return " ".join(self.msgstr)

    def editions(self) -> set[str]:
        if self.context == CLASSIC_CONTEXT:
            return {"drakon_classic"}
        files = {ref.rsplit(":", 1)[0] for ref in self.references}
        if files and all("/drakon_classic/" in name for name in files):
            return {"drakon_classic"}
        if files and all("/games/drakon/" in name for name in files):
            return {"drakon"}
        return {"drakon", "drakon_classic"}


def read_po(path: Path) -> list[Entry]:
    """The translated entries of a catalogue (a minimal reader: the header skipped)."""
    entries: list[Entry] = []
    entry = Entry()
    last = None
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if not line.strip():
            if entry.msgid:
                entries.append(entry)
            entry, last = Entry(), None
        elif line.startswith("#:"):
            entry.references += line[2:].split()
        elif line.startswith("#"):
            continue
        elif line.startswith("msgctxt "):
            entry.context, last = ast.literal_eval(line[8:]), "context"
        elif line.startswith("msgid_plural "):
            entry.msgid += " " + ast.literal_eval(line[13:])
            last = "msgid"
        elif line.startswith("msgid "):
            entry.msgid, last = ast.literal_eval(line[6:]), "msgid"
        elif line.startswith("msgstr"):
            entry.msgstr.append(ast.literal_eval(line.split(" ", 1)[1]))
            last = "msgstr"
        elif line.startswith('"'):
            piece = ast.literal_eval(line)
            if last == "msgid":
                entry.msgid += piece
            elif last == "msgstr":
                entry.msgstr[-1] += piece
            elif last == "context":
                entry.context += piece
    return entries


@dataclass
class Term:
    rulebook: str
    line: str
    english: str
    words: dict[str, str]
    avoid: dict[str, list[str]]
    edition: str | None


def read_glossary(key: str) -> list[Term]:
    """The rows of the glossary table in docs/rules/<key>.md."""
    text = (ROOT / "docs" / "rules" / f"{key}.md").read_text(encoding="utf-8")
    section = text.split("\n## Glossary", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    header = [cell.strip().lower() for cell in rows[0].strip("|").split("|")]
    terms = []
    for row in rows[2:]:
        cells = dict(zip(header, (cell.strip() for cell in row.strip("|").split("|")), strict=True))
        avoid = {language: [] for language in LANGUAGES}
        for part in filter(None, (p.strip() for p in cells.get("avoid", "").split(";"))):
            language, _, words = part.partition(":")
            avoid[language.strip()] += [w.strip() for w in words.split(",") if w.strip()]
        terms.append(
            Term(
                rulebook=cells["rulebook term"],
                line=cells["line"],
                english=cells["english"].strip("`"),
                words={"pl": cells["polish"], "cs": cells["czech"]},
                avoid=avoid,
                edition=cells.get("edition") or None,
            )
        )
    return terms


def stem(word: str) -> str:
    """Enough of a word to recognise its inflected forms ("komnata": "komnacie")."""
    if len(word) <= 3:
        return word
    return word[:3] if len(word) == 4 else word[: max(4, len(word) - 2)]


def word_pattern(words: str) -> re.Pattern:
    """Any inflected form of ``words``: each word by its stem, in order. Forms whose stem
    differs are listed apart: "pole / pól"."""
    forms = []
    for form in words.split(" / "):
        stems = [re.escape(stem(word)) + r"\w*" for word in form.split()]
        forms.append(r"\W+".join(stems))
    return re.compile(r"(?<!\w)(?:" + "|".join(forms) + ")", re.I)


def english_pattern(english: str) -> re.Pattern:
    """The English term, case-sensitive; a word "N" stands for a number ("N gold": "7 gold")."""
    words = [r"(?:\d+|%\(\w+\)s)" if word == "N" else re.escape(word) for word in english.split()]
    return re.compile(r"(?<![\w(-])" + r"\s+".join(words) + r"(?!\w)")


def catalogue(key: str, language: str) -> list[Entry]:
    path = ROOT / "games" / "catalog" / GAMES[key] / "locale" / language / "LC_MESSAGES"
    return read_po(path / "django.po")


def mismatches(key: str, language: str) -> list[str]:
    found = []
    entries = catalogue(key, language)
    # A name the first edition words its own way has a "drakon first edition" twin.
    twinned = {entry.msgid for entry in entries if entry.context == CLASSIC_CONTEXT}
    for term in read_glossary(key):
        wanted = word_pattern(term.words[language])
        named = english_pattern(term.english)
        for entry in entries:
            if term.edition and term.edition not in entry.editions():
                continue
            classic_only = term.edition == "drakon_classic" and entry.context is None
            if classic_only and entry.msgid in twinned:
                continue
            if entry.context not in (None, CLASSIC_CONTEXT):
                continue
            if named.search(entry.msgid) and not wanted.search(entry.text):
                found.append(
                    f"{term.english!r} should be {term.words[language]!r}: "
                    f"{entry.msgid!r} -> {entry.text!r}"
                )
            for avoided in term.avoid[language]:
                if re.search(r"(?<!\w)" + re.escape(avoided) + r"(?!\w)", entry.text, re.I):
                    found.append(
                        f"{avoided!r} is not the site's word for {term.english!r} "
                        f"({term.words[language]!r}): {entry.text!r}"
                    )
    return found


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", list(GAMES))
def test_every_catalogue_uses_the_glossarys_words(key, language):
    found = mismatches(key, language)
    assert not found, f"{key} ({language}), {len(found)} off the glossary:\n" + "\n".join(
        found[:40]
    )


@pytest.mark.parametrize("key", list(GAMES))
def test_every_glossary_row_is_complete_and_points_at_the_rulebook(key):
    terms = read_glossary(key)
    assert len(terms) >= 5
    for term in terms:
        assert term.rulebook and term.english and all(term.words.values()), term
        assert re.fullmatch(r"\d{3}:\d+", term.line), term
