"""Page weight and LCP on a slow phone: every page cold, bytes on the wire.

    uv run python tests/load/page_weight.py            # or: make page-weight
    uv run python tests/load/page_weight.py --prodlike      # through make prodlike's Caddy
    uv run python tests/load/page_weight.py --against 64c3d3e   # beside another commit's site

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
page's bytes and LCP as a ratio to it.

With ``--against REV`` the baseline is instead the same page from a second
site serving the commit ``REV`` (its files extracted with ``git archive``,
the same interpreter and packages, its own database and demo), loaded in
turn with this code's: on a shared machine an LCP moves with the load by
more than most changes move it, so a change is judged by the ratio of the
two, measured within the same minutes. Each site first serves two
signed-in lobbies (a worker's first board picture reads the fonts). Exits 1 if a page weighs more than
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
from dataclasses import dataclass
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(BASE_DIR))

from tests.load.move_load import HOST, SECRET_KEY, free_port, request  # noqa: E402
from tests.load.revisions import tree_at  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
LCP_SCRIPT = """
window.__lcp = 0;
window.__lcps = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    window.__lcp = entry.startTime;
    const el = entry.element;
    const name = el ? el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
      + (el.className && typeof el.className === "string" ? "." + el.className.split(" ")[0] : "") : "?";
    window.__lcps.push(`${(entry.startTime / 1000).toFixed(3)} s ${entry.size} px2 ${name} ${entry.url.slice(-30)}`);
  }
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
    parser.add_argument(
        "--against", metavar="REV", help="also serve this git revision; print the ratios to it"
    )
    parser.add_argument(
        "--pages",
        nargs="+",
        metavar="NAME",
        help="measure only the pages whose names start so (e.g. 'lobby (signed in)' leaderboards)",
    )
    parser.add_argument(
        "--explain",
        action="store_true",
        help="print each load's largest-content candidates (time, size, element)",
    )
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


def start_site(tmp: Path, tree: Path = BASE_DIR):
    env = site_env(tmp)
    manage = [sys.executable, "manage.py"]
    for command in (["migrate", "-v0"], ["collectstatic", "--noinput", "-v0"], ["demo", "-v0"]):
        subprocess.run([*manage, *command], cwd=tree, env=env, check=True)
    port = free_port()
    log = open(tmp / "gunicorn.log", "w")  # noqa: SIM115 - closed with the server
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application", f"--bind={HOST}:{port}"]
        + ["--workers=2", "--log-level=warning"],
        cwd=tree,
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


def demo_session_and_matches(
    env: dict[str, str], tree: Path = BASE_DIR
) -> tuple[str, list[tuple[str, int]]]:
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
        cwd=tree,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return out[0], [(out[i], int(out[i + 1])) for i in range(1, len(out), 2)]


@dataclass
class Site:
    """A running site to measure: its address, alice's session and her match of each game."""

    base: str
    session: str | None
    matches: dict[str, int]

    def path(self, page: tuple[str, str, bool, str | None]) -> str:
        _name, path, _signed_in, game_key = page
        return f"/m/{self.matches[game_key]}/" if game_key else path


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
    if args.explain:
        print(f"  {base}{path}: " + " | ".join(page.evaluate("window.__lcps")), flush=True)
    context.close()
    return len(finished), sum(finished.values()), lcp


def main() -> int:
    args = parse_args()
    from playwright.sync_api import sync_playwright

    servers = []
    tmp = Path(tempfile.mkdtemp(prefix="smoki-weight-"))
    if args.prodlike:
        env = site_env(tmp)
        env["DATABASE_URL"] = args.database_url
        env["SECRET_KEY"] = (Path(args.prodlike) / "secret_key").read_text().strip()
        subprocess.run(
            [sys.executable, "manage.py", "demo", "-v0"], cwd=BASE_DIR, env=env, check=True
        )
        session, matches = demo_session_and_matches(env)
        site = Site(args.url.rstrip("/"), session, dict(matches))
    else:
        site = start_measured_site(tmp, BASE_DIR, servers)
    against = None
    if args.against:
        tree = tree_at(args.against, tmp / "against" / "tree")
        against = start_measured_site(tmp / "against", tree, servers)
    pages = [
        ("lobby (anonymous)", "/", False, None),
        ("log in", "/accounts/login/", False, None),
        ("watch", "/watch/", False, None),
        ("about", "/about/", False, None),
        ("how to play Nogi", "/games/nogi/how-to-play/", False, None),
        ("leaderboards", "/leaderboards/", False, None),
    ]
    if site.session:
        pages.append(("lobby (signed in)", "/", True, None))
        pages += [(f"match: {key}", "", True, key) for key in site.matches]
    if against is not None:
        pages = [page for page in pages if not page[3] or page[3] in against.matches]
    if args.pages:
        pages = [page for page in pages if page[0].startswith(tuple(args.pages))]
    results = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=["--no-sandbox"]
            )
            for each in [site] if against is None else [site, against]:
                warm_up(browser, each, args)
            for page in pages:
                results.append((page[0], measure(browser, page, site, against, args)))
            browser.close()
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=20)
    return report(results, args)


def start_measured_site(tmp: Path, tree: Path, servers: list) -> Site:
    server, port, env = start_site(tmp, tree)
    servers.append(server)
    session, matches = demo_session_and_matches(env, tree)
    return Site(f"http://{HOST}:{port}", session, dict(matches))


def warm_up(browser, site: Site, args) -> None:
    """Each of gunicorn's two workers serves a page and draws a board once
    (a process's first picture reads the fonts), so no measured page pays
    for a process's first minute."""
    for _ in range(2):
        load_cold(browser, site.base, "/", site.session, False, args)


def measure(browser, page, site: Site, against: Site | None, args) -> dict[str, list]:
    """``args.runs`` cold loads of ``page`` and as many of its baseline, in
    turn (the order swapped every run): with ``against``, the same page from
    that site; otherwise the same page asked for with nothing compressed."""
    _name, _path, signed_in, _game = page
    measured = {"this": [], "baseline": []}
    for run in range(args.runs):
        turns = [("this", site), ("baseline", against or site)]
        for label, where in turns if run % 2 == 0 else reversed(turns):
            identity = label == "baseline" and against is None
            session = where.session if signed_in else None
            measured[label].append(
                load_cold(browser, where.base, where.path(page), session, identity, args)
            )
    return measured


def report(results, args) -> int:
    baseline = f"at {args.against}" if args.against else "nothing compressed"
    print(
        f"slow phone: {args.kbits:g} kbit/s, {args.latency:g} ms, CPU /{args.cpu:g};"
        f" median of {args.runs} cold loads each; the baseline: {baseline}"
    )
    print(f"{'page':24} {'requests':>8} {'KB':>7} {'LCP s':>6}   {'KB base':>7} {'LCP base':>8}")
    failures = []
    for name, measured in results:
        requests_ = statistics.median(r[0] for r in measured["this"])
        kb = statistics.median(r[1] for r in measured["this"]) / 1000
        lcp = statistics.median(r[2] for r in measured["this"])
        base_kb = statistics.median(r[1] for r in measured["baseline"]) / 1000
        base_lcp = statistics.median(r[2] for r in measured["baseline"])
        print(
            f"{name:24} {requests_:8.0f} {kb:7.1f} {lcp:6.2f}   {base_kb:7.1f} {base_lcp:8.2f}"
            f"   bytes x{kb / base_kb:.2f}, LCP x{lcp / base_lcp:.2f}"
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
