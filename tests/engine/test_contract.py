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
