"""Emails printed to the console (the embedded default, `make run`) are readable:
links whole on their line, Polish and Czech text as written, not quoted-printable."""

import os
import subprocess
import sys
from pathlib import Path

from django.core.mail import EmailMultiAlternatives

from config.mail import ConsoleEmailBackend

ROOT = Path(__file__).resolve().parents[2]
LINK = "http://127.0.0.1:8000/accounts/confirm-email/MQ:1vOkQx:" + "aBcD3fGh1jKl" * 6 + "/"
BODY = f"Potwierdź swój adres e-mail, otwierając ten link: {LINK}\nDziękujemy, Smoki"


def test_the_configured_console_backend_prints_links_whole():
    """``EMAIL_URL=consolemail://`` (the default) as `make run` uses it, in a fresh process."""
    script = (
        "from django.core.mail import EmailMultiAlternatives\n"
        f"m = EmailMultiAlternatives('[Smoki] Potwierdź adres', {BODY!r}, "
        "'Smoki <noreply@smoki.localhost>', ['bob@example.com'])\n"
        f"m.attach_alternative('<p><a href=\"{LINK}\">link</a></p>', 'text/html')\n"
        "m.send()\n"
    )
    env = {**os.environ, "EMAIL_URL": "consolemail://", "DJANGO_SETTINGS_MODULE": "config.settings"}
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert any(LINK in line for line in lines), done.stdout
    assert "Potwierdź swój adres e-mail" in done.stdout
    assert "Subject: [Smoki] Potwierdź adres" in lines
    assert "=\n" not in done.stdout and "=C5" not in done.stdout


def test_the_backend_prints_headers_body_and_names_the_other_parts():
    from io import StringIO

    stream = StringIO()
    message = EmailMultiAlternatives(
        "Twój ruch",
        BODY,
        "noreply@smoki.localhost",
        ["bob@example.com"],
        headers={"List-Unsubscribe": "<http://127.0.0.1:8000/unsubscribe/x/>", "X-Other": "no"},
    )
    message.attach_alternative("<p>hi</p>", "text/html")
    ConsoleEmailBackend(stream=stream).send_messages([message])
    text = stream.getvalue()
    assert text.startswith(
        "Subject: Twój ruch\nFrom: noreply@smoki.localhost\nTo: bob@example.com\n"
    )
    assert "List-Unsubscribe: <http://127.0.0.1:8000/unsubscribe/x/>" in text
    assert "X-Other" not in text and "<p>hi</p>" not in text
    assert f"{LINK}\n" in text and "[and a text/html part, not shown]" in text
