"""Every registered game honours the contract, and pure modules stay pure."""

import ast
import pathlib

import pytest

from games.engine import registry
from games.engine.base import Game, IllegalAction, Option, Result, rank_by_score, resolve_options

ROOT = pathlib.Path(__file__).resolve().parents[2]
PURE_FILES = [
    *sorted((ROOT / "games/engine").glob("*.py")),
    *sorted((ROOT / "games/catalog").glob("*/rules.py")),
    *sorted((ROOT / "games/catalog").glob("*/components.py")),
    *sorted((ROOT / "games/catalog").glob("*/bot.py")),
]


@pytest.mark.parametrize("path", PURE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_modules_import_no_django(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        for name in names:
            assert name.split(".")[0] not in {"django", "celery"}, f"{path} imports {name}"


def test_pure_file_list_is_not_empty():
    assert any(p.name == "rules.py" for p in PURE_FILES)


@pytest.mark.parametrize("game", registry.all(), ids=lambda g: g.key)
def test_registered_game_has_the_contract(game):
    assert isinstance(game, Game)
    assert registry.get(game.key) is game
    assert 1 <= game.min_players <= game.max_players
    assert isinstance(game.rules_version, int)
    assert all(isinstance(option, Option) for option in game.options)


def test_unknown_game_key():
    with pytest.raises(KeyError):
        registry.get("no-such-game")


def test_resolve_options_fills_defaults_and_refuses_unknowns():
    game = registry.get("nogi")
    defaults = resolve_options(game, {})
    assert set(defaults) == {option.key for option in game.options}
    with pytest.raises(IllegalAction):
        resolve_options(game, {"no_such_option": 1})
    with pytest.raises(IllegalAction):
        resolve_options(game, {game.options[0].key: "not-a-choice"})


def test_rank_by_score_shares_ties():
    assert rank_by_score([(5, 1), (7, 0), (5, 1), (2, 9)]) == [2, 1, 2, 4]


def test_result_winners():
    assert Result(ranks=[2, 1, 1], scores=[1, 3, 3]).winners == [1, 2]


class _Counter(Game):
    """The least a game writes: its rules, with every hook of ``apply`` left at
    its default (``legal_actions`` for legality, ``result`` for the end)."""

    key = "counter"
    title = "Counter"
    rules_version = 1
    min_players = 2
    max_players = 2

    def current_seats(self, state):
        return [] if state["n"] >= 3 else [state["n"] % 2]

    def legal_actions(self, state, seat):
        return [{"type": "add"}] if seat in self.current_seats(state) else []

    def result(self, state):
        return Result([1, 2], [None, None]) if state["n"] >= 3 else None

    def resolve(self, state, seat, action):
        state["n"] += 1
        state["log"].append(seat)
        return [{"type": "added", "seat": seat}]


def test_apply_is_a_template_method_owning_the_checks_and_the_copy():
    game = _Counter()
    state = {"n": 0, "log": []}
    new, events = game.apply(state, 0, {"type": "add"})
    assert new == {"n": 1, "log": [0]} and events == [{"type": "added", "seat": 0}]
    assert state == {"n": 0, "log": []}, "apply worked on a copy"
    refusals = {
        "out of turn": (new, 0, {"type": "add"}),
        "a bool seat": (new, True, {"type": "add"}),
        "not a seat": (new, "1", {"type": "add"}),
        "not legal": (new, 1, {"type": "take"}),
        "not an action": (new, 1, None),
        "over": ({"n": 3, "log": [0, 1, 0]}, 1, {"type": "add"}),
    }
    messages = {}
    for name, (position, seat, action) in refusals.items():
        with pytest.raises(IllegalAction) as caught:
            game.apply(position, seat, action)
        messages[name] = caught.value.message
    assert messages == {
        "out of turn": "It is not your turn.",
        "a bool seat": "It is not your turn.",
        "not a seat": "It is not your turn.",
        "not legal": "You cannot do that now.",
        "not an action": "You cannot do that now.",
        "over": "The game is over.",
    }


@pytest.mark.parametrize("game", registry.all(), ids=lambda g: g.key)
def test_no_game_overrides_apply(game):
    """Each game keeps only its rules: the checks and the copy are the base's."""
    assert type(game).apply is Game.apply
    assert type(game).resolve is not Game.resolve
