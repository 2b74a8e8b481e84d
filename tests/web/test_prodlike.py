"""The production topology as shipped (deploy/, `make prodlike`): started on
this machine, a page and the health checks answer through Caddy, static
files come from disk with their Brotli copy, every worker consumes its
queue, and a SIGTERM stops it all.

Needs PostgreSQL (DATABASE_URL), Redis (SMOKI_REDIS_URL), and Debian's caddy
and pgbouncer (.ci/run installs them; deploy/prodlike.sh installs them
itself when run as root)."""

import http.client
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parents[2]
DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("SMOKI_REDIS_URL", "redis://127.0.0.1:6379/0")

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.skipif(
        not DATABASE_URL.startswith("postgres"),
        reason="needs PostgreSQL: DATABASE_URL=postgres://postgres@127.0.0.1:5432/smoki",
    ),
    pytest.mark.skipif(
        not (shutil.which("caddy") and Path("/usr/sbin/pgbouncer").exists()) and os.geteuid() != 0,
        reason="needs Debian's caddy and pgbouncer (apt-get install caddy pgbouncer)",
    ),
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(port: int, path: str, **headers):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        return response, response.read()
    finally:
        conn.close()


@pytest.fixture
def prodlike(tmp_path):
    database = urllib.parse.urlsplit(DATABASE_URL)
    redis = urllib.parse.urlsplit(REDIS_URL)
    port = _free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "CACHE_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE"}
    }
    redis_db = redis.path.lstrip("/") or "0"
    env.update(
        PRODLIKE_DIR=str(tmp_path / "prodlike"),
        PRODLIKE_PORT=str(port),
        PRODLIKE_WEB_PORT=str(_free_port()),
        PRODLIKE_LIVE_PORT=str(_free_port()),
        PRODLIKE_PGBOUNCER_PORT=str(_free_port()),
        PRODLIKE_CADDY_ADMIN=f"localhost:{_free_port()}",
        PRODLIKE_DB=f"{database.path.lstrip('/')}_prodlike",
        PRODLIKE_PG_HOST=database.hostname or "127.0.0.1",
        PRODLIKE_PG_PORT=str(database.port or 5432),
        PRODLIKE_REDIS=f"redis://{redis.hostname}:{redis.port or 6379}",
        PRODLIKE_BROKER_DB=redis_db,
        PRODLIKE_CACHE_DB=redis_db,
        SMOKI_WEB_WORKERS="2",
        SMOKI_WORKER_CONCURRENCY="1",
    )
    log = (tmp_path / "prodlike.log").open("w")
    process = subprocess.Popen(
        ["bash", "deploy/prodlike.sh"],
        cwd=BASE_DIR,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            assert process.poll() is None, (tmp_path / "prodlike.log").read_text()
            try:
                if _get(port, "/readyz")[0].status == 200:
                    break
            except OSError:
                pass
            time.sleep(1)
        else:
            pytest.fail("no answer through the proxy in 300 s: " + str(tmp_path / "prodlike"))
        yield port, env, process, tmp_path
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)  # supervisord: stops every program
            try:
                process.wait(timeout=90)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        log.close()


def test_prodlike_serves_through_the_proxy_and_stops_cleanly(prodlike):
    port, env, process, tmp_path = prodlike
    # The health checks, through Caddy to gunicorn.
    response, body = _get(port, "/healthz")
    assert (response.status, body) == (200, b"ok")
    response, body = _get(port, "/readyz")
    assert response.status == 200 and body.startswith(b"ready")
    # A page, gzipped by Django (Caddy compresses nothing itself).
    response, body = _get(port, "/accounts/login/", **{"Accept-Encoding": "gzip"})
    assert response.status == 200
    assert response.getheader("Content-Encoding") == "gzip"
    assert "Caddy" in response.getheader("Server")
    import gzip

    page = gzip.decompress(body).decode()
    # The style sheet is inline; the page's own script is a static file.
    script = re.search(r'src="(/static/js/smoki\.[0-9a-f]{12}\.js)"', page).group(1)
    # Static files from disk by Caddy, the Brotli copy collectstatic wrote.
    response, body = _get(port, script, **{"Accept-Encoding": "br, gzip"})
    assert response.status == 200
    assert response.getheader("Content-Encoding") == "br"
    assert "immutable" in response.getheader("Cache-Control")
    # The live event streams, through Caddy to uvicorn (an unknown match: 404).
    response, body = _get(port, "/m/999999/events", Accept="text/event-stream")
    assert response.status == 404
    assert "uvicorn" in response.getheader("Server")
    response, body = _get(int(env["PRODLIKE_LIVE_PORT"]), "/healthz")
    assert (response.status, body) == (200, b"ok")
    assert "uvicorn" not in (_get(port, "/healthz")[0].getheader("Server") or "")
    # Every worker answers and consumes its queue.
    host = socket.gethostname()
    check = subprocess.run(
        [sys.executable, "-m", "config.workers", "--timeout", "90"]
        + [f"--node={name}@{host}" for name in ("default", "mail", "bots")]
        + ["--queue=celery", "--queue=mail", "--queue=bots"],
        cwd=BASE_DIR,
        env={
            **env,
            "CELERY_BROKER_URL": f"{env['PRODLIKE_REDIS']}/{env['PRODLIKE_BROKER_DB']}",
        },
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    # A SIGTERM stops supervisord and every program under it.
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=90) == 0
    with pytest.raises(OSError):
        _get(port, "/healthz")
    # Nothing of it is left: no process in its session.
    left = subprocess.run(
        ["pgrep", "-s", str(process.pid)], capture_output=True, text=True
    ).stdout.split()
    assert left == []
