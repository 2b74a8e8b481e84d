"""Load test: concurrent move requests against a real multi-process server.

    uv run python tests/load/move_load.py            # or: make load
    uv run python tests/load/move_load.py --help     # sizes, limits, options

What it does, all on this machine (127.0.0.1 only):

1. Uses PostgreSQL from DATABASE_URL (default
   postgres://postgres@127.0.0.1:5432/smoki_load), creates that database if
   it is missing and runs ``manage.py migrate`` on it.
2. Creates fresh users and active two-player Nogi matches through the
   service layer (names carry a run id; nothing existing is touched), and a
   logged-in session for every user directly in the session table.
3. Starts gunicorn (several sync worker processes) with DEBUG=false on a
   free port, waits until it answers and warms the workers up (a match page
   and an API read in each), then uses every player's token once, as the
   phases before the form moves use every player's session.
4. With a fixed number of client threads, measures in turn:
   - ``/readyz`` (one query, no session: the baseline every figure is divided
     by) if the site has it, else ``/healthz`` (no query),
   - the poll ``GET /m/<pk>/panel/?since=...`` answering 204 (the URL is
     read from the match page, as the browser does),
   - move POSTs ``/m/<pk>/act/`` as htmx, with the CSRF cookie and header,
     and the headers the panel sends (``Smoki-Log``: the log's version;
     ``Smoki-Panel``: what the page shows, from the previous answer or, after
     the form moves, read from the database as the page's poll would bring it),
   - the same move POSTs as a plain form (no htmx), answered by a redirect
     and no panel: how much of an htmx move its answer costs,
   - the public API (docs/api.md) with each player's personal token: a match
     read ``GET /api/v1/matches/<pk>?since=<stamp>`` while nothing changed
     (the API's poll, against the page's poll), the whole match read
     ``GET /api/v1/matches/<pk>`` (the seat's view and legal actions), and a
     move ``POST /api/v1/matches/<pk>/actions`` by action id (against the
     plain-form move). The server runs with the API's limits raised
     (``SMOKI_API_*_PER_MINUTE``): every request is still counted, none refused.
   Each phase stops after a number of requests or seconds, whichever comes
   first. The three phases run in turn ``--rounds`` times (3 by default),
   each round with a share of the requests, so a burst of other work on a
   shared machine touches every phase alike. Each thread owns its own
   matches, so moves never collide.
   Tasks the moves queue (bots, notifications) go to Celery's in-memory
   broker inside each server process and are never run.
5. Prints p50/p95/p99 latency and throughput per phase, checks that every
   match's stored state equals the state the client computed by applying
   the same moves (the rules are deterministic given the state), stops the
   server, and ends with each phase's throughput and p95 as a ratio to the
   baseline measured just before it, round by round, then the median of the
   rounds, then the API's ratios: API move ÷ form move (aim ≥ 1) and API read
   ÷ poll (aim ≥ 0.8), each the median of the rounds (the last lines).

The client knows each match's state: it reads it once from the database and
then applies its own moves locally, so no database read happens between
requests. The CSRF cookie is a random secret chosen by the client and echoed
in the X-CSRFToken header, exactly as a browser's JavaScript would.
"""

from __future__ import annotations

import argparse
import html
import http.client
import json
import os
import platform
import random
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/smoki_load"
HOST = "127.0.0.1"
POLLED_MATCHES = 50  # matches whose poller URL is read from their page for the poll phase


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=200, help="active 2-player matches")
    parser.add_argument("--server-workers", type=int, default=4, help="gunicorn processes")
    parser.add_argument("--concurrency", type=int, default=16, help="client threads")
    parser.add_argument("--moves", type=int, default=2000, help="move requests at most")
    parser.add_argument("--move-seconds", type=float, default=60, help="move phase at most")
    parser.add_argument(
        "--form-moves",
        type=int,
        default=600,
        help="plain-form move requests at most (answered by a redirect, no panel drawn)",
    )
    parser.add_argument("--baseline-requests", type=int, default=3000)
    parser.add_argument("--baseline-seconds", type=float, default=20)
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="the phases run in turn this many times, each with a share of the requests, "
        "so a burst of other work on the machine touches every phase alike",
    )
    parser.add_argument(
        "--conn-max-age",
        type=int,
        default=None,
        help="the server's CONN_MAX_AGE in seconds (0: a new connection per request); "
        "by default the server runs with the settings as they are",
    )
    parser.add_argument(
        "--whole-log",
        action="store_true",
        help="post htmx moves without the Smoki-Log header the panel sends, so every "
        "answer draws the log's last 30 lines (as before the move's answer carried its own)",
    )
    parser.add_argument(
        "--whole-panel",
        action="store_true",
        help="post htmx moves without the Smoki-Panel header the panel sends, so every "
        "answer draws the parts of the panel no move changes (as before the page kept them)",
    )
    return parser.parse_args()


# -- Database and data -------------------------------------------------------------


@dataclass
class Player:
    user_id: int
    cookie: str  # the Cookie header: session and CSRF cookies
    csrf: str
    bearer: str = ""  # a personal API token (match:read, match:play)


@dataclass
class Game:
    pk: int
    players: list[Player]  # by seat index
    state: dict
    version: int
    moves_sent: int = 0
    # What the page of the player to move shows of the match (its panel's
    # ``Smoki-Panel`` header, ``selectors.panel_shown``): read from each htmx
    # answer, or from the database (``refresh_shown``) as a poll would bring it.
    shown: str | None = None


PANEL_SHOWN = re.compile(rb'"Smoki-Panel": "([^"]+)"')


def refresh_shown(games: list[Game]) -> None:
    """What each match's open pages show once their polls have caught up with
    it: every match's ``selectors.panel_shown``, in one query (in English, the
    load test's players' language)."""
    from django.utils import translation

    from games.models import Match
    from games.panel.build import panel_shown

    matches = Match.objects.in_bulk([g.pk for g in games])
    with translation.override("en"):
        for g in games:
            g.shown = panel_shown(matches[g.pk])


def create_matches(n: int) -> list[Game]:
    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.sessions.backends.db import SessionStore

    from api import tokens
    from games.lobby import services as lobby
    from games.models import Match, MatchStatus

    User = get_user_model()
    run = secrets.token_hex(3)

    def player(name: str):
        user = User.objects.create_user(name, email=f"{name}@load.invalid", password=None)
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        csrf = secrets.token_hex(16)  # 32 characters, the length of a CSRF secret
        cookie = (
            f"{settings.SESSION_COOKIE_NAME}={session.session_key}; "
            f"{settings.CSRF_COOKIE_NAME}={csrf}"
        )
        _token, raw = tokens.make_token(user, "load", ["match:read", "match:play"])
        return user, Player(user.pk, cookie, csrf, raw)

    games = []
    for i in range(n):
        host, host_player = player(f"load-{run}-{i}a")
        guest, guest_player = player(f"load-{run}-{i}b")
        match = lobby.create_match(user=host, game_key="nogi", n_seats=2)
        lobby.join_match(user=guest, match=match)
        match = Match.objects.get(pk=match.pk)
        assert match.status == MatchStatus.ACTIVE
        games.append(Game(match.pk, [host_player, guest_player], match.state, match.version))
    print(f"created {n} active matches and {2 * n} logged-in users (run {run})")
    return games


# -- The server -----------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


STATIC_ROOT = tempfile.mkdtemp(prefix="smoki-static-")
# One key for the whole run: the sessions this script writes must be readable
# by the server it starts.
SECRET_KEY = secrets.token_urlsafe(50)


def server_env(database_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=database_url,
        DEBUG="false",
        SECRET_KEY=SECRET_KEY,
        SECURE_SSL_REDIRECT="false",
        STATIC_ROOT=STATIC_ROOT,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SESSION_COOKIE_SECURE="false",
        CSRF_COOKIE_SECURE="false",
        LOG_LEVEL="WARNING",
        # Tasks queued by moves (bots, notifications) go to an in-process
        # broker and vanish with the server: the web tier alone is measured
        # and no queue anywhere is left with load-test messages.
        CELERY_BROKER_URL="memory://localhost/",
        CELERY_TASK_ALWAYS_EAGER="false",
        # The API's limits, counted but never reached by one address's load.
        SMOKI_API_ADDRESS_PER_MINUTE=str(10**9),
        SMOKI_API_TOKEN_PER_MINUTE=str(10**9),
    )
    return env


class Server:
    def __init__(self, database_url: str, workers: int):
        self.port = free_port()
        self.log = tempfile.NamedTemporaryFile(  # noqa: SIM115 - closed in stop()
            prefix="smoki-gunicorn-", suffix=".log", delete=False
        )
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            f"--bind={HOST}:{self.port}",
            f"--workers={workers}",
            "--worker-class=sync",
            "--timeout=60",
            "--graceful-timeout=10",
            "--log-level=warning",
        ]
        # Pages name hashed static files with DEBUG=false: collect them first.
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=BASE_DIR,
            env=server_env(database_url),
            check=True,
        )
        self.process = subprocess.Popen(
            command,
            cwd=BASE_DIR,
            env=server_env(database_url),
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def wait_ready(self, seconds: float = 300) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"gunicorn exited early; see {self.log.name}")
            try:
                request("GET", self.port, "/healthz")
                return
            except OSError:
                time.sleep(0.2)
        raise SystemExit(f"gunicorn did not answer within {seconds} s; see {self.log.name}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.log.close()


# -- The client -----------------------------------------------------------------------


def request(method: str, port: int, path: str, *, body: str | None = None, headers=None):
    """One request on a fresh connection (gunicorn's sync workers close each one)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


@dataclass
class Phase:
    name: str
    expected: int  # the status every request should get
    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, status: int, latency: float) -> None:
        with self.lock:
            self.latencies.append(latency)
            self.statuses[status] = self.statuses.get(status, 0) + 1

    def rate(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds else 0.0

    def p95(self) -> float:
        values = sorted(self.latencies)
        return values[min(len(values) - 1, int(0.95 * len(values)))]

    def summary(self, concurrency: int) -> str:
        values = sorted(self.latencies)
        if not values:
            return f"{self.name:<12} no requests completed"

        def pct(p: float) -> float:
            return values[min(len(values) - 1, int(p / 100 * len(values)))] * 1000

        rate = len(values) / self.seconds if self.seconds else 0.0
        return (
            f"{self.name:<12} {len(values):>6} req in {self.seconds:5.1f} s"
            f" = {rate:7.1f} req/s at concurrency {concurrency};"
            f" p50 {pct(50):6.1f} ms  p95 {pct(95):6.1f} ms  p99 {pct(99):6.1f} ms;"
            f" statuses {dict(sorted(self.statuses.items()))}"
        )


def merged(name: str, parts: list[Phase]) -> Phase:
    """One phase's rounds as one: all their requests over all their seconds."""
    whole = Phase(name, parts[0].expected)
    for part in parts:
        whole.latencies += part.latencies
        whole.errors += part.errors
        whole.seconds += part.seconds
        for status, count in part.statuses.items():
            whole.statuses[status] = whole.statuses.get(status, 0) + count
    return whole


def print_ratios(rounds: list[list[Phase]]) -> None:
    """Each phase against the baseline measured just before it, round by round,
    then the median over the rounds: throughput and p95 as ratios."""
    usable = [r for r in rounds if r and r[0].name in ("readyz", "healthz") and r[0].latencies]
    if not usable:
        return
    names = [phase.name for phase in usable[0][1:]]
    print(f"\nratios to /{usable[0][0].name} (throughput; p95), round by round:")
    medians = {}
    for index, name in enumerate(names, start=1):
        pairs = [
            (r[index].rate() / r[0].rate(), r[index].p95() / r[0].p95())
            for r in usable
            if len(r) > index and r[index].latencies
        ]
        rounds_text = "  ".join(f"{rate:.2f}x; {p95:.1f}x" for rate, p95 in pairs)
        print(f"  {name:<12} {rounds_text}")
        medians[name] = (
            statistics.median(rate for rate, _p95 in pairs),
            statistics.median(p95 for _rate, p95 in pairs),
        )
    print(f"\nratios to /{usable[0][0].name} in this run, median of {len(usable)} rounds:")
    for name, (rate, p95) in medians.items():
        print(f"  {name:<12} {rate:5.2f}x the throughput; p95 {p95:5.1f}x")


def print_htmx_over_form(rounds: list[list[Phase]]) -> None:
    """The htmx move against the plain-form move of the same round (issue 29's
    target: throughput at least 0.75 of the form's, p95 at most 1.5 times its):
    what answering with the panel costs beyond the write itself."""
    pairs = []
    for phases in rounds:
        named = {phase.name: phase for phase in phases if phase.latencies}
        htmx, form = named.get("move (POST)"), named.get("move (form)")
        if htmx and form:
            pairs.append((htmx.rate() / form.rate(), htmx.p95() / form.p95()))
    if not pairs:
        return
    rounds_text = "  ".join(f"{rate:.2f}x; {p95:.2f}x" for rate, p95 in pairs)
    print(f"\nhtmx move ÷ form move (throughput; p95), round by round: {rounds_text}")
    print(
        f"htmx move ÷ form move, median of {len(pairs)} rounds:"
        f" {statistics.median(rate for rate, _p95 in pairs):.2f}x the throughput;"
        f" p95 {statistics.median(p95 for _rate, p95 in pairs):.2f}x"
    )


def print_api_ratios(rounds: list[list[Phase]]) -> None:
    """The API against the page in the same round (issue 44's targets: an API
    move at least the plain-form move's throughput, an API match read at
    least 0.8 of the poll's): throughput and p95 as ratios, round by round,
    then the median."""
    pairs = {
        "API move ÷ form move": ("api move", "move (form)", 1.0),
        "API read (since) ÷ poll": ("api read", "poll (204)", 0.8),
        "API read (whole) ÷ poll": ("api match", "poll (204)", None),
    }
    print()
    for label, (mine, theirs, aim) in pairs.items():
        ratios = []
        for phases in rounds:
            named = {phase.name: phase for phase in phases if phase.latencies}
            if mine in named and theirs in named:
                a, b = named[mine], named[theirs]
                ratios.append((a.rate() / b.rate(), a.p95() / b.p95()))
        if not ratios:
            continue
        rounds_text = "  ".join(f"{rate:.2f}x; {p95:.2f}x" for rate, p95 in ratios)
        median = statistics.median(rate for rate, _p95 in ratios)
        target = f" (aim ≥ {aim})" if aim else ""
        print(f"{label} (throughput; p95), round by round: {rounds_text}")
        print(
            f"{label}, median of {len(ratios)} rounds: {median:.2f}x the throughput{target};"
            f" p95 {statistics.median(p95 for _rate, p95 in ratios):.2f}x"
        )


def run_phase(phase: Phase, concurrency: int, limit: int, seconds: float, step) -> None:
    """Call ``step(thread_index)`` from ``concurrency`` threads until ``limit`` calls
    have started or ``seconds`` have passed. ``step`` returns (status, latency)."""
    counter = iter(range(limit))
    counter_lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def worker(index: int) -> None:
        while time.monotonic() < deadline:
            with counter_lock:
                if next(counter, None) is None:
                    return
            try:
                status, latency = step(index)
            except Exception as error:  # noqa: BLE001 - counted and shown
                with phase.lock:
                    phase.errors.append(repr(error))
                continue
            phase.record(status, latency)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(concurrency)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    phase.seconds = time.monotonic() - started


def timed(method: str, port: int, path: str, **kwargs) -> tuple[int, float, bytes]:
    started = time.perf_counter()
    status, body = request(method, port, path, **kwargs)
    return status, time.perf_counter() - started, body


def _closing(step, *args):
    """``step(*args)``, then the client's database connection closed (opened
    only to resynchronise a match; one per thread)."""
    from django.db import connection

    try:
        return step(*args)
    finally:
        connection.close()


def poll_url(port: int, g: Game) -> str:
    """The URL the match page polls; what "since" carries is the page's business."""
    status, body = request("GET", port, f"/m/{g.pk}/", headers={"Cookie": g.players[0].cookie})
    found = re.search(rb'hx-get="(/m/\d+/panel/\?since=[^"]*)"', body)
    if status != 200 or not found:
        raise SystemExit(f"no poller on the page of match {g.pk} (status {status})")
    return html.unescape(found.group(1).decode())


def main() -> int:
    args = parse_args()
    database_url = os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL)
    if not database_url.startswith(("postgres://", "postgresql://")):
        raise SystemExit("the load test needs PostgreSQL: DATABASE_URL=postgres://...")
    if args.matches < args.concurrency:
        raise SystemExit("--matches must be at least --concurrency (each thread owns matches)")
    import startup  # the scripts' shared start (this file is also imported by the fault run)

    startup.start(database_url, env=server_env(database_url), migrate=True)
    from django.db import connection

    from api.payloads import action_id
    from games.engine import registry
    from games.models import Match

    game = registry.get("nogi")
    games = create_matches(args.matches)
    connection.close()

    served_url = database_url
    if args.conn_max_age is not None:
        separator = "&" if "?" in served_url else "?"
        served_url += f"{separator}conn_max_age={args.conn_max_age}&conn_health_checks=true"

    print(
        f"machine: {os.cpu_count()} CPUs, {platform.platform()}, Python {platform.python_version()};"
        f" load average before: {os.getloadavg()[0]:.2f}"
    )
    print(
        f"server: gunicorn, {args.server_workers} sync workers, DEBUG=false,"
        f" CONN_MAX_AGE={'settings default' if args.conn_max_age is None else args.conn_max_age}; client: {args.concurrency} threads"
    )
    server = Server(served_url, args.server_workers)
    rounds: list[list[Phase]] = []
    try:
        server.wait_ready()
        port = server.port

        # Warm every worker up (imports, compiled templates, catalogues) and check
        # the sessions work. From all client threads at once: one request after
        # another would mostly reach the same idle worker and leave the others
        # to compile their templates inside the first round's htmx moves.
        def warm(g) -> None:
            player = g.players[game.current_seats(g.state)[0]]
            status, _body = request("GET", port, f"/m/{g.pk}/", headers={"Cookie": player.cookie})
            assert status == 200, f"match page answered {status}"
            # The API's path too (its first answers in a worker), as the pages'.
            status, _body = request(
                "GET",
                port,
                f"/api/v1/matches/{g.pk}",
                headers={"Authorization": f"Bearer {player.bearer}"},
            )
            assert status == 200, f"the API's read answered {status}"

        with ThreadPoolExecutor(args.concurrency) as pool:
            list(pool.map(warm, games[: 8 * args.server_workers]))

        # Every player's token used once, as every player's session is by
        # the phases before the form moves (the htmx moves and the polls):
        # both then measure a player who has been here before, and neither
        # the token's first use (its lookup, its last use written) nor the
        # session's first read (from the database) lands in a timed phase.
        def first_use(player: Player) -> None:
            status, _body = request(
                "GET", port, "/api/v1/me", headers={"Authorization": f"Bearer {player.bearer}"}
            )
            assert status == 200, f"the API's /me answered {status}"

        with ThreadPoolExecutor(args.concurrency) as pool:
            list(pool.map(first_use, [p for g in games for p in g.players]))
        to_move = games[0].players[game.current_seats(games[0].state)[0]]
        status, body = request(
            "GET", port, f"/m/{games[0].pk}/", headers={"Cookie": to_move.cookie}
        )
        assert b'name="action"' in body, "the player to move is not offered a move: not logged in?"

        baseline = next(
            (url for url in ("/readyz", "/healthz") if request("GET", port, url)[0] == 200), None
        )
        if baseline is None:
            print("neither /readyz nor /healthz answered 200: no baseline")

        # The poller's URL as each match page renders it for its first player,
        # read again before each round's polls (the moves between change it).
        polled: list = []

        def poll(_i: int):
            g, url = random.choice(polled)
            status, latency, _body = timed(
                "GET", port, url, headers={"Cookie": g.players[0].cookie, "HX-Request": "true"}
            )
            return status, latency

        owned = [games[i :: args.concurrency] for i in range(args.concurrency)]
        cursor = [0] * args.concurrency

        def move(i: int, htmx: bool = True):
            mine = [g for g in owned[i] if not g.state["over"]]
            g = mine[cursor[i] % len(mine)]
            cursor[i] += 1
            (seat,) = game.current_seats(g.state)
            player = g.players[seat]
            action = random.choice(game.legal_actions(g.state, seat))
            body = urllib.parse.urlencode({"action": json.dumps(action), "version": g.version})
            headers = {
                "Cookie": player.cookie,
                "X-CSRFToken": player.csrf,
                "Content-Type": "application/x-www-form-urlencoded",
            }
            if htmx:
                headers["HX-Request"] = "true"
                if g.version and not args.whole_log:  # as the panel's hx-headers send it
                    headers["Smoki-Log"] = str(g.version)
                if g.shown and not args.whole_panel:
                    headers["Smoki-Panel"] = g.shown
            status, latency, answer = timed(
                "POST", port, f"/m/{g.pk}/act/", body=body, headers=headers
            )
            if status == (200 if htmx else 302):
                g.state = game.apply(g.state, seat, action)[0]
                g.version += 1
                g.moves_sent += 1
                # The next move's page: this answer's panel (the other player's
                # page shows the same once its poll has brought it).
                shown = PANEL_SHOWN.search(answer) if htmx else None
                g.shown = shown.group(1).decode() if shown else None
            else:  # resynchronise from the database
                fresh = Match.objects.get(pk=g.pk)
                g.state, g.version = fresh.state, fresh.version
                g.shown = None
            return status, latency

        def api_move(i: int):
            """A move through the API: the action's id and the version seen."""
            mine = [g for g in owned[i] if not g.state["over"]]
            g = mine[cursor[i] % len(mine)]
            cursor[i] += 1
            (seat,) = game.current_seats(g.state)
            action = random.choice(game.legal_actions(g.state, seat))
            body = json.dumps({"action_id": action_id(action), "version": g.version})
            headers = {
                "Authorization": f"Bearer {g.players[seat].bearer}",
                "Content-Type": "application/json",
            }
            status, latency, _answer = timed(
                "POST", port, f"/api/v1/matches/{g.pk}/actions", body=body, headers=headers
            )
            if status == 200:
                g.state = game.apply(g.state, seat, action)[0]
                g.version += 1
                g.moves_sent += 1
            else:  # resynchronise from the database
                fresh = Match.objects.get(pk=g.pk)
                g.state, g.version = fresh.state, fresh.version
            g.shown = None
            return status, latency

        # The API's reads: each polled match with its first player's token and
        # the stamp of a whole read made before the round's reads.
        api_polled: list = []

        def api_stamp(g: Game) -> str:
            status, body = request(
                "GET",
                port,
                f"/api/v1/matches/{g.pk}",
                headers={"Authorization": f"Bearer {g.players[0].bearer}"},
            )
            if status != 200:
                raise SystemExit(f"the API's read of match {g.pk} answered {status}")
            return json.loads(body)["stamp"]

        def api_read(_i: int, since: bool = True):
            g, stamp = random.choice(api_polled)
            url = f"/api/v1/matches/{g.pk}" + (
                f"?since={urllib.parse.quote(stamp)}" if since else ""
            )
            status, latency, body = timed(
                "GET", port, url, headers={"Authorization": f"Bearer {g.players[0].bearer}"}
            )
            if since and status == 200 and b'"changed": false' not in body:
                raise AssertionError(f"match {g.pk} changed under the API's poll")
            return status, latency

        def move_and_close(i: int, htmx: bool = True):
            return _closing(move, i, htmx)

        # The phases in turn, round after round, each round a share of the requests.
        share = max(1, args.rounds)
        for _round in range(share):
            this_round: list[Phase] = []
            if baseline is not None:
                phase = Phase(baseline.strip("/"), 200)
                run_phase(
                    phase,
                    args.concurrency,
                    args.baseline_requests // share,
                    args.baseline_seconds / share,
                    lambda _i: timed("GET", port, baseline)[:2],
                )
                this_round.append(phase)
            polled[:] = [(g, poll_url(port, g)) for g in games[:POLLED_MATCHES]]
            phase = Phase("poll (204)", 204)
            run_phase(
                phase,
                args.concurrency,
                args.baseline_requests // share,
                args.baseline_seconds / share,
                poll,
            )
            this_round.append(phase)
            refresh_shown(games)  # the pages' polls have caught up with the form moves
            connection.close()
            phase = Phase("move (POST)", 200)
            run_phase(
                phase,
                args.concurrency,
                args.moves // share,
                args.move_seconds / share,
                move_and_close,
            )
            this_round.append(phase)
            phase = Phase("move (form)", 302)
            run_phase(
                phase,
                args.concurrency,
                args.form_moves // share,
                args.move_seconds / share,
                lambda i: move_and_close(i, htmx=False),
            )
            this_round.append(phase)
            # The API: its poll and whole read of the same matches, then its moves.
            api_polled[:] = [(g, api_stamp(g)) for g in games[:POLLED_MATCHES]]
            phase = Phase("api read", 200)
            run_phase(
                phase,
                args.concurrency,
                args.baseline_requests // share,
                args.baseline_seconds / share,
                api_read,
            )
            this_round.append(phase)
            phase = Phase("api match", 200)
            run_phase(
                phase,
                args.concurrency,
                args.baseline_requests // share,
                args.baseline_seconds / share,
                lambda i: api_read(i, since=False),
            )
            this_round.append(phase)
            phase = Phase("api move", 200)
            run_phase(
                phase,
                args.concurrency,
                args.form_moves // share,
                args.move_seconds / share,
                lambda i: _closing(api_move, i),
            )
            this_round.append(phase)
            rounds.append(this_round)
    except BaseException:
        print(f"server log: {server.log.name}")
        raise
    finally:
        server.stop()

    phases = [
        merged(name, [r[index] for r in rounds])
        for index, name in enumerate(phase.name for phase in rounds[0])
    ]
    print(f"\nall {len(rounds)} rounds together:")
    for phase in phases:
        print(phase.summary(args.concurrency))
        for error in phase.errors[:5]:
            print(f"    error: {error}")

    stored = {m.pk: m for m in Match.objects.filter(pk__in=[g.pk for g in games])}
    wrong = [
        g.pk for g in games if (stored[g.pk].state, stored[g.pk].version) != (g.state, g.version)
    ]
    played = sum(g.moves_sent for g in games)
    print(f"\n{played} moves applied; stored states match the client's replay: {not wrong}")
    print(f"load average (1 min) after the run: {os.getloadavg()[0]:.2f}")
    failed = bool(wrong) or any(p.errors for p in phases)
    failed = failed or any(set(p.statuses) != {p.expected} for p in phases)
    if failed:
        print(f"FAILED: mismatched matches {wrong[:10]}; server log {server.log.name}")
    print_ratios(rounds)
    print_htmx_over_form(rounds)
    print_api_ratios(rounds)
    if failed:
        return 1
    os.unlink(server.log.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
