"""Requests Smoki never serves are refused before any view runs.

- Only GET, HEAD, OPTIONS and POST exist on the site; PUT, PATCH, DELETE and
  the rest answer 405 everywhere (the admin's and the account pages' form
  views would otherwise treat them as GET or as POST), under ``/api/`` with
  the API's JSON error.
- A NUL character is never valid in a form field or a query parameter;
  PostgreSQL cannot even store one. Such a request answers 400 with a
  clear message and changes nothing. Nothing the API serves has a NUL in
  its name either (a ladder's game, a player): an ``/api/`` address with
  one answers the API's JSON 404 before any query is made of it.
- Every form and query is UTF-8. Django reads bytes that are not as U+FFFD
  (the replacement character) and goes on, so a chat post of ``\xff\xfe``
  would be stored as two question marks; and it reads a form whose request
  declares another charset ("multipart/form-data; charset=latin-1") in
  that charset. Such a request answers 400 and changes nothing instead.
"""

import base64
import binascii
import codecs
import contextlib
import io
from urllib.parse import unquote_to_bytes

from django.core.exceptions import RequestDataTooBig
from django.core.handlers.wsgi import get_bytes_from_wsgi
from django.http import HttpResponseNotAllowed, JsonResponse
from django.http.multipartparser import (
    FIELD,
    ChunkIter,
    LazyStream,
    MultiPartParserError,
    Parser,
    exhaust,
)
from django.shortcuts import render
from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext as _

ALLOWED_METHODS = ("GET", "HEAD", "OPTIONS", "POST")


def has_nul(values: MultiValueDict) -> bool:
    return any("\x00" in key or any("\x00" in v for v in values.getlist(key)) for key in values)


REPLACEMENT = "\ufffd"


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _utf8_charset(request) -> bool:
    """Whether the request declares no charset for its form, or UTF-8."""
    charset = request.content_params.get("charset")
    if charset is None:
        return True
    try:
        return codecs.lookup(charset).name == "utf-8"
    except LookupError:
        return False


def _multipart_not_utf8(request) -> bool:
    """Whether a multipart form holds a field whose bytes are not UTF-8.

    Each field's own bytes are read from the body (after its base64 transfer
    encoding, as Django undoes it), so a real U+FFFD elsewhere in the body
    hides nothing. Files are not text and are not read. A field name Django
    made a U+FFFD of (an RFC 2231 ``name*=`` with a byte that is not UTF-8)
    counts too: no field of the site has one. A body Django cannot parse is
    left to Django, which refuses it."""
    body = request.body  # read before request.POST, which would consume the stream
    if any(REPLACEMENT in key for key in request.POST):
        return True
    boundary = request.content_params.get("boundary", "")
    try:
        stream = LazyStream(ChunkIter(io.BytesIO(body), 64 * 1024))
        for item_type, meta, field_stream in Parser(stream, boundary.encode("ascii")):
            if item_type != FIELD:
                exhaust(field_stream)
                continue
            data = field_stream.read()
            encoding = meta.get("content-transfer-encoding")
            if encoding and encoding[0].strip() == "base64":
                # Django keeps the bytes as sent when they are not base64.
                with contextlib.suppress(binascii.Error):
                    data = base64.b64decode(data, validate=True)
            if not _utf8(data):
                return True
    except (MultiPartParserError, UnicodeError, ValueError):
        return False
    return False


def not_utf8(request) -> bool:
    """Whether the query or the posted form holds bytes that are not UTF-8,
    or the request declares that its form is in another charset.

    A URL-encoded body and the query are checked byte for byte once their
    %-escapes are undone; a multipart body field by field
    (``_multipart_not_utf8``).
    """
    if not _utf8(unquote_to_bytes(get_bytes_from_wsgi(request.META, "QUERY_STRING", ""))):
        return True
    if request.method != "POST":
        return False
    if request.content_type == "application/x-www-form-urlencoded":
        return not (_utf8_charset(request) and _utf8(unquote_to_bytes(request.body)))
    if request.content_type == "multipart/form-data":
        return not _utf8_charset(request) or _multipart_not_utf8(request)
    return False


def bad_request(request, message: str):
    """A 400 page that says what was wrong; for the API (``/api/``) the API's
    JSON error (``docs/api.md``), so a program is never answered in HTML."""
    if request.path_info.startswith("/api/"):
        return JsonResponse({"error": {"code": "bad_input", "message": str(message)}}, status=400)
    return render(request, "400.html", {"message": message}, status=400)


class RequestGuardMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method not in ALLOWED_METHODS:
            if request.path_info.startswith("/api/"):  # the API's JSON error, not a page
                refused = JsonResponse(
                    {
                        "error": {
                            "code": "method_not_allowed",
                            "message": _("This address does not take that method."),
                        }
                    },
                    status=405,
                )
                refused["Allow"] = ", ".join(ALLOWED_METHODS)
                return refused
            return HttpResponseNotAllowed(ALLOWED_METHODS)
        try:
            refused = not_utf8(request)
        except RequestDataTooBig:  # past DATA_UPLOAD_MAX_MEMORY_SIZE (a picture too large)
            return bad_request(request, _("The request is too large."))
        if refused:
            return bad_request(request, _("The request contains text that is not valid UTF-8."))
        if request.path_info.startswith("/api/") and "\x00" in request.path_info:
            return JsonResponse(
                {
                    "error": {
                        "code": "not_found",
                        "message": _("There is no such address in the API."),
                    }
                },
                status=404,
            )
        if has_nul(request.GET) or (request.method == "POST" and has_nul(request.POST)):
            return bad_request(request, _("The request contains a character that is not allowed."))
        return self.get_response(request)
