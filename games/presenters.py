"""Glue to each game's presenter (named by the game's registration).

A presenter turns a game's ``view`` into template context and never sees the
raw state. The selectors add two keys to the view for it: ``_names`` (seat
names) and ``_version`` (the match version, for moves posted from the board).
A presenter module must define all of:

- ``BOARD_TEMPLATE``: the template drawing the board and the viewer's secrets;
- ``SENTENCES_NAME_THE_ACTOR``: True when its log sentences start with the
  acting player's name (the log then does not repeat it);
- ``board_context(view, viewer, names, choices) -> dict``, where ``choices``
  is the viewer's current ``ChoiceLevel`` (or None), so the board can offer
  the next clicks where they happen;
- ``describe_event(event, names) -> str``: one translated log sentence;
- ``action_steps(action, view) -> list[(key, label)]``: the clicks that build
  an action (pick a die, then a knight...). The web layer turns the legal
  actions into a tree of such choices, so no game needs its own forms.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from games.engine import registry

REQUIRED = (
    "BOARD_TEMPLATE",
    "SENTENCES_NAME_THE_ACTOR",
    "board_context",
    "describe_event",
    "action_steps",
)


def get(game_key: str):
    """The presenter module of ``game_key``; refuses one that lacks a required name."""
    module = registry.registration(game_key).presenter_module()
    missing = [name for name in REQUIRED if not hasattr(module, name)]
    if missing:
        raise TypeError(f"{module.__name__} lacks {', '.join(missing)}.")
    return module


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
