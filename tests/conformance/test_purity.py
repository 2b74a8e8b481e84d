"""Each game's pure modules import no Django, directly or through anything they import.

Every module of the package except the presenter (rules, components, bot,
builders, and any submodule of them) is imported in a fresh interpreter,
which then reports whether Django or Celery got loaded.
"""

import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import registry
from tests.conformance.kit import GAME_KEYS

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import importlib, sys; importlib.import_module(sys.argv[1]); "
    "print(sorted({m.split('.')[0] for m in sys.modules} & {'django', 'celery'}))"
)


def pure_modules(key: str) -> list[str]:
    entry = registry.registration(key)
    package = ".".join(entry.package_dir.relative_to(ROOT).parts)
    modules = {entry.rules.__class__.__module__, entry.bot}
    for path in entry.package_dir.rglob("*.py"):
        relative = path.relative_to(entry.package_dir).with_suffix("")
        parts = [part for part in relative.parts if part != "__init__"]
        if not parts or parts[0] in {"presenter", "views", "templatetags"} or "locale" in parts:
            continue
        modules.add(".".join([package, *parts]))
    modules.discard(entry.presenter)
    return sorted(modules)


@pytest.mark.parametrize("key", GAME_KEYS)
def test_pure_modules_pull_in_no_django(key):
    modules = pure_modules(key)
    assert any(module.endswith("bot") for module in modules)
    for module in modules:
        output = subprocess.run(
            [sys.executable, "-c", PROBE, module],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        ).stdout.strip()
        assert output == "[]", f"importing {module} loads {output}"
