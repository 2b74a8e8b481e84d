"""``make bench-games``' rollout workload (``tests/load/games_per_second.py``) at a tiny
size: it searches, counts its rollouts, and its digest of the play is the same on
a second run (the digest is how the script tells that the reference's code and
this code played alike). Nothing is asserted about speed."""

from tests.scripts import LOAD, load_script

SCRIPT = LOAD / "games_per_second.py"


def test_the_rollout_workload_counts_its_rollouts_and_repeats_its_play(monkeypatch):
    bench = load_script("games_per_second")
    monkeypatch.setitem(bench.ROLLOUT_ITERATIONS, "nogi", 4)
    rollouts, seconds, digest = bench.rollout_workload("nogi", positions=2)
    assert rollouts == 8 and seconds > 0
    assert bench.rollout_workload("nogi", positions=2)[2] == digest
    monkeypatch.setitem(bench.ROLLOUT_ITERATIONS, "nogi", 5)
    assert bench.rollout_workload("nogi", positions=2)[2] != digest


def test_the_reference_commit_is_in_the_repository():
    """``make bench-games`` extracts its baseline's rules with ``git archive``:
    a reference the history no longer holds stopped it in a fresh clone."""
    import subprocess

    import pytest

    bench = load_script("games_per_second")
    repository = ["git", "-C", str(SCRIPT.parents[2])]
    shallow = subprocess.run(
        [*repository, "rev-parse", "--is-shallow-repository"], capture_output=True, text=True
    )
    if shallow.stdout.strip() != "false":
        pytest.xfail("a shallow clone (or no git) holds no older commit; nor can the bench run")
    found = subprocess.run(
        [*repository, "cat-file", "-e", f"{bench.REFERENCE}^{{commit}}"], capture_output=True
    )
    assert found.returncode == 0, f"{bench.REFERENCE} is not a commit of this repository"


def test_a_game_with_a_newer_rules_version_is_timed_under_the_references(monkeypatch):
    """Nogi's version 2 records trails and deals the hidden shields by them, so its
    searches differ from the reference's; the workload compared with the
    reference's sets Nogi up under version 1, which both codes play alike."""
    from games.engine import registry

    bench = load_script("games_per_second")
    registry.discover()
    version = bench.ROLLOUT_RULES_VERSION["nogi"]
    assert version < registry.get("nogi").rules_version
    assert registry.get("nogi").knows_rules_version(version)
    monkeypatch.setitem(bench.ROLLOUT_ITERATIONS, "nogi", 4)
    older = bench.rollout_workload("nogi", positions=2, rules_version=version)
    assert bench.rollout_workload("nogi", positions=2, rules_version=version)[2] == older[2]
    assert bench.rollout_workload("nogi", positions=2)[2] != older[2]


def test_the_rules_share_times_the_rules_inside_the_same_workload():
    """``tests/load/rules_share.py`` (docs/performance.md, "Where Nogi's rollouts
    still spend their time") plays the bench's workload with the rules timed: a
    part of the workload's time, and the same play as the workload untimed. In
    its own interpreter: it wraps the game's methods for the rest of the process."""
    import json
    import subprocess
    import sys

    script = SCRIPT.parent / "rules_share.py"
    done = subprocess.run(
        [sys.executable, str(script), "nogi", "--rules-version", "1", "--rounds", "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    timed = json.loads(done.stdout)
    assert 0 < timed["in_rules"] < timed["seconds"]
    rollouts, _seconds, digest = load_script("games_per_second").rollout_workload(
        "nogi", rules_version=1
    )
    assert (timed["rollouts"], timed["digest"]) == (rollouts, digest)
