"""Every page under docs/ names only code that exists.

The docs are how a newcomer finds their way (the road a move travels, which
module does what, how a ladder or a tournament is built), so a name in them
that the code no longer has sends them looking for nothing. Every name a
page writes in backticks as code is checked:

- a path to a file or folder (``games/play/services.py``, ``games/engine/``) exists;
- ``path.py: name`` (``games/play/access.py: stamp_for``) defines ``name``
  (a function, class or assignment anywhere in the file);
- a dotted name whose start is one of the site's packages
  (``games.signals.match_ended``, ``ladders.services.challenge``) resolves:
  the module imports and has the attribute. A name that starts with a
  module's own name (``build.match_panel``, ``services.submit_action``,
  ``lobby.services.rotated``) passes when one module of that name, in any of
  the site's packages, has the attribute. ``accounts.Profile`` names a model
  of an app.

Names with a placeholder (``<package>``), bare file names (``bot.py``,
each game's own), a permission (``games.moderate_match``: an app's label and
a permission codename of its models), a system check's id (``smoki.E001``)
and, in the rules' pages (``docs/rules/``), the state's own dotted fields are
not checked as modules.
"""

from __future__ import annotations

import ast
import importlib
import re
from functools import cache
from pathlib import Path

import pytest
from django.apps import apps

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = sorted((ROOT / "docs").rglob("*.md"))
PACKAGES = (
    "games",
    "accounts",
    "players",
    "ladders",
    "tournaments",
    "seasons",
    "matchmaking",
    "friends",
    "core",
    "config",
)
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


@cache
def _all_modules() -> tuple[str, ...]:
    """Every module of the site's packages, by dotted name (not the tests')."""
    found = []
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if "migrations" in parts or "templates" in parts:
                continue
            found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return tuple(sorted(found))


def _attribute(module, rest: list[str]) -> bool:
    target = module
    for name in rest:
        target = getattr(target, name, None)
        if target is None:
            return False
    return True


def _resolves(dotted: str) -> bool | None:
    """True or False for a name that starts with one of the site's modules,
    None for anything else (a model's field, a class of a game)."""
    parts = dotted.split(".")
    if parts[0] in PACKAGES:
        for cut in range(len(parts), 0, -1):
            module = _module(".".join(parts[:cut]))
            if module is None:
                continue
            rest = parts[cut:]
            if cut == 1 and parts[0] != "config" and len(rest) == 1:
                models = apps.get_app_config(parts[0]).get_models()
                if any(model.__name__ == rest[0] for model in models):
                    return True  # "accounts.Profile": a model of the app
            return _attribute(module, rest)
        return False
    seen_a_module = False
    for cut in range(len(parts) - 1, 0, -1):
        suffix = "." + ".".join(parts[:cut])
        for name in _all_modules():
            if not name.endswith(suffix):
                continue
            module = _module(name)
            if module is None:
                continue
            seen_a_module = True
            if _attribute(module, parts[cut:]):
                return True
        if seen_a_module:
            return False
    return None


CHECK_ID = re.compile(r"^\w+\.[EW]\d{3}$")


@cache
def _permissions() -> frozenset[str]:
    """Every permission of the site's models, as ``app_label.codename``."""
    found = set()
    for model in apps.get_models():
        meta = model._meta
        for action in meta.default_permissions:
            found.add(f"{meta.app_label}.{action}_{meta.model_name}")
        for codename, _name in meta.permissions:
            found.add(f"{meta.app_label}.{codename}")
    return frozenset(found)


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
        elif name in _permissions() or CHECK_ID.match(name):
            continue
        elif (
            DOTTED.match(name)
            and not name.endswith(".py")
            and _resolves(DOTTED.match(name).group(1)) is False
        ):
            found.append(f"{name}: no such module attribute")
    return found


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_module_and_function_a_page_names_exists(document):
    names = code_names(document.read_text())
    if document.parent.name == "rules":  # the state's own fields are dotted too
        names = [name for name in names if not DOTTED.match(name)]
    assert problems(names) == []


def test_the_check_catches_a_name_the_code_does_not_have():
    made_up = [
        "games/no_such_module.py",
        "games/play/services.py: no_such_function",
        "services.no_such_function",
        "games.no_such_module.thing",
        "build.no_such_selector(match)",
        "ladders.services.no_such_service",
        "tournaments/no_such_module.py",
        "games/services.py",  # where the move path lived before games/play/
    ]
    assert len(problems(made_up)) == len(made_up)
    real = [
        "games/play/services.py",
        "games/engine/",
        "games/play/access.py: stamp_for",
        "build.match_panel",
        "services.submit_action",
        "lobby.services.rotated",
        "presenters.Presenter",
        "games.signals.match_ended",
        "ladders.services.challenge",
        "tournaments/pairing.py",
        "accounts.Profile",
        "games.moderate_match",  # a permission
        "smoki.E001",  # a system check's id
        "Match.has_chat",  # a model's attribute: not a module's, not checked
    ]
    assert problems(real) == []
