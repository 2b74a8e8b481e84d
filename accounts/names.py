"""How a name reads to a person, so no player passes for another.

``name_key`` folds what a reader cannot see: compatibility forms (NFKC, so a
full-width "ａｌｉｃｅ" is "alice"), case, spaces, accents and other
combining marks, and characters that look alike across scripts, by their
Unicode confusable skeleton (UTS #39, "Unicode Security Mechanisms": the
Cyrillic "а" and the Latin "a", the Greek "ο", the digit "0" and "O", "1"
and "l", "rn" and "m"). Two names with one key pass for each other.

The confusable pairs come from Unicode's ``confusables.txt`` as shipped by
the ``confusable-homoglyphs`` package, which lists each pair both ways;
UTS #39 maps each character to one prototype, and a prototype maps to
itself, so the pairs form stars around the prototypes (``_prototypes``).
"""

from __future__ import annotations

import functools
import unicodedata
from collections import defaultdict

_DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each character's prototype (UTS #39 skeleton mapping), or none."""
    from confusable_homoglyphs.confusables import confusables_data

    partners: dict[str, set[str]] = defaultdict(set)
    for char, entries in confusables_data.items():
        a = char.translate(_DIRECTION_MARKS)
        for entry in entries:
            b = entry["c"].translate(_DIRECTION_MARKS)
            if a and b and a != b:
                partners[a].add(b)
                partners[b].add(a)

    def rank(node: str) -> tuple:
        # The prototype of a star is its centre; in a lone pair, the longer
        # sequence (sources are single characters), then plain ASCII.
        return (len(partners[node]), len(node) > 1, node.isascii(), -ord(node[0]))

    table = {}
    for node, others in partners.items():
        if len(node) == 1 and len(others) == 1:
            (other,) = others
            if rank(other) > rank(node):
                table[node] = other
    return table


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text`` with combining marks dropped."""
    table = _prototypes()
    mapped = "".join(table.get(char, char) for char in unicodedata.normalize("NFD", text))
    return "".join(
        char for char in unicodedata.normalize("NFD", mapped) if unicodedata.category(char) != "Mn"
    )


def plain_key(name: str) -> str:
    """Compatibility forms and case folded, spaces trimmed and collapsed."""
    folded = unicodedata.normalize("NFKC", name or "").casefold()
    return " ".join(unicodedata.normalize("NFKC", folded).split())


def name_key(name: str) -> str:
    """How a name reads to a person (see the module): ``plain_key``, then the
    confusable skeleton, case folded again ("B0T" is "bot"). Case is folded
    first, so names that differ only in case always share a key (the price:
    a capital "I" is compared as "i", not as the "l" it resembles)."""
    key = plain_key(name)
    for _round in range(2):
        key = unicodedata.normalize("NFKC", skeleton(key).casefold())
    return " ".join(key.split())
