"""What the benchmarks that measure beside an earlier commit share: that
commit's files, extracted from the repository."""

from __future__ import annotations

import subprocess
import tarfile
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]


def tree_at(revision: str, into: Path, *paths: str) -> Path:
    """The repository's files (or only ``paths``) as they were at
    ``revision``, extracted into the folder ``into``, which is returned."""
    into.mkdir(parents=True, exist_ok=True)
    archive = into / f".{revision}.tar"
    subprocess.run(
        ["git", "-C", str(BASE_DIR), "archive", "-o", str(archive), revision, *paths],
        check=True,
    )
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    archive.unlink()
    return into
