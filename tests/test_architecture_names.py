"""docs/architecture.md names only code that exists.

The page is how a newcomer finds their way (the road a move travels, which
module does what), so a name in it that the code no longer has sends them
looking for nothing. Every name it writes in backticks as code is checked:

- a path to a file or folder (``games/services.py``, ``games/engine/``) exists;
- ``path.py: name`` (``games/selectors.py: stamp_for``) defines ``name``
  (a function, class or assignment anywhere in the file);
- a dotted name whose start is one of the site's modules
  (``services.submit_action``, ``games.signals.match_ended``,
  ``presenters.hook(module, name)``) resolves: the module imports and has
  the attribute. A bare module name is looked up under ``games``,
  ``accounts`` and ``players`` (``selectors.x`` passes when one of them has
  ``x``). ``accounts.Profile`` names a model of an app.

Names with a placeholder (``<package>``) and bare file names (``bot.py``,
each game's own) are not checked.
"""

from __future__ import annotations

import ast
import importlib
import re
from functools import cache
from pathlib import Path

from django.apps import apps

ROOT = Path(__file__).resolve().parents[1]
DOCUMENT = ROOT / "docs" / "architecture.md"
PACKAGES = ("games", "accounts", "players", "config")
CODE = re.compile(r"`([^`\n]+)`")
PATH = re.compile(r"^(?:[\w.-]+/)+(?:[\w.-]+\.py)?$|^(?:[\w-]+/)+$")
PATH_AND_NAME = re.compile(r"^((?:[\w-]+/)+[\w-]+\.py): (\w+)$")
DOTTED = re.compile(r"^([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?:\(.*\))?$")


def code_names(text: str) -> list[str]:
    """Every backticked piece of the page, outside fenced blocks."""
    outside = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
    return CODE.findall(outside)


@cache
def _defined(path: Path) -> frozenset[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return frozenset(names)


def _module(dotted: str):
    try:
        return importlib.import_module(dotted)
    except ImportError:
        return None


def _resolves(dotted: str) -> bool | None:
    """True or False for a name that starts with one of the site's modules,
    None for anything else (a model's field, a class of a game)."""
    parts = dotted.split(".")
    explicit = parts[0] in PACKAGES
    starts = [parts] if explicit else [[package, *parts] for package in PACKAGES[:3]]
    shortest = 1 if explicit else 2  # "Match.state" is no module of games
    seen_a_module = False
    for candidate in starts:
        for cut in range(len(candidate), shortest - 1, -1):
            module = _module(".".join(candidate[:cut]))
            if module is None:
                continue
            rest = candidate[cut:]
            seen_a_module = True
            app = cut == 1 and parts[0] != "config"
            models = apps.get_app_config(parts[0]).get_models() if app else []
            if len(rest) == 1 and any(model.__name__ == rest[0] for model in models):
                return True  # "accounts.Profile": a model of the app
            target = module
            for name in rest:
                target = getattr(target, name, None)
                if target is None:
                    break
            else:
                return True
            break
    return False if seen_a_module else None


def problems(names: list[str]) -> list[str]:
    """The names of the list that the code does not have, with why."""
    found = []
    for name in names:
        if "<" in name or " " in name and not PATH_AND_NAME.match(name):
            continue
        with_name = PATH_AND_NAME.match(name)
        if with_name:
            path = ROOT / with_name.group(1)
            if not path.is_file():
                found.append(f"{name}: no file {with_name.group(1)}")
            elif with_name.group(2) not in _defined(path):
                found.append(f"{name}: {with_name.group(1)} defines no {with_name.group(2)}")
        elif PATH.match(name) and name.split("/")[0] in (*PACKAGES, "tests", "tools", "docs"):
            if not (ROOT / name).exists():
                found.append(f"{name}: no such file or folder")
        elif (
            DOTTED.match(name)
            and not name.endswith(".py")
            and _resolves(DOTTED.match(name).group(1)) is False
        ):
            found.append(f"{name}: no such module attribute")
    return found


def test_every_module_and_function_the_architecture_page_names_exists():
    assert problems(code_names(DOCUMENT.read_text())) == []


def test_the_check_catches_a_name_the_code_does_not_have():
    made_up = [
        "games/no_such_module.py",
        "games/services.py: no_such_function",
        "services.no_such_function",
        "games.no_such_module.thing",
        "selectors.no_such_selector(match)",
    ]
    assert len(problems(made_up)) == len(made_up)
    real = [
        "games/services.py",
        "games/engine/",
        "games/selectors.py: stamp_for",
        "selectors.match_panel",
        "presenters.hook(module, name)",
        "games.signals.match_ended",
        "accounts.Profile",
        "Match.has_chat",  # a model's attribute: not a module's, not checked
    ]
    assert problems(real) == []
