"""``make run``'s processes stop on Ctrl-C or TERM to their process group
within a few seconds: the worker with beat, the bots' worker and the
server (before, the worker with beat hung until SIGKILL, the server ran on).

The test starts them as ``make run`` does (``config.run_local``) in a
process group of their own, as a terminal would, waits until the server
answers and both workers have their pool, signals the group, and finds
every process of the tree gone."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STOPPED_WITHIN = 5.0  # seconds: config.run_local kills what is left after 5 at most


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            tree.setdefault(ppid, []).append(int(entry.name))
    return tree


def _tree(pid: int) -> set[int]:
    children = _children()
    found, todo = set(), [pid]
    while todo:
        current = todo.pop()
        found.add(current)
        todo.extend(children.get(current, []))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _answers(port: int) -> bool:
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
    except urllib.error.HTTPError:
        return True  # an answer, whatever it says
    except OSError:
        return False
    return True


@pytest.mark.skipif(not Path("/proc").exists(), reason="reads the process tree from /proc")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["TERM", "INT"])
def test_make_run_stops_everything_within_seconds(tmp_path, signum):
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "CELERY_BROKER_URL": "filesystem://localhost/",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    env.pop("PYTEST_XDIST_WORKER", None)
    leader = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "config.run_local",
            "--port",
            str(port),
            "--schedule",
            str(tmp_path / "beat-schedule"),
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,  # its own process group, as in a terminal
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            tree = _tree(leader.pid)
            # the leader, 2 workers with their pools (2 + 1), the server and its reloader
            if _answers(port) and len(tree) >= 8:
                break
            time.sleep(1)
        else:
            pytest.fail(f"make run's processes did not start: {sorted(_tree(leader.pid))}")
        time.sleep(2)
        everyone = _tree(leader.pid)
        os.killpg(leader.pid, signum)
        started = time.monotonic()
        while time.monotonic() - started < STOPPED_WITHIN and any(map(_alive, everyone)):
            time.sleep(0.2)
        left = sorted(pid for pid in everyone if _alive(pid))
        took = time.monotonic() - started
        assert not left, f"still running {STOPPED_WITHIN} s after the signal: {left}"
        assert not _answers(port)
        print(f"stopped in {took:.1f} s")
    finally:
        for pid in _tree(leader.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        leader.wait(timeout=10)
