"""Polish and Czech: players see the site in their profile language, and the
catalogues in locale/ are complete and compiled.

The .po files are parsed by hand (no polib): enough of the format for what
``makemessages`` writes. The compiled .mo files are committed because a fresh
clone has no gettext, so the check that they are current goes through Django
itself: with the language active, every msgid must come back as the .po says.
"""

from __future__ import annotations

import ast
import gettext as gettext_module
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation

pytestmark = pytest.mark.django_db

LOCALE_DIR = Path(settings.BASE_DIR) / "locale"
LANGUAGES = ["pl", "cs"]
# Every catalogue: the site's and each game's (the test suite's own game included).
CATALOGUES = [Path(path) for path in settings.LOCALE_PATHS]
PLACEHOLDER = re.compile(r"%\(\w+\)[sdif]")


# -- Players see their language -----------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("pl", ["Moje partie", "Otwarte partie", "Nowa partia", "Wyloguj się"]),
        ("cs", ["Moje partie", "Otevřené partie", "Nová partie", "Odhlásit se"]),
    ],
)
def test_lobby_speaks_the_profile_language(language, expected):
    user = get_user_model().objects.create_user(
        username=f"gracz_{language}", email=f"gracz_{language}@example.com", password="x"
    )
    user.profile.language = language
    user.profile.save()
    client = Client()
    client.force_login(user)

    response = client.get("/")

    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    for text in expected:
        assert text in html
    # The English originals of the lobby strings are gone.
    assert "My matches" not in html
    assert "Open matches" not in html


def test_lobby_stays_english_by_default():
    user = get_user_model().objects.create_user(username="player_en", password="x")
    client = Client()
    client.force_login(user)

    html = client.get("/").content.decode()

    assert "My matches" in html
    assert "Moje partie" not in html


# -- The catalogues ----------------------------------------------------------------------


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)  # 0 for a singular msgstr
    flags: set[str] = field(default_factory=set)
    line: int = 0


def parse_po(path: Path) -> list[Entry]:
    """The entries of a .po file, header first; obsolete (#~) entries are skipped."""
    entries: list[Entry] = []
    entry: Entry | None = None
    target: tuple[str, int] | None = None  # which string continuation lines extend

    def start(lineno: int) -> Entry:
        new = Entry(line=lineno)
        entries.append(new)
        return new

    for lineno, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#~"):
            continue
        if line.startswith("#,"):
            # Flags come before the msgid they describe.
            entry = start(lineno)
            entry.flags = {flag.strip() for flag in line[2:].split(",")}
            target = None
            continue
        if line.startswith("#"):
            continue
        if line.startswith('"'):
            assert entry is not None and target is not None, f"{path}:{lineno}: stray string"
            value = ast.literal_eval(line)
            kind, index = target
            if kind == "msgstr":
                entry.msgstr[index] += value
            else:
                setattr(entry, kind, getattr(entry, kind) + value)
            continue
        keyword, _, rest = line.partition(" ")
        value = ast.literal_eval(rest)
        if keyword in ("msgctxt", "msgid") and (
            entry is None or (target and target[0] == "msgstr")
        ):
            # A new entry, unless a flags line or msgctxt already opened it.
            entry = start(lineno)
        if keyword in ("msgctxt", "msgid", "msgid_plural"):
            setattr(entry, keyword, value)
            target = (keyword, 0)
        elif keyword == "msgstr":
            entry.msgstr[0] = value
            target = ("msgstr", 0)
        elif match := re.fullmatch(r"msgstr\[(\d+)\]", keyword):
            index = int(match.group(1))
            entry.msgstr[index] = value
            target = ("msgstr", index)
        else:
            raise AssertionError(f"{path}:{lineno}: unexpected line {raw!r}")
    return entries


def po_path(language: str, catalogue: Path = LOCALE_DIR) -> Path:
    return catalogue / language / "LC_MESSAGES" / "django.po"


def catalogue_id(path: Path) -> str:
    return str(path.relative_to(settings.BASE_DIR))


def nplurals(header: Entry) -> int:
    match = re.search(r"nplurals=(\d+)", header.msgstr[0])
    assert match, "the header has no Plural-Forms"
    return int(match.group(1))


@pytest.mark.parametrize("catalogue", CATALOGUES, ids=catalogue_id)
@pytest.mark.parametrize("language", LANGUAGES)
def test_catalogue_is_complete(language, catalogue):
    path = po_path(language, catalogue)
    entries = parse_po(path)
    header, messages = entries[0], entries[1:]
    assert header.msgid == "", "the header comes first"
    assert "fuzzy" not in header.flags, f"{path}: the header is still marked fuzzy"
    assert f"Language: {language}\n" in header.msgstr[0]
    forms = nplurals(header)
    assert forms == 4, "Django's own pl and cs catalogues use four plural forms"
    assert len(messages) > (100 if catalogue == LOCALE_DIR else 5)

    problems = []
    for entry in messages:
        where = f"{path.name}:{entry.line} {entry.msgid!r}"
        if "fuzzy" in entry.flags:
            problems.append(f"{where}: fuzzy")
        expected = range(forms) if entry.msgid_plural is not None else range(1)
        if sorted(entry.msgstr) != list(expected):
            problems.append(f"{where}: msgstr forms {sorted(entry.msgstr)}")
        if any(not text for text in entry.msgstr.values()):
            problems.append(f"{where}: untranslated")
        wanted = set(PLACEHOLDER.findall(entry.msgid))
        for text in entry.msgstr.values():
            if set(PLACEHOLDER.findall(text)) != wanted:
                problems.append(f"{where}: placeholders differ in {text!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("catalogue", CATALOGUES, ids=catalogue_id)
@pytest.mark.parametrize("language", LANGUAGES)
def test_compiled_catalogue_matches_po(language, catalogue):
    """The committed .mo says what the .po says: compilemessages was run after the last edit."""
    mo = po_path(language, catalogue).with_suffix(".mo")
    assert mo.exists(), f"{mo} is missing: run manage.py compilemessages"
    messages = parse_po(po_path(language, catalogue))[1:]
    compiled = gettext_module.GNUTranslations(mo.open("rb"))

    stale = []
    for entry in messages:
        if entry.msgid_plural is None:
            if entry.msgctxt is None:
                got = compiled.gettext(entry.msgid)
            else:
                got = compiled.pgettext(entry.msgctxt, entry.msgid)
            if got != entry.msgstr[0]:
                stale.append(f"{entry.msgid!r}: {got!r} != {entry.msgstr[0]!r}")
            continue
        # n=1 and n=2 take forms 0 and 1 in both Polish and Czech.
        for n, index in ((1, 0), (2, 1)):
            if entry.msgctxt is None:
                got = compiled.ngettext(entry.msgid, entry.msgid_plural, n)
            else:
                got = compiled.npgettext(entry.msgctxt, entry.msgid, entry.msgid_plural, n)
            if got != entry.msgstr[index]:
                stale.append(f"{entry.msgid!r} (n={n}): {got!r} != {entry.msgstr[index]!r}")
    assert not stale, f"{mo} is out of date:\n" + "\n".join(stale)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_message_reads_the_same_in_every_catalogue(language):
    """A msgid in several catalogues must have one translation: whichever catalogue
    Django finds it in first wins, so two translations would depend on the order."""
    seen: dict[tuple, tuple[str, Path]] = {}
    clashes = []
    for catalogue in CATALOGUES:
        for entry in parse_po(po_path(language, catalogue))[1:]:
            key = (entry.msgctxt, entry.msgid)
            text = entry.msgstr.get(0, "")
            if key in seen and seen[key][0] != text:
                clashes.append(f"{entry.msgid!r}: {seen[key][1]} and {catalogue}")
            seen.setdefault(key, (text, catalogue))
    assert not clashes, "\n".join(clashes)


@pytest.mark.parametrize(
    ("language", "n", "text"),
    [
        ("pl", 1, "1 wolne miejsce"),
        ("pl", 3, "3 wolne miejsca"),
        ("pl", 5, "5 wolnych miejsc"),
        ("pl", 22, "22 wolne miejsca"),
        ("cs", 1, "1 volné místo"),
        ("cs", 4, "4 volná místa"),
        ("cs", 5, "5 volných míst"),
    ],
)
def test_plural_forms(language, n, text):
    with translation.override(language):
        got = translation.ngettext("%(n)s free seat", "%(n)s free seats", n) % {"n": n}
    assert got == text
