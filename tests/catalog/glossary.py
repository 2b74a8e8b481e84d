"""The glossaries and the catalogues they govern, read for tests/catalog/test_glossary.py.

A glossary is the table under "## Glossary" in ``docs/rules/<key>.md`` (a game's
printed words) or in ``docs/translating.md`` (the site's own words). Each row names
one thing: its English word or words, and the one Polish and one Czech word the site
uses for it, with the words it must not use. ``docs/translating.md`` describes the
format; in short:

- "English", "Polish" and "Czech" list forms separated by " / ". An English form
  matches case-sensitively, each word also with an ending -s, -es, -d or -ed; a form
  that starts in lower case also matches with a capital first letter (the start of a
  sentence). "N" stands for a number or a placeholder ("N gold": "7 gold").
- A Polish or Czech form matches any inflection of its words: each word by its stem
  (a word of up to three letters whole; of four letters its first three and at most
  three more; of five its first four and at most four more; longer ones all but their
  last two and at most five more), the words in order with at most one other word
  between them, case-insensitively. Forms whose stem differs are listed apart
  ("pole / pola / pól").
- "avoid" lists words that no entry may use ("pl: leże, leżu; cs: …"), matched whole
  and case-insensitively.
- "line" cites the rulebook line that prints the term ("002:155": file 002 of the
  rulebooks' folder, line 155), or "—" for a word the rulebook does not print.
- Drakon's "edition" column scopes a row to one edition's entries.

Every translation form of an entry is checked on its own (the singular against the
English singular, the others against the plural): for each time the English names a
term, the translation must name it once, in the glossary's words. Longer terms are
matched first and claim their words on both sides, so "board game" is not also
counted as "board", and "Pole bitwy" (the battlefield) does not count as a Drako hex.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("pl", "cs")
#: catalogue key -> the folder holding its locale/<language>/LC_MESSAGES/django.po
CATALOGUES = {
    "site": ROOT / "locale",
    "drakon": ROOT / "games" / "catalog" / "drakon" / "locale",
    "drako": ROOT / "games" / "catalog" / "drako" / "locale",
    "nogi": ROOT / "games" / "catalog" / "nogi" / "locale",
    "seven_dragons": ROOT / "games" / "catalog" / "seven_dragons" / "locale",
}
#: glossary key -> its document
GLOSSARIES = {
    "site": ROOT / "docs" / "translating.md",
    "drakon": ROOT / "docs" / "rules" / "drakon.md",
    "drako": ROOT / "docs" / "rules" / "drako.md",
    "nogi": ROOT / "docs" / "rules" / "nogi.md",
    "seven_dragons": ROOT / "docs" / "rules" / "seven_dragons.md",
}
GAMES = [key for key in CATALOGUES if key != "site"]
CLASSIC_CONTEXT = "drakon first edition"
#: contexts whose entries are not words (Seven Dragons' one-letter colour marks)
SKIPPED_CONTEXTS = {"colour letter"}
NO_LINE = "—"
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]")


# --- catalogues -------------------------------------------------------------------


@dataclass
class Entry:
    """One message of a catalogue: its English (singular and plural) and translations."""

    msgid: str
    msgid_plural: str = ""
    context: str | None = None
    references: list[str] = field(default_factory=list)
    forms: list[str] = field(default_factory=list)
    catalogue: str = ""

    @property
    def text(self) -> str:
        return " ".join(self.forms)

    def english(self, form: int) -> str:
        return self.msgid_plural if form and self.msgid_plural else self.msgid

    def editions(self) -> set[str]:
        """The Drakon editions whose pages show this entry (both for the other catalogues)."""
        if self.context == CLASSIC_CONTEXT:
            return {"drakon_classic"}
        files = drakon_sources().get(self.msgid) or {
            ref.rsplit(":", 1)[0] for ref in self.references
        }
        editions = {edition_of(name) for name in files}
        if editions and None not in editions and len(editions) == 1:
            return set(editions)
        return {"drakon", "drakon_classic"}


def read_po(path: Path, key: str = "") -> list[Entry]:
    """The translated entries of a catalogue (polib reads it; the header is left out)."""
    entries = []
    for item in polib.pofile(str(path)):
        if item.obsolete or not item.msgid:
            continue
        if item.msgid_plural:
            forms = [item.msgstr_plural[index] for index in sorted(item.msgstr_plural)]
        else:
            forms = [item.msgstr]
        entries.append(
            Entry(
                msgid=item.msgid,
                msgid_plural=item.msgid_plural,
                context=item.msgctxt,
                references=[f"{name}:{line}" for name, line in item.occurrences],
                forms=forms,
                catalogue=key,
            )
        )
    return entries


def po_path(key: str, language: str, base: Path | None = None) -> Path:
    folder = CATALOGUES[key] if base is None else base / key
    return folder / language / "LC_MESSAGES" / "django.po"


def catalogue(key: str, language: str, base: Path | None = None) -> list[Entry]:
    return read_po(po_path(key, language, base), key)


# --- where Drakon's messages are used ---------------------------------------------------

DRAKON = ROOT / "games" / "catalog" / "drakon"
#: files (relative to the drakon package) that only one edition uses; every other file
#: of the package serves both
EDITION_FILES = {
    "presenter/classic.py": "drakon_classic",
    "templates/games/drakon_classic/": "drakon_classic",
    "templates/games/drakon/how_to_play.html": "drakon",
}
#: the later edition's own tables in a module both editions share: a module-level name
#: starting "classic" (any case) or ending "_1E" is the first edition's, one starting
#: "later" or ending "_4E" the later edition's, and so are these
LATER_EDITION_TABLES = {"ROOM_TEXTS", "HERO_TEXTS"}
TEMPLATE_LITERAL = re.compile(r"""\bu?'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)\"""")


def edition_of(name: str) -> str | None:
    """The edition that alone uses ``name``: a file, a file's table ("presenter/texts.py
    #CLASSIC_ROOM_TEXTS") or a #: reference; None for one both editions use."""
    name, _, table = name.replace("\\", "/").partition("#")
    if table.lower().startswith("classic") or table.endswith("_1E"):
        return "drakon_classic"
    if table in LATER_EDITION_TABLES or table.startswith("later") or table.endswith("_4E"):
        return "drakon"
    for suffix, edition in EDITION_FILES.items():
        if f"drakon/{suffix}" in name or name.startswith(suffix):
            return edition
    return None


def _python_strings(source: str) -> list[tuple[str, str]]:
    """(string, table) for each string of a module: the table is the name of the
    module-level assignment or function holding it, or ""."""
    found = []
    for statement in ast.parse(source).body:
        targets = getattr(statement, "targets", None) or [getattr(statement, "target", None)]
        table = getattr(statement, "name", None) or next(
            (t.id for t in targets if isinstance(t, ast.Name)), ""
        )
        found += [
            (node.value, table)
            for node in ast.walk(statement)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
        ]
    return found


@cache
def drakon_sources() -> dict[str, set[str]]:
    """Each string of the Drakon package's code and templates -> where it is."""
    from django.utils.translation.template import templatize

    found: dict[str, set[str]] = {}
    for path in sorted(DRAKON.rglob("*")):
        relative = path.relative_to(DRAKON).as_posix()
        if path.suffix == ".py":
            strings = _python_strings(path.read_text(encoding="utf-8"))
        elif path.suffix in (".html", ".jinja"):
            source = path.read_text(encoding="utf-8")
            if path.suffix == ".html":
                source = templatize(source)
            strings = [
                (ast.literal_eval(match.group(0).removeprefix("u")), "")
                for match in TEMPLATE_LITERAL.finditer(source)
            ]
        else:
            continue
        for string, table in strings:
            found.setdefault(string, set()).add(f"{relative}#{table}" if table else relative)
    return found


# --- glossaries --------------------------------------------------------------------


@dataclass
class Term:
    glossary: str
    rulebook: str
    line: str
    english: str
    words: dict[str, str]
    avoid: dict[str, list[str]]
    edition: str | None

    def applies_to(self, entry: Entry) -> bool:
        if entry.context in SKIPPED_CONTEXTS:
            return False
        if self.glossary != "site" and self.glossary != entry.catalogue:
            return False
        return not self.edition or self.edition in entry.editions()

    @property
    def length(self) -> int:
        return max(len(form) for form in self.english.split(" / "))


def glossary_table(text: str) -> list[dict[str, str]]:
    section = text.split("\n## Glossary", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    header = [cell.strip().lower() for cell in rows[0].strip("|").split("|")]
    return [
        dict(zip(header, (cell.strip() for cell in row.strip("|").split("|")), strict=True))
        for row in rows[2:]
    ]


def read_glossary(key: str) -> list[Term]:
    """The rows of the glossary table in ``GLOSSARIES[key]``."""
    terms = []
    for cells in glossary_table(GLOSSARIES[key].read_text(encoding="utf-8")):
        avoid: dict[str, list[str]] = {language: [] for language in LANGUAGES}
        for part in filter(None, (p.strip() for p in cells.get("avoid", "").split(";"))):
            language, _, words = part.partition(":")
            avoid[language.strip()] += [w.strip() for w in words.split(",") if w.strip()]
        terms.append(
            Term(
                glossary=key,
                rulebook=cells.get("rulebook term", NO_LINE),
                line=cells.get("line", NO_LINE),
                english=cells["english"].strip("`"),
                words={"pl": cells["polish"], "cs": cells["czech"]},
                avoid=avoid,
                edition=cells.get("edition") or None,
            )
        )
    return terms


def all_terms() -> list[Term]:
    return [term for key in GLOSSARIES for term in read_glossary(key)]


# --- matching ----------------------------------------------------------------------


def stem(word: str) -> str:
    """Enough of a word to recognise its inflected forms ("komnata": "komnacie")."""
    if len(word) <= 3:
        return word
    if len(word) <= 5:
        return word[:-1]
    return word[:-2]


def word_pattern(words: str) -> re.Pattern:
    """Any inflected form of ``words`` (forms listed apart by " / ")."""
    forms = []
    for form in words.split(" / "):
        stems = []
        for word in form.split():
            if len(word) <= 3:
                stems.append(re.escape(word))
            else:
                longest = {4: 3, 5: 4}.get(len(word), 5)
                stems.append(re.escape(stem(word)) + rf"\w{{0,{longest}}}")
        forms.append(r"(?:\W+\w+)?\W+".join(stems))
    return re.compile(r"(?<!\w)(?:" + "|".join(forms) + r")(?!\w)", re.I)


def english_pattern(english: str) -> re.Pattern:
    """The English term's forms; "N" stands for a number (placeholders read as 0)."""
    forms = []
    for form in english.split(" / "):
        words = []
        for index, word in enumerate(form.split()):
            if word == "N":
                words.append(r"\d+")
                continue
            first = re.escape(word[0])
            if index == 0 and word[0].islower():
                first = f"[{word[0]}{word[0].upper()}]"
            words.append(first + re.escape(word[1:]) + r"(?:s|es|d|ed)?")
        forms.append(r"\s+".join(words))
    return re.compile(r"(?<![\w-])(?:" + "|".join(forms) + r")(?![\w-])")


def plain(text: str) -> str:
    """Placeholders read as the number 0 (their names are not words of the message)."""
    return PLACEHOLDER.sub("0", text)


def _unclaimed(pattern: re.Pattern, text: str, claimed: list[tuple[int, int]]):
    return [
        match
        for match in pattern.finditer(text)
        if not any(match.start() < end and start < match.end() for start, end in claimed)
    ]


def mismatches(entries: list[Entry], language: str, terms: list[Term]) -> list[str]:
    """What in ``entries`` is off the glossary ``terms`` for ``language``."""
    found = []
    ordered = sorted(terms, key=lambda term: -term.length)
    compiled = [
        (term, english_pattern(term.english), word_pattern(term.words[language]))
        for term in ordered
    ]
    for entry in entries:
        applicable = [item for item in compiled if item[0].applies_to(entry)]
        for index, translation in enumerate(entry.forms):
            english, text = plain(entry.english(index)), plain(translation)
            claimed_en: list[tuple[int, int]] = []
            claimed_text: list[tuple[int, int]] = []
            for term, named, wanted in applicable:
                named_here = _unclaimed(named, english, claimed_en)
                if not named_here:
                    continue
                claimed_en += [match.span() for match in named_here]
                said = _unclaimed(wanted, text, claimed_text)[: len(named_here)]
                claimed_text += [match.span() for match in said]
                if len(said) < len(named_here):
                    found.append(
                        f"{entry.catalogue}: {term.english!r} should be "
                        f"{term.words[language]!r} ({len(named_here)} in the English, "
                        f"{len(said)} in the translation): {entry.english(index)!r} -> "
                        f"{translation!r}"
                    )
        for term, _named, _wanted in applicable:
            for avoided in term.avoid[language]:
                pattern = r"(?<!\w)" + re.escape(avoided) + r"(?!\w)"
                if re.search(pattern, entry.text, re.I):
                    found.append(
                        f"{entry.catalogue}: {avoided!r} is not the site's word for "
                        f"{term.english!r} ({term.words[language]!r}): {entry.text!r}"
                    )
    return found


def catalogue_mismatches(key: str, language: str, base: Path | None = None) -> list[str]:
    """The catalogue ``key`` against the site's glossary and (for a game) its own."""
    terms = read_glossary("site") + (read_glossary(key) if key != "site" else [])
    return mismatches(catalogue(key, language, base), language, terms)


# --- the rulebooks -----------------------------------------------------------------


def rulebooks_folder() -> Path | None:
    """The rulebooks' folder (``shared/seeds`` beside or above the repository)."""
    for folder in [ROOT, *ROOT.parents]:
        candidate = folder / "shared" / "seeds"
        if candidate.is_dir():
            return candidate
    return None


def rulebook_lines(folder: Path, number: str) -> list[str]:
    """The lines of rulebook ``number`` ("004"), in its fixed encoding when there is one."""
    files = sorted(folder.glob(f"{number}_*.txt"), key=lambda p: "fixed-encoding" not in p.name)
    assert files, f"no rulebook {number} in {folder}"
    return files[0].read_text(encoding="utf-8").splitlines()


def rulebook_names(term: Term) -> list[str]:
    """The rulebook term's names ("komnata startowa, Start"), notes in brackets left out."""
    names = (re.sub(r"\(.*?\)", "", name).strip() for name in term.rulebook.split(","))
    return [name for name in names if name]
