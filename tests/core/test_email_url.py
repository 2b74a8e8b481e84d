"""EMAIL_URL: every way django-environ names works at start. ``filemail://``
writes each email to a file under var/mail/ (or the folder it names) instead
of failing at the first email with InvalidMailer; a scheme that is no way
to send email is refused at start with a message naming the ones that are."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SEND = (
    "from django.core import mail; "
    "print(mail.EmailMessage('Hello', 'Body', 'a@example.com', ['b@example.com']).send())"
)


def _run(email_url: str, code: str = SEND) -> subprocess.CompletedProcess:
    env = {**os.environ, "EMAIL_URL": email_url, "DJANGO_SETTINGS_MODULE": "config.settings"}
    env.pop("PYTEST_XDIST_WORKER", None)
    return subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_filemail_writes_each_email_to_a_file_in_the_folder_named(tmp_path):
    folder = tmp_path / "mails"
    done = _run(f"filemail://{folder}")
    assert done.returncode == 0, done.stderr
    (written,) = folder.iterdir()
    assert "Subject: Hello" in written.read_text()


def test_filemail_without_a_folder_writes_under_var_mail():
    done = _run(
        "filemail://",
        "from django.conf import settings; "
        "print(settings.MAILERS['default']['OPTIONS']['file_path'])",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == str(ROOT / "var" / "mail")


def test_a_scheme_that_sends_nothing_is_refused_at_start_with_the_ones_that_do():
    done = _run("fax://example.com")
    assert done.returncode != 0
    assert "EMAIL_URL 'fax' is not a way to send email; use smtp://" in done.stderr
    assert "filemail://" in done.stderr
