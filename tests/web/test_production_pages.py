"""The site under production settings: the hashed static files' manifest,
and every page a player and a visitor reach answering without a 500.

The rest of the suite runs with DEBUG on and the plain static storage, where
``static()`` of any name answers; in production the manifest storage raises
for a name it did not collect (``/sw.js`` answered 500 that way)."""

import json
import subprocess
import sys

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

from tests.web.test_production import BASE_DIR, clean_env, manage, readme_production_env

MANIFEST_STORAGE = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
}


@pytest.fixture(scope="module")
def manifest_static(tmp_path_factory):
    """The static files collected as production collects them (hashed names
    and a manifest), and the settings that read them, DEBUG off."""
    root = tmp_path_factory.mktemp("static")
    with override_settings(STORAGES=MANIFEST_STORAGE, STATIC_ROOT=str(root)):
        call_command("collectstatic", interactive=False, verbosity=0)
    with override_settings(STORAGES=MANIFEST_STORAGE, STATIC_ROOT=str(root), DEBUG=False):
        yield root


@pytest.mark.django_db
def test_the_service_worker_answers_under_the_manifest_storage(manifest_static):
    response = Client().get("/sw.js")
    assert response.status_code == 200
    body = response.content.decode()
    # It caches what is under the static prefix: the prefix itself, not a file.
    assert 'url.pathname.indexOf("/static/") !== 0' in body


@pytest.mark.django_db
def test_the_manifest_and_a_page_name_hashed_files_under_the_manifest_storage(manifest_static):
    manifest = json.loads(Client().get("/manifest.webmanifest").content)
    for icon in manifest["icons"]:
        path = icon["src"].removeprefix("/static/")
        assert (manifest_static / path).exists(), icon["src"]
        assert path != f"icons/icon-{icon['sizes'].split('x')[0]}.png"  # the hashed name
    assert Client().get("/about/").status_code == 200


def test_every_page_answers_under_production_settings(tmp_path):
    """DEBUG=false with the README's settings (SQLite and local memory for
    PostgreSQL and Redis), static files collected by ``collectstatic``: every
    page of tests/web/production_pages.py, and every page and static file
    they link to, answers without a server error."""
    env = readme_production_env()
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        STATIC_ROOT=str(tmp_path / "static"),
        CELERY_BROKER_URL="memory://localhost/",
    )
    del env["CACHE_URL"]
    collected = manage("collectstatic", "--noinput", **env)
    assert collected.returncode == 0, collected.stderr
    run = subprocess.run(
        [sys.executable, "tests/web/production_pages.py"],
        cwd=BASE_DIR,
        env=clean_env(DJANGO_SETTINGS_MODULE="config.settings", **env),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stderr[-4000:]
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["fetched"] > 150, report
    assert report["problems"] == [], json.dumps(report["problems"], indent=1)[:8000]
