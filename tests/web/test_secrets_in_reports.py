"""The links that are their own key (a move by email, an invitation, an
unsubscribe, the query's invitation token) never show in what operators
read when a request fails: Django's error report (page, text, the admins'
email) and the log's lines (``core.reporting``)."""

from __future__ import annotations

import logging
import secrets

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.views.debug import get_exception_reporter_class

from core import reporting
from games.correspondence import compose, email_moves
from games.play import access
from games.web import site_views

pytestmark = pytest.mark.django_db

TOKEN = "Tk_" + secrets.token_urlsafe(24)


class Broken(Exception):
    pass


def _raise(*args, **kwargs):
    raise Broken(f"nothing found for {TOKEN} (arguments {args!r})")


class _Refusing:
    def fullmatch(self, token):
        _raise(token)


@pytest.fixture
def admins(settings):
    """The admins' email on, as in production with ADMINS set."""
    settings.ADMINS = ["ops@example.com"]
    settings.DEBUG = False


def _failing(monkeypatch, case: str):
    """The address of ``case`` with its view made to fail deep inside, the
    token in the exception's message and in the frames' variables."""
    if case == "email_move":
        monkeypatch.setattr(email_moves, "look", _raise)
        return reverse("email_move", args=[7, TOKEN]), {}
    if case == "invitation_link":
        monkeypatch.setattr(site_views, "INVITE_TOKEN", _Refusing())
        return reverse("invitation_link", args=[TOKEN]), {}
    if case == "unsubscribe":
        monkeypatch.setattr(compose, "read_unsubscribe_token", _raise)
        return reverse("unsubscribe", args=[TOKEN]), {}
    if case == "match_query":
        monkeypatch.setattr(access, "get_match_for", _raise)
        return reverse("match_detail", args=[7]) + f"?token={TOKEN}&v=2", {}
    # A page reached from an invitation link: the secret is in the Referer.
    monkeypatch.setattr(access, "get_match_for", _raise)
    referer = f"http://testserver/m/7/?token={TOKEN}"
    return reverse("match_log_json", args=[7]), {"HTTP_REFERER": referer}


CASES = ["email_move", "invitation_link", "unsubscribe", "match_query", "referer"]


@pytest.mark.parametrize("case", CASES)
def test_a_failing_request_reports_and_logs_no_token(admins, monkeypatch, caplog, case):
    path, headers = _failing(monkeypatch, case)
    client = Client(raise_request_exception=False)
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = client.get(path, **headers)
    assert response.status_code == 500
    [record] = [r for r in caplog.records if r.name == "django.request"]
    assert TOKEN not in record.getMessage()
    assert "Internal Server Error" in record.getMessage()
    # The report Django builds of it (the 500 email's, or a page with DEBUG).
    reporter = get_exception_reporter_class(record.request)(record.request, *record.exc_info)
    html, text = reporter.get_traceback_html(), reporter.get_traceback_text()
    assert "Broken" in text and reporting.HIDDEN in text
    for report in (html, text, caplog.text):
        assert TOKEN not in report
        assert TOKEN[:12] not in report
    # The email the admins get.
    [email] = mail.outbox
    assert TOKEN not in email.subject and TOKEN not in email.body
    assert all(TOKEN not in str(content) for content, _type in email.alternatives)


def test_a_frame_holding_the_request_shows_its_path_hidden(admins, monkeypatch):
    """Every frame's variables: the token itself, the request, the
    arguments Django's handler passes to the view."""
    import sys

    from django.test import RequestFactory

    request = RequestFactory().get(reverse("email_move", args=[7, TOKEN]))
    callback_kwargs = {"pk": 7, "token": TOKEN}
    try:
        _raise(request, callback_kwargs)
    except Broken:
        info = sys.exc_info()
    reporter = get_exception_reporter_class(request)(request, *info)
    frames = reporter.get_traceback_data()["frames"]
    shown = " ".join(value for frame in frames for _name, value in frame["vars"])
    assert TOKEN not in shown and "by-email/********************/" in shown
    assert TOKEN not in reporter.get_traceback_html()


def test_a_link_not_found_is_logged_without_its_token(caplog):
    """An expired or mistyped link answers 404, logged as "Not Found: <path>"."""
    with caplog.at_level(logging.WARNING, logger="django.request"):
        assert Client().get(reverse("invitation_link", args=[TOKEN])).status_code == 404
        assert Client().get(reverse("email_move", args=[7, TOKEN])).status_code == 404
    lines = [r.getMessage() for r in caplog.records if r.name == "django.request"]
    assert len(lines) == 2 and all(line.startswith("Not Found: /") for line in lines)
    assert TOKEN not in caplog.text
    assert "/invite/********************/" in lines[0]


def test_addresses_without_a_secret_are_reported_as_they_are():
    assert reporting.hide_in_url("/m/7/?v=2") == "/m/7/?v=2"
    assert reporting.hide_in_url("/games/nogi/how-to-play/") == "/games/nogi/how-to-play/"
    text = 'File "/work/games/web/site_views.py", line 3, in lobby'
    assert reporting.hide_in_text(text, ["a"]) == text


def test_the_account_emails_keys_are_hidden_too():
    reset = reverse(
        "account_reset_password_from_key", kwargs={"uidb36": "4", "key": "cjz9gh-0a1b2c3d4e5f6071"}
    )
    confirm = reverse("account_confirm_email", kwargs={"key": "MQ:1tyx:a1b2c3d4e5f6g7"})
    assert reporting.hide_in_url(reset) == f"/accounts/password/reset/key/4-{reporting.HIDDEN}/"
    assert reporting.hide_in_url(confirm) == f"/accounts/confirm-email/{reporting.HIDDEN}/"
