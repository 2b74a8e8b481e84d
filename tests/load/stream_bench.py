"""Benchmark the API's event stream: 1,000 idle streams held by uvicorn,
their memory, and the delay from a move's commit to its event on every
stream of that match, beside the match pages' live streams as a baseline
measured in the same run.

    uv run python tests/load/stream_bench.py        # or: make stream-bench

1. SB_STREAMS (1,000) players in SB_STREAMS / 2 two-player Nogi matches,
   each with a token (``match:read``), on a fresh SQLite file (or
   DATABASE_URL's PostgreSQL); Redis at SB_REDIS (redis://127.0.0.1:6379/10,
   emptied first and after) carries the messages (``SMOKI_REDIS_URL``) and
   is the broker the moves' emails wait in (no worker takes them).
2. One uvicorn process serves ``config.asgi`` (as deploy/ runs it). The
   baseline first: SB_PAGES (200) of the players open their match page's
   live stream (``/m/<id>/events``, docs/community.md); then every player
   opens ``/api/v1/stream``. The server's memory (RSS) is read before and
   after each. The clients come from ten loopback addresses (127.0.1.1 …),
   as ten hosts' bots would: the API counts requests per address.
3. SB_MOVES (300) moves are committed through the move path, one every
   SB_GAP seconds, round the matches, by a process of their own (as
   gunicorn would; ``live_bench.commit_moves``). Each move's commit time is
   taken by the first callback after its commit; its arrival on BOTH
   players' API streams (the mover's own too: "a move was made in one of my
   matches"), and on the other player's page stream for the baseline, by
   the reading clients. Same machine, same clock.

Prints the memory per stream of each kind and their ratio, the delays'
p50 and p95 of each kind and their ratio. Exits 1 if an API event is missed
or its p95 is a second or more.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.request

import startup

STREAMS = int(os.environ.get("SB_STREAMS", "1000"))
PAGES = int(os.environ.get("SB_PAGES", "200"))
os.environ.setdefault("LB_MOVES", os.environ.get("SB_MOVES", "300"))
os.environ.setdefault("LB_GAP", os.environ.get("SB_GAP", "0.05"))
REDIS = os.environ.get("SB_REDIS", "redis://127.0.0.1:6379/10")
DB_POOL = os.environ.get("SMOKI_DB_POOL", "8")
ADDRESSES = 10

import live_bench  # noqa: E402 - reads the LB_ settings set above


def make_tokens(players) -> list[tuple[int, int, str, str]]:
    """A ``match:read`` token for each player: (match, seat, session, token)."""
    from api import tokens
    from games.models import Seat

    users = {
        (seat.match_id, seat.index): seat.user
        for seat in Seat.objects.filter(match_id__in={p[0] for p in players}).select_related("user")
    }
    return [
        (
            match_id,
            seat,
            session,
            tokens.make_token(users[(match_id, seat)], "bench", ["match:read"])[1],
        )
        for match_id, seat, session in players
    ]


class ApiClient:
    """One bot's stream: when each (match, version) move event arrived."""

    def __init__(self, port: int, number: int, match_id: int, seat: int, token: str):
        self.port, self.number, self.match_id, self.seat, self.token = (
            port,
            number,
            match_id,
            seat,
            token,
        )
        self.arrived: dict[tuple[int, int], float] = {}
        self.ready = asyncio.Event()
        self.writer = None

    async def run(self) -> None:
        address = f"127.0.1.{1 + self.number % ADDRESSES}"
        reader, self.writer = await asyncio.open_connection(
            "127.0.0.1", self.port, local_addr=(address, 0)
        )
        self.writer.write(
            (
                "GET /api/v1/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Authorization: Bearer {self.token}\r\n\r\n"
            ).encode()
        )
        await self.writer.drain()
        status = await reader.readline()
        if b" 200 " not in status:
            raise RuntimeError(f"stream {self.number}: {status!r}")
        while (await reader.readline()).strip():
            pass  # the headers
        self.ready.set()
        while line := await reader.readline():
            text = line.strip()
            if not text.startswith(b"{"):
                continue  # a keep-alive, or a chunk's size (HTTP/1.1 chunked)
            event = json.loads(text)
            if event.get("type") == "move":
                self.arrived.setdefault((event["match"], event["version"]), time.time())

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def _all_set(flags, tasks, seconds: float = 600) -> None:
    """Wait until every flag is set; a client that failed says why."""
    give_up = time.monotonic() + seconds
    while not all(flag.is_set() for flag in flags):
        failed = [task for task in tasks if task.done() and task.exception()]
        if failed:
            raise RuntimeError(f"{len(failed)} streams failed") from failed[0].exception()
        if time.monotonic() > give_up:
            raise TimeoutError(f"{sum(not f.is_set() for f in flags)} streams never opened")
        await asyncio.sleep(0.2)


def percentiles(delays: list[float]) -> tuple[float, float]:
    if not delays:
        return float("inf"), float("inf")
    delays = sorted(delays)
    return statistics.median(delays), delays[max(0, int(len(delays) * 0.95) - 1)]


async def measure(port: int, players, server_pid: int) -> dict:
    rss = {"idle": live_bench.rss_mb(server_pid)}
    pages = [live_bench.Client(port, m, s, session) for m, s, session, _t in players[:PAGES]]
    page_tasks = [asyncio.create_task(c.run()) for c in pages]
    await _all_set([c.live for c in pages], page_tasks)
    rss["pages"] = live_bench.rss_mb(server_pid)
    apis = [ApiClient(port, i, m, s, token) for i, (m, s, _session, token) in enumerate(players)]
    started = time.monotonic()
    api_tasks = []
    for client in apis:  # a few at a time: a thousand bots do not all start at once
        api_tasks.append(asyncio.create_task(client.run()))
        if len(api_tasks) % 50 == 0:
            await asyncio.sleep(0.05)

    await _all_set([c.ready for c in apis], api_tasks)
    opened = time.monotonic() - started
    await asyncio.sleep(3)  # each stream's first read done, its connection closed
    rss["api"] = live_bench.rss_mb(server_pid)
    threads = live_bench.threads(server_pid)
    matches = sorted({m for m, _s, _session, _t in players})
    mover = await asyncio.create_subprocess_exec(
        sys.executable,
        live_bench.__file__,
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
    await asyncio.sleep(3)  # the last events' time to arrive
    rss["after"] = live_bench.rss_mb(server_pid)
    failed = sum(1 for t in api_tasks + page_tasks if t.done() and t.exception())
    api_delays, page_delays, missed = [], [], 0
    for (match_id, version), (at, mover_seat) in committed.items():
        for client in apis:
            if client.match_id == match_id:
                if (match_id, version) in client.arrived:
                    api_delays.append(client.arrived[(match_id, version)] - at)
                else:
                    missed += 1
        for client in pages:
            if (
                client.match_id == match_id
                and client.seat != mover_seat
                and version in client.arrived
            ):
                page_delays.append(client.arrived[version] - at)
    for client in apis + pages:
        client.close()
    for task in api_tasks + page_tasks:
        task.cancel()
    return {
        "opened": opened,
        "rss": rss,
        "threads": threads,
        "api": api_delays,
        "pages": page_delays,
        "missed": missed,
        "failed": failed,
        "moves": len(committed),
    }


def main() -> int:
    import redis

    port = live_bench.free_port()
    env = {
        "SMOKI_REDIS_URL": REDIS,
        "CELERY_BROKER_URL": REDIS,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "LOG_LEVEL": "ERROR",
    }
    redis.Redis.from_url(REDIS).flushdb()
    load = os.getloadavg()[0]
    database_url = startup.start(os.environ.get("DATABASE_URL") or "scratch", env=env, migrate=True)
    players = make_tokens(live_bench.make_matches(STREAMS // 2))
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "config.asgi:application", "--port", str(port)]
        + ["--no-access-log", "--log-level=warning", "--timeout-graceful-shutdown=2"],
        cwd=startup.BASE_DIR,
        # The pool of PostgreSQL connections deploy/ gives it (SMOKI_DB_POOL=0: none).
        env={**os.environ, "DATABASE_URL": database_url, "SMOKI_DB_POOL": DB_POOL},
    )
    try:
        for _ in range(600):
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
    rss = result["rss"]
    page_kb = (rss["pages"] - rss["idle"]) * 1024 / max(1, PAGES)
    api_kb = (rss["api"] - rss["pages"]) * 1024 / STREAMS
    api50, api95 = percentiles(result["api"])
    page50, page95 = percentiles(result["pages"])
    ms = lambda seconds: f"{seconds * 1000:.1f} ms"  # noqa: E731
    print(f"load average at the start: {load:.1f} ({os.cpu_count()} CPUs)")
    print(
        f"streams open: {STREAMS} API streams in {result['opened']:.1f} s beside {PAGES} "
        f"match-page streams ({result['failed']} failed); uvicorn threads: {result['threads']}"
    )
    print(
        f"uvicorn memory (RSS): {rss['idle']:.0f} MB idle, {rss['pages']:.0f} MB with the page "
        f"streams, {rss['api']:.0f} MB with the API streams too, {rss['after']:.0f} MB after "
        "the moves"
    )
    print(
        f"memory a stream: API {api_kb:.0f} KB, page (baseline) {page_kb:.0f} KB: "
        f"{api_kb / page_kb if page_kb > 0 else float('nan'):.2f}x"
    )
    print(
        f"moves committed: {result['moves']}; API events measured: {len(result['api'])} "
        f"(both players' streams), missed: {result['missed']}"
    )
    print(
        f"commit -> every API stream of the match: p50 {ms(api50)}, p95 {ms(api95)}; "
        f"-> the other player's page stream (baseline): p50 {ms(page50)}, p95 {ms(page95)}; "
        f"ratio p50 {api50 / page50:.2f}x, p95 {api95 / page95:.2f}x"
    )
    return 0 if result["missed"] == 0 and result["failed"] == 0 and api95 < 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
