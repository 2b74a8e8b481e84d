"""Benchmark live mode: open event streams against uvicorn, moves committed,
the delay from each move's commit to the event on the other player's stream.

    uv run python tests/load/live_bench.py        # or: make live-bench

1. LB_STREAMS (500) players in LB_STREAMS / 2 two-player Nogi matches, each
   signed in (a session each), on a fresh SQLite file (or DATABASE_URL's
   PostgreSQL); Redis at LB_REDIS (redis://127.0.0.1:6379/9, emptied first
   and after) carries the messages (``SMOKI_REDIS_URL``) and is the broker
   the moves' emails wait in (no worker takes them).
2. One uvicorn process serves ``config.asgi`` (as deploy/ runs it); every
   player opens their match's stream (``/m/<id>/events``), as an open match
   page does. The server's memory (RSS) is read before and after.
3. LB_MOVES (300) moves are committed through the move path
   (``services.submit_action``), one every LB_GAP seconds, round the
   matches, by a process of their own (as gunicorn would). Each move's commit time
   is taken by the first callback after its commit; the event's arrival on
   the other player's stream by the reading client. Same machine, same
   clock.

Prints the p50, p95 and worst delay, events missed, and the memory. Exits 1
if an event is missed or the p95 is a second or more.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request

import startup

STREAMS = int(os.environ.get("LB_STREAMS", "500"))
MOVES = int(os.environ.get("LB_MOVES", "300"))
GAP = float(os.environ.get("LB_GAP", "0.02"))
REDIS = os.environ.get("LB_REDIS", "redis://127.0.0.1:6379/9")
DB_POOL = os.environ.get("SMOKI_DB_POOL", "8")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def rss_mb(pid: int) -> float:
    return _status(pid, "VmRSS:") / 1024


def threads(pid: int) -> int:
    return _status(pid, "Threads:")


def _status(pid: int, field: str) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field):
                return int(line.split()[1])
    return 0


def make_matches(n_matches: int):
    """The matches, and for each player: (match id, seat index, session key)."""
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.sessions.backends.cached_db import SessionStore

    from games.lobby import services as lobby

    User = get_user_model()
    players = []
    for i in range(n_matches):
        a = User.objects.create_user(f"la{i}", f"la{i}@example.com", None)
        b = User.objects.create_user(f"lb{i}", f"lb{i}@example.com", None)
        match = lobby.create_match(user=a, game_key="nogi", n_seats=2)
        lobby.join_match(user=b, match=match)
        for user in (a, b):
            session = SessionStore()
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.create()
            seat = match.seats.get(user=user).index
            players.append((match.pk, seat, session.session_key))
    return players


class Client:
    """One open match page: its stream, and when each version arrived."""

    def __init__(self, port: int, match_id: int, seat: int, session: str):
        self.port, self.match_id, self.seat, self.session = port, match_id, seat, session
        self.arrived: dict[int, float] = {}
        self.live = asyncio.Event()
        self.writer = None

    async def run(self) -> None:
        reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.writer.write(
            (
                f"GET /m/{self.match_id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Cookie: sessionid={self.session}\r\nAccept: text/event-stream\r\n\r\n"
            ).encode()
        )
        await self.writer.drain()
        status = await reader.readline()
        if b" 200 " not in status:
            raise RuntimeError(f"stream of match {self.match_id}: {status!r}")
        name = ""
        while line := await reader.readline():
            text = line.decode().strip()
            if text.startswith("event: "):
                name = text[7:]
            elif text.startswith("data: "):
                if name == "version":
                    self.arrived.setdefault(int(text[6:]), time.time())
                elif name == "live":
                    self.live.set()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def commit_moves(match_ids: list[int]) -> None:
    """LB_MOVES moves round the matches, in a process of its own (as gunicorn
    would commit them, and so that the reading clients share no interpreter
    with it); each commit's time printed as a JSON line."""
    import json

    from django.db import transaction

    from games.engine import registry
    from games.models import Match
    from games.play import services

    game = registry.get("nogi")
    for i in range(MOVES):
        match = Match.objects.get(pk=match_ids[i % len(match_ids)])
        seat_index = game.current_seats(match.state)[0]
        seat = match.seats.get(index=seat_index)
        action = game.legal_actions(match.state, seat_index)[0]
        at = {}
        with transaction.atomic():
            # The first callback after the commit: the commit's time.
            transaction.on_commit(lambda at=at: at.setdefault("t", time.time()))
            services.submit_action(match, seat.user, action, match.version)
        print(json.dumps([match.pk, match.version + 1, at["t"], seat_index]), flush=True)
        time.sleep(GAP)


async def measure(port: int, players, server_pid: int) -> dict:
    clients = [Client(port, *player) for player in players]
    rss_before = rss_mb(server_pid)
    started = time.monotonic()
    tasks = [asyncio.create_task(client.run()) for client in clients]
    await asyncio.wait_for(asyncio.gather(*(c.live.wait() for c in clients)), 120)
    opened = time.monotonic() - started
    rss_open = rss_mb(server_pid)
    threads_open = threads(server_pid)
    matches = sorted({match_id for match_id, _seat, _session in players})
    mover = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--commit",
        ",".join(map(str, matches)),
        stdout=asyncio.subprocess.PIPE,
        env=os.environ.copy(),
    )
    committed: dict = {}
    while line := await mover.stdout.readline():
        match_id, version, at, seat = json.loads(line)
        committed[(match_id, version)] = (at, seat)
    await mover.wait()
    await asyncio.sleep(2)  # the last events' time to arrive
    rss_after = rss_mb(server_pid)
    failed = [task for task in tasks if task.done() and task.exception()]
    delays, missed = [], 0
    for (match_id, version), (at, mover) in committed.items():
        for client in clients:
            if client.match_id != match_id or client.seat == mover:
                continue
            if version in client.arrived:
                delays.append(client.arrived[version] - at)
            else:
                missed += 1
    for client in clients:
        client.close()
    for task in tasks:
        task.cancel()
    return {
        "opened": opened,
        "rss": (rss_before, rss_open, rss_after),
        "threads": threads_open,
        "delays": sorted(delays),
        "missed": missed,
        "failed": len(failed),
    }


def main() -> int:
    import redis

    if sys.argv[1:2] == ["--commit"]:
        startup.start()  # the database and settings the parent put in the environment
        commit_moves([int(pk) for pk in sys.argv[2].split(",")])
        return 0

    port = free_port()
    env = {
        "SMOKI_REDIS_URL": REDIS,
        "CELERY_BROKER_URL": REDIS,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "LOG_LEVEL": "ERROR",
    }
    redis.Redis.from_url(REDIS).flushdb()
    load = os.getloadavg()[0]
    database_url = startup.start(os.environ.get("DATABASE_URL") or "scratch", env=env, migrate=True)
    players = make_matches(STREAMS // 2)
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "config.asgi:application",
            "--port",
            str(port),
            "--no-access-log",
            "--log-level=warning",
            "--timeout-graceful-shutdown=2",
        ],
        cwd=startup.BASE_DIR,
        # The pool of PostgreSQL connections deploy/ gives it (SMOKI_DB_POOL=0: none).
        env={**os.environ, "DATABASE_URL": database_url, "SMOKI_DB_POOL": DB_POOL},
    )
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        result = asyncio.run(measure(port, players, server.pid))
    finally:
        server.terminate()
        server.wait(10)
        redis.Redis.from_url(REDIS).flushdb()
    delays = result["delays"]
    ms = lambda seconds: f"{seconds * 1000:.1f} ms"  # noqa: E731
    p50 = statistics.median(delays) if delays else float("inf")
    p95 = delays[int(len(delays) * 0.95) - 1] if delays else float("inf")
    before, opened, after = result["rss"]
    print(f"load average at the start: {load:.1f} ({os.cpu_count()} CPUs)")
    print(f"streams open: {STREAMS} in {result['opened']:.1f} s ({result['failed']} failed)")
    print(
        f"moves committed: {MOVES}, one every {GAP * 1000:.0f} ms; events measured: {len(delays)}"
    )
    print(
        f"commit -> the other player's stream: p50 {ms(p50)}, p95 {ms(p95)}, worst {ms(delays[-1]) if delays else '-'}"
    )
    print(f"events missed: {result['missed']}")
    print(
        f"uvicorn memory (RSS): {before:.0f} MB idle, {opened:.0f} MB with the streams open "
        f"({(opened - before) * 1024 / STREAMS:.0f} KB a stream), {after:.0f} MB after the moves"
    )
    print(f"uvicorn threads with the streams open: {result['threads']}")
    return 0 if result["missed"] == 0 and result["failed"] == 0 and p95 < 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
