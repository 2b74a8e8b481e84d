"""What changed between two positions: every game's presenter says it, its board
draws it, and it tells a viewer nothing that viewer may not see (issue 26).

For every registered game, a bot game is played from the setup; after each
step, for each seat and a spectator, the presenter's ``changed(before_view,
after_view)`` (two views of the same viewer) is checked:

- it is a set of strings, and the board drawn with it marks exactly those
  elements (``data-changed`` of the toolkit's ``changed_mark`` and
  ``changed_badge``), no more, no less: every key names something drawn;
- it is the same when ``perturb_secrets`` changes, in both positions,
  everything that viewer must not know: it depends on nothing secret;
- the board drawn with nothing changed carries no mark at all, so a board
  without highlights is drawn as before;
- each SVG mark's title says what changed ("changed: " and the element), and a
  choice holding a changed badge says "(changed)" in its name.

Across the game some step changes something for every viewer, so the checks
are not vacuous. The pages that draw it (the match page's catch-up, replay
steps) are diffed in ``test_replay_secrets.py``.
"""

from __future__ import annotations

import re
from html import unescape
from types import ModuleType, SimpleNamespace

import pytest
from django.template import engines

from games.engine import registry
from games.engine.rng import Rng
from games.panel import presenters
from games.panel.presenters import MatchUrls
from tests.conformance.kit import GAME_KEYS, bot_choice, keys_for

STEPS = 14
MARKED = re.compile(r'data-changed="([^"]*)"')


def _names(n: int) -> list[str]:
    return [f"Player{seat + 1}" for seat in range(n)]


def _view(game, state, viewer, names, step):
    return presenters.seat_view(game, state, viewer, names, step)


def _drawn_marks(presenter, view, viewer, names, changed) -> set[str]:
    """The keys the board marks when drawn with ``changed`` highlighted."""
    scene = presenter.scene(view, viewer, names, None)
    template = engines["jinja2"].env.get_template(scene.template)
    html = template.render(
        {
            "board": scene.board,
            "private": scene.private,
            "changed": changed,
            "match": SimpleNamespace(pk=1, version=1),
        }
    )
    return set(MARKED.findall(html))


def _positions(key):
    """Consecutive positions of a bot game: (state before, state after) pairs."""
    game = registry.get(key)
    n = min(max(3, game.min_players), game.max_players)
    state = game.setup(n, {}, f"changes-{key}")
    pairs = []
    for step in range(STEPS):
        seats = game.current_seats(state)
        if not seats:
            break
        action = bot_choice(key, state, seats[0], "random", f"c{step}")
        after, _events = game.apply(state, seats[0], action)
        pairs.append((state, after))
        state = after
    return game, n, pairs


def test_a_presenter_without_changed_is_refused(monkeypatch):
    """``changed`` is part of the presenter contract: ``presenters.get`` refuses a
    presenter that lacks it, as it refuses one without a board."""
    assert "changed" in presenters.REQUIRED
    real = presenters.get(GAME_KEYS[0])
    lacking = ModuleType("lacking")
    for name in presenters.REQUIRED:
        if name != "changed":
            setattr(lacking, name, getattr(real, name))
    registration = registry.registration(GAME_KEYS[0])
    monkeypatch.setattr(type(registration), "presenter_module", lambda self: lacking)
    with pytest.raises(TypeError, match="changed"):
        presenters.get(GAME_KEYS[0])


@pytest.mark.parametrize("key", keys_for("changes"))
def test_every_change_is_drawn_and_depends_on_no_secret(key):
    game, n, pairs = _positions(key)
    presenter = presenters.get(key)
    names = _names(n)
    rng = Rng.from_seed(f"kit-changes-{key}")
    seen_changes = {viewer: 0 for viewer in [None, *range(n)]}
    for step, (before, after) in enumerate(pairs, start=1):
        for viewer in seen_changes:
            where = (key, step, viewer)
            old = _view(game, before, viewer, names, step - 1)
            new = _view(game, after, viewer, names, step)
            changed = presenter.changed(old, new)
            assert isinstance(changed, set | frozenset), where
            assert all(isinstance(item, str) for item in changed), where
            seen_changes[viewer] += bool(changed)
            assert _drawn_marks(presenter, new, viewer, names, frozenset(changed)) == set(
                changed
            ), where
            assert _drawn_marks(presenter, new, viewer, names, frozenset()) == set(), where
            hidden_before = game.perturb_secrets(before, viewer, rng)
            hidden_after = game.perturb_secrets(after, viewer, rng)
            perturbed = presenter.changed(
                _view(game, hidden_before, viewer, names, step - 1),
                _view(game, hidden_after, viewer, names, step),
            )
            assert set(perturbed) == set(changed), (
                f"{key}: step {step}, what changed for "
                f"{'a spectator' if viewer is None else f'seat {viewer}'} depends on secrets"
            )
    assert all(seen_changes.values()), f"{key}: a viewer never saw anything change {seen_changes}"


MARK_TITLE = re.compile(r'<g class="changed-mark"[^>]*><title>([^<]*)</title>')
LINK = re.compile(r"<a ([^>]*)>(.*?)</a>", re.S)
LINK_NAME = re.compile(r'aria-label="([^"]*)"')


def _named_marks(key, presenter, view, viewer, names, choices, changed) -> tuple[list, list]:
    """The titles of the board's SVG marks, and the names of its links holding a
    changed badge, drawn with the viewer's choices and ``changed`` highlighted."""
    scene = presenter.scene(view, viewer, names, choices)
    template = engines["jinja2"].env.get_template(scene.template)
    html = template.render(
        {
            "board": scene.board,
            "private": scene.private,
            "choices": scene.choices,
            "changed": changed,
            "match": SimpleNamespace(pk=1, version=1),
            "urls": MatchUrls.of(1),
        }
    )
    links = [
        unescape(LINK_NAME.search(attrs).group(1))
        for attrs, inner in LINK.findall(html)
        if 'class="changed-badge"' in inner and LINK_NAME.search(attrs)
    ]
    return [unescape(title) for title in MARK_TITLE.findall(html)], links


@pytest.mark.parametrize("key", GAME_KEYS)
def test_a_changed_mark_says_what_changed(key):
    """A screen reader hears what changed: an SVG mark's title names the element
    ("changed: …", not the bare word), and a choice whose card or tile holds a
    changed badge says "changed" in its name (the link's name replaces the
    badge's hidden word)."""
    game, n, pairs = _positions(key)
    presenter = presenters.get(key)
    names = _names(n)
    titles, links = [], []
    start = {viewer: _view(game, pairs[0][0], viewer, names, 0) for viewer in [None, *range(n)]}
    for step, (before, after) in enumerate(pairs, start=1):
        for viewer in start:
            old = _view(game, before, viewer, names, step - 1)
            new = _view(game, after, viewer, names, step)
            # Since the start too: a hand the seat to move has changed since then.
            changed = frozenset(presenter.changed(old, new) | presenter.changed(start[viewer], new))
            choices = None
            if viewer in game.current_seats(after):
                choices = presenter.choice_level(game.legal_actions(after, viewer), new, [])
            drawn_titles, drawn_links = _named_marks(
                key, presenter, new, viewer, names, choices, changed
            )
            titles += drawn_titles
            links += drawn_links
    assert titles, f"{key}: no mark drawn"
    bare = [title for title in titles if not title.startswith("changed: ") or len(title) < 12]
    assert not bare, f"{key}: marks that do not say what changed: {sorted(set(bare))[:5]}"
    assert links or key in ("nogi", "hatchlings"), f"{key}: no changed choice drawn"
    unsaid = [name for name in links if "(changed)" not in name]
    assert not unsaid, f"{key}: changed choices whose name hides it: {unsaid[:5]}"
