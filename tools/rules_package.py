"""Build the wheel of the rules package (``packages/rules/``): Smoki's
engine and each game's pure modules, the ones a bot author needs, and
nothing of the site.

Which modules are pure is the rule ``tests/conformance/test_purity.py``
checks: in ``games/catalog/<package>/`` everything but the presenter,
templates and message catalogues; all of ``games/engine/``. They keep their
import paths (``games.engine``, ``games.catalog.drako.rules``), so what a bot
written against the package calls is what the site calls.

    uv run python tools/rules_package.py [--out dist]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "packages" / "rules"
SITE_ONLY = {"presenter", "presenter.py", "templates", "locale", "__pycache__"}
CATALOG_SHARED = ("__init__.py",)  # games/catalog/wording.py is the presenters' (Django)


def pure_files() -> list[Path]:
    """Every file of the wheel, relative to the repository."""
    files = [ROOT / "games" / "__init__.py", *sorted((ROOT / "games" / "engine").glob("*.py"))]
    catalog = ROOT / "games" / "catalog"
    files += [catalog / name for name in CATALOG_SHARED]
    for package in sorted(p for p in catalog.iterdir() if (p / "__init__.py").is_file()):
        for path in sorted(package.rglob("*.py")):
            if not SITE_ONLY & set(path.relative_to(package).parts):
                files.append(path)
    return [path.relative_to(ROOT) for path in files]


def stage(into: Path) -> None:
    """The package's folder as the build backend wants it."""
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(PACKAGE / name, into / name)
    for relative in pure_files():
        target = into / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / relative, target)


def build(out: Path) -> Path:
    """Build the wheel into ``out`` and return its path."""
    out.mkdir(parents=True, exist_ok=True)
    uv = shutil.which("uv") or str(ROOT / ".tools" / "bin" / "uv")
    with tempfile.TemporaryDirectory() as folder:
        staged = Path(folder)
        stage(staged)
        subprocess.run(
            [
                uv,
                "build",
                "--wheel",
                "--no-build-isolation",
                "--python",
                sys.executable,
                "--out-dir",
                str(out),
                "--quiet",
                str(staged),
            ],
            check=True,
        )
    version = _version()
    return out / f"smoki_rules-{version}-py3-none-any.whl"


def _version() -> str:
    import tomllib

    return tomllib.loads((PACKAGE / "pyproject.toml").read_text())["project"]["version"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    wheel = build(parser.parse_args().out)
    print(wheel)


if __name__ == "__main__":
    main()
