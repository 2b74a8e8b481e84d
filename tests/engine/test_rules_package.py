"""The rules package: built as a wheel, installed into a fresh virtual
environment with nothing else, it plays every game to the end.

The wheel (``tools/rules_package.py``) holds the engine and each game's pure
modules. In a virtual environment of its own, with no Django and without
this repository on the path, a script plays one whole game of every key with
the heuristic bot, asks every seat's view at every step, samples what the
mover cannot see (which must not change the mover's view) and lets the
strong bot choose once. The keys it finds must be the site's.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from games.engine import registry
from tools import rules_package

ROOT = Path(__file__).resolve().parents[2]

PLAY = r"""
import importlib.util, json, sys
from games.engine import bots, registry, search
from games.engine.rng import Rng

assert importlib.util.find_spec("django") is None, "Django is installed"
assert not any(path.startswith(sys.argv[1]) for path in sys.path), "the repository is on the path"
played = {}
for game in registry.all():
    n = game.min_players
    state = game.setup(n, {}, "package-" + game.key)
    rng = Rng.from_seed("package")
    steps = 0
    while game.result(state) is None:
        seat = game.current_seats(state)[0]
        views = [json.dumps(game.view(state, s), sort_keys=True) for s in range(n)]
        legal = game.legal_actions(state, seat)
        assert legal, (game.key, steps)
        sample = game.sample_secrets(state, seat, rng)
        assert json.dumps(game.view(sample, seat), sort_keys=True) == views[seat]
        level = "strong" if steps == 1 else "heuristic"
        budget = search.Budget(iterations=8, seconds=5.0)
        action = bots.choose(game.key, state, seat, rng, level, budget)
        assert action in legal
        state, _events = game.apply(state, seat, action)
        steps += 1
        assert steps < 5000, game.key
    played[game.key] = {"steps": steps, "ranks": game.result(state).to_json()["ranks"]}
print(json.dumps(played))
"""


def test_the_wheel_plays_every_game_in_a_fresh_environment(tmp_path):
    wheel = rules_package.build(tmp_path / "dist")
    assert wheel.is_file()
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    uv = shutil.which("uv") or str(ROOT / ".tools" / "bin" / "uv")
    subprocess.run(
        [
            uv,
            "pip",
            "install",
            "--quiet",
            "--offline",
            "--no-deps",
            "--python",
            str(venv / "bin" / "python"),
            str(wheel),
        ],
        check=True,
    )
    run = subprocess.run(
        [str(venv / "bin" / "python"), "-I", "-c", PLAY, str(ROOT)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert run.returncode == 0, run.stderr[-3000:]
    played = json.loads(run.stdout)
    catalog = ROOT / "games" / "catalog"
    site_keys = [
        entry.key
        for entry in registry.registrations()
        if entry.package_dir.is_relative_to(catalog)  # not the tests' own game
    ]
    assert sorted(played) == sorted(site_keys)
    for key, game in played.items():
        assert game["steps"] > 10, key
        assert len(game["ranks"]) == registry.get(key).min_players
        assert 1 in game["ranks"], key


def test_the_wheel_holds_no_site_module():
    files = [str(path) for path in rules_package.pure_files()]
    assert not [name for name in files if "presenter" in name or "templates" in name]
    assert "games/catalog/wording.py" not in files  # the presenters' wording (Django)
    assert all(name.endswith(".py") for name in files)
