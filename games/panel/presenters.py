"""Each game's presenter (named by the game's registration), as the site uses it.

A presenter turns a game's ``view`` into template context and never sees the
raw state. ``seat_view`` adds two keys to the view for it: ``_names`` (seat
names) and ``_version`` (the match version, for moves posted from the board).

The site asks a game's ``Presenter`` (``get``, one per game and process) one
question per drawing: ``scene(view, viewer, names, choices)``, everything the
viewer sees of the position (the board, its words, the choices, the private
part). The object finds the presenter module's hooks once, each the module's
own or the site's default, so no caller looks a hook up.

A presenter module must define all of:

- ``BOARD_TEMPLATE``: the Jinja2 template (``games/<key>/board.jinja``, games/jinja.py)
  drawing the board, and placing the viewer's private part (``private_part()``);
- ``SENTENCES_NAME_THE_ACTOR``: True when its log sentences start with the
  acting player's name (the log then does not repeat it);
- ``board_context(view, viewer, names, choices) -> dict``, where ``choices``
  is the viewer's current ``ChoiceLevel`` (or None), so the board can offer
  the next clicks where they happen;
- ``describe_event(event, names) -> str``: one translated log sentence;
- ``action_steps(action, view) -> list[(key, label)]``: the clicks that build
  an action (pick a die, then a knight...). The web layer turns the legal
  actions into a tree of such choices, so no game needs its own forms.
- ``changed(before_view, after_view) -> set[str]``: what changed between two
  positions, as the stable keys of the board's elements (``knight:blue``,
  ``room:0,-1``, ``hand:12``) that its template marks with the toolkit's
  ``changed_mark``/``changed_badge`` (games/jinja.py). Both views are the SAME
  viewer's (``view(state, seat)`` before and after), so the answer can never
  hold more than that viewer could see; an element no longer drawn is not
  named. The match page highlights what changed since the player's last look,
  a replay step what changed from the step before (games/replay.py); the
  conformance kit checks every key is drawn and none depends on a secret
  (tests/conformance/test_changes.py).
- ``ICON``: the game-icons name (games/icons.py) of the picture on the game's
  lobby tile;
- ``SUMMARY``: one sentence (``gettext_lazy``, in the game's catalogue) of what
  the game is about, under its name on the lobby tile.

Optional, with a default here (``Presenter`` finds either):

- ``final_summary(result, names) -> dict`` (reason, columns, cells): why the match ended and
  the score broken down by the game's scoring, for the end-of-match banner;
  ``result`` is the stored ``Result.to_json()`` (ranks, scores, details), so
  it sees everything, which is public once the match is over. The default
  shows the plain score when the game keeps one.
- ``describe_board(view, names) -> list[str]``: the position in words (every
  piece, place, die and score), shown under the board for screen readers
  and anyone who prefers text; it sees only the viewer's ``view``. The
  conformance kit (``tests/conformance/test_board_words.py``) requires a
  non-empty one of every game, free of other seats' secrets.
- ``private_context(view, viewer, names, choices) -> dict | None`` with
  ``PRIVATE_TEMPLATE`` (``games/<key>/private.jinja``): what only the viewer
  may see (their hand, coins, goal, shield, and the clicks on them), drawn
  apart from the board, where the board's template puts ``{{ private_part() }}``;
  None for a spectator (the default: a game without secrets). The board's own
  context then holds nothing a seat alone may see: a board drawn without
  choices is the same for every seat and a spectator, which the conformance
  kit checks (tests/conformance/test_public_board.py) and the board cache
  relies on.
- ``board_viewpoint(viewer) -> str``: for a board that words its public
  parts for the seat it is seen from ("you are attacked"), what the board
  cache key names of the viewer (``viewer`` is a seat or None); by default
  "", every viewer alike.
- ``PIECE_SELECTOR``: the CSS selector of a piece on the board (a knight, a
  hero, a card). The phone test (tests/e2e/test_e2e_phone.py) measures every
  piece it finds at 390 px and at a desktop's width: each must be at least
  24 px both ways, to be read and tapped. A game without one fails that test.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext as _

from games.engine import registry

REQUIRED = (
    "BOARD_TEMPLATE",
    "SENTENCES_NAME_THE_ACTOR",
    "board_context",
    "describe_event",
    "action_steps",
    "changed",
    "ICON",
    "SUMMARY",
)


def default_final_summary(result: dict, names: list[str]) -> dict:
    """The score alone, when the game keeps one; nothing to break down otherwise.

    A summary is a dict: ``reason`` (one sentence: why the game ended, or ""),
    ``columns`` (headings of the score breakdown, the total last) and
    ``cells`` (per seat, one string per column).
    """
    scores = result.get("scores") or []
    if not any(score is not None for score in scores):
        return {"reason": "", "columns": [], "cells": [[] for _name in names]}
    return {
        "reason": "",
        "columns": [str(_("Score"))],
        "cells": [["" if score is None else str(score)] for score in scores],
    }


def default_describe_board(view: dict, names: list[str]) -> list[str]:
    """Nothing beyond the board's own text alternative (its SVG title and labels)."""
    return []


def default_how_to_play_figure(name: str) -> tuple[str, dict]:
    """A game without pictures of its own on its How to play page (icons need none)."""
    raise ValueError(f"no How to play picture called {name!r}")


def default_private_context(view: dict, viewer, names: list[str], choices) -> None:
    """No private part: a game whose every seat sees the same."""
    return None


def default_picture_focus(board: dict | None, viewer: int | None = None) -> dict | None:
    """The email's picture lays every drawing of the board out as the page shows
    them (``games/correspondence/board_picture.py: sheet``). A game may instead
    name what matters to ``viewer``: ``{"box": (x, y, width, height), "cell":
    units, "own": heading}``, the part of its first drawing to draw as large
    as the picture allows (a cell at most ``board_picture.MAX_CELL`` units),
    then the viewer's own drawings under ``heading``, each named; nothing else."""
    return None


def default_board_viewpoint(viewer: int | None) -> str:
    """Every viewer without choices sees the same board."""
    return ""


OPTIONAL = {
    "private_context": default_private_context,
    "board_viewpoint": default_board_viewpoint,
    "picture_focus": default_picture_focus,
    "final_summary": default_final_summary,
    "how_to_play_figure": default_how_to_play_figure,
    "describe_board": default_describe_board,
    "PIECE_SELECTOR": None,
}


@dataclass
class Private:
    """What only the viewer may see of a position (their hand, coins, goal,
    shield): its template and context, drawn apart from the board into the
    board's ``{{ private_part() }}``, inside ``#my-secrets`` (games/jinja.py)."""

    template: str
    context: dict


@dataclass
class Scene:
    """What one viewer sees of a position, built once per request from the
    game's ``view`` and drawn by the match panel (games/panel.jinja) in one
    template engine: the board (its Jinja2 template and context: what every
    viewer without choices sees alike, with the game's own status, such as
    scores and counters), the board in words, the viewer's choices (None when
    it is not their move) and their private part (None for a spectator, or a
    game without secrets). Whose turn it is, the clock and each seat's row are
    the platform's, the same for every game (``selectors.match_panel``).

    The board is drawn without the private part and the private part without
    the board, so a board drawn without choices is shared by every viewer of
    the version (``selectors.board_cache_key``), each seat's private part
    drawn for that seat alone."""

    template: str
    board: dict | None
    words: list[str]
    choices: ChoiceLevel | None
    private: Private | None = None


def seat_view(game, state, viewer: int | None, names: list[str], version: int) -> dict:
    """What ``viewer`` (a seat, or None for a spectator) may see of ``state``,
    with the seat names and the version the presenter labels and posts with."""
    return {**game.view(state, viewer), "_names": names, "_version": version}


class Presenter:
    """A game's presenter module, as every page, email and picture uses it.

    ``scene`` is the one call that draws a position for a viewer; the other
    methods serve the log (``describe_event``), the end banner
    (``final_summary``), the catch-up and replay marks (``changed``), the
    choices (``choice_level``) and the cache key (``board_viewpoint``). A
    name the module defines beyond the contract is read from the module."""

    def __init__(self, module):
        missing = [name for name in REQUIRED if not hasattr(module, name)]
        if missing:
            raise TypeError(f"{module.__name__} lacks {', '.join(missing)}.")
        self.module = module
        self.BOARD_TEMPLATE = module.BOARD_TEMPLATE
        self.SENTENCES_NAME_THE_ACTOR = module.SENTENCES_NAME_THE_ACTOR
        self.ICON = module.ICON
        self.SUMMARY = module.SUMMARY
        self.PIECE_SELECTOR = getattr(module, "PIECE_SELECTOR", OPTIONAL["PIECE_SELECTOR"])
        self.describe_event = module.describe_event
        self.action_steps = module.action_steps
        self.changed = module.changed
        self.final_summary = _hook(module, "final_summary")
        self.describe_board = _hook(module, "describe_board")
        self.board_viewpoint = _hook(module, "board_viewpoint")
        self.picture_focus = _hook(module, "picture_focus")
        self.how_to_play_figure = _hook(module, "how_to_play_figure")
        self.board_context = module.board_context
        self.private_context = _hook(module, "private_context")

    def __getattr__(self, name: str):
        return getattr(self.module, name)

    def scene(self, view: dict, viewer, names: list[str], choices, *, board: bool = True) -> Scene:
        """What ``viewer`` sees of the position, in one description.

        ``board=False``: for a viewer without choices whose board someone drew
        already for this version (``games.panel.build``), everything but the
        board itself (``Scene.board`` is then None), which is not built."""
        private = None
        context = self.private_context(view, viewer, names, choices)
        if context is not None:
            private = Private(template=self.module.PRIVATE_TEMPLATE, context=context)
        return Scene(
            template=self.BOARD_TEMPLATE,
            board=self.board_context(view, viewer, names, choices) if board else None,
            words=self.describe_board(view, names),
            choices=choices,
            private=private,
        )

    def choice_level(self, legal: list[dict], view: dict, path: list[str]) -> ChoiceLevel:
        """The next clicks among ``legal`` after ``path`` (``choice_level``)."""
        return choice_level(legal, view, self, path)


def _hook(module, name: str):
    """The presenter module's optional hook ``name``, or the site's default for it."""
    return getattr(module, name, OPTIONAL[name])


def get(game_key: str) -> Presenter:
    """The presenter of ``game_key``; refuses a module that lacks a required name."""
    return _presenter_of(registry.registration(game_key).presenter_module())


@lru_cache(maxsize=64)
def _presenter_of(module) -> Presenter:
    """One ``Presenter`` per presenter module and process."""
    return Presenter(module)


@dataclass(frozen=True)
class MatchUrls:
    """The addresses a match's choices link to, reversed once per answer: a
    turn's choices name them dozens of times, on the board and in the list."""

    detail: str
    act: str
    panel: str

    @classmethod
    @lru_cache(maxsize=4096)
    def of(cls, pk: int) -> MatchUrls:
        """Kept per process: a match's addresses never change (as ``jinja.url``)."""
        return cls(
            detail=reverse("match_detail", args=[pk]),
            act=reverse("match_act", args=[pk]),
            panel=reverse("match_panel", args=[pk]),
        )

    def detail_at(self, path: str, token: str | None = None) -> str:
        """The match page with ``path`` half chosen: every choice link of every
        game is built here, so a path holding ``#``, ``&`` or a space (Seven
        Dragons' card ids) reaches the server whole instead of being cut off
        as a fragment or split into parameters."""
        return f"{self.detail}?{choice_query(path, token)}"

    def panel_at(self, path: str, token: str | None = None) -> str:
        """The panel fragment with ``path`` half chosen (the htmx twin of
        ``detail_at``)."""
        return f"{self.panel}?{choice_query(path, token)}"


def choice_query(path: str, token: str | None = None) -> str:
    """The query string of a half-chosen move, percent-encoded."""
    query = {"path": path}
    if token:
        query["token"] = token
    return urlencode(query)


@dataclass
class Choice:
    key: str
    label: str
    path: str  # the choice path after this click, e.g. "die-green.knight-blue"
    action_json: str | None  # set when this click completes an action


@dataclass
class ChoiceLevel:
    prompt_path: list[str]  # labels of the clicks made so far
    choices: list[Choice]
    # Set when the clicks so far name one whole action (e.g. a cell clicked on
    # the board without JavaScript): the page then offers to confirm it.
    confirm: Choice | None = None


def choice_level(legal: list[dict], view: dict, presenter, path: list[str]) -> ChoiceLevel:
    """The next clicks available after ``path`` among the legal actions.

    A click completes an action when exactly one legal action has these steps
    and nothing longer starts with them; otherwise it leads one level deeper.
    An unknown ``path`` (stale or forged) simply yields the top level.
    """
    stepped = [(action, presenter.action_steps(action, view)) for action in legal]
    matching = [(a, s) for a, s in stepped if [k for k, _label in s[: len(path)]] == path]
    if path and not matching:
        return choice_level(legal, view, presenter, [])
    depth = len(path)
    labels_so_far = [label for _key, label in matching[0][1][:depth]] if matching else []
    by_key: dict[str, list[tuple[dict, list]]] = {}
    order: list[str] = []
    for action, steps in matching:
        if len(steps) <= depth:
            continue
        key = steps[depth][0]
        if key not in by_key:
            order.append(key)
        by_key.setdefault(key, []).append((action, steps))
    confirm = None
    complete = [(a, st) for a, st in matching if len(st) == depth]
    if path and len(complete) == 1 and not order:
        action, steps = complete[0]
        confirm = Choice(
            key=path[-1],
            label=steps[-1][1],
            path=".".join(path),
            action_json=json.dumps(action, sort_keys=True, separators=(",", ":")),
        )
    choices = []
    for key in order:
        group = by_key[key]
        label = group[0][1][depth][1]
        new_path = ".".join([*path, key])
        final = None
        if len(group) == 1 and len(group[0][1]) == depth + 1:
            final = json.dumps(group[0][0], sort_keys=True, separators=(",", ":"))
        choices.append(Choice(key=key, label=label, path=new_path, action_json=final))
    return ChoiceLevel(prompt_path=labels_so_far, choices=choices, confirm=confirm)
