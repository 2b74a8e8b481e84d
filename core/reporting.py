"""Error reports and logs never show the secrets some addresses carry.

A few links are their own key: the move a "your turn" email offers
(``/m/<id>/by-email/<token>/``), a match's invitation link
(``/invite/<token>/``, which leads on to ``/m/<id>/?token=<token>``), an
email's one-click unsubscribe (``/unsubscribe/<token>/``) and the account
emails' keys (a password reset, an address confirmed). Whoever reads the
token may use it, so it must not reach what operators read when a request
fails: Django's error report (the 500 email and page,
``DEFAULT_EXCEPTION_REPORTER`` and ``DEFAULT_EXCEPTION_REPORTER_FILTER``)
and the log's lines (``django.request``'s "Internal Server Error: <path>"
and "Not Found: <path>", the development server's request lines), which
``HideSecretsInLogs`` rewrites on every handler.

The secrets are named by the address, not guessed from their shape: the
path's argument of the views listed in ``SECRET_PATH_ARGUMENTS`` (found by
resolving the path) and the query's ``token``. In a report each is shown
as stars wherever it appears (the request's address, its headers, the
Referer, the frames' variables, the exception's message); the views
themselves hide their ``token`` argument with ``sensitive_variables``, as
the API hides its bearer tokens.
"""

from __future__ import annotations

import logging
import re
from urllib.parse import quote, unquote, urlsplit, urlunsplit

from django.http import HttpRequest
from django.urls import resolve
from django.views.debug import ExceptionReporter, SafeExceptionReporterFilter

HIDDEN = SafeExceptionReporterFilter.cleansed_substitute

#: The views whose address holds a secret, by URL name, and the name of the
#: path's argument that is it.
SECRET_PATH_ARGUMENTS = {
    "email_move": "token",
    "invitation_link": "token",
    "unsubscribe": "token",
    "account_reset_password_from_key": "key",
    "account_confirm_email": "key",
}
#: Query parameters that carry a secret (a private match's invitation token).
SECRET_QUERY_PARAMETERS = ("token",)

#: A secret shorter than this is hidden where it stands in an address, but
#: not looked for elsewhere in a report: a real token is far longer, and a
#: stray "/invite/a/" must not turn every "a" of the report into stars.
MIN_SEARCHED = 8

# The request's parts of META that hold its address or another page's.
ADDRESS_META = ("PATH_INFO", "REQUEST_URI", "RAW_URI", "HTTP_REFERER", "SCRIPT_URL")
_SECRET_NAMES = "|".join(re.escape(name) for name in SECRET_QUERY_PARAMETERS)
_QUERY_SECRET = re.compile(
    rf"(?P<name>(?:^|(?<=[?&;]))(?:{_SECRET_NAMES})=)(?P<value>[^&;#\s'\"]*)"
)
# What looks like an address in a log line: an absolute URL or a path.
_ADDRESS = re.compile(r"(?:https?://[^\s'\"<>]+|(?<![\w/])/[^\s'\"<>]*)")


def _path_secret(path: str) -> str:
    """The secret argument of the view ``path`` names, or ""."""
    try:
        match = resolve(unquote(path) or "/")
    except Exception:  # a 404, a path a converter refuses: no view, no secret
        return ""
    name = SECRET_PATH_ARGUMENTS.get(match.url_name or "")
    return str(match.kwargs.get(name, "")) if name else ""


def _query_secrets(query: str) -> list[str]:
    return [unquote(m.group("value")) for m in _QUERY_SECRET.finditer(query) if m.group("value")]


def secrets_of_url(url: str) -> list[str]:
    """The secrets an address (a path, with or without its query, or an
    absolute URL) carries."""
    if not url:
        return []
    try:
        parts = urlsplit(url)
    except ValueError:
        return []
    found = [_path_secret(parts.path), *_query_secrets(parts.query)]
    return [secret for secret in found if secret]


def hide_in_url(url: str) -> str:
    """``url`` with the secrets of its path and query as stars."""
    if not url:
        return url
    try:
        parts = urlsplit(url)
    except ValueError:  # not an address after all (an unbalanced "[")
        return url
    path = parts.path
    secret = _path_secret(path)
    if secret:
        for form in {secret, quote(secret, safe=""), quote(secret)}:
            path = path.replace(form, HIDDEN)
    query = _QUERY_SECRET.sub(lambda m: m.group("name") + HIDDEN, parts.query)
    if (path, query) == (parts.path, parts.query):
        return url  # nothing hidden: the text exactly as it was
    return urlunsplit((parts.scheme, parts.netloc, path, query, parts.fragment))


def secrets_of_request(request) -> list[str]:
    """Every secret a request's address, query and Referer carry (kept on
    the request once worked out)."""
    if not isinstance(request, HttpRequest):
        return []
    known = getattr(request, "_secrets_hidden_in_reports", None)
    if known is not None:
        return known
    meta = getattr(request, "META", {}) or {}
    found = set(secrets_of_url(getattr(request, "path_info", "") or ""))
    found.update(_query_secrets(str(meta.get("QUERY_STRING", ""))))
    found.update(secrets_of_url(str(meta.get("HTTP_REFERER", ""))))
    resolver_match = getattr(request, "resolver_match", None)
    if resolver_match is not None:
        name = SECRET_PATH_ARGUMENTS.get(resolver_match.url_name or "")
        if name and resolver_match.kwargs.get(name):
            found.add(str(resolver_match.kwargs[name]))
    known = sorted(found, key=len, reverse=True)
    request._secrets_hidden_in_reports = known
    return known


def hide_in_text(text: str, secrets: list[str]) -> str:
    """``text`` with each secret (as written, and %-encoded) as stars, and
    every address in it hidden as ``hide_in_url`` does."""
    text = _ADDRESS.sub(lambda m: hide_in_url(m.group(0)), text)
    for secret in secrets:
        if len(secret) >= MIN_SEARCHED:
            for form in {secret, quote(secret, safe=""), quote(secret)}:
                text = text.replace(form, HIDDEN)
    return text


def _hide_in_value(value, secrets: list[str]):
    """A frame's variable as the report shows it: unchanged unless it holds
    a secret (or is a request), else its text with the secret as stars."""
    if isinstance(value, HttpRequest):
        path = hide_in_url(getattr(value, "path", ""))
        return f"<{type(value).__name__}: {value.method} {path!r}>"
    if isinstance(value, str):
        return hide_in_text(value, secrets)
    try:
        shown = repr(value)
    except Exception:
        return value
    hidden = hide_in_text(shown, secrets)
    return value if hidden == shown else hidden


class SecretsHiddenFilter(SafeExceptionReporterFilter):
    """Django's filter (settings, the Authorization header, ``sensitive_*``
    variables and POST parameters) and the secrets of the addresses above.
    These are hidden whether or not ``DEBUG`` is on."""

    def get_safe_request_meta(self, request):
        meta = super().get_safe_request_meta(request)
        secrets = secrets_of_request(request)
        for key, value in meta.items():
            if not isinstance(value, str):
                continue
            if key in ADDRESS_META:
                value = hide_in_url(value)
            elif key == "QUERY_STRING":
                value = _QUERY_SECRET.sub(lambda m: m.group("name") + HIDDEN, value)
            meta[key] = hide_in_text(value, secrets) if secrets else value
        return meta

    def get_post_parameters(self, request):
        parameters = super().get_post_parameters(request)
        secrets = secrets_of_request(request)
        if not secrets or not hasattr(parameters, "lists"):
            return parameters
        hidden = parameters.copy()
        for key, values in parameters.lists():
            hidden.setlist(key, [_hide_in_value(v, secrets) for v in values])
        return hidden

    def get_traceback_frame_variables(self, request, tb_frame):
        secrets = secrets_of_request(request)
        return [
            (name, _hide_in_value(value, secrets))
            for name, value in super().get_traceback_frame_variables(request, tb_frame)
        ]


class _ShownRequest:
    """The request as the report's templates read it: its path hidden."""

    def __init__(self, request: HttpRequest, meta: dict):
        self._request = request
        self.path_info = hide_in_url(request.path_info)
        self.path = hide_in_url(request.path)
        self.META = meta

    def __getattr__(self, name):
        return getattr(self._request, name)

    def __bool__(self):
        return True


class SecretsHiddenReporter(ExceptionReporter):
    """Django's report, with the request's address, its query, the
    exception's message and, last, the whole text passed through
    ``hide_in_text``, so no secret of the request shows anywhere in it."""

    def get_traceback_data(self):
        data = super().get_traceback_data()
        if self.request is None:
            return data
        secrets = secrets_of_request(self.request)
        data["request"] = _ShownRequest(self.request, data["request_meta"])
        data["request_insecure_uri"] = hide_in_url(data.get("request_insecure_uri", ""))
        data["request_GET_items"] = [
            (key, HIDDEN if key in SECRET_QUERY_PARAMETERS else _hide_in_value(value, secrets))
            for key, value in self.request.GET.items()
        ]
        if "exception_value" in data:
            data["exception_value"] = hide_in_text(str(data["exception_value"]), secrets)
        return data

    def get_traceback_html(self):
        return hide_in_text(super().get_traceback_html(), secrets_of_request(self.request))

    def get_traceback_text(self):
        return hide_in_text(super().get_traceback_text(), secrets_of_request(self.request))


class HideSecretsInLogs(logging.Filter):
    """On every handler (``LOGGING``): a record's message, its arguments and
    its traceback's text with the secrets of the addresses in them (and of
    the record's request) as stars. ``django.request`` logs each failed
    request's path; the development server its request line."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        secrets = secrets_of_request(request)
        try:
            message = record.getMessage()
        except Exception:  # a bad format: leave it to the handler to report
            return True
        hidden = hide_in_text(message, secrets)
        if hidden != message:
            record.msg, record.args = hidden, ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = hide_in_text(record.exc_text, secrets)
        return True
