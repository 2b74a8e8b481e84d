"""Production settings: a refused start without a real key, a clean
`check --deploy` with the README's settings, and static files served by the
web process itself under gunicorn with DEBUG=false."""

import gzip
import http.client
import os
import random
import re
import secrets
import signal
import socket
import string
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.management.utils import get_random_secret_key

from games.correspondence.push import new_vapid_keys
from games.templatetags.critical import without_comments

BASE_DIR = Path(__file__).resolve().parents[2]
GOOD_KEY = secrets.token_urlsafe(50)
VAPID = new_vapid_keys()


def readme_production_env() -> dict[str, str]:
    """The variables of the README's production block, with a real key."""
    readme = (BASE_DIR / "README.md").read_text()
    block = re.search(r"<!-- production-env -->\n```sh\n(.*?)```", readme, re.S).group(1)
    values = dict(line.split("=", 1) for line in block.splitlines() if line.strip())
    assert values["SECRET_KEY"].startswith("<")  # a placeholder: each deployment has its own
    values["SECRET_KEY"] = GOOD_KEY
    assert values["SMOKI_VAPID_PRIVATE_KEY"].startswith("<")  # the same: its own pair
    values["SMOKI_VAPID_PRIVATE_KEY"] = VAPID["private"]
    values["SMOKI_VAPID_PUBLIC_KEY"] = VAPID["public"]
    return values


def clean_env(**overrides) -> dict[str, str]:
    """This process's environment without any Smoki setting, plus ``overrides``."""
    names = set(readme_production_env()) | {"STATIC_ROOT", "SECURE_SSL_REDIRECT"}
    env = {k: v for k, v in os.environ.items() if k not in names}
    env.update(overrides)
    return env


def manage(*args, **env):
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env=clean_env(**env),
        capture_output=True,
        text=True,
        timeout=120,
    )


DEVELOPMENT_KEY = "smoki-development-key-not-for-production"


@pytest.mark.parametrize(
    "key",
    [
        None,
        DEVELOPMENT_KEY,
        "short-key",
        "a" * 60,
        DEVELOPMENT_KEY.ljust(50),
        f"  {DEVELOPMENT_KEY}\t\t\t\t\t\t\t\t\n",
        DEVELOPMENT_KEY.upper() + "-" + secrets.token_hex(8),
        "abcde" * 10,
        "abcde" * 10 + "ab",
        "a" * 46 + "bcde",
        "abcdefghijklmnop" * 4 + "x",
        "0123456789" * 5 + "ab",
        "Dragon-2026!" * 5,
        "django-insecure-" + secrets.token_urlsafe(50),
        secrets.token_urlsafe(30).center(60),
    ],
    ids=[
        "missing",
        "development",
        "short",
        "one-character",
        "development-padded-with-spaces",
        "development-padded-with-whitespace",
        "development-inside-a-longer-key",
        "five-characters-repeated",
        "five-characters-repeated-and-a-bit",
        "one-character-then-four",
        "sixteen-characters-repeated-and-one",
        "ten-digits-repeated-and-two",
        "a-word-repeated",
        "django-insecure-prefix",
        "short-key-padded-with-spaces",
    ],
)
def test_without_debug_a_weak_or_missing_key_refuses_to_start(key):
    env = {"DEBUG": "false"} | ({"SECRET_KEY": key} if key is not None else {})
    result = manage("check", **env)
    assert result.returncode != 0
    assert "set SECRET_KEY to a long random string" in result.stderr


#: 50 random digits leave three of the ten digits out about once in 450,000
#: keys (120 x 0.7**50), which the rule refuses as too few different
#: characters: that kind is drawn from a seeded generator, the same 2,000 keys
#: every run, so that the test cannot fail by chance.
_DIGITS = random.Random("smoki-digit-keys")


@pytest.mark.parametrize(
    "make",
    [
        lambda: secrets.token_urlsafe(50),
        lambda: secrets.token_hex(25),
        lambda: secrets.token_hex(32),
        lambda: "".join(_DIGITS.choice(string.digits) for _ in range(50)),
        get_random_secret_key,
    ],
    ids=["token_urlsafe-50", "hex-50", "hex-64", "digits-50", "django-random-key"],
)
def test_random_keys_of_the_usual_kinds_are_strong(make):
    """The rule (README) refuses no key a random generator makes: 2,000 of
    each kind, from the hex of 50 characters to 50 random digits (those from
    a seeded generator: ``_DIGITS``)."""
    from config.settings import _weak_secret_key

    assert [key for key in (make() for _ in range(2000)) if _weak_secret_key(key)] == []


def test_a_good_key_with_stray_whitespace_starts_and_is_stripped():
    code = "import django; django.setup(); from django.conf import settings; print(repr(settings.SECRET_KEY))"
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=BASE_DIR,
        env=clean_env(
            DEBUG="false", SECRET_KEY=f" {GOOD_KEY}\n", DJANGO_SETTINGS_MODULE="config.settings"
        ),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == repr(GOOD_KEY)


def test_with_debug_the_development_key_still_starts():
    result = manage("check", DEBUG="true")
    assert result.returncode == 0, result.stderr


def test_the_readme_production_settings_pass_check_deploy():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **readme_production_env())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_refuses_console_email_and_warns_about_a_local_cache():
    env = readme_production_env()
    env["EMAIL_URL"] = "consolemail://"
    del env["CACHE_URL"]
    result = manage("check", "--deploy", **env)
    assert result.returncode != 0
    assert "smoki.E001" in result.stderr and "smoki.W001" in result.stderr


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(port, path, **headers):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", path, headers={"Host": "smoki.example.com", **headers})
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response, body


@pytest.fixture
def gunicorn_production(tmp_path):
    """gunicorn with the README's production settings (SQLite instead of
    PostgreSQL: the static files and headers do not touch the database)."""
    env = readme_production_env()
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        STATIC_ROOT=str(tmp_path / "static"),
        CELERY_BROKER_URL="memory://localhost/",
    )
    del env["CACHE_URL"]
    for command in (["collectstatic", "--noinput"], ["migrate", "--noinput"]):
        done = manage(*command, **env)
        assert done.returncode == 0, done.stderr
    port = _free_port()
    log = (tmp_path / "gunicorn.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application", f"--bind=127.0.0.1:{port}"],
        cwd=BASE_DIR,
        env=clean_env(**env),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        for _ in range(150):
            try:
                _get(port, "/healthz", **{"X-Forwarded-Proto": "https"})
                break
            except OSError:
                assert server.poll() is None, (tmp_path / "gunicorn.log").read_text()
                time.sleep(0.2)
        yield port, tmp_path / "static"
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=20)
        log.close()


def test_static_files_are_served_hashed_and_compressed_with_debug_off(gunicorn_production):
    port, static_root = gunicorn_production
    https = {"X-Forwarded-Proto": "https"}
    # Pages name the hashed files; the files answer, compressed, cached for good.
    response, body = _get(port, "/accounts/login/", **https)
    assert response.status == 200
    page = body.decode()
    script = re.search(r'src="(/static/js/smoki\.[0-9a-f]{12}\.js)"', page).group(1)
    htmx = re.search(r'src="(/static/django_htmx/htmx[^"]*\.[0-9a-f]{12}\.js)"', page).group(1)
    # The style sheet travels inside the page, under the CSP nonce of the answer.
    nonce = re.search(
        r"style-src 'self' 'nonce-([^']+)'", response.getheader("Content-Security-Policy")
    )
    css = without_comments(next((static_root / "css").glob("smoki.*.css")).read_text())
    assert f'<style nonce="{nonce.group(1)}">{css}</style>' in page
    for path in (script, htmx):
        response, body = _get(port, path, **https, **{"Accept-Encoding": "gzip"})
        assert response.status == 200, path
        assert response.getheader("Content-Encoding") == "gzip"
        assert "immutable" in response.getheader("Cache-Control")
        original = (static_root / path.removeprefix("/static/")).read_bytes()
        assert gzip.decompress(body) == original
    # HTTPS as the proxy reports it: plain HTTP is redirected, HTTPS gets HSTS.
    plain, _body = _get(port, "/healthz")
    assert plain.status == 301
    assert plain.getheader("Location") == "https://smoki.example.com/healthz"
    secure, _body = _get(port, "/healthz", **https)
    assert secure.status == 200
    assert secure.getheader("Strict-Transport-Security").startswith("max-age=31536000")


def test_the_sites_scripts_are_collected_minified_and_still_valid(gunicorn_production):
    """``collectstatic`` minifies the site's own scripts (config/storage.py)
    before hashing and compressing them: the page names the minified file,
    it is smaller than the source, holds none of its comments, and Node.js
    still parses it. htmx is collected as it came."""
    import shutil

    port, static_root = gunicorn_production
    response, body = _get(port, "/accounts/login/", **{"X-Forwarded-Proto": "https"})
    script = re.search(r'src="/static/(js/smoki\.[0-9a-f]{12}\.js)"', body.decode()).group(1)
    collected = (static_root / script).read_text()
    source = (BASE_DIR / "static/js/smoki.js").read_text()
    assert len(collected) < 0.7 * len(source)
    assert "Smoki's small script" in source and "Smoki's small script" not in collected
    assert "//" not in collected.replace("://", "")
    for written in (BASE_DIR / "static/js").glob("*.js"):
        copies = list((static_root / "js").glob(f"{written.stem}.*{written.suffix}"))
        assert copies and all(len(c.read_text()) < len(written.read_text()) for c in copies)
    import django_htmx

    package = Path(django_htmx.__file__).parent / "static/django_htmx/htmx-2.min.js"
    assert (static_root / "django_htmx/htmx-2.min.js").read_bytes() == package.read_bytes()
    node = shutil.which("node")
    if node is None:
        pytest.skip("needs Node.js to parse the minified scripts")
    for copy in (static_root / "js").glob("*.js"):
        checked = subprocess.run([node, "--check", str(copy)], capture_output=True, text=True)
        assert checked.returncode == 0, (copy.name, checked.stderr)


def test_brotli_copies_written_and_served_and_pages_gzipped(gunicorn_production):
    """The production storage writes a Brotli copy beside each compressible
    file (the `brotli` package), and a browser accepting Brotli gets it.
    Pages (29-51 KB, 7-8 KB gzipped) and the icon sprite served by a view
    are gzipped for a browser that accepts gzip, and stay whole for one that
    does not."""
    import brotli

    port, static_root = gunicorn_production
    https = {"X-Forwarded-Proto": "https"}
    css = next((static_root / "css").glob("smoki.*.css"))
    copy = css.with_name(css.name + ".br")
    assert copy.exists()
    assert brotli.decompress(copy.read_bytes()) == css.read_bytes()
    response, body = _get(port, f"/static/css/{css.name}", **https, **{"Accept-Encoding": "br"})
    assert response.status == 200
    assert response.getheader("Content-Encoding") == "br"
    assert brotli.decompress(body) == css.read_bytes()

    for path in ("/accounts/login/", "/icons.svg"):
        plain, original = _get(port, path, **https)
        assert plain.status == 200
        assert plain.getheader("Content-Encoding") is None
        packed, body = _get(port, path, **https, **{"Accept-Encoding": "gzip"})
        assert packed.status == 200
        assert packed.getheader("Content-Encoding") == "gzip", path
        assert "Accept-Encoding" in packed.getheader("Vary")
        assert len(body) < len(original) / 2
        unpacked = gzip.decompress(body)
        if path == "/icons.svg":
            assert unpacked == original
        else:  # the same page but for the CSRF token, masked anew in every answer
            assert unpacked.startswith(b"<!DOCTYPE html>") and b"</html>" in unpacked
