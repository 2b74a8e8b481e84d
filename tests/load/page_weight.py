"""Page weight and LCP on a slow phone: every page cold, bytes on the wire.

    uv run python tests/load/page_weight.py            # or: make page-weight
    uv run python tests/load/page_weight.py --prodlike      # through make prodlike's Caddy

Starts gunicorn with DEBUG=false (static files collected, hashed and
compressed, served by WhiteNoise) on a fresh SQLite database with the demo's
players and matches (``manage.py demo``), or measures the site ``make prodlike`` runs, through
its proxy (``--prodlike``: the demo's players and matches are added to its
database, and a session for one of them made with its key). Then Debian's chromium, through
Playwright, opens each page in a fresh context (nothing cached) as a slow
phone: 400 kbit/s down and up, 150 ms latency (CDP
``Network.emulateNetworkConditions``) and a CPU four times slower
(``Emulation.setCPUThrottlingRate``). For each page it records the requests,
the bytes on the wire (``encodedDataLength`` of every response: headers and
body as they travelled) and the Largest Contentful Paint.

Each page is loaded twice in turn: as the browser asks for it, and with
``Accept-Encoding: identity`` (nothing compressed, as before pages were
compressed), the baseline measured in the same run; the last lines give each
page's bytes and LCP as a ratio to it. Exits 1 if a page weighs more than
``--max-kb`` (50) on the wire or paints its largest content after
``--max-lcp`` (0.6 s).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(BASE_DIR))

from tests.load.move_load import HOST, SECRET_KEY, free_port, request  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
LCP_SCRIPT = """
window.__lcp = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.__lcp = entry.startTime;
}).observe({type: "largest-contentful-paint", buffered: true});
"""


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--prodlike",
        nargs="?",
        const=str(BASE_DIR / "var/prodlike"),
        help="measure the site make prodlike runs (its folder: var/prodlike)",
    )
    parser.add_argument("--url", default="http://127.0.0.1:8080", help="with --prodlike")
    parser.add_argument(
        "--database-url",
        default="postgres://postgres@127.0.0.1:5432/smoki_prodlike",
        help="with --prodlike: its database, straight (not through PgBouncer)",
    )
    parser.add_argument("--kbits", type=float, default=400, help="bandwidth, kbit/s each way")
    parser.add_argument("--latency", type=float, default=150, help="round trip added, ms")
    parser.add_argument("--cpu", type=float, default=4, help="CPU slowdown factor")
    parser.add_argument("--runs", type=int, default=3, help="loads of each page, each mode")
    parser.add_argument("--max-kb", type=float, default=50)
    parser.add_argument("--max-lcp", type=float, default=0.6)
    return parser.parse_args()


# -- A site of its own ------------------------------------------------------------------


def site_env(tmp: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "CACHE_URL", "CELERY_BROKER_URL"}
    }
    env.update(
        DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}",
        DEBUG="false",
        SECRET_KEY=SECRET_KEY,
        SECURE_SSL_REDIRECT="false",
        STATIC_ROOT=str(tmp / "static"),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SESSION_COOKIE_SECURE="false",
        CSRF_COOKIE_SECURE="false",
        CELERY_BROKER_URL="memory://localhost/",
        LOG_LEVEL="WARNING",
    )
    return env


def start_site(tmp: Path):
    env = site_env(tmp)
    manage = [sys.executable, "manage.py"]
    for command in (["migrate", "-v0"], ["collectstatic", "--noinput", "-v0"], ["demo", "-v0"]):
        subprocess.run([*manage, *command], cwd=BASE_DIR, env=env, check=True)
    port = free_port()
    log = open(tmp / "gunicorn.log", "w")  # noqa: SIM115 - closed with the server
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application", f"--bind={HOST}:{port}"]
        + ["--workers=2", "--log-level=warning"],
        cwd=BASE_DIR,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    for _ in range(300):
        try:
            request("GET", port, "/healthz")
            break
        except OSError:
            time.sleep(0.2)
    return server, port, env


def demo_session_and_matches(env: dict[str, str]) -> tuple[str, list[tuple[str, int]]]:
    """A session of the demo's alice, and her demo match of each game."""
    code = (
        "import django; django.setup()\n"
        "from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY\n"
        "from django.contrib.auth import get_user_model\n"
        "from django.contrib.sessions.backends.db import SessionStore\n"
        "from games.models import Match\n"
        "user = get_user_model().objects.get(username='alice')\n"
        "s = SessionStore(); s[SESSION_KEY] = str(user.pk)\n"
        "s[BACKEND_SESSION_KEY] = 'django.contrib.auth.backends.ModelBackend'\n"
        "s[HASH_SESSION_KEY] = user.get_session_auth_hash(); s.create()\n"
        "print(s.session_key)\n"
        "for m in Match.objects.filter(created_by=user, status='active').order_by('pk'):\n"
        "    print(m.game_key, m.pk)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=BASE_DIR,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return out[0], [(out[i], int(out[i + 1])) for i in range(1, len(out), 2)]


# -- The phone ----------------------------------------------------------------------------


def load_cold(browser, base: str, path: str, session: str | None, identity: bool, args):
    """Open ``path`` in a fresh context on the slow phone: (requests, bytes, LCP s)."""
    context = browser.new_context(viewport={"width": 412, "height": 915}, is_mobile=True)
    if session:
        context.add_cookies([{"name": "sessionid", "value": session, "url": base}])
    page = context.new_page()
    # A match page opens its live stream once loaded. Production serves the
    # streams from their own server (deploy/: uvicorn behind the proxy);
    # here the stream would hold one of gunicorn's two workers for minutes
    # and hold the next pages back, so it is refused: it is no part of the
    # page's weight (a stream never finishes) nor of its first paint.
    page.route(re.compile(r"/m/\d+/events"), lambda route: route.abort())
    page.add_init_script(LCP_SCRIPT)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    if identity:
        cdp.send("Network.setExtraHTTPHeaders", {"headers": {"Accept-Encoding": "identity"}})
    per_second = args.kbits * 1000 / 8
    cdp.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": args.latency,
            "downloadThroughput": per_second,
            "uploadThroughput": per_second,
        },
    )
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.cpu})
    finished: dict[str, float] = {}
    cdp.on(
        "Network.loadingFinished",
        lambda event: finished.__setitem__(event["requestId"], event["encodedDataLength"]),
    )
    response = page.goto(base + path, wait_until="load")
    if response is None or response.status != 200:
        raise SystemExit(f"{path}: answered {response and response.status}")
    page.wait_for_timeout(1500)  # late requests (the icon sprite, the service worker)
    lcp = page.evaluate("window.__lcp") / 1000
    context.close()
    return len(finished), sum(finished.values()), lcp


def main() -> int:
    args = parse_args()
    from playwright.sync_api import sync_playwright

    server = None
    tmp = Path(tempfile.mkdtemp(prefix="smoki-weight-"))
    if args.prodlike:
        base = args.url.rstrip("/")
        env = site_env(tmp)
        env["DATABASE_URL"] = args.database_url
        env["SECRET_KEY"] = (Path(args.prodlike) / "secret_key").read_text().strip()
        subprocess.run(
            [sys.executable, "manage.py", "demo", "-v0"], cwd=BASE_DIR, env=env, check=True
        )
        session, matches = demo_session_and_matches(env)
    else:
        server, port, env = start_site(tmp)
        base = f"http://{HOST}:{port}"
        session, matches = demo_session_and_matches(env)
    pages = [
        ("lobby (anonymous)", "/", False),
        ("log in", "/accounts/login/", False),
        ("watch", "/watch/", False),
        ("about", "/about/", False),
        ("how to play Nogi", "/games/nogi/how-to-play/", False),
        ("leaderboards", "/leaderboards/", False),
    ]
    if session:
        pages.append(("lobby (signed in)", "/", True))
        pages += [(f"match: {key}", f"/m/{pk}/", True) for key, pk in matches]
    results = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=["--no-sandbox"]
            )
            for name, path, signed_in in pages:
                measured = {True: [], False: []}
                for _ in range(args.runs):
                    for identity in (True, False):
                        cookie = session if signed_in else None
                        measured[identity].append(
                            load_cold(browser, base, path, cookie, identity, args)
                        )
                results.append((name, measured))
            browser.close()
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=20)
    print(
        f"slow phone: {args.kbits:g} kbit/s, {args.latency:g} ms, CPU /{args.cpu:g};"
        f" median of {args.runs} cold loads each"
    )
    print(f"{'page':24} {'requests':>8} {'KB':>7} {'LCP s':>6}   {'KB raw':>7} {'LCP raw':>7}")
    failures = []
    for name, measured in results:
        requests_ = statistics.median(r[0] for r in measured[False])
        kb = statistics.median(r[1] for r in measured[False]) / 1000
        lcp = statistics.median(r[2] for r in measured[False])
        raw_kb = statistics.median(r[1] for r in measured[True]) / 1000
        raw_lcp = statistics.median(r[2] for r in measured[True])
        print(
            f"{name:24} {requests_:8.0f} {kb:7.1f} {lcp:6.2f}   {raw_kb:7.1f} {raw_lcp:7.2f}"
            f"   bytes x{kb / raw_kb:.2f}, LCP x{lcp / raw_lcp:.2f}"
        )
        if kb > args.max_kb:
            failures.append(f"{name}: {kb:.1f} KB on the wire (at most {args.max_kb:g})")
        if lcp > args.max_lcp:
            failures.append(f"{name}: LCP {lcp:.2f} s (at most {args.max_lcp:g})")
    if failures:
        print("\nOVER BUDGET:\n  " + "\n  ".join(failures))
        return 1
    print(f"\nevery page within {args.max_kb:g} KB and an LCP of {args.max_lcp:g} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
