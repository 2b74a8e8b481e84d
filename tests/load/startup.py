"""The start every benchmark and load script shares: the project on the
import path, the database chosen and its schema up to date, Django set up.

A script calls ``start`` once, before importing anything of Django's or the
site's, then imports what it measures inside its functions:

    import startup

    startup.start("scratch", migrate=True, no_tasks=True)
    from games.engine import registry
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import urllib.parse
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]


def ensure_database(url: str) -> None:
    """Create the PostgreSQL database named in ``url`` if it does not exist yet."""
    import psycopg
    from psycopg import sql

    parts = urllib.parse.urlsplit(url)
    name = parts.path.lstrip("/")
    admin = urllib.parse.urlunsplit(parts._replace(path="/postgres", query=""))
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            print(f"created database {name}")


def start(
    database_url: str | None = None,
    *,
    env: dict[str, str] | None = None,
    migrate: bool = False,
    test_environment: bool = False,
    no_tasks: bool = False,
) -> str:
    """Set Django up for a script and return the database URL it uses.

    ``database_url``: ``"scratch"`` for a fresh SQLite file in a folder of its
    own; a ``postgres://`` URL, created if it does not exist; None for the
    environment's ``DATABASE_URL`` (or the site's default). ``env`` is put in
    the environment first (the script's server settings). ``migrate`` brings
    the schema up to date: a PostgreSQL database in a subprocess before
    Django starts here (as the servers the script starts would find it), a
    scratch file in this process. ``test_environment``: the test client's
    host allowed and email kept in memory. ``no_tasks``: work queued after a
    commit (bots, emails) is dropped, so only what the script times runs.
    """
    sys.path.insert(0, str(BASE_DIR))
    os.environ.update(env or {})
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if database_url == "scratch":
        folder = tempfile.mkdtemp(prefix="smoki-bench-")
        database_url = f"sqlite:///{folder}/bench.sqlite3"
    if database_url is not None:
        os.environ["DATABASE_URL"] = database_url
    database_url = os.environ.get("DATABASE_URL", "")
    postgres = database_url.startswith(("postgres://", "postgresql://"))
    if postgres:
        ensure_database(database_url)
        if migrate:
            subprocess.run(
                [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
                cwd=BASE_DIR,
                env=dict(os.environ),
                check=True,
            )
    import django

    django.setup()
    if migrate and not postgres:
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
    if test_environment:
        from django.test.utils import setup_test_environment

        setup_test_environment()
    if no_tasks:
        from django.db import transaction

        transaction.on_commit = lambda func, using=None, robust=False: None
    return database_url
