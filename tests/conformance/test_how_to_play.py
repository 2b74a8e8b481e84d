"""Every registered game explains itself: a "How to play" page in three languages.

The page is the game's own template, ``<package>/templates/games/<key>/how_to_play.html``,
extending the site's frame (``templates/games/how_to_play.html``) and filling
its sections: the goal, the components, a turn, the symbols and places, and
the end. It must render in English, Polish and Czech with nothing missing
from the catalogues, every section written, and each translation really
different from the English text.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import registry
from tests.conformance.kit import keys_for
from tests.conformance.translation import missing_translations

SECTIONS = ["goal", "components", "turn", "symbols", "end"]
MIN_SECTION_CHARS = 40


def _section_texts(html: str) -> dict[str, str]:
    """The visible text of each required section, by its id."""
    texts = {}
    for section in SECTIONS:
        found = re.search(rf'<section id="{section}">(.*?)</section>', html, re.S)
        body = found.group(1) if found else ""
        body = re.sub(r"<h2>.*?</h2>", "", body, flags=re.S)
        body = re.sub(r"<svg.*?</svg>", "", body, flags=re.S)
        texts[section] = " ".join(re.sub(r"<[^>]+>", " ", body).split())
    return texts


@pytest.mark.django_db
@pytest.mark.parametrize("key", keys_for("how_to_play"))
def test_every_game_has_a_translated_how_to_play_page(key):
    entry = registry.registration(key)
    assert entry.has_how_to_play, (
        f"{key}: no {entry.how_to_play_template} under {entry.templates_dir}"
    )
    url = reverse("how_to_play", args=[key])
    english = None
    for language in ["en", "pl", "cs"]:
        with missing_translations() as missing:
            response = Client(headers={"accept-language": language}).get(url)
        assert response.status_code == 200
        html = response.content.decode()
        assert f'<html lang="{language}">' in html
        assert not missing, f"{key}: untranslated in {language}: {sorted(set(missing))[:10]}"
        texts = _section_texts(html)
        for section, text in texts.items():
            assert len(text) >= MIN_SECTION_CHARS, f"{key}: section {section!r} is empty"
        if english is None:
            english = texts
        else:
            same = [s for s in SECTIONS if texts[s] == english[s]]
            assert not same, f"{key}: {language} sections read as in English: {same}"
