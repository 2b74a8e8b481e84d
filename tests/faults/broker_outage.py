"""A Celery worker against a redis-server of its own that is stopped,
restarted, frozen and thawed while tasks run: the worker must stay alive and
consume again. Used by tests/tasks/test_worker_reconnect.py, and runnable on
its own (``python tests/faults/broker_outage.py [rounds]``) to repeat it.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]
if str(BASE_DIR) not in sys.path:
    sys.path.insert(0, str(BASE_DIR))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Outage:
    """A redis-server and a worker (``-Q celery``, two processes, gossip,
    mingle and heartbeats as in production), both this object's own."""

    def __init__(self, worker_args: tuple[str, ...] = (), env: dict | None = None):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.dir = Path(tempfile.mkdtemp(prefix="smoki-outage-"))
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "CELERY_BROKER_URL": self.url,
            "CELERY_TASK_ALWAYS_EAGER": "false",
            "DATABASE_URL": f"sqlite:///{self.dir / 'db.sqlite3'}",
            "SMOKI_BROKER_TIMEOUT": "1",
            **(env or {}),
        }
        self.redis = None
        self.worker = None
        self.worker_args = worker_args
        self.node = f"outage{self.port}@{socket.gethostname()}"
        self._stop = threading.Event()
        self.task_seconds = 0.3

    # -- processes

    def start_redis(self) -> None:
        self.redis = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
            + ["--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
        )
        for _ in range(50):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.1)

    def start_worker(self) -> None:
        self.log = open(self.dir / "worker.log", "ab")  # noqa: SIM115 - closed in close()
        self.worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", "celery"]
            + ["-c", "2", "-n", self.node, "-l", "INFO", *self.worker_args],
            cwd=BASE_DIR,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def worker_log(self) -> str:
        return (self.dir / "worker.log").read_text(errors="replace")

    def alive(self) -> bool:
        return self.worker.poll() is None

    def close(self) -> None:
        self._stop.set()
        for proc in (self.worker, self.redis):
            if proc is None or proc.poll() is not None:
                continue
            with_cont = proc is self.redis
            if with_cont:
                proc.send_signal(signal.SIGCONT)
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if self.worker is not None:
            self.log.close()

    # -- the faults

    def stop_redis(self) -> None:
        self.redis.kill()
        self.redis.wait()

    def freeze_redis(self) -> None:
        self.redis.send_signal(signal.SIGSTOP)

    def thaw_redis(self) -> None:
        self.redis.send_signal(signal.SIGCONT)

    # -- the load: short late-acknowledged tasks all along, so that deliveries
    # and acknowledgements are under way whenever the broker fails. A few are
    # kept queued, no more, so a health check's task is not stuck behind them.

    def send(self, seconds: float) -> None:
        """One task that runs for ``seconds``."""
        from celery import Celery

        producer = Celery("outage-one", broker=self.url)
        producer.send_task("smoki.echo", args=("", seconds), queue="celery", retry=False)

    def keep_busy(self, queued: int = 3) -> threading.Thread:
        """Tasks of ``self.task_seconds`` each, ``queued`` of them waiting."""
        import redis
        from celery import Celery

        producer = Celery("outage-load", broker=self.url)
        producer.conf.broker_transport_options = {"socket_timeout": 1, "socket_connect_timeout": 1}
        client = redis.Redis.from_url(self.url, socket_timeout=1, socket_connect_timeout=1)

        def run():
            while not self._stop.is_set():
                try:
                    if client.llen("celery") < queued:
                        producer.send_task(
                            "smoki.echo", args=("", self.task_seconds), queue="celery", retry=False
                        )
                except Exception:  # noqa: BLE001 - the broker is down on purpose
                    time.sleep(0.2)
                time.sleep(0.05)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return thread

    def consuming(self, timeout: float = 60.0) -> list[str]:
        """What ``python -m config.workers`` finds wrong with this worker
        (nothing: it answers a ping and runs a task sent to its queue)."""
        found = subprocess.run(
            [sys.executable, "-m", "config.workers", "--node", self.node, "--queue", "celery"]
            + ["--timeout", str(timeout)],
            cwd=BASE_DIR,
            env=self.env,
            capture_output=True,
            text=True,
        )
        if found.returncode == 0:
            return []
        return found.stdout.strip().splitlines() or [found.stderr.strip()[-500:]]


def scenario(outage: Outage, down: float = 4.0, frozen: float = 8.0) -> list[str]:
    """Stop Redis for ``down`` seconds while the worker runs one task and
    waits for the next (a BRPOP outstanding beside an unacknowledged
    message), then freeze it for ``frozen`` seconds, longer than the socket
    timeout, while two tasks finish (their acknowledgements time out). After
    each, the worker must be alive and consume."""
    problems = []
    outage.start_redis()
    outage.start_worker()
    problems += [f"at start: {p}" for p in outage.consuming(90)]
    outage.send(8.0)
    time.sleep(2)
    outage.stop_redis()
    time.sleep(down)
    outage.start_redis()
    time.sleep(2)
    if not outage.alive():
        return [*problems, "after Redis was stopped: the worker exited"]
    problems += [f"after Redis was stopped: {p}" for p in outage.consuming(60)]
    time.sleep(8)  # the task redelivered after the restart is done
    outage.send(1.5)
    outage.send(1.5)
    time.sleep(0.7)
    outage.freeze_redis()
    time.sleep(frozen)
    outage.thaw_redis()
    if not outage.alive():
        return [*problems, "after Redis was frozen: the worker exited"]
    for _ in range(2):
        problems += [f"after Redis was frozen: {p}" for p in outage.consuming(30)]
    return problems


if __name__ == "__main__":
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    failed = 0
    for index in range(rounds):
        outage = Outage()
        try:
            found = scenario(outage)
        finally:
            outage.close()
        print(f"round {index + 1}: {found or 'ok'} (log: {outage.dir / 'worker.log'})", flush=True)
        failed += bool(found)
    sys.exit(1 if failed else 0)
