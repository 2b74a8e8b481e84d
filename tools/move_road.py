"""The road one htmx move travels through Smoki's code, measured.

Plays the first legal action of a fresh two-player Nogi match as an htmx
POST through the test client, with a profiler hook recording every call and
return in the project's own code (not Django's, not the libraries'), and
prints: the Python files and templates entered, the functions called, and
the steps back up the layers: calls from a module into one of a layer above
its own, by the import contracts in pyproject.toml (the apps, then the rooms
of ``games``), each counted where the calling frame is the project's own
code (a call made by Django or a library on the project's behalf, such as
the middleware chain, is not a step). Two kinds are counted apart, because
calling back up is what they exist for: a template, or the template toolkit
(``games/panel/jinja.py``), calling what the drawing needs; and the game
contract's template method (``Game.apply`` in ``games/engine/base.py``)
calling the game's own rules.

    uv run --frozen python tools/move_road.py [--list]

docs/architecture.md ("The road a move travels") records its figures.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import tomllib
from collections import Counter
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[1]
TOOLKIT = "games/panel/jinja.py"
ENGINE_CONTRACT = "games/engine/base.py"


def _layers() -> tuple[list[list[str]], list[list[str]]]:
    config = tomllib.loads((BASE_DIR / "pyproject.toml").read_text())["tool"]["importlinter"]
    by_id = {c.get("id"): c for c in config["contracts"]}

    def split(layers):
        return [[part.strip() for part in line.split("|")] for line in layers]

    return split(by_id["apps"]["layers"]), split(by_id["rooms"]["layers"])


APPS, ROOMS = _layers()


def rank(path: str) -> tuple[int, int]:
    """(the app's height, the room's height inside games): higher is above."""
    parts = Path(path).with_suffix("").parts
    app = parts[0]
    app_rank = next((len(APPS) - i for i, line in enumerate(APPS) if app in line), 0)
    room_rank = 0
    if app == "games" and len(parts) > 1:
        room = parts[1]
        room_rank = next((len(ROOMS) - i for i, line in enumerate(ROOMS) if room in line), 0)
    return app_rank, room_rank


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="print every file and step back up")
    args = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="smoki-road-")
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=f"sqlite:///{workdir}/road.sqlite3",
        CELERY_BROKER_URL="memory://",
    )
    sys.path.insert(0, str(BASE_DIR))
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment

    from config.celery import app

    app.conf.task_always_eager = True
    call_command("migrate", verbosity=0)
    setup_test_environment()
    from games.engine import registry
    from games.lobby import services as lobby

    User = get_user_model()
    users = [User.objects.create_user(f"road{i}", password="x") for i in range(2)]
    match = lobby.create_match(user=users[0], game_key="nogi", n_seats=2)
    lobby.join_match(user=users[1], match=match)
    match.refresh_from_db()
    game = registry.get("nogi")
    seat = game.current_seats(match.state)[0]
    mover = next(s.user for s in match.seats.all() if s.index == seat)
    action = game.legal_actions(match.state, seat)[0]
    client = Client()
    client.force_login(mover)
    url = f"/m/{match.pk}/act/"
    import json

    data = {"action": json.dumps(action), "version": match.version}
    client.get(f"/m/{match.pk}/")  # the page the player moves from (warm caches)

    root = str(BASE_DIR) + os.sep
    skip = (str(BASE_DIR / ".venv"), str(BASE_DIR / ".tools"))
    files: Counter[str] = Counter()
    templates: Counter[str] = Counter()
    functions: Counter[tuple[str, str]] = Counter()
    up: Counter[tuple[str, str]] = Counter()
    apart: Counter[str] = Counter()

    def own(filename: str) -> str | None:
        if filename.startswith(root) and not filename.startswith(skip):
            return filename[len(root) :]
        return None

    def profile(frame, event, _arg):
        if event != "call":
            return
        path = own(frame.f_code.co_filename)
        if path is None:
            return
        if path.endswith((".jinja", ".html")):
            templates[path] += 1
            return
        files[path] += 1
        functions[(path, frame.f_code.co_qualname)] += 1
        caller = own(frame.f_back.f_code.co_filename) if frame.f_back else None
        if caller is None or caller == path or rank(path) <= rank(caller):
            return
        if caller.endswith((".jinja", ".html")) or caller == TOOLKIT:
            apart["the template toolkit and the templates it draws"] += 1
        elif caller == ENGINE_CONTRACT and path.startswith("games/catalog/"):
            apart["the game contract's template method (Game.apply) calling the game"] += 1
        else:
            up[(caller, path)] += 1

    sys.setprofile(profile)
    response = client.post(url, data, HTTP_HX_REQUEST="true")
    sys.setprofile(None)
    assert response.status_code == 200, response.status_code
    print(f"An htmx Nogi move ({action['type']}), POST {url}: {response.status_code}")
    game_own = [p for p in files if p.startswith(("games/engine/", "games/catalog/"))]
    print(
        f"  Python files entered:     {len(files)} ({len(files) - len(game_own)} of the "
        f"platform, {len(game_own)} of the engine and the game's own package)"
    )
    print(f"  templates entered:        {len(templates)}")
    print(f"  functions called:         {len(functions)} ({sum(functions.values())} calls)")
    print(f"  steps back up the layers: {sum(up.values())} ({len(up)} pairs of modules)")
    for why, n in sorted(apart.items()):
        print(f"    apart, {why}: {n}")
    if args.list:
        print("\nFiles (calls):")
        for path, n in sorted(files.items()):
            print(f"  {n:6d}  {path}")
        print("Templates (calls):")
        for path, n in sorted(templates.items()):
            print(f"  {n:6d}  {path}")
        print("Steps back up (caller -> callee: calls):")
        for (caller, callee), n in sorted(up.items()):
            print(f"  {caller} -> {callee}: {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
