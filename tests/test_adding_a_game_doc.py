"""docs/adding-a-game.md says how many of the kit's tests a new game gets (the
count Hatchlings passes, and the command that runs them); this test collects
that command's tests and fails when the document's number is not the true one,
so a check added to the kit (or taken away) cannot leave the page behind."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs/adding-a-game.md"
#: "It passes all 21 of the kit's tests for it (`pytest tests/conformance ... -k hatchlings`)."
CLAIM = re.compile(r"all (\d+) of the kit's\s+tests for it \(`pytest ([^`]+)`")


def documented() -> tuple[int, list[str]]:
    text = " ".join(DOC.read_text().split())
    match = CLAIM.search(text)
    assert match, "docs/adding-a-game.md no longer states the kit's count in the expected words"
    return int(match.group(1)), match.group(2).split()


def collected(arguments: list[str]) -> list[str]:
    """The test ids pytest collects for ``arguments``, in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:randomly",
         "-p", "no:xdist", "-p", "no:cacheprovider", *arguments],
        cwd=ROOT, capture_output=True, text=True, timeout=600, env={**os.environ},
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return [line for line in done.stdout.splitlines() if "::" in line]


def test_the_documented_number_of_kit_tests_is_what_pytest_collects():
    number, arguments = documented()
    assert "-k" in arguments and all(not a.startswith("-n") for a in arguments)
    ids = collected(arguments)
    assert ids and all("hatchlings" in test_id for test_id in ids), ids[:5]
    assert len(ids) == number, (
        f"docs/adding-a-game.md says {number} of the kit's tests; "
        f"`pytest {' '.join(arguments)}` collects {len(ids)}: write the true number there"
    )
