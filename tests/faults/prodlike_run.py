"""The fault run against `make prodlike`: its processes killed under load,
supervisord restarting them.

    make prodlike                                     # in one terminal
    make faults ARGS="--prodlike"                     # in another

The same steady load as the fault run (tests/faults/fault_run.py: matches
of every game replaced as they end, players' pace) is played through
prodlike's Caddy, and in turn each of gunicorn, the default, mail and bots
workers and the beat is killed with SIGKILL (its whole process group, as a
crash would leave it); supervisord must start it again. After each, every
worker must be alive and consuming (``config.workers``) and the site must
answer through the proxy; at the end nothing may be lost: every match's
log replays to its state, every move answered as done is logged, no request
answered 5xx, no bot turn is left waiting.

The broker's and the cache's Redis are the machine's own here, shared with
whatever else runs on it, so they are not broken on purpose, nor the mail
server (prodlike prints emails): those faults are the fault run's own, on
the servers it starts itself.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
from collections import Counter
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]
if str(BASE_DIR) not in sys.path:
    sys.path.insert(0, str(BASE_DIR))

from tests.faults import fault_run  # noqa: E402

PROGRAMS = ("web", "worker", "mail", "bots", "beat")


def supervisorctl(state: Path, *args: str) -> str:
    return subprocess.run(
        [str(BASE_DIR / ".venv/bin/supervisorctl"), "-c", str(state / "supervisord.conf"), *args],
        capture_output=True,
        text=True,
    ).stdout.strip()


def running(state: Path, program: str) -> int | None:
    """The program's pid while supervisord reports it RUNNING."""
    status = supervisorctl(state, "status", f"smoki:{program}")
    if "RUNNING" not in status:
        return None
    return int(supervisorctl(state, "pid", f"smoki:{program}"))


def run(args) -> int:  # noqa: PLR0915 - one scripted story
    state = Path(args.prodlike)
    url = urllib.parse.urlsplit(args.url)
    broker = f"{args.redis}/{args.broker_db}"
    settings = {
        "DATABASE_URL": args.database_url,
        "SECRET_KEY": (state / "secret_key").read_text().strip(),
        "CELERY_BROKER_URL": broker,
        "DEBUG": "false",
    }
    os.environ.update(settings)
    os.environ.pop("CACHE_URL", None)
    fault_run.ENV.update(settings)
    fault_run.ENV.pop("CACHE_URL", None)
    fault_run.WEB_PORT = url.port
    import django

    django.setup()
    host = socket.gethostname()
    nodes = [f"{name}@{host}" for name in ("default", "mail", "bots")]
    figures: list[str] = []
    failures: list[str] = []
    stats = fault_run.Stats()
    pages: Counter = Counter()
    load = fault_run.Load(args.matches, args.bot_matches, tuple(args.pace), args.seed or 1)

    def consuming() -> list[str]:
        command = [sys.executable, "-m", "config.workers", "--timeout", "120"]
        command += [f"--node={node}" for node in nodes]
        command += ["--queue=celery", "--queue=mail", "--queue=bots"]
        found = subprocess.run(
            command, cwd=BASE_DIR, env=fault_run.ENV, capture_output=True, text=True
        )
        return [] if found.returncode == 0 else found.stdout.strip().splitlines()

    def phase(name: str, seconds: float, program: str | None = None) -> None:
        print(f"-- {name}", flush=True)
        mine = fault_run.Stats()
        pool = fault_run.play(load, mine, seconds, args.threads)
        reader = fault_run.read_pages(load, pages, seconds)
        restarted = None
        if program:
            time.sleep(2)
            before = running(state, program)
            if before is None:
                failures.append(f"{name}: {program} was not running")
            else:
                os.killpg(before, signal.SIGKILL)
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline:
                    now = running(state, program)
                    if now and now != before:
                        restarted = now
                        break
                    time.sleep(0.5)
        fault_run.join([*pool, reader])
        if program == "web":
            # A move in flight when gunicorn died is cut: through the proxy
            # it is answered 502 (the move may or may not be saved, as a
            # dropped connection in the fault run; the final check replays
            # every log). Moves sent while gunicorn was restarting wait in
            # the proxy (lb_try_duration) instead.
            mine.unknown += mine.statuses.pop(502, 0)
        stats.merge(mine)
        posted = sum(mine.statuses.values()) + mine.unknown
        figures.append(f"{name}: {posted} moves posted, {dict(mine.statuses)}")
        if program:
            figures.append(
                f"{name}: {'restarted by supervisord' if restarted else 'NOT RESTARTED'}"
            )
            if not restarted:
                failures.append(f"{name}: supervisord did not start {program} again")
        problems = consuming()
        figures.append(f"{name}: workers {'; '.join(problems) or 'alive and consuming'}")
        failures.extend(f"after {name}: {problem}" for problem in problems)

    started = time.monotonic()
    phase("warm-up", 10)
    for program in PROGRAMS:
        phase(f"{program} killed", 20, program)
    print("-- draining", flush=True)
    drained = fault_run.wait_drained(240)
    figures.append(f"outbox drained: {drained}")
    figures.append(
        f"load: {sum(load.started.values())} matches started,"
        f" {sum(load.finished.values())} finished and replaced in"
        f" {(time.monotonic() - started) / 60:.1f} min"
    )
    fault_run.check(load.bot_matches, [], stats, None, figures, failures)
    figures.append(f"signed-in page reads: {dict(pages)}")
    if any(isinstance(status, int) and status >= 500 for status in pages):
        failures.append(f"a signed-in page answered 5xx: {dict(pages)}")
    print("\n".join(figures))
    if failures:
        print("\nVIOLATIONS:\n  " + "\n  ".join(failures))
        return 1
    print("\nno violations")
    return 0
