"""Every page a player and a visitor reach, under production settings.

Run by ``tests/web/test_production_pages.py`` in a process of its own, whose
environment holds the README's production settings (``DEBUG=false``, the
hashed and compressed static files already collected into ``STATIC_ROOT``,
WhiteNoise in the middleware), with SQLite and local memory in place of
PostgreSQL and Redis. It builds the pages' data (a match of every game at
both seats' turns, played matches with their replays and records, a finished
match, a ladder, tournaments, the profile, allauth's pages: the pages of
``tests/web/test_no_english_left.py``), then GETs each page as its player
and every page of this site linked from it, a step further, as the same
player, and does the same from the home page for a visitor who is not
logged in, over HTTPS as the proxy reports it. Every static file a page
names is fetched too. It prints one JSON list of what answered 500 (or
raised) and exits 0; the test reads the list.

    python tests/web/production_pages.py
"""

from __future__ import annotations

import json
import re
import sys
import traceback
from html import unescape
from pathlib import Path
from urllib.parse import urljoin, urlsplit

BASE_DIR = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(BASE_DIR))

# Links a crawl must not follow: they act (log out, leave) or lead away.
SKIP = re.compile(r"^/(?:accounts/logout/|admin/|m/\d+/by-email/)")
HREF = re.compile(r'\b(?:href|src|hx-get|data-service-worker)="([^"]+)"')
MAX_PAGES = 1500


def main() -> int:
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment

    from config.celery import app

    assert not settings.DEBUG, "run with DEBUG=false"
    setup_test_environment()  # the test client's host, email kept in memory
    app.conf.task_always_eager = True
    app.autodiscover_tasks(force=True)
    call_command("migrate", verbosity=0, interactive=False)

    from tests.web.test_no_english_left import pages_of_a_player

    visits, _names = pages_of_a_player("en")
    visitor = Client()
    visits += [
        (visitor, path)
        for path in (
            "/",
            "/watch/",
            "/about/",
            "/archive/",
            "/ladders/",
            "/tournaments/",
            "/accounts/login/",
            "/accounts/signup/",
            "/accounts/password/reset/",
            "/sw.js",
            "/manifest.webmanifest",
        )
    ]
    problems: list[dict] = []
    seen: set[tuple[int, str]] = set()
    fetched = 0
    queue = [(client, path, 0) for client, path in visits]
    while queue and fetched < MAX_PAGES:
        client, path, depth = queue.pop(0)
        if (id(client), path) in seen:
            continue
        seen.add((id(client), path))
        fetched += 1
        try:
            response = client.get(path, secure=True, headers={"x-forwarded-proto": "https"})
        except Exception:  # noqa: BLE001 - what the server would have answered with 500
            problems.append({"path": path, "error": traceback.format_exc(limit=-3)})
            continue
        if response.status_code >= 500:
            problems.append({"path": path, "status": response.status_code})
            continue
        if response.status_code != 200 or path.startswith(settings.STATIC_URL):
            continue
        if "html" not in response.get("Content-Type", ""):
            continue
        for link in HREF.findall(response.content.decode()):
            target = urlsplit(urljoin(path, unescape(link)))
            if target.netloc and target.netloc not in ("testserver", *settings.ALLOWED_HOSTS):
                continue
            found = target.path + (f"?{target.query}" if target.query else "")
            static = target.path.startswith(settings.STATIC_URL)
            if SKIP.match(target.path) or (depth >= 1 and not static):
                continue
            queue.append((client, found, depth + 1))
    print(json.dumps({"fetched": fetched, "problems": problems}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
