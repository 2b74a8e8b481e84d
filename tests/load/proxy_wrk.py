"""What one box of `make prodlike` serves: short wrk runs through its proxy.

    uv run python tests/load/proxy_wrk.py            # make prodlike running
    uv run python tests/load/proxy_wrk.py --url http://127.0.0.1:8080 --seconds 20

Against the site `make prodlike` runs (Caddy, gunicorn, PgBouncer,
PostgreSQL, Redis on this machine), with Debian's wrk (installed if missing,
as root) on the same cores: for each request in turn, ``--seconds`` of
``--connections`` connections on 2 threads, and its requests per second and
latency. The requests: ``/healthz`` (no query: what the proxy and gunicorn
cost), ``/readyz`` (one query through PgBouncer: the baseline the others are
divided by), a match page's poll that finds nothing new (204, signed in: what
keeps open pages fresh), a match page (signed in, gzipped), the lobby
(anonymous, gzipped) and a static file (from disk by Caddy). Moves are
measured by ``make load`` (tests/load/move_load.py).
"""

from __future__ import annotations

import argparse
import html
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(BASE_DIR))

from tests.load.page_weight import demo_session_and_matches, site_env  # noqa: E402


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8080")
    parser.add_argument("--prodlike", default=str(BASE_DIR / "var/prodlike"))
    parser.add_argument(
        "--database-url", default="postgres://postgres@127.0.0.1:5432/smoki_prodlike"
    )
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument("--connections", type=int, default=16)
    return parser.parse_args()


def wrk(url: str, seconds: int, connections: int, headers: dict[str, str]) -> tuple[float, str]:
    command = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency"]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    out = subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p50 = re.search(r"50%\s+(\S+)", out).group(1)
    p99 = re.search(r"99%\s+(\S+)", out).group(1)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    note = f"p50 {p50}, p99 {p99}" + (f", {errors.group(1)} non-2xx" if errors else "")
    return rate, note


def main() -> int:
    args = parse_args()
    if not shutil.which("wrk"):
        subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], check=True)
    env = site_env(Path(tempfile.mkdtemp(prefix="smoki-wrk-")))
    env["DATABASE_URL"] = args.database_url
    env["SECRET_KEY"] = (Path(args.prodlike) / "secret_key").read_text().strip()
    subprocess.run([sys.executable, "manage.py", "demo", "-v0"], cwd=BASE_DIR, env=env, check=True)
    session, matches = demo_session_and_matches(env)
    base = args.url.rstrip("/")
    signed_in = {"Cookie": f"sessionid={session}"}
    gzip = {"Accept-Encoding": "gzip"}
    import urllib.request

    pk = dict(matches)["nogi"]
    page = urllib.request.urlopen(
        urllib.request.Request(f"{base}/m/{pk}/", headers=signed_in)
    ).read()
    poll = html.unescape(
        re.search(rb'hx-get="(/m/\d+/panel/\?since=[^"]*)"', page).group(1).decode()
    )
    css = re.search(rb'href="(/static/css/smoki\.[0-9a-f]{12}\.css)"', page).group(1).decode()
    runs = [
        ("/healthz", "/healthz", {}),
        ("/readyz", "/readyz", {}),
        ("poll, nothing new (204)", poll, {**signed_in, "HX-Request": "true"}),
        ("match page, signed in", f"/m/{pk}/", {**signed_in, **gzip}),
        ("lobby, anonymous", "/", gzip),
        ("static CSS (Caddy)", css, gzip),
    ]
    load = Path("/proc/loadavg").read_text().split()[0]
    print(f"through {base}: {args.connections} connections, {args.seconds} s each; load {load}")
    results = [
        (name, *wrk(base + path, args.seconds, args.connections, headers))
        for name, path, headers in runs
    ]
    baseline = results[1][1]
    for name, rate, note in results:
        print(f"{name:26} {rate:9.1f} req/s  x{rate / baseline:5.2f} of /readyz  ({note})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
