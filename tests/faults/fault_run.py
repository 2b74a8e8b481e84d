"""Fault run: the production setup, broken on purpose, then checked for losses.

    uv run python tests/faults/fault_run.py          # or: make faults
    uv run python tests/faults/fault_run.py --help   # the load's size and pace; --prodlike

Everything runs on this machine and only touches what it starts itself:
a fresh PostgreSQL database (``smoki_faults`` on DATABASE_URL's server, or
``SMOKI_FAULT_DB``), its
own ``redis-server`` on a free port for the broker and another for the cache
(``CACHE_URL``, reached through a TCP proxy in this script that can be cut),
an aiosmtpd server inside this script, two Celery workers (``-Q celery,bots`` and
``-Q mail``), two beats, and gunicorn.
Clocks and retries are shortened by the environment (beat every 2 s, relay
after 3 s, stuck claims after 20 s, SMTP timeout 3 s).

A steady load all along (``Load``): client threads play matches of every
game through gunicorn at a player's pace (any legal move), a fresh match
replacing each one that ends. Faults, in turn:
the mail worker killed mid-delivery; the broker's Redis stopped, then frozen
(SIGSTOP); the cache's Redis cut off (the proxy drops every connection), then
frozen; the mail server refusing (451), vanishing and hanging; the default
worker stopped while deadlines pass (late moves arrive meanwhile); gunicorn's
workers killed mid-move; two beats all along. Meanwhile another thread reads
signed-in pages. Each phase checks that its fault landed (a delivery was
under way when the mail worker died, the web processes logged the lost
broker or cache, the mail worker logged failed attempts, a connection was
cut mid-request) and fails otherwise; after every phase every worker must
be alive and consuming (``python -m config.workers``: a ping answered, a
task sent to each queue run), and every phase must have posted moves.
``--prodlike`` runs against ``make prodlike`` instead
(tests/faults/prodlike_run.py).

Then it waits for the outbox to drain and asserts: every match's log replays
to its stored state with no gap (no move half-applied or lost), every
accepted move is in the log, no email arrived twice, every email row is
sent, failed (visible to moderators) or skipped with its reason, each
overdue match was timed out exactly once with no stale reminder, no bot turn
left waiting, no move request or signed-in page answered 5xx, and every
move posted while the cache was cut or frozen was accepted. Prints the figures for
docs/reliability.md and exits non-zero on any violation.
"""

from __future__ import annotations

import argparse
import contextlib
import email
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
from collections import Counter
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(BASE_DIR))

from tests.faults.tcp_proxy import TcpProxy  # noqa: E402
from tests.load.move_load import (  # noqa: E402
    HOST,
    SECRET_KEY,
    STATIC_ROOT,
    free_port,
    request,
)

ADMIN_URL = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/smoki")
parts = urllib.parse.urlsplit(ADMIN_URL)
# Its own database, dropped and made afresh (SMOKI_FAULT_DB names another).
FAULT_DB = os.environ.get("SMOKI_FAULT_DB", "smoki_faults")
DATABASE_URL = urllib.parse.urlunsplit(parts._replace(path=f"/{FAULT_DB}", query=""))
REDIS_PORT = free_port()
REDIS_URL = f"redis://{HOST}:{REDIS_PORT}/0"
CACHE_REDIS_PORT = free_port()
CACHE_PROXY = TcpProxy(HOST, CACHE_REDIS_PORT)
CACHE_URL = f"{CACHE_PROXY.url_base}/0"
SMTP_PORT = free_port()
WEB_PORT = free_port()
LOGS = Path(os.environ.get("SMOKI_FAULT_LOGS", "/tmp/smoki-faults"))

ENV = {
    **os.environ,
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "DATABASE_URL": DATABASE_URL,
    "CELERY_BROKER_URL": REDIS_URL,
    "CACHE_URL": CACHE_URL,
    "SMOKI_CACHE_TIMEOUT": "0.5",
    "SMOKI_CACHE_PAUSE_SECONDS": "5",
    "CELERY_TASK_ALWAYS_EAGER": "false",
    "EMAIL_URL": f"smtp://{HOST}:{SMTP_PORT}",
    "DEFAULT_FROM_EMAIL": "smoki@faults.invalid",
    "DEBUG": "false",
    "SECRET_KEY": SECRET_KEY,
    "SECURE_SSL_REDIRECT": "false",
    "STATIC_ROOT": STATIC_ROOT,
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "SESSION_COOKIE_SECURE": "false",
    "CSRF_COOKIE_SECURE": "false",
    "LOG_LEVEL": "WARNING",
    "SMOKI_BEAT_SECONDS": "2",
    "SMOKI_RELAY_AFTER_SECONDS": "3",
    "SMOKI_RETRY_BASE_SECONDS": "1",
    "SMOKI_RETRY_MAX_SECONDS": "4",
    "SMOKI_EMAIL_ATTEMPTS": "10000",
    "SMOKI_STUCK_AFTER_SECONDS": "20",
    "SMOKI_BROKER_PAUSE_SECONDS": "2",
    "SMOKI_SMTP_TIMEOUT": "3",
    "SMOKI_BROKER_TIMEOUT": "1",
}
os.environ.update({k: v for k, v in ENV.items() if k != "DJANGO_SETTINGS_MODULE"})
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"


# -- Processes ------------------------------------------------------------------------


class Proc:
    """A child process with its own log file, stopped by its id only."""

    def __init__(self, name: str, command: list[str]):
        self.name, self.command = name, command
        self.process = None
        self.start()

    def start(self):
        log = open(LOGS / f"{self.name}.log", "a")  # noqa: SIM115 - kept for the child
        self.process = subprocess.Popen(
            self.command,
            cwd=BASE_DIR,
            env=ENV,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own group: a kill takes its children too
        )

    def signal(self, sig):
        if self.process.poll() is None:
            os.kill(self.process.pid, sig)

    def kill(self):
        """SIGKILL the process and the children it forked (its own group)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


def celery(name: str, *args: str) -> Proc:
    return Proc(name, [sys.executable, "-m", "celery", "-A", "config", *args, "-l", "WARNING"])


def children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(line) for line in out.split()]


# -- The mail server --------------------------------------------------------------------


class Inbox:
    """Keeps every message by its X-Smoki-Ref; can refuse or hang."""

    def __init__(self):
        self.mode = "accept"
        self.refs: Counter = Counter()
        self.answered: Counter = Counter()  # mode -> messages it was used on
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        import asyncio

        with self.lock:
            self.answered[self.mode] += 1
        if self.mode == "refuse":
            return "451 Try again later"
        if self.mode == "hang":
            await asyncio.sleep(30)
            return "451 Too late"
        message = email.message_from_bytes(envelope.content)
        ref = f"{message['X-Smoki-Ref']}:{','.join(envelope.rcpt_tos)}"
        if message["X-Smoki-Ref"].startswith("digest-"):
            ref += f":{message['Date']}"
        with self.lock:
            self.refs[ref] += 1
        return "250 Message accepted for delivery"


# -- Players --------------------------------------------------------------------------


GAMES = ("nogi", "drako", "drakon", "drakon_classic", "seven_dragons")


def new_player(name: str):
    """A user with a signed-in session, as a browser holds it."""
    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.sessions.backends.db import SessionStore

    from tests.load.move_load import Player

    user = get_user_model().objects.create_user(name, email=f"{name}@faults.invalid")
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    csrf = secrets.token_hex(16)
    cookie = (
        f"{settings.SESSION_COOKIE_NAME}={session.session_key}; {settings.CSRF_COOKIE_NAME}={csrf}"
    )
    return user, Player(user.pk, cookie, csrf)


@dataclass
class Table:
    """One match being played: its seats' players (people only; bots play
    their own seats through the bots' worker) and when each may move next."""

    pk: int
    game: str
    players: dict  # seat index -> Player
    against_bots: bool
    due: float = 0.0  # monotonic time of the next move: a player's pace


class Load:
    """A steady load for the whole run: ``humans`` two-player matches between
    people and ``bots`` matches against a bot at any moment, over every game
    in turn. A match that ends is replaced by a fresh one of the same game,
    and every player thinks for a while (``pace``, seconds) before each move,
    choosing any legal move, so matches last and the load does not stop."""

    def __init__(self, humans: int, bots: int, pace: tuple[float, float], seed: int):
        self.rng = random.Random(seed)
        self.pace = pace
        self.lock = threading.Lock()
        self.run = secrets.token_hex(3)
        self.count = 0
        self.tables: list[Table] = []
        self.bot_matches: list[tuple[int, object]] = []  # every match against a bot so far
        self.started: Counter = Counter()
        self.finished: Counter = Counter()
        for index in range(humans + bots):
            self.tables.append(self.new_table(GAMES[index % len(GAMES)], index >= humans))

    def new_table(self, game_key: str, against_bots: bool) -> Table:
        from games.lobby import services as lobby

        with self.lock:
            self.count += 1
            n = self.count
        host, host_player = new_player(f"faults-{self.run}-{n}a")
        match = lobby.create_match(user=host, game_key=game_key, n_seats=2)
        players = {0: host_player}
        if against_bots:
            lobby.fill_with_bots(user=host, match=match)
            with self.lock:
                self.bot_matches.append((match.pk, host_player))
        else:
            guest, guest_player = new_player(f"faults-{self.run}-{n}b")
            lobby.join_match(user=guest, match=match)
            players[1] = guest_player
        with self.lock:
            self.started[game_key] += 1
        return Table(match.pk, game_key, players, against_bots, due=self.think())

    def think(self) -> float:
        with self.lock:
            return time.monotonic() + self.rng.uniform(*self.pace)

    def choose(self, actions: list):
        with self.lock:
            return self.rng.choice(actions)

    def replace(self, table: Table) -> Table:
        """A fresh match of the same game in place of one that ended."""
        with self.lock:
            self.finished[table.game] += 1
        fresh = self.new_table(table.game, table.against_bots)
        with self.lock:
            self.tables[self.tables.index(table)] = fresh
        return fresh

    def targets(self) -> list[tuple[int, dict]]:
        with self.lock:
            return [(t.pk, t.players) for t in self.tables]


class Stats:
    def __init__(self):
        self.statuses: Counter = Counter()
        self.by_game: Counter = Counter()  # game -> moves answered 200
        self.accepted: Counter = Counter()  # match pk -> moves answered as done
        self.unknown = 0  # connection dropped: the move may or may not be saved
        self.slowest = 0.0
        self.in_flight = 0
        self.lock = threading.Lock()

    def merge(self, other: Stats) -> None:
        self.statuses.update(other.statuses)
        self.by_game.update(other.by_game)
        self.accepted.update(other.accepted)
        self.unknown += other.unknown
        self.slowest = max(self.slowest, other.slowest)


def move_once(match_pk: int, players: dict[int, object], stats: Stats, choose=None) -> str:
    """Read the match, post a legal move for whoever of ``players`` is to
    move, record the answer. Says what it found: "moved", "waiting" (a bot or
    nobody of ours to move) or "over" (the match ended)."""
    import json

    from games.engine import registry
    from games.models import Match

    match = Match.objects.get(pk=match_pk)
    if match.status != "active":
        return "over"
    game = registry.get(match.game_key)
    seats = game.current_seats(match.state)
    humans = [s for s in seats if s in players]
    if not humans:
        return "waiting"
    seat = humans[0]
    actions = game.legal_actions(match.state, seat)
    action = choose(actions) if choose else actions[0]
    player = players[seat]
    body = urllib.parse.urlencode({"action": json.dumps(action), "version": match.version})
    headers = {
        "Cookie": player.cookie,
        "X-CSRFToken": player.csrf,
        "Content-Type": "application/x-www-form-urlencoded",
        "HX-Request": "true",
        "Referer": f"http://{HOST}:{WEB_PORT}/",
    }
    started = time.monotonic()
    with stats.lock:
        stats.in_flight += 1
    try:
        status, _body = request("POST", WEB_PORT, f"/m/{match_pk}/act/", body=body, headers=headers)
    except OSError:
        with stats.lock:
            stats.unknown += 1
            stats.in_flight -= 1
        return "moved"
    with stats.lock:
        stats.in_flight -= 1
        stats.statuses[status] += 1
        stats.slowest = max(stats.slowest, time.monotonic() - started)
        if status == 200:
            stats.accepted[match_pk] += 1
            stats.by_game[match.game_key] += 1
    return "moved"


def play(load: Load, stats: Stats, seconds: float, threads: int = 4):
    """Client threads playing their share of the load's tables for
    ``seconds``: each table's player moves when their pace allows, and a
    match that ends is replaced at once."""
    from django.db import connections

    stop = time.monotonic() + seconds

    def worker(index: int):
        try:
            while time.monotonic() < stop:
                with load.lock:
                    mine = load.tables[index::threads]
                now = time.monotonic()
                due = [t for t in mine if t.due <= now]
                for table in due:
                    if time.monotonic() >= stop:
                        break
                    found = move_once(table.pk, table.players, stats, load.choose)
                    if found == "over":
                        load.replace(table)
                    else:
                        # A bot's turn is looked at again soon; a player
                        # thinks before their next move.
                        table.due = load.think() if found == "moved" else now + 0.5
                if not due:
                    time.sleep(0.05)
        finally:
            connections.close_all()

    pool = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    for thread in pool:
        thread.start()
    return pool


def read_pages(load: Load, pages: Counter, seconds: float) -> threading.Thread:
    """A player reading signed-in pages (the lobby, a match) for ``seconds``."""

    def reader():
        stop = time.monotonic() + seconds
        index = 0
        while time.monotonic() < stop:
            targets = load.targets()
            pk, players = targets[index % len(targets)]
            index += 1
            cookie = {"Cookie": players[0].cookie}
            for path in ("/", f"/m/{pk}/"):
                try:
                    status, _body = request("GET", WEB_PORT, path, headers=cookie)
                except OSError:
                    status = "dropped"
                pages[status] += 1
            time.sleep(0.05)

    thread = threading.Thread(target=reader)
    thread.start()
    return thread


def log_size(name: str) -> int:
    path = LOGS / f"{name}.log"
    return path.stat().st_size if path.exists() else 0


def log_since(name: str, mark: int) -> str:
    with open(LOGS / f"{name}.log", "rb") as log:
        log.seek(mark)
        return log.read().decode(errors="replace")


def join(pool):
    for thread in pool:
        thread.join()


# -- The run --------------------------------------------------------------------------


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=16, help="matches between people at once")
    parser.add_argument("--bot-matches", type=int, default=6, help="matches against a bot at once")
    parser.add_argument(
        "--pace",
        type=float,
        nargs=2,
        default=(1.0, 4.0),
        metavar=("LEAST", "MOST"),
        help="seconds a player thinks before each move (drawn between the two)",
    )
    parser.add_argument("--seed", type=int, default=None, help="the players' choices")
    parser.add_argument("--threads", type=int, default=4, help="client threads")
    parser.add_argument(
        "--prodlike",
        nargs="?",
        const=str(BASE_DIR / "var/prodlike"),
        help="run against make prodlike instead (its folder, var/prodlike):"
        " its processes killed, supervisord restarting them (tests/faults/prodlike_run.py)",
    )
    parser.add_argument("--url", default="http://127.0.0.1:8080", help="with --prodlike")
    parser.add_argument(
        "--database-url",
        default="postgres://postgres@127.0.0.1:5432/smoki_prodlike",
        help="with --prodlike: its database",
    )
    parser.add_argument("--redis", default="redis://127.0.0.1:6379", help="with --prodlike")
    parser.add_argument("--broker-db", default="0", help="with --prodlike: the broker's index")
    return parser.parse_args(argv)


NODES = {"worker": f"default@{socket.gethostname()}", "mail": f"mail@{socket.gethostname()}"}
QUEUES = ("celery", "bots", "mail")


def workers_consuming(procs: list[Proc], timeout: float = 90.0) -> list[str]:
    """Every worker alive and consuming: its process is running, it answers a
    ping, and a task sent to each queue is run (``python -m config.workers``)."""
    problems = [
        f"the {proc.name} worker has exited" for proc in procs if proc.process.poll() is not None
    ]
    command = [sys.executable, "-m", "config.workers", "--timeout", str(timeout)]
    for proc in procs:
        command += ["--node", NODES[proc.name]]
    for queue in QUEUES:
        command += ["--queue", queue]
    found = subprocess.run(command, cwd=BASE_DIR, env=ENV, capture_output=True, text=True)
    if found.returncode:
        problems += found.stdout.strip().splitlines() or [found.stderr.strip()[-300:]]
    return problems


def main(argv=None) -> int:  # noqa: PLR0915 - one scripted story, read top to bottom
    args = parse_args(argv)
    if args.prodlike:
        from tests.faults.prodlike_run import run

        return run(args)
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    LOGS.mkdir(parents=True, exist_ok=True)
    import psycopg

    admin = urllib.parse.urlunsplit(parts._replace(path="/postgres", query=""))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{FAULT_DB}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{FAULT_DB}"')
    run = [sys.executable, "manage.py"]
    subprocess.run([*run, "migrate", "-v0"], cwd=BASE_DIR, env=ENV, check=True)
    subprocess.run([*run, "collectstatic", "--noinput", "-v0"], cwd=BASE_DIR, env=ENV, check=True)

    import django

    django.setup()
    from aiosmtpd.controller import Controller

    redis = Proc(
        "redis", ["redis-server", "--port", str(REDIS_PORT), "--save", "", "--appendonly", "no"]
    )
    cache_redis = Proc(
        "cache-redis",
        ["redis-server", "--port", str(CACHE_REDIS_PORT), "--save", "", "--appendonly", "no"],
    )
    inbox = Inbox()
    smtp = {}

    def smtp_up():
        # A stopped controller cannot start again: a vanished server comes back new.
        smtp["server"] = Controller(inbox, hostname=HOST, port=SMTP_PORT)
        smtp["server"].start()

    smtp_up()
    worker = celery("worker", "worker", "-Q", "celery,bots", "-c", "2", "-n", NODES["worker"])
    mailer = celery("mail", "worker", "-Q", "mail", "-c", "2", "-n", NODES["mail"])
    beats = [celery(f"beat{i}", "beat", "-s", str(LOGS / f"beat{i}-schedule")) for i in (1, 2)]
    web = Proc(
        "gunicorn",
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            f"--bind={HOST}:{WEB_PORT}",
            "--workers=2",
            "--timeout=60",
            "--log-level=warning",
        ],
    )
    for _ in range(150):
        try:
            request("GET", WEB_PORT, "/healthz")
            break
        except OSError:
            time.sleep(0.2)
    figures: list[str] = []
    failures: list[str] = []
    stats = Stats()
    try:
        load = Load(args.matches, args.bot_matches, tuple(args.pace), seed)
        print(
            f"-- {args.matches} matches between people and {args.bot_matches} against a bot at"
            f" once, over {len(GAMES)} games; players think {args.pace[0]:g}-{args.pace[1]:g} s"
            f" a move (seed {seed})",
            flush=True,
        )
        pages: Counter = Counter()
        started = time.monotonic()

        def check_workers(after: str) -> None:
            """After each phase: every worker alive and consuming. A worker
            that exited is started again so that the run goes on, and the run
            fails."""
            problems = workers_consuming([worker, mailer])
            for proc in (worker, mailer):
                if proc.process.poll() is not None:
                    proc.start()
            figures.append(f"{after}: workers {'; '.join(problems) or 'alive and consuming'}")
            failures.extend(f"after {after}: {problem}" for problem in problems)

        def phase(
            name: str,
            seconds: float,
            fault=None,
            heal=None,
            at: float = 2.0,
            landed=None,
            all_accepted: bool = False,
        ) -> Stats:
            """Moves and page reads for ``seconds``, ``fault`` after ``at``;
            then ``landed()`` says whether the fault bit (a description, or
            None if it did not: a violation)."""
            print(f"-- {name}", flush=True)
            mine = Stats()
            marks = {log: log_size(log) for log in ("gunicorn", "mail")}
            pool = play(load, mine, seconds, args.threads)
            reader = read_pages(load, pages, seconds)
            if fault:
                time.sleep(at)
                fault(mine)
            join([*pool, reader])
            if heal:
                heal()
            stats.merge(mine)
            if landed:
                found = landed(mine, {log: log_since(log, mark) for log, mark in marks.items()})
                figures.append(f"{name}: {found or 'THE FAULT DID NOT LAND'}")
                if not found:
                    failures.append(f"{name}: the fault did not land")
            posted = sum(mine.statuses.values()) + mine.unknown
            figures.append(f"{name}: {posted} moves posted, {dict(mine.by_game)} accepted by game")
            if not posted:
                failures.append(f"{name}: no move was posted")
            check_workers(name)
            if all_accepted:
                if not posted or set(mine.statuses) != {200} or mine.unknown:
                    failures.append(f"{name}: not every move accepted: {dict(mine.statuses)}")
                figures.append(f"{name}: moves {dict(mine.statuses)}, slowest {mine.slowest:.1f} s")
            return mine

        phase("warm-up", 8)

        interrupted: list[tuple[int, int]] = []  # (row, the version it was sending)

        def kill_mailer_mid_delivery(_stats):
            """With the mail server hanging, wait for a delivery stuck in it
            (a row ``sending`` for a second), kill the mail worker, and note
            the rows it left ``sending``: the deliveries it interrupted."""
            from django.utils import timezone

            from games.models import Notification

            inbox.mode = "hang"
            deadline = time.monotonic() + 8
            while time.monotonic() < deadline:
                hung = Notification.objects.filter(
                    status="sending", claimed_at__lte=timezone.now() - timedelta(seconds=1)
                )
                if hung.exists():
                    break
                time.sleep(0.1)
            mailer.kill()
            inbox.mode = "accept"
            interrupted.extend(
                Notification.objects.filter(status="sending").values_list("pk", "version")
            )

        phase(
            "mail worker killed mid-delivery",
            12,
            kill_mailer_mid_delivery,
            heal=mailer.start,
            landed=lambda _s, _logs: (
                f"{len(interrupted)} deliveries interrupted" if interrupted else None
            ),
        )

        def broker_lost(_stats, logs):
            lost = logs["gunicorn"].count("could not queue")
            return f"{lost} hand-overs to the broker failed in the web processes" if lost else None

        phase("Redis stopped", 15, lambda _s: redis.kill(), heal=redis.start, landed=broker_lost)
        time.sleep(2)
        phase(
            "Redis frozen",
            15,
            lambda _s: redis.signal(signal.SIGSTOP),
            heal=lambda: redis.signal(signal.SIGCONT),
            landed=broker_lost,
        )

        def cache_lost(kind):
            def landed(_stats, logs):
                lost = [
                    line
                    for line in logs["gunicorn"].splitlines()
                    if "unreachable" in line and f":{CACHE_PROXY.port}" in line
                ]
                matching = [line for line in lost if kind in line]
                if not matching:
                    return None
                return f"{len(matching)} cache failures ({kind}) in the web processes"

            return landed

        def cut_cache(_stats):
            CACHE_PROXY.cut()

        phase(
            "cache cut off",
            15,
            cut_cache,
            heal=CACHE_PROXY.restore,
            landed=cache_lost("Error"),
            all_accepted=True,
        )
        time.sleep(2)
        phase(
            "cache frozen",
            15,
            lambda _s: cache_redis.signal(signal.SIGSTOP),
            heal=lambda: cache_redis.signal(signal.SIGCONT),
            landed=cache_lost("Timeout"),
            all_accepted=True,
        )

        def mail_failed(_stats, logs):
            tries = logs["mail"].count("failed:")
            return f"{tries} delivery attempts failed in the mail worker" if tries else None

        for mode in ("refuse", "hang"):
            phase(
                f"SMTP {mode}s",
                12,
                lambda _s, mode=mode: setattr(inbox, "mode", mode),
                heal=lambda: setattr(inbox, "mode", "accept"),
                landed=lambda _s, logs, mode=mode: inbox.answered[mode] and mail_failed(_s, logs),
            )
        phase(
            "SMTP vanishes",
            12,
            lambda _s: smtp["server"].stop(),
            heal=smtp_up,
            landed=mail_failed,
        )

        def kill_web_workers(mine):
            """Three times: wait for moves in flight, then kill every web worker."""
            for _ in range(3):
                deadline = time.monotonic() + 3
                while mine.in_flight < 2 and time.monotonic() < deadline:
                    time.sleep(0.005)
                for pid in children(web.process.pid):
                    os.kill(pid, signal.SIGKILL)
                time.sleep(3)

        phase(
            "web workers killed mid-move",
            14,
            kill_web_workers,
            landed=lambda mine, _logs: (
                f"{mine.unknown} move requests cut mid-request" if mine.unknown else None
            ),
        )

        # Deadlines pass while the default worker is stopped; the load goes on.
        overdue = make_overdue_matches(10)
        late = Stats()

        def late_moves_then_start():
            for pk, players in overdue[:5]:
                move_once(pk, players, late)
            worker.start()

        phase(
            "worker stopped while deadlines pass",
            25,
            lambda _s: worker.kill(),
            heal=late_moves_then_start,
            at=0.1,
        )
        figures.append(f"late moves while the worker was stopped: {dict(late.statuses)}")
        if not late.statuses or set(late.statuses) - {409}:
            failures.append(f"late moves not refused with 409: {dict(late.statuses)}")

        print("-- draining", flush=True)
        drained = wait_drained(240)
        figures.append(f"outbox drained: {drained}")
        minutes = (time.monotonic() - started) / 60
        figures.append(
            f"load: {sum(load.started.values())} matches started, {sum(load.finished.values())}"
            f" finished and replaced in {minutes:.1f} min; started by game {dict(load.started)},"
            f" finished by game {dict(load.finished)}"
        )
        quiet = [key for key in GAMES if not stats.by_game[key]]
        if quiet:
            failures.append(f"no move accepted in {quiet}")
        check(load.bot_matches, overdue, stats, inbox, figures, failures)
        from games.models import Notification

        # An interrupted delivery is reported as failed (it may or may not
        # have left), unless a later turn brought its row up to date first:
        # then the row is about that turn, and its email was sent afresh.
        failed = superseded = 0
        for pk, version in interrupted:
            row = Notification.objects.get(pk=pk)
            if row.status == "failed" and row.version == version:
                failed += 1
            elif row.version > version:
                superseded += 1
            else:
                failures.append(f"interrupted delivery {pk} neither failed nor superseded")
        figures.append(
            f"deliveries interrupted by the killed mail worker: {len(interrupted)},"
            f" shown to moderators as failed: {failed}, brought up to a later turn: {superseded}"
        )
        figures.append(f"signed-in page reads: {dict(pages)}")
        if any(isinstance(status, int) and status >= 500 for status in pages):
            failures.append(f"a signed-in page answered 5xx: {dict(pages)}")
    finally:
        CACHE_PROXY.close()
        for proc in [web, worker, mailer, *beats, redis, cache_redis]:
            try:
                proc.signal(signal.SIGCONT)
                proc.stop()
            except Exception as error:  # noqa: BLE001 - clean up the rest anyway
                print(f"stopping {proc.name}: {error}")
        with contextlib.suppress(Exception):  # it may be stopped already
            smtp["server"].stop()
    print("\n".join(figures))
    if failures:
        print("\nVIOLATIONS:\n  " + "\n  ".join(failures))
        return 1
    print("\nno violations")
    return 0


def make_overdue_matches(n: int):
    from tests.load.move_load import create_matches

    games = create_matches(n)  # Nogi matches between people, nobody playing them yet
    from django.utils import timezone

    from games.models import Match

    # Only the current turn is short: the turn after a timeout has 3 days.
    soon = timezone.now() + timedelta(seconds=15)
    Match.objects.filter(pk__in=[g.pk for g in games]).update(deadline=soon, wake_at=soon)
    return [(g.pk, dict(enumerate(g.players))) for g in games]


def wait_drained(seconds: float) -> bool:
    """Until no email is waiting, no bot is due and no match is overdue."""
    from django.utils import timezone

    from games.models import Match, Notification

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        busy = Notification.objects.filter(status__in=["pending", "sending"]).count()
        active = Match.objects.filter(status="active")
        bots = active.filter(bots_due_at__isnull=False).count()
        overdue = active.filter(deadline__lte=timezone.now()).count()
        if busy == 0 and bots == 0 and overdue == 0:
            return True
        time.sleep(2)
    return False


def check(bot_matches, overdue, stats, inbox, figures, failures) -> None:
    from games.correspondence import compose
    from games.history import verification
    from games.models import Match, Move, Notification

    matches = Match.objects.exclude(status="open")
    broken = []
    for match in matches:
        seqs = list(match.moves.order_by("seq").values_list("seq", flat=True))
        if seqs != list(range(match.version + 1)) or not verification.verify_match(match).ok:
            broken.append(match.pk)
    figures.append(f"matches: {matches.count()}, moves logged: {Move.objects.count()}")
    if broken:
        failures.append(f"logs with a gap or not replaying to the state: {broken}")
    for pk, accepted in stats.accepted.items():
        players = Move.objects.filter(match_id=pk, actor_kind="player").count()
        if players < accepted:
            failures.append(f"match {pk}: {accepted} moves answered done, {players} logged")
    figures.append(
        f"move requests: {sum(stats.statuses.values())} answered {dict(stats.statuses)},"
        f" {stats.unknown} connections dropped (web worker killed); slowest answer"
        f" {stats.slowest:.1f} s"
    )
    if any(status >= 500 for status in stats.statuses):
        failures.append("a move request answered 5xx")
    rows = Counter(Notification.objects.values_list("status", flat=True))
    figures.append(f"notification rows by status: {dict(rows)}")
    if rows.get("pending") or rows.get("sending"):
        failures.append("rows still pending or sending after the drain")
    if inbox is None:  # emails printed, not received here (make prodlike)
        check_bots(bot_matches, figures, failures)
        return
    duplicates = {ref: n for ref, n in inbox.refs.items() if n > 1}
    figures.append(
        f"emails received: {sum(inbox.refs.values())} ({len(inbox.refs)} distinct),"
        f" duplicates: {len(duplicates)}"
    )
    if duplicates:
        failures.append(f"emails received twice: {list(duplicates)[:10]}")
    skipped_silently = Notification.objects.filter(
        status="skipped", attempts__gt=0, last_error=""
    ).count()
    if skipped_silently:
        failures.append(f"{skipped_silently} rows skipped after an attempt with no reason")
    # A row's ref names the turn (version, tag) its email is about: the email
    # of the turn a sent row was last brought up to must have arrived.
    received = {ref.split(":")[0] for ref in inbox.refs}
    sent = Notification.objects.filter(status="sent")
    missing = [row.pk for row in sent if compose.email_ref(row) not in received]
    if missing:
        failures.append(f"{len(missing)} rows marked sent but never received: {missing[:10]}")
    failed = Notification.objects.filter(status="failed")
    figures.append(
        f"failed (shown to moderators): {failed.count()}, of which received anyway:"
        f" {sum(1 for row in failed if compose.email_ref(row) in received)}"
    )
    for pk, _players in overdue:
        timeouts = Move.objects.filter(match_id=pk, actor_kind="timeout").count()
        told = Notification.objects.filter(match_id=pk, kind="timed_out").count()
        stale = Notification.objects.filter(match_id=pk, kind="reminder", status="sent").count()
        if timeouts != 1 or told != 1 or stale:
            failures.append(
                f"overdue match {pk}: {timeouts} timeout moves, {told} timed-out rows,"
                f" {stale} reminders sent"
            )
    figures.append(f"overdue matches handled once each: {len(overdue)}")
    check_bots(bot_matches, figures, failures)


def check_bots(bot_matches, figures, failures) -> None:
    from games.models import Match, Move

    waiting = [
        pk
        for pk, _player in bot_matches
        if Match.objects.filter(pk=pk, status="active", bots_due_at__isnull=False).exists()
    ]
    if waiting:
        failures.append(f"bot turns still waiting: {waiting}")
    bot_moves = Move.objects.filter(
        match_id__in=[pk for pk, _p in bot_matches], actor_kind="bot"
    ).count()
    figures.append(f"bot moves played in {len(bot_matches)} matches against bots: {bot_moves}")


if __name__ == "__main__":
    sys.exit(main())
