"""Every string a player can see exists in English, Polish and Czech.

For every registered game: each event type its random games emit has a log
sentence in every language; every refusal message, option label and choice,
and every click label offered is translated; the pages render in Polish and
Czech with no string missing from the catalogues; and every string marked in
the game's package (``_()`` in the pure modules, ``gettext`` in the
presenter, ``{% translate %}`` or ``_("…")`` in its templates) is in both catalogues, even
one no random game happened to show.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import trans_real

from games import i18n
from games.engine import registry
from games.engine.base import IllegalAction
from games.engine.testing import GARBAGE_ACTIONS, _mutated_variants, play_random_game
from games.lobby import services as lobby
from games.panel import presenters
from games.play import services
from tests.conformance.kit import GAME_KEYS, bot_choice, keys_for, spread
from tests.conformance.translation import missing_translations

LANGUAGES = ["en", "pl", "cs"]
SAMPLES_PER_EVENT_TYPE = 4


def _samples(key):
    """Events by type, refusals, and click labels from random games of ``key``."""
    game = registry.get(key)
    presenter = presenters.get(key)
    events: dict[str, list[dict]] = {}
    refusals: list[IllegalAction] = []
    steps: list[tuple[dict, dict]] = []
    for index, (n, options) in enumerate(spread(game, 6)):
        run = play_random_game(game, n, options, f"kit-strings-{key}-{index}", thorough=False)
        state = game.setup(n, options, run.seed)
        for event in game.opening_events(state):
            events.setdefault(event["type"], []).append(event)
        for number, (seat, action) in enumerate(run.moves):
            if number % 5 == 0:
                view = {
                    **game.view(state, seat),
                    "_names": [f"P{i}" for i in range(n)],
                    "_version": number,
                }
                for legal in game.legal_actions(state, seat)[:20]:
                    steps.append((legal, view))
                for garbage in GARBAGE_ACTIONS[:3] + _mutated_variants(action)[:4]:
                    try:
                        game.apply(state, seat, garbage)
                    except IllegalAction as error:
                        refusals.append(error)
            state, new_events = game.apply(state, seat, action)
            for event in new_events:
                bucket = events.setdefault(event["type"], [])
                if len(bucket) < SAMPLES_PER_EVENT_TYPE:
                    bucket.append(event)
    return game, presenter, events, refusals, steps


@pytest.mark.parametrize("key", keys_for("strings"))
def test_every_event_refusal_option_and_click_is_translated(key):
    game, presenter, events, refusals, steps = _samples(key)
    assert events, f"{key}: random games emitted no events"
    names = [f"P{i}" for i in range(game.max_players)]
    for language in LANGUAGES:
        with translation.override(language), missing_translations() as missing:
            for kind, samples in sorted(events.items()):
                for event in samples:
                    sentence = presenter.describe_event(event, names)
                    assert isinstance(sentence, str) and sentence.strip(), (
                        f"{key}: event {kind!r} has no sentence in {language}"
                    )
            for error in refusals:
                assert i18n.refusal_text(error).strip()
            for option in game.options:
                i18n.option_label(option)
                i18n.option_help(option)
                for value, _label in option.choices:
                    i18n.choice_label(option, value)
            for action, view in steps:
                for _key, label in presenter.action_steps(action, view):
                    assert str(label).strip()
        assert not missing, f"{key}: untranslated in {language}: {sorted(set(missing))[:20]}"


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["pl", "cs"])
@pytest.mark.parametrize("key", GAME_KEYS)
def test_match_pages_render_with_no_missing_string(key, language, make_user):
    game = registry.get(key)
    n = game.min_players
    users = [make_user(f"{key[:8]}-{language}{i}") for i in range(n)]
    for user in users:
        user.profile.language = language
        user.profile.save()
    match = lobby.create_match(user=users[0], game_key=key, n_seats=n)
    for user in users[1:]:
        lobby.join_match(user=user, match=match)
    for step in range(4):
        match.refresh_from_db()
        seat_index = game.current_seats(match.state)[0]
        action = bot_choice(key, match.state, seat_index, "random", f"p{step}")
        services.submit_action(match, match.seats.get(index=seat_index).user, action, match.version)
    match.refresh_from_db()
    client = Client()
    client.force_login(users[game.current_seats(match.state)[0]])
    with missing_translations() as missing:
        for url in [
            reverse("match_detail", args=[match.pk]),
            reverse("match_log", args=[match.pk]),
            reverse("match_create"),
            "/",
        ]:
            response = client.get(url)
            assert response.status_code == 200
            assert f'<html lang="{language}">' in response.content.decode()
    assert not missing, (
        f"{key}: untranslated on its pages in {language}: {sorted(set(missing))[:20]}"
    )


# -- Strings marked in the source, seen or not -----------------------------------------------

GETTEXT_NAMES = {"_", "gettext", "gettext_lazy", "gettext_noop", "pgettext", "ngettext"}
TEMPLATE_STRING = re.compile(
    r"""{%\s*(?:translate|trans)\s+"([^"]+)"|{%\s*(?:translate|trans)\s+'([^']+)'"""
    # Jinja2 boards (games/jinja.py) and Django alike: {{ _("…") }}
    r"""|\b_\("([^"]+)"\)|\b_\('([^']+)'\)"""
)


def marked_strings(package_dir, skip=None) -> set[str]:
    """Literal strings passed to a translation marker in the package's code
    and templates (but those under ``skip``)."""
    found: set[str] = set()
    for path in sorted(package_dir.rglob("*.py")):
        if skip is not None and path.is_relative_to(skip):
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = (
                node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            )
            first = node.args[0]
            if (
                name in GETTEXT_NAMES
                and isinstance(first, ast.Constant)
                and isinstance(first.value, str)
            ):
                found.add(first.value)
    for path in sorted([*package_dir.rglob("*.html"), *package_dir.rglob("*.jinja")]):
        if skip is not None and path.is_relative_to(skip):
            continue
        for match in TEMPLATE_STRING.finditer(path.read_text()):
            found.add(next(group for group in match.groups() if group))
    return found


@pytest.mark.parametrize("language", ["pl", "cs"])
@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_marked_string_of_the_game_is_in_the_catalogue(key, language):
    entry = registry.registration(key)
    strings = marked_strings(entry.package_dir)
    assert strings, f"{key}: no marked strings found in {entry.package_dir}"
    catalog = trans_real.translation(language)._catalog
    missing = sorted(s for s in strings if s not in catalog and (s, 0) not in catalog)
    assert not missing, f"{key}: not in the {language} catalogue: {missing[:20]}"


def site_marked_strings() -> set[str]:
    """Strings the site itself marks (outside the games' packages, whose own
    test is above), in Python and in templates."""
    root = Path(settings.BASE_DIR)
    found: set[str] = set()
    for folder in ("accounts", "config", "games", "templates"):
        found |= marked_strings(root / folder, skip=root / "games" / "catalog")
    return found


@pytest.mark.parametrize("language", ["pl", "cs"])
def test_every_string_the_site_marks_is_in_the_catalogue(language):
    """A string added to the code but not gathered by `make messages` (or
    gathered and left untranslated) shows in English to Polish and Czech
    players; tests/web/test_i18n.py checks the .po files for fuzzy and
    empty entries, this checks that nothing marked is missing from them."""
    strings = site_marked_strings()
    assert len(strings) > 100
    catalog = trans_real.translation(language)._catalog
    missing = sorted(s for s in strings if s not in catalog and (s, 0) not in catalog)
    assert not missing, f"not in the {language} catalogue: {missing[:20]}"
