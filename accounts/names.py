"""How a name reads to a person, so no player passes for another.

A name's *readings* (``name_keys``) fold what a reader cannot see:

- characters that look alike, by their Unicode confusable skeleton (UTS #39,
  "Unicode Security Mechanisms"): every character of Unicode's
  ``confusables.txt`` is replaced by its prototype (the Greek "Β" and the
  Cyrillic "В" by the Latin "B", the Cyrillic palochka "Ӏ" and the capital
  "I" by "l", the digit "0" by "O", "m" by "rn"), on the name as written,
  so a capital reads as what it looks like before case is folded;
- case, then the skeleton again (a lower-case look-alike of a lower-case
  letter), and compatibility forms (NFKC: a full-width "ａｌｉｃｅ" is
  "alice"), until nothing changes;
- Cyrillic small letters, which are drawn as small capitals: one whose
  capital reads as a Latin letter reads as that letter (the "к" of
  "Franк" as the "K" of "FRANK"); UTS #39 keeps them apart ("к" is the
  Latin "ĸ" there), a reader does not;
- accents and other combining marks, spaces (trimmed and collapsed), and
  invisible characters (Unicode's default-ignorable code points and the
  blank fillers, ``INVISIBLE``), which a name may not hold at all
  (``accounts.forms.name_refusal``) but older names might.

A name has two readings: as written (``name_key``), and written in small
letters (the key of its case-folded form). Case folded after the skeleton,
a capital "I" reads as the "l" it resembles ("AIice" is "Alice"); folded
first, "Ivan" and "ivan" read alike. Two names pass for each other when a
reading of one is a reading of the other.

The confusable pairs come from ``confusables.txt`` as the
``confusable-homoglyphs`` package ships it: every pair of the table, listed
both ways. UTS #39 maps each character to one prototype and a prototype to
itself, so the pairs form stars around the prototypes (``prototypes``): a
character with more than one partner is a prototype, and so is a sequence
of several characters ("rn"); in a pair alone, either may stand for both.
"""

from __future__ import annotations

import functools
import unicodedata
from collections import defaultdict

_DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")

#: Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt), which
#: draws nothing, and the fillers and blanks that draw an empty space where a
#: letter would be (Hangul fillers, the blank Braille pattern).
_INVISIBLE_RANGES = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x2800, 0x2800),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def is_invisible(char: str) -> bool:
    """Whether ``char`` draws nothing a reader could tell from nothing."""
    code = ord(char)
    return any(low <= code <= high for low, high in _INVISIBLE_RANGES)


def has_invisible(text: str) -> bool:
    return any(is_invisible(char) for char in text)


@functools.cache
def _partners() -> dict[str, frozenset[str]]:
    from confusable_homoglyphs.confusables import confusables_data

    partners: dict[str, set[str]] = defaultdict(set)
    for char, entries in confusables_data.items():
        a = char.translate(_DIRECTION_MARKS)
        for entry in entries:
            b = entry["c"].translate(_DIRECTION_MARKS)
            if a and b and a != b:
                partners[a].add(b)
                partners[b].add(a)
    return {node: frozenset(others) for node, others in partners.items()}


@functools.cache
def prototypes() -> dict[str, str]:
    """Each character of confusables.txt that is not a prototype, mapped to
    its prototype (the UTS #39 skeleton's mapping)."""
    partners = _partners()

    def rank(node: str) -> tuple:
        # In a pair alone: the longer sequence (sources are single
        # characters), then plain ASCII, then the lower code point.
        return (len(node) > 1, node.isascii(), -ord(node[0]))

    table = {}
    for node, others in partners.items():
        if len(node) > 1 or len(others) > 1:
            continue  # a prototype: a sequence, or the centre of a star
        (other,) = others
        if len(partners[other]) > 1 or rank(other) > rank(node):
            table[node] = other
    return table


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text``: NFD, every character mapped to its
    prototype, NFD again (repeated until stable, which a prototype of several
    characters may need)."""
    table = prototypes()
    for _round in range(4):
        mapped = unicodedata.normalize(
            "NFD", "".join(table.get(char, char) for char in unicodedata.normalize("NFD", text))
        )
        if mapped == text:
            break
        text = mapped
    return text


#: The blocks of Cyrillic letters.
_CYRILLIC = ((0x0400, 0x052F), (0x1C80, 0x1C8F), (0x2DE0, 0x2DFF), (0xA640, 0xA69F))


@functools.cache
def _small_capitals() -> dict[int, str]:
    """Cyrillic small letters are drawn as small capitals: where a letter's
    capital reads as a Latin letter or digit and the small letter reads as
    none, what the small letter reads as (its prototype, shared with the
    small capitals that look like it: "к", "ᴋ" and "ĸ" are all "ĸ") reads as
    that Latin letter ("k")."""
    table: dict[int, str] = {}
    for low, high in _CYRILLIC:
        for code in range(low, high + 1):
            small = chr(code)
            if not unicodedata.name(small, "").startswith("CYRILLIC SMALL LETTER"):
                continue
            capital = small.upper()
            if capital == small or len(capital) != 1:
                continue
            latin, reading = _fold(capital), _fold(small)
            if (
                len(latin) == 1
                and latin.isascii()
                and latin.isalnum()
                and len(reading) == 1
                and not reading.isascii()
            ):
                table.setdefault(ord(reading), latin)
    return table


def _fold(text: str, small_capitals: dict[int, str] | None = None) -> str:
    """The skeleton before and after case folding, in compatibility forms,
    without marks or invisible characters, until nothing changes; with
    ``small_capitals``, the small capitals read as Latin letters."""
    for _round in range(4):
        folded = unicodedata.normalize("NFKC", skeleton(text).casefold())
        folded = skeleton(folded)
        folded = "".join(
            char
            for char in unicodedata.normalize("NFD", folded)
            if unicodedata.category(char) not in ("Mn", "Me") and not is_invisible(char)
        )
        if small_capitals:
            folded = folded.translate(small_capitals)
        if folded == text:
            break
        text = folded
    return text


def plain_key(name: str) -> str:
    """Compatibility forms and case folded, spaces trimmed and collapsed."""
    folded = unicodedata.normalize("NFKC", name or "").casefold()
    return " ".join(unicodedata.normalize("NFKC", folded).split())


#: The length of a stored reading (accounts.models.Profile's key columns). A
#: compatibility form can be long (NFKC makes 18 letters of U+FDFA), so a
#: reading is cut there: PostgreSQL refuses a longer value.
KEY_LENGTH = 160


def name_key(name: str) -> str:
    """How ``name`` reads as written (see the module)."""
    return " ".join(_fold(name or "", _small_capitals()).split())[:KEY_LENGTH]


def name_keys(name: str) -> tuple[str, str]:
    """The two readings of ``name``: as written, and in small letters."""
    return name_key(name), name_key((name or "").casefold())
