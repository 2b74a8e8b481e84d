"""What ``make run`` starts, and stops on Ctrl-C or TERM within a few seconds.

    python -m config.run_local --host 127.0.0.1 --port 8000

Starts the worker with beat (queues ``celery`` and ``mail``), the bots'
worker, the reviews' worker, the demo's announcement and the development server, each in a
session of its own, so a signal to the terminal's process group reaches
this process alone and each child is stopped once, the right way: a Celery
worker's main process gets one TERM (a warm shutdown that stops its pool;
a TERM to its pool processes too, or a second one, left the worker with
beat hanging until SIGKILL), the others' whole process group gets it (the
server's autoreloader and the server it runs). Whatever still runs
``STOP_SECONDS`` later is killed. The server ending ends the rest.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import time

WARM_SECONDS = 1.5  # a worker's warm shutdown, before what is left of it is killed
STOP_SECONDS = 5.0  # then whatever is left is killed


def commands(host: str, port: int, schedule: str) -> list[tuple[str, list[str]]]:
    python = sys.executable
    celery = [python, "-m", "celery", "-A", "config", "--quiet", "worker", "--loglevel=WARNING"]
    return [
        (
            "worker",
            [
                *celery,
                "--beat",
                "-Q",
                "celery,mail",
                "--concurrency=2",
                f"--schedule={schedule}",
                "-n",
                "main@%h",
            ],
        ),
        ("bots", [*celery, "-Q", "bots", "--concurrency=1", "-n", "bots@%h"]),
        # Reviews of finished matches: a worker of their own, never the bots'.
        ("reviews", [*celery, "-Q", "reviews", "--concurrency=1", "-n", "reviews@%h"]),
        ("demo", [python, "manage.py", "demo", "--announce", f"http://{host}:{port}/"]),
        ("server", [python, "manage.py", "runserver", f"{host}:{port}"]),
    ]


class Processes:
    def __init__(self):
        self.running: dict[str, subprocess.Popen] = {}
        self.stopping = False

    def start(self, name: str, argv: list[str]) -> None:
        self.running[name] = subprocess.Popen(argv, start_new_session=True)

    def _wait_until(self, deadline: float) -> None:
        while time.monotonic() < deadline and any(p.poll() is None for p in self.running.values()):
            time.sleep(0.1)

    def stop(self, *_signal) -> None:
        """TERM to each (once), KILL to what is left of a worker after
        ``WARM_SECONDS``, then to whatever is left after ``STOP_SECONDS``."""
        if self.stopping:
            return  # a second Ctrl-C, or the TERM uv forwards: the stop is under way
        self.stopping = True
        for name, process in self.running.items():
            if process.poll() is not None:
                continue
            try:
                if name in ("worker", "bots", "reviews"):
                    os.kill(process.pid, signal.SIGTERM)  # its pool is its to stop
                else:
                    os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        started = time.monotonic()
        self._wait_until(started + WARM_SECONDS)
        for name in ("worker", "bots", "reviews"):  # a warm shutdown has had its time
            process = self.running.get(name)
            if process is not None:  # its pool and beat too, even if it has exited
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(process.pid, signal.SIGKILL)
        self._wait_until(started + STOP_SECONDS)
        for process in self.running.values():
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)  # pool processes, a reloaded server
            process.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--schedule", default="var/celerybeat-schedule")
    args = parser.parse_args(argv)
    processes = Processes()
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, lambda *_: processes.stop())
    for name, command in commands(args.host, args.port, args.schedule):
        processes.start(name, command)
    while not processes.stopping and processes.running["server"].poll() is None:
        time.sleep(0.2)
    processes.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
